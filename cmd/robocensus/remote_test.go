package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/robocensus/robocensus/ingest/archive"
)

// robocensus ingest of a Common Crawl manifest: a local mirror with
// --base-url a folder, the same mirror served over HTTP, a missing file
// (exit 1, the others still read) and a bad --base-url (exit 2).
func TestIngestManifest(t *testing.T) {
	mirror := t.TempDir()
	const crawl = "crawl-data/CC-MAIN-2025-05/"
	write := func(name string, data []byte) {
		p := filepath.Join(mirror, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	warc := crawl + "segments/1/robotstxt/CC-MAIN-20250113203450-20250113233450-00000.warc.gz"
	write(warc, sampleWARC(t, 3))
	write(crawl+"robotstxt.paths.gz", gzipString(warc+"\n"))
	write(crawl+"broken.paths.gz", gzipString(warc+"\n"+crawl+"segments/2/robotstxt/missing.warc.gz\n"))
	srv := httptest.NewServer(http.FileServer(http.Dir(mirror)))
	defer srv.Close()

	f := func(want int, stdoutRE, stderrRE string, args ...string) {
		t.Helper()
		var out, errb bytes.Buffer
		args = append([]string{"ingest", "-o", filepath.Join(t.TempDir(), "data")}, args...)
		if code := run(args, nil, &out, &errb); code != want {
			t.Errorf("%q: exit %d, want %d\nstdout: %s\nstderr: %s", args, code, want, &out, &errb)
		}
		if !regexp.MustCompile(stdoutRE).Match(out.Bytes()) || !regexp.MustCompile(stderrRE).Match(errb.Bytes()) {
			t.Errorf("%q:\nstdout: %s\nstderr: %s\nwant %q and %q", args, &out, &errb, stdoutRE, stderrRE)
		}
	}
	f(0, `crawl=CC-MAIN-2025-05\): 1/1 inputs, 3 captures`, `^manifest [^\n]*robotstxt.paths.gz: 1 input under [^\n]*\n[^\n]*level=INFO msg="run finished"[^\n]*\n$`, "--base-url", mirror, filepath.Join(mirror, crawl, "robotstxt.paths.gz"))
	f(0, `crawl=CC-MAIN-2025-05\): 1/1 inputs, 3 captures`, `^manifest [^\n]*robotstxt.paths.gz: 1 input under [^\n]*\n[^\n]*level=INFO msg="run finished"[^\n]*\n$`, "--base-url", srv.URL, srv.URL+"/"+crawl+"robotstxt.paths.gz")
	f(1, `2/2 inputs, 3 captures(.|\n)*not read to its end: http://.*/missing.warc.gz: .*404 Not Found`, `404`,
		"--base-url", srv.URL+"/", srv.URL+"/"+crawl+"broken.paths.gz")
	f(2, `^$`, `base URL "ftp://mirror/"`, "--base-url", "ftp://mirror/", srv.URL+"/"+crawl+"robotstxt.paths.gz")
}

func sampleWARC(tb testing.TB, n int) []byte {
	var buf bytes.Buffer
	w, err := archive.NewWARCWriter(&buf, "sample.warc.gz")
	if err != nil {
		tb.Fatal(err)
	}
	for i := range n {
		host := string(rune('a'+i)) + ".example"
		if err := w.WriteCapture(archive.Fetch{URL: "https://" + host + "/robots.txt", Time: time.Date(2025, 1, 13, 0, 0, i, 0, time.UTC),
			ContentType: "text/plain", Body: []byte("User-agent: *\nDisallow: /\n")}); err != nil {
			tb.Fatal(err)
		}
	}
	return buf.Bytes()
}

func gzipString(s string) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(s))
	zw.Close()
	return buf.Bytes()
}
