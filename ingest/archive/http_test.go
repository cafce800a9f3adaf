package archive

import (
	"bytes"
	"compress/zlib"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/zstd"
)

func TestParseStatusLine(t *testing.T) {
	f := func(line string, want int, ok bool) {
		t.Helper()
		got, gotOK := parseStatusLine([]byte(line))
		if got != want || gotOK != ok {
			t.Errorf("%q: %d %v, want %d %v", line, got, gotOK, want, ok)
		}
	}
	f("HTTP/1.1 200 OK", 200, true)
	f("HTTP/1.0 404 Not Found", 404, true)
	f("HTTP/2 200", 200, true)
	f("HTTP/1.1 302 ", 302, true)
	f("http/1.1 503 Service Unavailable", 503, true)
	f("HTTP/1.1  301 Moved", 301, true)
	f("HTTP/1.1 2000 OK", 0, false)
	f("HTTP/1.1 abc OK", 0, false)
	f("HTTP/1.1", 0, false)
	f("ICY 200 OK", 0, false)
	f("<html>", 0, false)
	f("", 0, false)
}

// capture1 reads a WARC holding one response whose HTTP part is given and
// returns its capture.
func capture1(t *testing.T, headers string, body []byte, opts ...Option) *Capture {
	t.Helper()
	rec := response("https://a.example/robots.txt", "HTTP/1.1 200 OK", headers, string(body))
	res := readWARC(t, []byte(rec), opts...)
	if len(res.caps) != 1 {
		t.Fatalf("%d captures; damage %+v", len(res.caps), res.counts.Damage)
	}
	return res.caps[0]
}

func deflateRaw(s string) []byte {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, 5)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

func zlibBytes(s string) []byte {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

func brotliBytes(s string) []byte {
	var b bytes.Buffer
	w := brotli.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

func zstdBytes(s string) []byte {
	e, _ := zstd.NewWriter(nil)
	return e.EncodeAll([]byte(s), nil)
}

func chunk(parts ...string) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(strings.ToUpper(itoaHex(len(p))) + "\r\n" + p + "\r\n")
	}
	return b.String() + "0\r\n\r\n"
}

func itoaHex(n int) string {
	const digits = "0123456789abcdef"
	if n == 0 {
		return "0"
	}
	var out []byte
	for ; n > 0; n >>= 4 {
		out = append([]byte{digits[n&15]}, out...)
	}
	return string(out)
}

