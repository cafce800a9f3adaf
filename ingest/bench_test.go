package ingest

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/internal/testutil"
)

// benchBodies is how many corpus bodies the benchmark WARC holds.
const benchBodies = 10000

var realBodies struct {
	once     sync.Once
	data     []byte
	captures int
}

// realBodiesWARC builds, once, a Common-Crawl-style WARC in which every
// capture is a real robots.txt of the egonkm archive (issue 12's "real
// bodies" workload), each record its own gzip member.
func realBodiesWARC(b *testing.B) ([]byte, int) {
	path := testutil.Corpus(b, "robots", "egonkm-robots-txt", "robots.tar.gz")
	realBodies.once.Do(func() {
		bodies := testutil.TarBodies(b, path)
		if len(bodies) > benchBodies {
			bodies = bodies[:benchBodies]
		}
		records := make([]string, 0, len(bodies)+1)
		records = append(records, ccFile()[0])
		for _, body := range bodies {
			records = append(records, robots200(archive.HostFromName(body.Name), string(body.Data)))
		}
		realBodies.data, realBodies.captures = perRecord(b, records...), len(bodies)
	})
	return realBodies.data, realBodies.captures
}

// gunzipAll is the floor: a plain multistream gzip read of the bytes, as
// zcat does.
func gunzipAll(b *testing.B, data []byte) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, zr); err != nil {
		b.Fatal(err)
	}
}

// ingestOnce runs a whole ingest of path into a fresh dataset under dir.
func ingestOnce(b *testing.B, path, dir string, want int) {
	ingestConfig(b, Config{Dir: dir, Crawl: "CC-MAIN-2025-05"}, path, want)
}

// ingestConfig runs a whole ingest of path with cfg into a fresh dataset
// under cfg.Dir.
func ingestConfig(b *testing.B, cfg Config, path string, want int) {
	if err := os.RemoveAll(cfg.Dir); err != nil {
		b.Fatal(err)
	}
	sum, err := Run(context.Background(), cfg, []string{path})
	if err != nil {
		b.Fatal(err)
	}
	if sum.Captures != int64(want) {
		b.Fatalf("%d captures, want %d", sum.Captures, want)
	}
}

// BenchmarkRunRealBodies times a whole ingest (read, parse, classify,
// write every table, publish) of a WARC of 10,000 real robots.txt bodies
// against its floor, a gzip read of the same file, in the same run: the
// "x-gunzip" metric is ingest time over gunzip time. Throughput is of
// compressed bytes. Profile it with -cpuprofile.
func BenchmarkRunRealBodies(b *testing.B) {
	data, want := realBodiesWARC(b)
	tmp := b.TempDir()
	path := filepath.Join(tmp, "bodies.warc.gz")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(tmp, "dataset")
	var floor, run time.Duration
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		t0 := time.Now()
		gunzipAll(b, data)
		t1 := time.Now()
		ingestOnce(b, path, dir, want)
		floor += t1.Sub(t0)
		run += time.Since(t1)
	}
	b.ReportMetric(float64(run)/float64(floor), "x-gunzip")
	b.ReportMetric(float64(want)*float64(b.N)/run.Seconds(), "captures/s")
}

// BenchmarkRunCensus times, in the same iterations, a whole ingest of the
// WARC of 10,000 real robots.txt bodies without the census of parsers
// (Config.NoCensus) and with it: "x-no-census" is the time with it over the
// time without it (issue 31's budget: 1.3), "x-no-census-cpu" the same
// ratio of the CPU time the process used (testutil.ProcessCPU; 0 where it
// is not measured), which other processes on a shared machine disturb
// less.
func BenchmarkRunCensus(b *testing.B) { benchWithAndWithout(b, "census", Config{NoCensus: true}) }

// BenchmarkRunAttribution does the same for the attribution of full
// blocks to template or site lines (agents.source, agents.cancelled) in
// the files with template blocks: "x-no-attribution" is the time of an
// ingest with it over one without (Config.NoAttribution).
func BenchmarkRunAttribution(b *testing.B) {
	benchWithAndWithout(b, "attribution", Config{NoAttribution: true})
}

// benchWithAndWithout times, in the same iterations, a whole ingest of the
// real bodies' WARC with the options of off (without what is measured)
// and with the defaults, and reports the ratios as x-no-NAME and
// x-no-NAME-cpu.
func benchWithAndWithout(b *testing.B, name string, off Config) {
	data, want := realBodiesWARC(b)
	tmp := b.TempDir()
	path := filepath.Join(tmp, "bodies.warc.gz")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(tmp, "dataset")
	off.Dir, off.Crawl = dir, "CC-MAIN-2025-05"
	var without, with, cpuWithout, cpuWith time.Duration
	for b.Loop() {
		t0, c0 := time.Now(), testutil.ProcessCPU()
		ingestConfig(b, off, path, want)
		t1, c1 := time.Now(), testutil.ProcessCPU()
		ingestConfig(b, Config{Dir: dir, Crawl: "CC-MAIN-2025-05"}, path, want)
		without += t1.Sub(t0)
		with += time.Since(t1)
		cpuWithout += c1 - c0
		cpuWith += testutil.ProcessCPU() - c1
	}
	b.ReportMetric(float64(with)/float64(without), "x-no-"+name)
	if cpuWithout > 0 {
		b.ReportMetric(float64(cpuWith)/float64(cpuWithout), "x-no-"+name+"-cpu")
	}
	b.ReportMetric(without.Seconds()/float64(b.N), "s-without/op")
	b.ReportMetric(with.Seconds()/float64(b.N), "s-with/op")
}
