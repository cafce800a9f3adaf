// Command faults serves a robotstxt WARC from a loopback HTTP server that
// injects one fault per URL, ingests the URLs (named by a *.paths.gz
// manifest) and a local copy of the file, and reports for each fault the
// captures ingested against those of the local file, the input's error and
// the requests the server saw. It then heals the server and runs the same
// ingest again, which reads only the inputs that failed (issue 16):
//
//	go run ./scripts/mkwarc -corpus ../shared/corpus -n 2000 -o /tmp/f.warc.gz
//	go run ./scripts/faults -warc /tmp/f.warc.gz
//
// scripts/faults.sh does both. Nothing leaves the machine.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robocensus/robocensus/ingest"
	"github.com/robocensus/robocensus/ingest/remote"
	"github.com/robocensus/robocensus/schema"
)

// A fault answers the n-th request (from 0) for its file.
type fault struct {
	name string
	what string
	h    func(w http.ResponseWriter, r *http.Request, n int)
}

var (
	data   []byte
	srvURL string
	healed atomic.Bool
)

func serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("ETag", `"v1"`)
	http.ServeContent(w, r, "", time.Date(2025, 1, 13, 0, 0, 0, 0, time.UTC), bytes.NewReader(data))
}

// cut sends the header and the first k body bytes, then drops the connection.
func cut(w http.ResponseWriter, k int) {
	w.Header().Set("ETag", `"v1"`)
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(http.StatusOK)
	w.Write(data[:k])
	hangUp(w)
}

func hangUp(w http.ResponseWriter) {
	rc := http.NewResponseController(w)
	rc.Flush()
	if conn, _, err := rc.Hijack(); err == nil {
		conn.Close()
	}
}

var faults = []fault{
	{"clean", "served as a file server does", func(w http.ResponseWriter, r *http.Request, n int) { serve(w, r) }},
	{"e404", "404 (healed: served)", func(w http.ResponseWriter, r *http.Request, n int) {
		if healed.Load() {
			serve(w, r)
			return
		}
		http.NotFound(w, r)
	}},
	{"redir", "redirect loop to itself", func(w http.ResponseWriter, r *http.Request, n int) {
		http.Redirect(w, r, r.URL.Path, http.StatusFound)
	}},
	{"noscheme", "Location without a scheme (host:port/path)", func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Location", strings.TrimPrefix(srvURL, "http://")+"/clean/clean.warc.gz")
		w.WriteHeader(http.StatusFound)
	}},
	{"reset1", "connection dropped at 1/3, then Range honoured", func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 0 {
			cut(w, len(data)/3)
			return
		}
		serve(w, r)
	}},
	{"range200", "dropped at 1/3, then Range ignored (200, whole file)", func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 0 {
			cut(w, len(data)/3)
			return
		}
		r.Header.Del("Range")
		serve(w, r)
	}},
	{"changed", "dropped at 1/3, then a 200 with another ETag (healed: served)", func(w http.ResponseWriter, r *http.Request, n int) {
		if healed.Load() {
			serve(w, r)
			return
		}
		if n == 0 {
			cut(w, len(data)/3)
			return
		}
		w.Header().Set("ETag", `"v2"`)
		w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		w.WriteHeader(http.StatusOK)
		w.Write(data)
	}},
	{"trickle", "whole body in 64 KiB pieces every 300 ms (idle timeout 1 s)", func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		w.WriteHeader(http.StatusOK)
		for p := data; len(p) > 0; {
			k := min(len(p), 64<<10)
			if _, err := w.Write(p[:k]); err != nil {
				return
			}
			http.NewResponseController(w).Flush()
			p = p[k:]
			time.Sleep(300 * time.Millisecond)
		}
	}},
	{"stall", "stalls 3 s at 1/3 (idle timeout 1 s), then Range honoured", func(w http.ResponseWriter, r *http.Request, n int) {
		if n > 0 {
			serve(w, r)
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		w.WriteHeader(http.StatusOK)
		w.Write(data[:len(data)/3])
		http.NewResponseController(w).Flush()
		select {
		case <-r.Context().Done():
		case <-time.After(3 * time.Second):
		}
	}},
	{"noheaders", "connection closed before the headers, once", func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 0 {
			hangUp(w)
			return
		}
		serve(w, r)
	}},
	{"badlen", "Content-Length 1000 more than the file (healed: right)", func(w http.ResponseWriter, r *http.Request, n int) {
		if healed.Load() {
			serve(w, r)
			return
		}
		if r.Header.Get("Range") != "" {
			http.Error(w, "range not satisfiable", http.StatusRequestedRangeNotSatisfiable)
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(data)+1000))
		w.WriteHeader(http.StatusOK)
		w.Write(data)
		hangUp(w)
	}},
	{"chunked", "no Content-Length (chunked)", func(w http.ResponseWriter, r *http.Request, n int) {
		w.WriteHeader(http.StatusOK)
		w.Write(data[:len(data)/2])
		http.NewResponseController(w).Flush()
		w.Write(data[len(data)/2:])
	}},
}

