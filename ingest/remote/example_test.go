package remote_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"time"

	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/ingest/remote"
)

// A robotstxt WARC read over HTTP from a server that drops the connection
// after 300 bytes of every response: the transfer resumes with Range
// requests, and the captures and offsets are those of the file.
func ExampleOpen() {
	var warc bytes.Buffer
	w, _ := archive.NewWARCWriter(&warc, "example.warc.gz")
	for _, host := range []string{"example.com", "example.org"} {
		w.WriteCapture(archive.Fetch{URL: "https://" + host + "/robots.txt", Time: time.Date(2025, 1, 13, 4, 5, 6, 0, time.UTC),
			ContentType: "text/plain", Body: []byte("User-agent: *\nDisallow: /private/\n")})
	}
	requests := 0
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		requests++
		http.ServeContent(&dropWriter{ResponseWriter: rw, left: 300}, r, "", time.Time{}, bytes.NewReader(warc.Bytes()))
	}))
	defer srv.Close()

	r, closer, err := remote.Open(context.Background(), srv.URL+"/crawl-data/CC-MAIN-2025-05/segments/1/robotstxt/example.warc.gz",
		[]remote.Option{remote.WithRetries(3), remote.WithBackoff(time.Millisecond, 10*time.Millisecond)})
	if err != nil {
		log.Fatal(err)
	}
	defer closer.Close()
	for c, err := range archive.All(r) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(c.URL, c.Status, c.Source.Offset, c.Source.Length)
	}
	n := r.Counts()
	fmt.Println("records", n.Records, "captures", n.Captures, "bytes", n.Bytes == int64(warc.Len()), "requests", requests > 1)
	// Output:
	// https://example.com/robots.txt 200 688 494
	// https://example.org/robots.txt 200 1579 491
	// records 5 captures 2 bytes true requests true
}

// A Common Crawl manifest expands to the URLs of the files it lists, and
// the crawl label is found in them.
func ExampleExpandInputs() {
	dir, err := os.MkdirTemp("", "manifest-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	manifest := filepath.Join(dir, "robotstxt.paths.gz")
	os.WriteFile(manifest, gzipText("crawl-data/CC-MAIN-2025-05/segments/1736703361941.29/robotstxt/CC-MAIN-20250113203450-20250113233450-00000.warc.gz\n"+
		"crawl-data/CC-MAIN-2025-05/segments/1736703361941.29/robotstxt/CC-MAIN-20250113203450-20250113233450-00001.warc.gz\n"), 0o644)

	inputs, err := remote.ExpandInputs([]string{manifest}) // base: remote.DefaultBaseURL
	if err != nil {
		log.Fatal(err)
	}
	for _, in := range inputs {
		fmt.Println(in)
	}
	fmt.Println(remote.CrawlLabel(inputs, time.Now()))
	// Output:
	// https://data.commoncrawl.org/crawl-data/CC-MAIN-2025-05/segments/1736703361941.29/robotstxt/CC-MAIN-20250113203450-20250113233450-00000.warc.gz
	// https://data.commoncrawl.org/crawl-data/CC-MAIN-2025-05/segments/1736703361941.29/robotstxt/CC-MAIN-20250113203450-20250113233450-00001.warc.gz
	// CC-MAIN-2025-05
}

// dropWriter passes on left body bytes, then closes the connection.
type dropWriter struct {
	http.ResponseWriter
	left int
}

func (w *dropWriter) Write(p []byte) (int, error) {
	if len(p) < w.left {
		w.left -= len(p)
		return w.ResponseWriter.Write(p)
	}
	n, _ := w.ResponseWriter.Write(p[:w.left])
	rc := http.NewResponseController(w.ResponseWriter)
	rc.Flush()
	if conn, _, err := rc.Hijack(); err == nil {
		conn.Close()
	}
	return n, io.ErrClosedPipe
}

func (w *dropWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// gzipText compresses s as one gzip member.
func gzipText(s string) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	io.WriteString(zw, s)
	zw.Close()
	return buf.Bytes()
}
