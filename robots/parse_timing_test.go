package robots

import (
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
)

// Benchmarks over the real corpus. Reproduce the README figures with
//
//	go test ./robots/ -run '^$' -bench . -benchmem -cpu 1
//
// The corpus file is ../shared/corpus/robots/egonkm-robots-txt/robots.tar.gz
// (105 MB, 31,758 bodies); the benchmarks skip without it.

func egonkmBodies(b *testing.B) ([][]byte, int64) {
	b.Helper()
	var bodies [][]byte
	var total int64
	for _, body := range testutil.TarBodies(b, testutil.Corpus(b, "robots", "egonkm-robots-txt", "robots.tar.gz")) {
		bodies = append(bodies, body.Data)
		total += int64(len(body.Data))
	}
	return bodies, total
}

// BenchmarkParse parses every body of the corpus with full diagnostics; one
// op is the whole corpus, so MB/s is parsing throughput and allocs/op the
// allocations of 31,758 files.
func BenchmarkParse(b *testing.B) {
	bodies, total := egonkmBodies(b)
	rules := 0
	for _, body := range bodies {
		rules += len(Parse(body).Rules)
	}
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, body := range bodies {
			Parse(body)
		}
	}
	b.ReportMetric(float64(len(bodies))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
	b.ReportMetric(float64(rules), "rules/op")
}

// BenchmarkMatch matches URLs against parsed files of typical size (the
// files of the corpus between 200 bytes and 4 KiB); one op is one URL.
// Sub-benchmarks: hot matches many URLs against one file at a time (compile
// once, match many: the file stays in cache), cold moves to the next file at
// every match (each match pays cache misses).
func BenchmarkMatch(b *testing.B) {
	bodies, _ := egonkmBodies(b)
	var files []*File
	for _, body := range bodies {
		if len(body) >= 200 && len(body) <= 4096 {
			files = append(files, Parse(body))
		}
	}
	urls := []string{"https://www.example.com/", "https://www.example.com/search?q=robots", "https://www.example.com/wp-admin/admin-ajax.php", "https://www.example.com/products/shoes/index.html"}
	agents := []string{"Googlebot"}
	b.Run("cache=hot", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			files[(i>>10)%len(files)].Allowed(urls[i%len(urls)], agents...)
			i++
		}
	})
	b.Run("cache=cold", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			files[i%len(files)].Allowed(urls[i%len(urls)], agents...)
			i++
		}
	})
}
