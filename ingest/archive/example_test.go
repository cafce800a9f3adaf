package archive_test

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzip"

	"github.com/robocensus/robocensus/ingest/archive"
)

// record returns a WARC record.
func record(typ, uri, block string) string {
	return "WARC/1.0\r\nWARC-Type: " + typ + "\r\nWARC-Date: 2025-01-20T10:00:00Z\r\n" +
		"WARC-Record-ID: <urn:uuid:" + typ + ">\r\nWARC-Target-URI: " + uri + "\r\n" +
		"Content-Length: " + strconv.Itoa(len(block)) + "\r\n\r\n" + block + "\r\n\r\n"
}

// gzipMembers compresses each record as its own gzip member.
func gzipMembers(records ...string) []byte {
	var out bytes.Buffer
	for _, r := range records {
		w := gzip.NewWriter(&out)
		io.WriteString(w, r)
		w.Close()
	}
	return out.Bytes()
}

// A per-record gzip WARC with a request, a robots.txt response and, after
// some garbage, a 404 response: the garbage is recorded as damage and the
// record after it is read.
func ExampleNewWARCReader() {
	data := gzipMembers(
		record("request", "https://example.com/robots.txt", "GET /robots.txt HTTP/1.1\r\n\r\n"),
		record("response", "https://example.com/robots.txt",
			"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nUser-agent: *\nDisallow: /tmp/\n"),
	)
	data = append(data, "garbage"...)
	data = append(data, gzipMembers(record("response", "https://example.org/robots.txt", "HTTP/2 404\r\n\r\n"))...)

	r, err := archive.NewWARCReader(bytes.NewReader(data), "CC-MAIN-2025-05/robotstxt/example.warc.gz")
	if err != nil {
		log.Fatal(err)
	}
	for {
		c, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s %d %q at %d+%d\n", c.Host, c.Status, c.Body, c.Source.Offset, c.Source.Length)
	}
	n := r.Counts()
	fmt.Println("records", n.Records, "captures", n.Captures, "skipped", n.Skipped)
	for _, d := range n.Damage {
		fmt.Printf("damage %s at %d: %d bytes\n", d.Kind, d.Offset, d.Skipped)
	}
	// Output:
	// example.com 200 "User-agent: *\nDisallow: /tmp/\n" at 179+211
	// example.org 404 "" at 397+176
	// records 3 captures 2 skipped map[request:1]
	// damage garbage at 390: 7 bytes
}

// An ARC file: the filedesc header record, then an http record.
func ExampleNewARCReader() {
	body := "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nUser-agent: *\nAllow: /\n"
	filedesc := "1 0 Example\nURL IP-address Archive-date Content-type Archive-length\n"
	arc := "filedesc://x.arc 0.0.0.0 20080430204825 text/plain " + strconv.Itoa(len(filedesc)) + "\n" + filedesc + "\n" +
		"http://www.example.com/robots.txt 192.0.2.1 20080430204825 text/plain " + strconv.Itoa(len(body)) + "\n" + body + "\n"
	r, err := archive.NewARCReader(strings.NewReader(arc), "x.arc")
	if err != nil {
		log.Fatal(err)
	}
	for c, err := range archive.All(r) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(c.URL, c.Status, c.FetchTime.Format("2006-01-02"), c.RecordID)
	}
	fmt.Println(r.Counts().Skipped)
	// Output:
	// http://www.example.com/robots.txt 200 2008-04-30 arc:x.arc@123
	// map[filedesc:1]
}

// A tar archive of bodies named after their hosts.
func ExampleNewTarReader() {
	var buf bytes.Buffer
	w := tar.NewWriter(&buf)
	for name, body := range map[string]string{"robots/example.com": "User-agent: *\nDisallow:\n"} {
		w.WriteHeader(&tar.Header{Name: name, Size: int64(len(body)), Mode: 0o644, Typeflag: tar.TypeReg})
		w.Write([]byte(body))
	}
	w.WriteHeader(&tar.Header{Name: "robots/", Typeflag: tar.TypeDir, Mode: 0o755})
	w.Close()
	r, err := archive.NewTarReader(&buf, "bodies.tar")
	if err != nil {
		log.Fatal(err)
	}
	for c, err := range archive.All(r) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(c.URL, c.Status, c.BodySize, c.PayloadDigest)
	}
	fmt.Println(r.Counts().Skipped)
	// Output:
	// https://example.com/robots.txt 0 24 sha1:YR6M6GSJYJGMLBBEGCVHLRZO6SISSJAS
	// map[not-regular:1]
}

// Open picks the reader from the file's content: here a WARC and a body.
func ExampleOpen() {
	dir, err := os.MkdirTemp("", "ingest-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "crawl.warc.gz"), gzipMembers(
		record("response", "https://example.com/robots.txt", "HTTP/1.1 301 Moved\r\nLocation: https://www.example.com/robots.txt\r\n\r\n"),
		record("response", "https://www.example.com/robots.txt", "HTTP/1.1 200 OK\r\n\r\nUser-agent: *\n"),
		record("response", "https://www.example.com/index.html", "HTTP/1.1 200 OK\r\n\r\n<html>"),
	), 0o644)
	os.WriteFile(filepath.Join(dir, "example.net-robots.txt"), []byte("User-agent: *\nDisallow: /\n"), 0o644)

	for _, name := range []string{"crawl.warc.gz", "example.net-robots.txt"} {
		r, closer, err := archive.Open(filepath.Join(dir, name))
		if err != nil {
			log.Fatal(err)
		}
		for c, err := range archive.All(r) {
			if err != nil {
				log.Fatal(err)
			}
			if c.Location != "" {
				fmt.Println(c.URL, c.Status, "->", c.Location)
			} else {
				fmt.Println(c.URL, c.Status)
			}
		}
		fmt.Println(name, "skipped:", r.Counts().Skipped)
		closer.Close()
	}
	// Output:
	// https://example.com/robots.txt 301 -> https://www.example.com/robots.txt
	// https://www.example.com/robots.txt 200
	// crawl.warc.gz skipped: map[not-robots-url:1]
	// https://example.net/robots.txt 0
	// example.net-robots.txt skipped: map[]
}
