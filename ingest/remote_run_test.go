package ingest_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/robocensus/robocensus/ingest"
	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/ingest/remote"
	"github.com/robocensus/robocensus/internal/testutil"
)

// A crawl served over HTTP as Common Crawl serves one: a manifest and the
// robotstxt WARCs it lists, one of them missing (404), one served with
// drops every 4,000 bytes, one truncated (a Content-Length larger than
// what the server has). Run reads them all; the inputs table has a row per
// URL, with the errors of the missing and the truncated ones, and the
// others are accounted for record by record at the offsets of the files.
func TestRunManifestOverHTTP(t *testing.T) {
	const crawl = "crawl-data/CC-MAIN-2025-05/"
	seg := func(i int, name string) string {
		return fmt.Sprintf("%ssegments/17367033619%02d.29/robotstxt/%s", crawl, i, name)
	}
	files := map[string][]byte{
		seg(1, "CC-MAIN-20250113203450-20250113233450-00000.warc.gz"): sampleWARC(t, 40),
		seg(2, "CC-MAIN-20250113203450-20250113233450-00001.warc.gz"): sampleWARC(t, 25),
		seg(4, "CC-MAIN-20250113203450-20250113233450-00003.warc.gz"): sampleWARC(t, 30),
	}
	a, dropped, missing, cut := seg(1, "CC-MAIN-20250113203450-20250113233450-00000.warc.gz"),
		seg(2, "CC-MAIN-20250113203450-20250113233450-00001.warc.gz"),
		seg(3, "CC-MAIN-20250113203450-20250113233450-00002.warc.gz"),
		seg(4, "CC-MAIN-20250113203450-20250113233450-00003.warc.gz")
	if len(files[dropped]) < 3*4000 {
		t.Fatalf("%d bytes: too small to be dropped several times", len(files[dropped]))
	}
	files[crawl+"robotstxt.paths.gz"] = gzipText(strings.Join([]string{a, dropped, "", missing, cut}, "\n") + "\n")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		data, ok := files[name]
		switch {
		case !ok:
			http.NotFound(w, r)
		case name == cut:
			serveTruncated(w, r, data, len(data)/2)
		case name == dropped:
			http.ServeContent(&dropWriter{ResponseWriter: w, left: 4000}, r, "", time.Time{}, bytes.NewReader(data))
		default:
			http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
		}
	}))
	defer srv.Close()

	opts := []remote.Option{remote.WithBaseURL(srv.URL), remote.WithRetries(2), remote.WithBackoff(time.Millisecond, time.Millisecond)}
	inputs, err := remote.ExpandInputs([]string{srv.URL + "/" + crawl + "robotstxt.paths.gz"}, opts...)
	if err != nil || len(inputs) != 4 {
		t.Fatalf("inputs %q, %v", inputs, err)
	}
	label := remote.CrawlLabel(inputs, time.Now())
	if label != "CC-MAIN-2025-05" {
		t.Fatalf("crawl label %q", label)
	}
	dir := t.TempDir()
	sum, err := ingest.Run(context.Background(), ingest.Config{Dir: dir, Crawl: label, Workers: 2, Readers: 4, FetchOptions: opts}, inputs)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Failed != 2 || sum.InputsDone != 4 {
		t.Errorf("summary %+v, want 4 inputs done, 2 failed", sum.Progress)
	}
	db := testutil.DuckDB(t, dir)
	f := func(query, want string) {
		t.Helper()
		if got := testutil.Query(t, db, query); got != want {
			t.Errorf("%s\n got %s, want %s", query, got, want)
		}
	}
	url := func(name string) string { return "'" + srv.URL + "/" + name + "'" }
	f("SELECT count(*) || ' ' || count(DISTINCT input) FROM inputs", "4 4")
	f("SELECT count(*) FROM inputs WHERE input NOT LIKE 'http://127.0.0.1:%/"+crawl+"segments/%/robotstxt/CC-MAIN-%.warc.gz'", "0")
	// Whole inputs: every record accounted for (a warcinfo, and a request
	// and a response per capture), every byte read, no error.
	for name, n := range map[string]int{a: 40, dropped: 25} {
		f("SELECT records || ' ' || captures || ' ' || skipped || ' ' || bytes || ' ' || (error IS NULL) || ' ' || damage_events FROM inputs WHERE input = "+url(name),
			fmt.Sprintf("%d %d %d %d true 0", 1+2*n, n, n+1, len(files[name])))
		f("SELECT count(*) FROM captures WHERE warc_filename = '"+name+"'", strconv.Itoa(n))
		f("SELECT sum(warc_record_offset)::VARCHAR FROM captures WHERE warc_filename = '"+name+"'", localOffsets(t, files[name]))
	}
	// The missing one: its error, nothing read.
	f("SELECT error LIKE '%404 Not Found%' AND records = 0 AND captures = 0 FROM inputs WHERE input = "+url(missing), "true")
	// The truncated one: read up to the cut, damage recorded, then its error.
	f("SELECT error LIKE '%input truncated%retries exhausted%' AND damage LIKE '%\"truncated\"%' AND captures > 0 AND captures < 30 AND bytes <= "+
		strconv.Itoa(len(files[cut])/2)+" FROM inputs WHERE input = "+url(cut), "true")
	f("SELECT count(*) = (SELECT captures FROM inputs WHERE input = "+url(cut)+") FROM captures WHERE warc_filename = '"+cut+"'", "true")
	f("SELECT sum(captures) FROM inputs", testutil.Query(t, db, "SELECT count(*) FROM captures"))
	f("SELECT count(*) FROM inputs WHERE records <> captures + skipped", "0")
}

