package archive

import (
	"bytes"
	"testing"
	"time"
)

// What WARCWriter writes, the readers read back: every capture with its
// status, headers and body, in robotstxt mode (the warcinfo says so), with
// offsets that point at the response records.
func TestWARCWriterRoundTrip(t *testing.T) {
	at := time.Date(2025, 1, 13, 4, 5, 6, 0, time.UTC)
	fetches := []Fetch{
		{URL: "https://a.example/robots.txt", Time: at, ContentType: "text/plain", Body: []byte("User-agent: *\nDisallow: /x\n")},
		{URL: "http://b.example/robots.txt", Time: at, Status: 301, Location: "https://b.example/robots.txt"},
		{URL: "https://b.example/robots.txt", Time: at.Add(time.Second), Status: 404, ContentType: "text/html", Body: []byte("<html><body>Not found</body></html>")},
		{URL: "https://c.example/start", Time: at, Status: 200, ContentType: "text/html", Body: []byte("<!DOCTYPE html><html></html>"), Truncated: "length"},
	}
	var buf bytes.Buffer
	w, err := NewWARCWriter(&buf, "sample.warc.gz")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fetches {
		if err := w.WriteCapture(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	res := readWARC(t, buf.Bytes())
	if res.err != nil || len(res.caps) != len(fetches) {
		t.Fatalf("read %d captures, err %v", len(res.caps), res.err)
	}
	if res.counts.Records != 1+2*int64(len(fetches)) || res.counts.Skipped["request"] != int64(len(fetches)) || res.counts.DamageCount != 0 {
		t.Errorf("counts %+v", res.counts)
	}
	for i, c := range res.caps {
		f := fetches[i]
		status := f.Status
		if status == 0 {
			status = 200
		}
		if c.URL != f.URL || c.Status != status || string(c.Body) != string(f.Body) || c.Location != f.Location ||
			c.ContentType != f.ContentType || c.Truncated != f.Truncated || !c.FetchTime.Equal(f.Time) {
			t.Errorf("capture %d: %+v", i, c)
		}
		if c.PayloadDigest != digest(f.Body) || len(c.Problems) != 0 {
			t.Errorf("capture %d: digest %s problems %v", i, c.PayloadDigest, c.Problems)
		}
		if b := buf.Bytes()[c.Source.Offset:]; b[0] != 0x1f || b[1] != 0x8b {
			t.Errorf("capture %d: offset %d is not a gzip member", i, c.Source.Offset)
		}
	}
	// The same captures make the same file.
	var again bytes.Buffer
	w2, _ := NewWARCWriter(&again, "sample.warc.gz")
	for _, f := range fetches {
		w2.WriteCapture(f)
	}
	if !bytes.Equal(again.Bytes(), buf.Bytes()) {
		t.Error("output differs between runs")
	}
}
