package testutil

import (
	"archive/tar"
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
)

// Small inputs of every kind for the tests of the stages of ingest.

// RobotsBody is a small robots.txt body.
const RobotsBody = "User-agent: *\nDisallow: /private/\n"

// TarTime is the modification time of the entries of MixedTar.
var TarTime = time.Date(2024, 5, 26, 0, 0, 0, 0, time.UTC)

// BodiesTime is the modification time of the entries of BodiesTarGz.
var BodiesTime = time.Date(2025, 1, 13, 4, 5, 6, 0, time.UTC)

// CCFile is a small Common-Crawl-style robotstxt file: warcinfo, then
// request/response pairs.
func CCFile(hosts ...string) []string {
	recs := []string{WARCRecord("warcinfo", "", "isPartOf: CC-MAIN-2025-05\r\ndescription: robotstxt subset\r\n",
		"Content-Type: application/warc-fields")}
	for _, h := range hosts {
		recs = append(recs, WARCRecord("request", "https://"+h+"/robots.txt", "GET /robots.txt HTTP/1.1\r\nHost: "+h+"\r\n\r\n"))
		recs = append(recs, Robots200(h, RobotsBody))
	}
	return recs
}

// MixedTar is an uncompressed tar of bodies named in the ways tar
// archives of robots.txt files name them, with a folder, an empty body, a
// symbolic link and a file that names no host.
func MixedTar(t testing.TB) []byte {
	var buf bytes.Buffer
	w := tar.NewWriter(&buf)
	add := func(h *tar.Header, body string) {
		h.ModTime, h.Size, h.Mode = TarTime, int64(len(body)), 0o644
		if err := w.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	add(&tar.Header{Name: "robots/", Typeflag: tar.TypeDir}, "")
	add(&tar.Header{Name: "robots/Example.COM", Typeflag: tar.TypeReg}, RobotsBody)
	add(&tar.Header{Name: "robots/0002.com-robots.txt", Typeflag: tar.TypeReg}, "")
	add(&tar.Header{Name: "data/fed_gov/www.usda.gov", Typeflag: tar.TypeReg}, RobotsBody)
	add(&tar.Header{Name: "robots/link", Typeflag: tar.TypeSymlink, Linkname: "Example.COM"}, "")
	add(&tar.Header{Name: "notes/dos-line-endings.txt", Typeflag: tar.TypeReg}, "x")
	w.Close()
	return buf.Bytes()
}

// BodiesTarGz is a tar.gz of robots.txt bodies named after their hosts.
func BodiesTarGz(tb testing.TB) []byte {
	tb.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for i := range 20 {
		body := fmt.Sprintf("User-agent: *\nDisallow: /%d/\n%s", i, strings.Repeat("# comment\n", i))
		h := &tar.Header{Name: fmt.Sprintf("robots/site%d.example", i), Size: int64(len(body)), Mode: 0o644, ModTime: BodiesTime, Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(h); err != nil {
			tb.Fatal(err)
		}
		tw.Write([]byte(body))
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}
