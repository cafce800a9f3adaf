// Package sample holds the sample corpus built into robocensus
// (captures.txt: made-up robots.txt fetches of some thirty sites, plus
// the byte-level cases a text file cannot hold) and writes it as a Common
// Crawl style robotstxt WARC. robocensus demo ingests that WARC; tests
// build the demo dataset from it the same way.
package sample

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/robocensus/robocensus/ingest/archive"
)

//go:embed captures.txt
var captures string

// Crawl is the crawl label of the sample: its WARC lies where a Common
// Crawl robotstxt WARC of that crawl would (see WriteWARC), so ingest
// takes the label from its path.
const Crawl = "CC-MAIN-2025-05"

// fetchTime is the fetch time of the sample captures.
var fetchTime = time.Date(2025, 1, 13, 4, 5, 6, 0, time.UTC)

// WriteWARC writes the sample fetches as one WARC file under dir, at the
// path Common Crawl would give it (crawl-data/CC-MAIN-2025-05/segments/
// ..., below dir/sample), and returns that path.
func WriteWARC(dir string) (string, error) {
	path := filepath.Join(dir, "sample", "crawl-data", Crawl, "segments", "1736518059384.10", "robotstxt", "CC-MAIN-sample-00000.warc.gz")
	fetches, err := Fetches()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	var buf bytes.Buffer
	w, err := archive.NewWARCWriter(&buf, filepath.Base(path))
	if err != nil {
		return "", err
	}
	for _, f := range fetches {
		if err := w.WriteCapture(f); err != nil {
			return "", err
		}
	}
	if err := w.Close(); err != nil {
		return "", err
	}
	return path, os.WriteFile(path, buf.Bytes(), 0o644)
}

// Fetches reads the embedded sample: sections
// "-- URL STATUS [Content-Type] [-> LOCATION] --" each followed by a body,
// then the fetches whose bytes a text file cannot hold.
func Fetches() ([]archive.Fetch, error) {
	var out []archive.Fetch
	sections := strings.Split("\n"+captures, "\n-- ")[1:]
	for i, sec := range sections {
		head, body, _ := strings.Cut(sec, "\n")
		f, err := parseHead(strings.TrimSuffix(head, " --"))
		if err != nil {
			return nil, fmt.Errorf("sample section %d: %w", i+1, err)
		}
		f.Body = []byte(body)
		f.Time = fetchTime.Add(time.Duration(i) * time.Minute)
		if strings.Contains(f.URL, "crlf.") {
			f.Body = bytes.ReplaceAll(f.Body, []byte("\n"), []byte("\r\n"))
		}
		out = append(out, f)
	}
	return append(out, generatedFetches()...), nil
}

// parseHead reads a section's header, "URL STATUS [Content-Type]
// [-> LOCATION]" (the dashes around it removed).
func parseHead(head string) (archive.Fetch, error) {
	head, location, _ := strings.Cut(head, " -> ")
	fields := strings.Fields(head)
	if len(fields) < 2 {
		return archive.Fetch{}, fmt.Errorf("bad header %q", head)
	}
	status, err := strconv.Atoi(fields[1])
	if err != nil {
		return archive.Fetch{}, fmt.Errorf("bad status in %q", head)
	}
	return archive.Fetch{URL: fields[0], Status: status, ContentType: strings.Join(fields[2:], " "), Location: location}, nil
}

// generatedFetches are the sample's byte-level cases: a byte order mark, a
// legacy encoding, a gzip body served unasked, and an oversize file.
func generatedFetches() []archive.Fetch {
	at := fetchTime.Add(time.Hour)
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write([]byte("User-agent: *\nDisallow: /compressed/\n"))
	zw.Close()
	var big strings.Builder
	big.WriteString("User-agent: *\nDisallow: /first/\n")
	for i := 0; big.Len() < 600<<10; i++ {
		fmt.Fprintf(&big, "Disallow: /generated/page-%06d.html\n", i)
	}
	big.WriteString("Disallow: /after-the-limit/\n")
	return []archive.Fetch{
		{URL: "https://bom.example/robots.txt", Time: at, ContentType: "text/plain", Body: []byte("\xEF\xBB\xBFUser-agent: *\nDisallow: /bom/\n")},
		{URL: "https://latin1.example/robots.txt", Time: at, ContentType: "text/plain; charset=iso-8859-1", Body: []byte("User-agent: *\nDisallow: /caf\xe9/\n")},
		{URL: "https://gzipped.example/robots.txt", Time: at, ContentType: "application/octet-stream", Body: zipped.Bytes()},
		{URL: "https://huge.example/robots.txt", Time: at, ContentType: "text/plain", Body: []byte(big.String())},
	}
}
