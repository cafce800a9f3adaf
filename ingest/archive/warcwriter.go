package archive

import (
	"crypto/sha1"
	"encoding/base32"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"
)

// WARCWriter writes a WARC file in the layout of Common Crawl's robotstxt
// files (see FORMATS.md): version lines "WARC/1.0", one gzip member per
// record, a warcinfo record first, then for each capture a request record
// and a response record with the HTTP response, payload and block digests,
// and WARC-Identified-Payload-Type. It is what the demo, the benchmarks and
// the tests use to make realistic inputs. Record IDs are derived from the
// captures, so the same captures make the same file.
type WARCWriter struct {
	w        io.Writer
	zw       *gzip.Writer
	filename string
	info     string // WARC-Record-ID of the warcinfo record
	err      error
}

// Fetch is one robots.txt fetch to write as a request and a response.
type Fetch struct {
	URL         string
	Time        time.Time
	Status      int    // HTTP status; 200 when 0
	ContentType string // Content-Type header, if any
	Location    string // Location header, for redirects
	Body        []byte
	Truncated   string // WARC-Truncated, if the body was cut
}

// NewWARCWriter starts a WARC file named filename on w and writes its
// warcinfo record.
func NewWARCWriter(w io.Writer, filename string) (*WARCWriter, error) {
	zw, err := gzip.NewWriterLevel(w, gzip.DefaultCompression)
	if err != nil {
		return nil, err
	}
	ww := &WARCWriter{w: w, zw: zw, filename: filename, info: recordID("warcinfo", filename)}
	fields := "isPartOf: robocensus-sample\r\npublisher: robocensus\r\ndescription: robots.txt captures (robotstxt)\r\n" +
		"software: robocensus WARCWriter\r\nformat: WARC File Format 1.1\r\n"
	ww.record([]string{
		"WARC-Type: warcinfo", "WARC-Date: 2025-01-13T04:05:06Z", "WARC-Record-ID: " + ww.info,
		"WARC-Filename: " + filename, "Content-Type: application/warc-fields",
	}, []byte(fields))
	return ww, ww.err
}

// WriteCapture writes the request and response records of one fetch.
func (w *WARCWriter) WriteCapture(f Fetch) error {
	if w.err != nil {
		return w.err
	}
	u, err := url.Parse(f.URL)
	if err != nil || u.Host == "" {
		return fmt.Errorf("archive: WARCWriter: bad URL %q", f.URL)
	}
	date := f.Time.UTC().Format(time.RFC3339)
	reqID, respID := recordID("request", f.URL+date), recordID("response", f.URL+date)
	request := "GET " + u.RequestURI() + " HTTP/1.1\r\nUser-Agent: CCBot/2.0 (https://commoncrawl.org/faq/)\r\n" +
		"Accept-Encoding: br,gzip\r\nHost: " + u.Host + "\r\nConnection: Keep-Alive\r\n\r\n"
	w.record([]string{
		"WARC-Type: request", "WARC-Date: " + date, "WARC-Record-ID: " + reqID,
		"Content-Type: application/http; msgtype=request", "WARC-Warcinfo-ID: " + w.info,
		"WARC-Target-URI: " + f.URL, "WARC-Payload-Digest: " + digest(nil),
	}, []byte(request))
	block := responseBlock(f)
	fields := []string{
		"WARC-Type: response", "WARC-Date: " + date, "WARC-Record-ID: " + respID,
		"Content-Type: application/http; msgtype=response", "WARC-Warcinfo-ID: " + w.info,
		"WARC-Concurrent-To: " + reqID, "WARC-IP-Address: 192.0.2.1", "WARC-Target-URI: " + f.URL,
		"WARC-Payload-Digest: " + digest(f.Body), "WARC-Block-Digest: " + digest(block),
		"WARC-Identified-Payload-Type: " + identify(f.Body),
	}
	if f.Truncated != "" {
		fields = append(fields, "WARC-Truncated: "+f.Truncated)
	}
	w.record(fields, block)
	return w.err
}

// Close ends the last gzip member. It does not close the underlying writer.
func (w *WARCWriter) Close() error { return w.err }

// record writes one record as its own gzip member.
func (w *WARCWriter) record(fields []string, block []byte) {
	if w.err != nil {
		return
	}
	w.zw.Reset(w.w)
	var h strings.Builder
	h.WriteString("WARC/1.0\r\n")
	for _, f := range fields {
		h.WriteString(f + "\r\n")
	}
	h.WriteString("Content-Length: " + strconv.Itoa(len(block)) + "\r\n\r\n")
	for _, part := range [][]byte{[]byte(h.String()), block, []byte("\r\n\r\n")} {
		if _, err := w.zw.Write(part); err != nil {
			w.err = err
			return
		}
	}
	w.err = w.zw.Close()
}

// responseBlock is the HTTP response as Common Crawl stores it: status line,
// headers with the stored length, the decoded body.
func responseBlock(f Fetch) []byte {
	status := f.Status
	if status == 0 {
		status = 200
	}
	var b strings.Builder
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\n", status, http.StatusText(status))
	b.WriteString("Date: " + f.Time.UTC().Format(http.TimeFormat) + "\r\nServer: sample\r\n")
	if f.ContentType != "" {
		b.WriteString("Content-Type: " + f.ContentType + "\r\n")
	}
	if f.Location != "" {
		b.WriteString("Location: " + f.Location + "\r\n")
	}
	b.WriteString("Content-Length: " + strconv.Itoa(len(f.Body)) + "\r\n\r\n")
	return append([]byte(b.String()), f.Body...)
}

// digest is a WARC digest: "sha1:" and the base32 SHA-1.
func digest(b []byte) string {
	sum := sha1.Sum(b)
	return "sha1:" + base32.StdEncoding.EncodeToString(sum[:])
}

// recordID derives a urn:uuid from a key, in the form of a version 5 UUID.
func recordID(kind, key string) string {
	s := sha1.Sum([]byte(kind + "\x00" + key))
	s[6] = s[6]&0x0f | 0x50
	s[8] = s[8]&0x3f | 0x80
	return fmt.Sprintf("<urn:uuid:%x-%x-%x-%x-%x>", s[0:4], s[4:6], s[6:8], s[8:10], s[10:16])
}

// identify is a rough WARC-Identified-Payload-Type: HTML or plain text.
func identify(body []byte) string {
	head := strings.ToLower(string(body[:min(len(body), 512)]))
	if strings.Contains(head, "<html") || strings.Contains(head, "<!doctype html") {
		return "text/html"
	}
	return "text/plain"
}
