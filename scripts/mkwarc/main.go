// Command mkwarc builds a Common Crawl style robotstxt WARC (per-record
// gzip, warcinfo, request and response records) from the shared corpus, for
// benchmarks. The mix of answers follows Common Crawl's own statistics of
// robots.txt captures (about half are 200 with a robots.txt, a third are
// redirects, the rest 404 pages, 403, 5xx and HTML served as robots.txt):
//
//	go run ./scripts/mkwarc -corpus ../shared/corpus -n 20000 -seed 1 -o /tmp/a.warc.gz
//
// Two crawls of the same hosts, each answer drawn again:
//
//	go run ./scripts/mkwarc -n 20000 -seed 2 -host-seed 1 -o /tmp/b.warc.gz
//
// With -mix robots every capture is instead a 200 answer with a real
// robots.txt (the egonkm and Alexa 2015 bodies), the workload where parsing
// and writing rows cost most:
//
//	go run ./scripts/mkwarc -mix robots -n 20000 -o /tmp/real.warc.gz
//
// Bodies come from the shared corpus and never leave the machine: the
// output is for local measurement only.
package main

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/robocensus/robocensus/ingest/archive"
)

func main() {
	corpus := flag.String("corpus", "../shared/corpus", "shared corpus `folder`")
	n := flag.Int("n", 20000, "captures to write")
	seed := flag.Uint64("seed", 1, "random seed: different seeds give different files")
	out := flag.String("o", "robotstxt.warc.gz", "output `file`")
	hostSeed := flag.Uint64("host-seed", 0, "seed of the host names, 0 for -seed: files of one -host-seed and different seeds hold the same hosts, each answer drawn again (two crawls to compare)")
	mix := flag.String("mix", "cc", "answers: cc (Common Crawl's mix) or robots (every capture a real robots.txt)")
	flag.Parse()
	if *mix != "cc" && *mix != "robots" {
		fmt.Fprintln(os.Stderr, "mkwarc: -mix is cc or robots")
		os.Exit(2)
	}
	robots := readTar(filepath.Join(*corpus, "robots", "egonkm-robots-txt", "robots.tar.gz"))
	if *mix == "robots" {
		robots = append(robots, readTar(filepath.Join(*corpus, "robots", "danielmiessler-alexa100k-2015", "nonhtml-unique.tar.gz"))...)
	}
	pages := readTar(filepath.Join(*corpus, "robots", "danielmiessler-alexa100k-2015", "html-sample.tar.gz"))
	f, err := os.Create(*out)
	check(err)
	bw := bufio.NewWriterSize(f, 1<<20)
	w, err := archive.NewWARCWriter(bw, filepath.Base(*out))
	check(err)
	rng := rand.New(rand.NewPCG(*seed, 42))
	if *hostSeed == 0 {
		*hostSeed = *seed
	}
	at := time.Date(2025, 1, 13, 0, 0, 0, 0, time.UTC)
	for i := 0; i < *n; i++ {
		host := fmt.Sprintf("site-%d-%d.example", *hostSeed, i)
		at = at.Add(time.Second)
		fetches := []archive.Fetch{{URL: "https://" + host + "/robots.txt", Time: at, Status: 200, ContentType: "text/plain", Body: robots[rng.IntN(len(robots))]}}
		if *mix == "cc" {
			fetches = pick(rng, host, at, robots, pages)
		}
		for _, fetch := range fetches {
			check(w.WriteCapture(fetch))
		}
	}
	check(w.Close())
	check(bw.Flush())
	check(f.Close())
}

// pick returns the fetches of one host: usually one, two for a redirect
// (the 301 and its target).
func pick(rng *rand.Rand, host string, at time.Time, robots, pages [][]byte) []archive.Fetch {
	u := "https://" + host + "/robots.txt"
	robotsBody := func() []byte { return robots[rng.IntN(len(robots))] }
	page := func() []byte { return pages[rng.IntN(len(pages))] }
	switch r := rng.IntN(100); {
	case r < 50:
		return []archive.Fetch{{URL: u, Time: at, Status: 200, ContentType: "text/plain", Body: robotsBody()}}
	case r < 80:
		target := "https://www." + host + "/robots.txt"
		return []archive.Fetch{
			{URL: u, Time: at, Status: 301, ContentType: "text/html", Location: target, Body: []byte("<html><body>Moved Permanently</body></html>")},
			{URL: target, Time: at, Status: 200, ContentType: "text/plain", Body: robotsBody()},
		}
	case r < 92:
		return []archive.Fetch{{URL: u, Time: at, Status: 404, ContentType: "text/html", Body: page()}}
	case r < 96:
		return []archive.Fetch{{URL: u, Time: at, Status: 403, ContentType: "text/html", Body: page()}}
	case r < 98:
		return []archive.Fetch{{URL: u, Time: at, Status: 503, ContentType: "text/html", Body: []byte("<html><body>Service Unavailable</body></html>")}}
	default:
		return []archive.Fetch{{URL: u, Time: at, Status: 200, ContentType: "text/html", Body: page()}}
	}
}

func readTar(path string) [][]byte {
	f, err := os.Open(path)
	check(err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	check(err)
	tr := tar.NewReader(zr)
	var out [][]byte
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		check(err)
		if h.Typeflag == tar.TypeReg && h.Size <= 1<<20 {
			b, err := io.ReadAll(tr)
			check(err)
			out = append(out, b)
		}
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "mkwarc:", err)
		os.Exit(1)
	}
}
