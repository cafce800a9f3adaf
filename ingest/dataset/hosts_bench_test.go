package dataset

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robocensus/robocensus/schema"
)

// BenchmarkHosts times the hosts table of a synthetic partition of
// ROBOCENSUS_HOSTS_CAPTURES captures (default 200,000) in the mix of a
// Common Crawl robotstxt partition: about 1.3 captures a host, a quarter
// of the hosts answering http with a redirect to https, one in twenty
// redirecting to www., one in a hundred chains of two, redirects to URLs
// never captured. "read" reads the captures parts once, the floor of any
// computation over them; "hosts" computes the table. scripts/bench-hosts.sh
// runs it at several sizes with the peak memory.
func BenchmarkHosts(b *testing.B) {
	n := 200_000
	if v, err := strconv.Atoi(os.Getenv("ROBOCENSUS_HOSTS_CAPTURES")); err == nil && v > 0 {
		n = v
	}
	stage, bytes := syntheticPartition(b, n)
	parts, _ := filepath.Glob(filepath.Join(stage.partitionDir("captures"), "*.parquet"))
	b.Run("read", func(b *testing.B) {
		b.SetBytes(bytes)
		b.ReportAllocs()
		for b.Loop() {
			rows := 0
			for _, p := range parts {
				if err := eachRow(p, func(*schema.Capture) error { rows++; return nil }); err != nil {
					b.Fatal(err)
				}
			}
			if rows != n {
				b.Fatalf("%d rows, want %d", rows, n)
			}
		}
	})
	b.Run("hosts", func(b *testing.B) {
		b.SetBytes(bytes)
		b.ReportAllocs()
		for b.Loop() {
			os.RemoveAll(stage.partitionDir("hosts"))
			if err := buildHosts(stage, parts); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(n)/b.Elapsed().Seconds()*float64(b.N), "captures/s")
	})
}

// syntheticPartition stages n captures in parts of 500,000 and returns
// the stage and the parts' bytes.
func syntheticPartition(b *testing.B, n int) (*Staging, int64) {
	b.Helper()
	stage, err := newStaging(b.TempDir(), "CC-MAIN-2025-05")
	if err != nil {
		b.Fatal(err)
	}
	t0 := time.Date(2025, 1, 13, 4, 0, 0, 0, time.UTC)
	var tw *tableWriter[schema.Capture]
	buf := make([]schema.Capture, 0, FlushRows)
	written, parts := 0, 0
	flush := func() {
		if tw == nil {
			if tw, err = openTable[schema.Capture](stage, schema.PartName(parts), schema.WithPageBufferSize(pipelinePageSize)); err != nil {
				b.Fatal(err)
			}
			parts++
		}
		if err := tw.write(buf); err != nil {
			b.Fatal(err)
		}
		written += len(buf)
		buf = buf[:0]
		if written >= 500_000*parts {
			if err := tw.close(); err != nil {
				b.Fatal(err)
			}
			tw = nil
		}
	}
	emit := func(url string, status int32, outcome, location string) {
		_, rest, _ := strings.Cut(url, "://")
		host, _, _ := strings.Cut(rest, "/")
		buf = append(buf, schema.Capture{CaptureID: fmt.Sprintf("%016x", uint64(written+len(buf))*0x9E3779B97F4A7C15), URL: url, URLHostName: host,
			FetchTime: t0.Add(time.Duration(written+len(buf)) * time.Millisecond), FetchStatus: status, Outcome: outcome,
			FetchRedirect: location, RuleCount: 3, Input: "bench.warc.gz", WARCFilename: "bench.warc.gz"})
		if len(buf) == cap(buf) {
			flush()
		}
	}
	for h := 0; written+len(buf) < n; h++ {
		host := fmt.Sprintf("site%08d.example", h)
		https := "https://" + host + "/robots.txt"
		switch {
		case h%100 == 1: // a chain of two, across hosts
			emit("http://"+host+"/robots.txt", 301, "redirect", https)
			emit(https, 301, "redirect", "https://www."+host+"/robots.txt")
			emit("https://www."+host+"/robots.txt", 200, "rules", "")
		case h%20 == 2: // to www., captured
			emit(https, 301, "redirect", "https://www."+host+"/robots.txt")
			emit("https://www."+host+"/robots.txt", 200, "rules", "")
		case h%50 == 3: // to a URL never captured
			emit(https, 302, "redirect", "/login?next=robots.txt")
		case h%4 == 0: // http to https
			emit("http://"+host+"/robots.txt", 301, "redirect", https)
			emit(https, 200, "rules", "")
		case h%10 == 5:
			emit(https, 404, "allow-all", "")
		default:
			emit(https, 200, "rules", "")
		}
	}
	if len(buf) > 0 {
		flush()
	}
	if tw != nil {
		if err := tw.close(); err != nil {
			b.Fatal(err)
		}
	}
	var bytes int64
	ps, _ := filepath.Glob(filepath.Join(stage.partitionDir("captures"), "*.parquet"))
	for _, p := range ps {
		if fi, err := os.Stat(p); err == nil {
			bytes += fi.Size()
		}
	}
	return stage, bytes
}
