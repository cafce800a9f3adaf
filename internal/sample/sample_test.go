package sample

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/ingest/archive"
)

// The sample is the 32 fetches of captures.txt and the 4 generated ones,
// each a robots.txt URL, fetched in the order written; its WARC reads back
// as those fetches.
func TestWriteWARCReadsBack(t *testing.T) {
	fetches, err := Fetches()
	if err != nil {
		t.Fatal(err)
	}
	if len(fetches) != 36 {
		t.Fatalf("%d fetches, want 36 (the demo's captures)", len(fetches))
	}
	for i, f := range fetches {
		if !strings.HasSuffix(f.URL, "/robots.txt") || f.Time.IsZero() || i > 0 && f.Time.Before(fetches[i-1].Time) {
			t.Errorf("fetch %d: %s at %v", i, f.URL, f.Time)
		}
	}
	path, err := WriteWARC(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if want := "/sample/crawl-data/" + Crawl + "/segments/"; !strings.Contains(path, want) {
		t.Errorf("WARC at %s, not in a Common Crawl layout (%s)", path, want)
	}
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	r, err := archive.NewWARCReader(file, path)
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for {
		c, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		urls = append(urls, c.URL)
	}
	if len(urls) != len(fetches) || urls[0] != fetches[0].URL || urls[len(urls)-1] != fetches[len(fetches)-1].URL {
		t.Errorf("the WARC holds %d captures (%q ...), want the %d fetches", len(urls), urls, len(fetches))
	}
}

// A section header without a status, or with one that is not a number,
// is an error that names it.
func TestParseHeadErrors(t *testing.T) {
	for _, head := range []string{"https://a.example/robots.txt", "https://a.example/robots.txt OK text/plain"} {
		if _, err := parseHead(head); err == nil || !strings.Contains(err.Error(), head) {
			t.Errorf("%q: %v", head, err)
		}
	}
	f, err := parseHead("https://a.example/robots.txt 301 text/html; charset=utf-8 -> https://b.example/robots.txt")
	if err != nil || f.Status != 301 || f.ContentType != "text/html; charset=utf-8" || f.Location != "https://b.example/robots.txt" {
		t.Errorf("%+v, %v", f, err)
	}
}
