package ingest

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

// readResult is everything a reader yielded.
type readResult struct {
	caps   []*Capture
	counts Counts
	err    error // the error that ended reading, nil for io.EOF
}

// drain reads r to its end, cloning the captures, and checks the
// invariant Records == Captures + sum(Skipped) when it ended at io.EOF.
func drain(tb testing.TB, r CaptureReader) readResult {
	tb.Helper()
	var res readResult
	for {
		c, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			res.err = err
			if _, again := r.Next(); again != err {
				tb.Errorf("error does not stick: %v then %v", err, again)
			}
			break
		}
		res.caps = append(res.caps, c.Clone())
	}
	res.counts = r.Counts()
	if res.err == nil {
		checkInvariant(tb, res.counts)
	}
	return res
}

func checkInvariant(tb testing.TB, c Counts) {
	tb.Helper()
	if c.Records != c.Captures+c.SkippedTotal() {
		tb.Errorf("invariant broken: records %d != captures %d + skipped %v", c.Records, c.Captures, c.Skipped)
	}
}

// readWARC reads a WARC held in memory.
func readWARC(tb testing.TB, data []byte, opts ...Option) readResult {
	tb.Helper()
	r, err := NewWARCReader(bytes.NewReader(data), "test.warc", opts...)
	if err != nil {
		tb.Fatal(err)
	}
	return drain(tb, r)
}

// warcRecord builds a WARC/1.0 record; fields are "Name: value" lines.
func warcRecord(typ, uri, block string, fields ...string) string {
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
	b.WriteString("Content-Length: " + itoa(int64(len(block))) + "\r\n\r\n")
	b.WriteString(block)
	b.WriteString("\r\n\r\n")
	return b.String()
}

// response builds a response record with an HTTP envelope.
func response(uri, statusLine, headers, body string, fields ...string) string {
	block := statusLine + "\r\n" + headers + "\r\n" + body
	return warcRecord("response", uri, block, append([]string{"Content-Type: application/http; msgtype=response"}, fields...)...)
}

// robots200 is a Common-Crawl-style robots.txt response.
func robots200(host, body string) string {
	return response("https://"+host+"/robots.txt", "HTTP/1.1 200 OK",
		"Content-Type: text/plain\r\nX-Crawler-Content-Encoding: gzip\r\nContent-Length: "+itoa(int64(len(body)))+"\r\n", body)
}

// gz compresses s as one gzip member.
func gz(tb testing.TB, s string) []byte {
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

// perRecord gzips each record as its own member and concatenates them.
func perRecord(tb testing.TB, records ...string) []byte {
	var out []byte
	for _, r := range records {
		out = append(out, gz(tb, r)...)
	}
	return out
}

// damageKinds lists the kinds of the damage recorded.
func damageKinds(c Counts) []string {
	var out []string
	for _, d := range c.Damage {
		out = append(out, d.Kind)
	}
	return out
}

// problemCodes lists the codes of a capture's problems.
func problemCodes(c *Capture) []string {
	var out []string
	for _, p := range c.Problems {
		out = append(out, p.Code)
	}
	return out
}

// failingReader returns data, then err.
type failingReader struct {
	data []byte
	err  error
}

func (f *failingReader) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, f.err
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

var errDisk = errors.New("disk on fire")

func errorsIs(err, target error) bool { return errors.Is(err, target) }
