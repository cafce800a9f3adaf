// Command memgen writes the hostile inputs of scripts/bench-memory.sh:
// WARCs whose size grows without their records getting any larger, to
// check that ingest's memory does not grow with them.
//
//	go run ./scripts/memgen -kind empty -n 10000000 -o /tmp/empty.warc.gz
//	go run ./scripts/memgen -kind captures -n 10000000 -listen 127.0.0.1:8765
//
// Kinds:
//
//	empty     N empty gzip members (20 bytes each) and nothing else
//	junk      N tiny gzip members, each holding one line that is not a record
//	corrupt   N tiny members that start with the gzip magic but do not decode
//	captures  a warcinfo record, then N response records (per-record gzip),
//	          each a distinct 200 text/plain robots.txt body with its own
//	          payload digest: what a long robotstxt WARC looks like
//
// With -o the input is written to a file; with -listen it is served over
// HTTP (any path, no Content-Length) and generated as it is read, so that
// an input of any size costs no disk.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"encoding/base32"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"strconv"
)

func main() {
	kind := flag.String("kind", "captures", "`kind` of input: empty, junk, corrupt or captures")
	n := flag.Int("n", 1_000_000, "members or captures to write")
	out := flag.String("o", "", "output `file`")
	listen := flag.String("listen", "", "serve the input over HTTP at `ADDR` instead")
	flag.Parse()
	gen, ok := kinds[*kind]
	if !ok {
		log.Fatalf("memgen: unknown kind %q", *kind)
	}
	if *listen != "" {
		log.Fatal(http.ListenAndServe(*listen, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/warc")
			bw := bufio.NewWriterSize(w, 1<<20)
			if gen(bw, *n) == nil {
				bw.Flush()
			}
		})))
	}
	if *out == "" {
		log.Fatal("memgen: -o or -listen is needed")
	}
	f, err := os.Create(*out)
	check(err)
	bw := bufio.NewWriterSize(f, 1<<20)
	check(gen(bw, *n))
	check(bw.Flush())
	check(f.Close())
}

var kinds = map[string]func(io.Writer, int) error{
	"empty":    repeat(member(nil)),
	"junk":     repeat(member([]byte("this is not a WARC record\n"))),
	"corrupt":  repeat([]byte{0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff, 'j', 'u', 'n', 'k', 0xff, 0xff}),
	"captures": captures,
}

// member returns b as one gzip member.
func member(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

func repeat(b []byte) func(io.Writer, int) error {
	return func(w io.Writer, n int) error {
		for range n {
			if _, err := w.Write(b); err != nil {
				return err
			}
		}
		return nil
	}
}

// captures writes a warcinfo record and n response records, one gzip member
// each, with distinct URLs, bodies and payload digests.
func captures(w io.Writer, n int) error {
	zw, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
	var rec, block []byte
	write := func(header string, block []byte) error {
		rec = append(rec[:0], header...)
		rec = append(rec, "Content-Length: "...)
		rec = strconv.AppendInt(rec, int64(len(block)), 10)
		rec = append(rec, "\r\n\r\n"...)
		rec = append(rec, block...)
		rec = append(rec, "\r\n\r\n"...)
		zw.Reset(w)
		if _, err := zw.Write(rec); err != nil {
			return err
		}
		return zw.Close()
	}
	info := "WARC/1.0\r\nWARC-Type: warcinfo\r\nWARC-Date: 2025-01-13T00:00:00Z\r\n" +
		"WARC-Record-ID: <urn:uuid:00000000-0000-5000-8000-000000000000>\r\nContent-Type: application/warc-fields\r\n"
	if err := write(info, []byte("description: robots.txt captures (robotstxt), memgen\r\n")); err != nil {
		return err
	}
	for i := range n {
		body := fmt.Sprintf("User-agent: *\nDisallow: /private/%d/\n", i)
		sum := sha1.Sum([]byte(body))
		block = fmt.Appendf(block[:0], "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
		header := fmt.Sprintf("WARC/1.0\r\nWARC-Type: response\r\nWARC-Date: 2025-01-13T00:00:00Z\r\n"+
			"WARC-Record-ID: <urn:uuid:%08x-0000-5000-8000-000000000001>\r\nContent-Type: application/http; msgtype=response\r\n"+
			"WARC-Target-URI: https://site-%d.example/robots.txt\r\nWARC-Payload-Digest: sha1:%s\r\n",
			i, i, base32.StdEncoding.EncodeToString(sum[:]))
		if err := write(header, block); err != nil {
			return err
		}
	}
	return nil
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