func main() {
	warc := flag.String("warc", "", "the robotstxt WARC `file` to serve")
	out := flag.String("o", "", "work `folder` (default: a temporary one, removed)")
	flag.Parse()
	var err error
	if data, err = os.ReadFile(*warc); err != nil {
		log.Fatal(err)
	}
	dir := *out
	if dir == "" {
		if dir, err = os.MkdirTemp("", "faults-"); err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(dir)
	}
	var mu sync.Mutex
	requests := map[string]int{}
	mux := http.NewServeMux()
	var paths []string
	for _, f := range faults {
		p := "/" + f.name + "/" + f.name + ".warc.gz"
		paths = append(paths, strings.TrimPrefix(p, "/"))
		mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			n := requests[f.name]
			requests[f.name]++
			mu.Unlock()
			f.h(w, r, n)
		})
	}
	manifest := gz(strings.Join(paths, "\n") + "\n")
	mux.HandleFunc("/robotstxt.paths.gz", func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(manifest))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	srvURL = srv.URL

	opts := []remote.Option{remote.WithRetries(3), remote.WithBackoff(100*time.Millisecond, time.Second),
		remote.WithIdleTimeout(time.Second), remote.WithHeaderTimeout(2 * time.Second)}
	local := filepath.Join(dir, "local.warc.gz")
	if err := os.WriteFile(local, data, 0o644); err != nil {
		log.Fatal(err)
	}
	localRows := run(filepath.Join(dir, "local"), []string{local}, opts)
	want := localRows[local].Captures
	fmt.Printf("local ingest of %s: %d captures (%d records, %d bytes)\n", filepath.Base(*warc), want, localRows[local].Records, len(data))

	inputs, err := remote.ExpandInputs([]string{srv.URL + "/robotstxt.paths.gz"}, append(opts, remote.WithBaseURL(srv.URL))...)
	if err != nil {
		log.Fatal(err)
	}
	remote := filepath.Join(dir, "remote")
	start := time.Now()
	rows := run(remote, inputs, opts)
	fmt.Printf("\nrun 1: %d inputs from %s/robotstxt.paths.gz, --segment-inputs 1 (%.1f s)\n", len(inputs), srv.URL, time.Since(start).Seconds())
	report(rows, requests, want)

	healed.Store(true)
	clear(requests)
	start = time.Now()
	rows = run(remote, inputs, opts)
	fmt.Printf("\nrun 2, server healed (e404, changed, badlen), same command (%.1f s): only failed inputs are requested\n", time.Since(start).Seconds())
	report(rows, requests, want)
}

// run ingests inputs into dir and returns the published inputs rows by input.
func run(dir string, inputs []string, opts []remote.Option) map[string]schema.Input {
	_, err := ingest.Run(context.Background(), ingest.Config{Dir: dir, Crawl: "faults", Workers: 2, SegmentInputs: 1, FetchOptions: opts}, inputs)
	if err != nil {
		log.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(schema.PartitionDir(dir, "inputs", "faults"), "*.parquet"))
	out := map[string]schema.Input{}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			log.Fatal(err)
		}
		fi, _ := f.Stat()
		r, err := schema.NewReader[schema.Input](f, fi.Size())
		if err != nil {
			log.Fatal(err)
		}
		buf := make([]schema.Input, 64)
		for {
			n, err := r.Read(buf)
			for _, row := range buf[:n] {
				out[row.Input] = row
			}
			if err != nil {
				break
			}
		}
		f.Close()
	}
	return out
}

func report(rows map[string]schema.Input, requests map[string]int, want int64) {
	fmt.Printf("%-10s %-62s %5s %9s %8s %-6s %s\n", "case", "fault", "reqs", "captures", "vs local", "length", "error")
	names := make([]string, 0, len(rows))
	for in := range rows {
		names = append(names, in)
	}
	slices.SortFunc(names, func(a, b string) int { return index(a) - index(b) })
	for _, in := range names {
		row := rows[in]
		f := faults[index(in)]
		verdict := "same"
		switch {
		case row.Captures != want && row.Error != "":
			verdict = "fewer"
		case row.Captures != want:
			verdict = "WRONG"
		case row.Error != "":
			verdict = "same+err"
		}
		length := "known"
		if row.LengthUnknown {
			length = "unkn."
		}
		errText := row.Error
		for _, pkg := range []string{": remote: ", ": archive: "} {
			if i := strings.Index(errText, pkg); i >= 0 {
				errText = errText[i+2:]
				break
			}
		}
		if len(errText) > 110 {
			errText = errText[:110] + "..."
		}
		if errText == "" {
			errText = "NULL"
		}
		fmt.Printf("%-10s %-62s %5d %9d %8s %-6s %s\n", f.name, f.what, requests[f.name], row.Captures, verdict, length, errText)
	}
}

func index(input string) int {
	for i, f := range faults {
		if strings.HasSuffix(input, "/"+f.name+".warc.gz") {
			return i
		}
	}
	return len(faults)
}

func gz(s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}