// sampleWARC is a robotstxt WARC of n captures, written by WARCWriter.
func sampleWARC(tb testing.TB, n int) []byte {
	var buf bytes.Buffer
	w, err := archive.NewWARCWriter(&buf, fmt.Sprintf("sample-%d.warc.gz", n))
	if err != nil {
		tb.Fatal(err)
	}
	for i := range n {
		body := fmt.Sprintf("User-agent: *\nDisallow: /%d/\n%s", i, strings.Repeat("Disallow: /x"+strconv.Itoa(i*n)+"/\n", i%7))
		f := archive.Fetch{URL: fmt.Sprintf("https://www.site%d-%d.example/robots.txt", n, i), Time: time.Date(2025, 1, 13, 20, 0, i, 0, time.UTC),
			ContentType: "text/plain", Body: []byte(body)}
		if i%9 == 8 {
			f.Status, f.Body = 404, []byte("<html>not found</html>")
		}
		if i%9 == 4 { // WordPress's default: a row of the templates table
			f.Body = []byte("User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n")
		}
		if err := w.WriteCapture(f); err != nil {
			tb.Fatal(err)
		}
	}
	return buf.Bytes()
}

// gzipText compresses s as one gzip member.
func gzipText(s string) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	io.WriteString(zw, s)
	zw.Close()
	return buf.Bytes()
}

// localOffsets is the sum of the record offsets of the captures of data
// read from memory, as a string.
func localOffsets(tb testing.TB, data []byte) string {
	r, err := archive.NewWARCReader(bytes.NewReader(data), "x.warc.gz", archive.WithMode(archive.ModeRobotstxt))
	if err != nil {
		tb.Fatal(err)
	}
	var sum int64
	for c, err := range archive.All(r) {
		if err != nil {
			tb.Fatal(err)
		}
		sum += c.Source.Offset
	}
	return strconv.FormatInt(sum, 10)
}

// serveTruncated answers with the Content-Length (or Content-Range) of the
// whole of data but sends only its first have bytes, then closes the
// connection: a file cut short on the server.
func serveTruncated(w http.ResponseWriter, r *http.Request, data []byte, have int) {
	from := 0
	if rng := r.Header.Get("Range"); rng != "" {
		from, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(rng, "bytes="), "-"))
		w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", from, len(data)-1, len(data)))
		w.Header().Set("Content-Length", strconv.Itoa(len(data)-from))
		w.WriteHeader(http.StatusPartialContent)
	} else {
		w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	}
	if from < have {
		w.Write(data[from:have])
	}
	hijackClose(w)
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
	hijackClose(w.ResponseWriter)
	return n, io.ErrClosedPipe
}

func (w *dropWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// hijackClose flushes what was written and closes the connection.
func hijackClose(w http.ResponseWriter) {
	rc := http.NewResponseController(w)
	rc.Flush()
	if conn, _, err := rc.Hijack(); err == nil {
		conn.Close()
	}
}

// TestIssue16LengthUnknown: an input whose server announces no length is
// marked in the inputs table (it may be short without any error); one
// with a Content-Length, and a local file, are not.
func TestIssue16LengthUnknown(t *testing.T) {
	data := sampleWARC(t, 30)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "chunked") {
			w.WriteHeader(http.StatusOK)
			w.Write(data[:len(data)/2])
			http.NewResponseController(w).Flush()
			w.Write(data[len(data)/2:])
			return
		}
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
	}))
	t.Cleanup(srv.Close)
	url := srv.URL
	local := filepath.Join(t.TempDir(), "c", "local.warc.gz")
	if err := os.MkdirAll(filepath.Dir(local), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(local, data, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	inputs := []string{url + "/a/chunked.warc.gz", url + "/b/sized.warc.gz", local}
	sum, err := ingest.Run(context.Background(), ingest.Config{Dir: dir, Crawl: "length", Workers: 2}, inputs)
	if err != nil || sum.Failed != 0 {
		t.Fatalf("Run: %+v, %v", sum, err)
	}
	db := testutil.DuckDB(t, dir)
	got := testutil.Query(t, db, "SELECT string_agg(regexp_extract(input, '([a-z]+)\\.warc', 1) || '=' || length_unknown || '/' || captures, ' ' ORDER BY input) FROM inputs")
	if want := "local=false/30 chunked=true/30 sized=false/30"; got != want {
		t.Errorf("inputs: %s, want %s", got, want)
	}
}