// TestPayloadDecoding covers transfer and content codings: each vector
// gives the HTTP headers and stored payload, and the body and problems
// wanted.
func TestPayloadDecoding(t *testing.T) {
	vectors := []struct {
		name     string
		headers  string
		payload  []byte
		body     string
		problems []ProblemKind
	}{
		{"plain", "Content-Type: text/plain\r\n", []byte(robotsBody), robotsBody, nil},
		{"crawler-renamed-not-decoded", "X-Crawler-Content-Encoding: gzip\r\nX-Crawler-Transfer-Encoding: chunked\r\n", []byte(robotsBody), robotsBody, nil},
		{"gzip", "Content-Encoding: gzip\r\n", gz(t, robotsBody), robotsBody, nil},
		{"x-gzip-any-case", "content-encoding: X-GZIP\r\n", gz(t, robotsBody), robotsBody, nil},
		{"deflate-raw", "Content-Encoding: deflate\r\n", deflateRaw(robotsBody), robotsBody, nil},
		{"deflate-zlib", "Content-Encoding: deflate\r\n", zlibBytes(robotsBody), robotsBody, nil},
		{"brotli", "Content-Encoding: br\r\n", brotliBytes(robotsBody), robotsBody, nil},
		{"zstd", "Content-Encoding: zstd\r\n", zstdBytes(robotsBody), robotsBody, nil},
		{"identity", "Content-Encoding: identity\r\n", []byte(robotsBody), robotsBody, nil},
		{"chunked", "Transfer-Encoding: chunked\r\n", []byte(chunk("User-agent: *\n", "Disallow: /private/\n")), robotsBody, nil},
		{"chunked-with-extension", "Transfer-Encoding: chunked\r\n", []byte("e;name=v\r\nUser-agent: *\n\r\n14\r\nDisallow: /private/\n\r\n0\r\nTrailer: x\r\n\r\n"), robotsBody, nil},
		{"chunked-then-gzip", "Transfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n", []byte(chunk(string(gz(t, robotsBody)))), robotsBody, nil},
		{"not-actually-chunked", "Transfer-Encoding: chunked\r\n", []byte(robotsBody), robotsBody, []ProblemKind{ProblemChunkedInvalid}},
		{"chunk-size-too-big", "Transfer-Encoding: chunked\r\n", []byte("e\r\nUser-agent: *\n\r\nff\r\nDisallow"), "User-agent: *\nDisallow", []ProblemKind{ProblemChunkedInvalid}},
		{"chunk-garbage-size", "Transfer-Encoding: chunked\r\n", []byte("e\r\nUser-agent: *\n\r\nzz\r\nmore"), "User-agent: *\n", []ProblemKind{ProblemChunkedInvalid}},
		{"no-last-chunk", "Transfer-Encoding: chunked\r\n", []byte("e\r\nUser-agent: *\n\r\n"), "User-agent: *\n", []ProblemKind{ProblemChunkedInvalid}},
		{"gzip-that-is-not", "Content-Encoding: gzip\r\n", []byte(robotsBody), robotsBody, []ProblemKind{ProblemContentEncodingInvalid}},
		{"gzip-cut", "Content-Encoding: gzip\r\n", gz(t, robotsBody+robotsBody+robotsBody)[:40], "", []ProblemKind{ProblemContentEncodingInvalid}},
		{"brotli-that-is-not", "Content-Encoding: br\r\n", []byte(robotsBody), robotsBody, []ProblemKind{ProblemContentEncodingInvalid}},
		{"unsupported-coding", "Content-Encoding: compress\r\n", []byte("xyz"), "xyz", []ProblemKind{ProblemContentEncodingUnsupported}},
		{"two-codings", "Content-Encoding: gzip\r\nContent-Encoding: br\r\n", []byte("xyz"), "xyz", []ProblemKind{ProblemContentEncodingUnsupported}},
		{"gzip-empty-body", "Content-Encoding: gzip\r\n", nil, "", nil},
	}
	for _, v := range vectors {
		t.Run(v.name, func(t *testing.T) {
			c := capture1(t, v.headers, v.payload)
			if v.name == "gzip-cut" {
				// Whatever was decoded before the cut is kept.
				if !strings.HasPrefix(robotsBody+robotsBody, string(c.Body)) {
					t.Errorf("body %q", c.Body)
				}
			} else if string(c.Body) != v.body || c.BodySize != int64(len(v.body)) {
				t.Errorf("body %q (size %d), want %q", c.Body, c.BodySize, v.body)
			}
			if got := problemCodes(c); !slices.Equal(got, v.problems) {
				t.Errorf("problems %v, want %q", c.Problems, v.problems)
			}
			if c.PayloadDigest == "" || !strings.HasPrefix(c.PayloadDigest, "sha1:") {
				t.Errorf("digest %q", c.PayloadDigest)
			}
		})
	}
}

func TestHTTPHeaderLimits(t *testing.T) {
	many := strings.Repeat("X-A: b\r\n", 50)
	c := capture1(t, many+"Location: /x\r\n", []byte("ok"), WithMaxHeaders(32))
	if !c.HasProblem(ProblemHTTPHeaderTooMany) || string(c.Body) != "ok" {
		t.Errorf("too many: %v %q", c.Problems, c.Body)
	}
	big := "X-Big: " + strings.Repeat("y", 8<<10) + "\r\n"
	c = capture1(t, "Content-Type: text/plain\r\n"+big, []byte("ok"), WithMaxHeaderBytes(4<<10))
	if !c.HasProblem(ProblemHTTPHeaderTooLarge) || c.ContentType != "text/plain" || len(c.Body) != 0 {
		t.Errorf("too large: %v %q %q", c.Problems, c.ContentType, c.Body)
	}
	c = capture1(t, "Bad line\r\n Folded: x\r\nContent-Type: text/\r\n plain\r\n", []byte("ok"))
	if !c.HasProblem(ProblemHTTPHeaderInvalid) || c.ContentType != "text/ plain" {
		t.Errorf("syntax: %v %q", c.Problems, c.ContentType)
	}
	res := readWARC(t, []byte(warcRecord("response", "https://a.example/robots.txt", "HTTP/1.1 200 OK\r\nContent-Type: text/plain")))
	if c := res.caps[0]; !c.HasProblem(ProblemHTTPHeaderUnterminated) || c.Status != 200 || c.ContentType != "text/plain" {
		t.Errorf("unterminated: %+v", c)
	}
	res = readWARC(t, []byte(response("https://a.example/robots.txt", "FOO BAR", "Content-Type: text/plain\r\n", "ok")))
	if c := res.caps[0]; !c.HasProblem(ProblemHTTPStatusInvalid) || c.Status != 0 || string(c.Body) != "ok" {
		t.Errorf("garbage status: %+v", c)
	}
}

