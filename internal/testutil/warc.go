package testutil

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

// WARCRecord builds a WARC/1.0 record; fields are "Name: value" lines.
func WARCRecord(typ, uri, block string, fields ...string) string {
	var b strings.Builder
	b.WriteString("WARC/1.0\r\nWARC-Type: " + typ + "\r\n")
	b.WriteString("WARC-Date: 2024-05-18T01:58:10Z\r\n")
	b.WriteString("WARC-Record-ID: <urn:uuid:" + typ + "-" + uri + ">\r\n")
	if uri != "" {
		b.WriteString("WARC-Target-URI: " + uri + "\r\n")
	}
	for _, f := range fields {
		b.WriteString(f + "\r\n")
	}
	b.WriteString("Content-Length: " + strconv.Itoa(len(block)) + "\r\n\r\n")
	b.WriteString(block)
	b.WriteString("\r\n\r\n")
	return b.String()
}

// Response builds a WARC response record with an HTTP envelope.
func Response(uri, statusLine, headers, body string, fields ...string) string {
	block := statusLine + "\r\n" + headers + "\r\n" + body
	return WARCRecord("response", uri, block, append([]string{"Content-Type: application/http; msgtype=response"}, fields...)...)
}

// Robots200 is a Common-Crawl-style robots.txt response record.
func Robots200(host, body string) string {
	return Response("https://"+host+"/robots.txt", "HTTP/1.1 200 OK",
		"Content-Type: text/plain\r\nX-Crawler-Content-Encoding: gzip\r\nContent-Length: "+strconv.Itoa(len(body))+"\r\n", body)
}

// Gzip compresses s as one gzip member.
func Gzip(tb testing.TB, s string) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := io.WriteString(w, s); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// PerRecord gzips each record as its own member and concatenates them, as
// WARC writers do.
func PerRecord(tb testing.TB, records ...string) []byte {
	var out []byte
	for _, r := range records {
		out = append(out, Gzip(tb, r)...)
	}
	return out
}

// BigRobots is a robots.txt of exactly n bytes (n at least 35): a group,
// then comment lines, for bodies over the 500 KiB limit and the stored-bytes
// cap.
func BigRobots(n int) string {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /private/\n")
	for b.Len() < n {
		b.WriteString("# filler filler filler filler filler filler filler filler\n")
	}
	return b.String()[:n]
}
