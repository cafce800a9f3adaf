package hosts

import (
	"errors"
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
	parts, bytes := syntheticPartition(b, n)
	b.Run("read", func(b *testing.B) {
		b.SetBytes(bytes)
		b.ReportAllocs()
		for b.Loop() {
			rows := 0
			for _, p := range parts {
				if err := eachCapture(p, func(*schema.Capture) { rows++ }); err != nil {
					b.Fatal(err)
				}
			}
			if rows != n {
				b.Fatalf("%d rows, want %d", rows, n)
			}
		}
	})
	spill := filepath.Join(b.TempDir(), "hosts-work")
	b.Run("hosts", func(b *testing.B) {
		b.SetBytes(bytes)
		b.ReportAllocs()
		for b.Loop() {
			if err := Build(spill, parts, func([]schema.Host) error { return nil }); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(n)/b.Elapsed().Seconds()*float64(b.N), "captures/s")
	})
}

// syntheticPartition writes n captures in files of 500,000, a flush of
// 16,384 rows at a time as the pipeline writes, and returns the files
// and their bytes.
func syntheticPartition(b *testing.B, n int) ([]string, int64) {
	b.Helper()
	dir := b.TempDir()
	t0 := time.Date(2025, 1, 13, 4, 0, 0, 0, time.UTC)
	var f *os.File
	var tw *schema.Writer[schema.Capture]
	var parts []string
	buf := make([]schema.Capture, 0, 16<<10)
	written := 0
	closePart := func() {
		if err := errors.Join(tw.Close(), f.Close()); err != nil {
			b.Fatal(err)
		}
		tw = nil
	}
	flush := func() {
		if tw == nil {
			parts = append(parts, filepath.Join(dir, schema.PartName(len(parts))))
			var err error
			if f, err = os.Create(parts[len(parts)-1]); err != nil {
				b.Fatal(err)
			}
			tw = schema.NewWriter[schema.Capture](f, schema.WithPageBufferSize(256<<10))
		}
		if _, err := tw.Write(buf); err != nil {
			b.Fatal(err)
		}
		written += len(buf)
		buf = buf[:0]
		if written >= 500_000*len(parts) {
			closePart()
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
		closePart()
	}
	var bytes int64
	for _, p := range parts {
		if fi, err := os.Stat(p); err == nil {
			bytes += fi.Size()
		}
	}
	return parts, bytes
}