func TestBodyCap(t *testing.T) {
	big := strings.Repeat("Disallow: /x\n", 100000) // 1.3 MB
	c := capture1(t, "", []byte(big))
	if len(c.Body) != DefaultMaxBody || c.BodySize != int64(len(big)) || c.Truncated != TruncatedBodyCap || !c.HasProblem(ProblemBodyCapped) {
		t.Errorf("len %d size %d truncated %q problems %v", len(c.Body), c.BodySize, c.Truncated, c.Problems)
	}
	// The crawler's WARC-Truncated wins over the reader's reason.
	rec := response("https://a.example/robots.txt", "HTTP/1.1 200 OK", "", big, "WARC-Truncated: length")
	res := readWARC(t, []byte(rec))
	if c := res.caps[0]; c.Truncated != "length" {
		t.Errorf("truncated %q, want length", c.Truncated)
	}
}

// TruncatedBy tells the crawler's cut from the reader's (issue 27 item 7):
// the reader's cap is its own reason, and is still found under the
// crawler's WARC-Truncated.
func TestTruncatedBy(t *testing.T) {
	big := strings.Repeat("Disallow: /x\n", 100000) // 1.3 MB
	f := func(name string, rec []byte, crawler, reader string) {
		t.Helper()
		c := readWARC(t, rec).caps[0]
		if gotCrawler, gotReader := c.TruncatedBy(); gotCrawler != crawler || gotReader != reader {
			t.Errorf("%s: TruncatedBy() = %q, %q, want %q, %q", name, gotCrawler, gotReader, crawler, reader)
		}
	}
	f("whole", []byte(robots200("a.example", robotsBody)), "", "")
	f("capped", []byte(response("https://a.example/robots.txt", "HTTP/1.1 200 OK", "", big)), "", TruncatedBodyCap)
	f("crawler cut", []byte(response("https://a.example/robots.txt", "HTTP/1.1 200 OK", "", "Disallow: /x\n", "WARC-Truncated: length")), "length", "")
	f("crawler cut, capped", []byte(response("https://a.example/robots.txt", "HTTP/1.1 200 OK", "", big, "WARC-Truncated: time")), "time", TruncatedBodyCap)
	rec := response("https://a.example/robots.txt", "HTTP/1.1 200 OK", "", robotsBody, "WARC-Truncated: length")
	f("crawler cut, input ends", []byte(rec[:len(rec)-10]), "length", TruncatedInput)
}

// gzipBomb returns a gzip stream that decodes to n MiB of zeros: one
// member of 1 MiB of zeros, repeated (HTTP gzip readers read all members).
func gzipBomb(t *testing.T, n int) []byte {
	member := gz(t, string(make([]byte, 1<<20)))
	return bytes.Repeat(member, n)
}

// TestGzipBomb checks that a body decoding to 4 GiB costs bounded memory
// and stops at MaxRecordBytes, recorded.
func TestGzipBomb(t *testing.T) {
	bomb := gzipBomb(t, 4<<10)
	rec := []byte(response("https://a.example/robots.txt", "HTTP/1.1 200 OK", "Content-Encoding: gzip\r\n", string(bomb)) +
		robots200("b.example", robotsBody))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res := readWARC(t, rec, WithMaxRecordBytes(16<<20))
	runtime.ReadMemStats(&after)
	if len(res.caps) != 2 {
		t.Fatalf("%d captures", len(res.caps))
	}
	c := res.caps[0]
	if c.BodySize != 16<<20 || len(c.Body) != DefaultMaxBody || c.Truncated != TruncatedRecordCap || !c.HasProblem(ProblemRecordCapped) || c.PayloadDigest != "" {
		t.Errorf("size %d len %d truncated %q problems %v digest %q", c.BodySize, len(c.Body), c.Truncated, c.Problems, c.PayloadDigest)
	}
	// Allocation: the reader's buffers (body cap, framer buffer holding the
	// compressed block, decoder state) and the clone in drain; not the 4 GiB.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("allocated %d MiB", alloc>>20)
	}
}
