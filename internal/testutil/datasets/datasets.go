// Package datasets builds, for tests, real datasets with the real
// pipeline (the demo's, from the sample corpus of internal/sample, and
// ones of given fetches written as WARC files) and the crawl reports of
// them. The tests of analyze (its DuckDB cross-checks) and of
// cmd/robocensus share it. It imports ingest and analyze, so only
// external test packages may import it (package analyze_test, not
// package analyze); package testutil, which every package's tests import,
// cannot.
package datasets

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/robocensus/robocensus/analyze"
	"github.com/robocensus/robocensus/ingest"
	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/internal/sample"
)

// Demo writes the sample corpus as robocensus demo does, ingests it as
// robocensus demo does, into a temporary folder, and returns the
// dataset's folder: the demo's dataset.
func Demo(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	warc, err := sample.WriteWARC(dir)
	if err != nil {
		tb.Fatal(err)
	}
	out := filepath.Join(dir, "dataset")
	if _, err := ingest.Run(context.Background(), ingest.Config{Dir: out, Crawl: sample.Crawl}, []string{warc}); err != nil {
		tb.Fatal(err)
	}
	return out
}

// WriteWARC writes the fetches as dir/NAME.warc.gz, each fetched at the
// same time and served as text/plain, and returns its path.
func WriteWARC(tb testing.TB, dir, name string, fetches []archive.Fetch) string {
	tb.Helper()
	var buf bytes.Buffer
	w, err := archive.NewWARCWriter(&buf, name+".warc.gz")
	if err != nil {
		tb.Fatal(err)
	}
	at := time.Date(2025, 2, 3, 4, 5, 6, 0, time.UTC)
	for _, f := range fetches {
		f.Time, f.ContentType = at, "text/plain"
		if err := w.WriteCapture(f); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(dir, name+".warc.gz")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// Report opens the dataset at dir with the options given and returns its
// crawl report.
func Report(tb testing.TB, dir string, opts ...analyze.Option) *analyze.Report {
	tb.Helper()
	d, err := analyze.Open(os.DirFS(dir), opts...)
	if err != nil {
		tb.Fatal(err)
	}
	r, err := d.Report(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// BatchedReport builds the report with the captures split into 3 host
// shards, and checks that its JSON is the same with 1 and 7: the figures
// must not depend on the batching (analyze.WithHostBatches).
func BatchedReport(tb testing.TB, dir string, opts ...analyze.Option) *analyze.Report {
	tb.Helper()
	var want []byte
	var r *analyze.Report
	for _, batches := range []int{3, 1, 7} {
		got := Report(tb, dir, append(opts, analyze.WithHostBatches(batches))...)
		var b bytes.Buffer
		if err := got.Write(&b, analyze.JSON, dir); err != nil {
			tb.Fatal(err)
		}
		if want == nil {
			want, r = b.Bytes(), got
		} else if !bytes.Equal(b.Bytes(), want) {
			tb.Errorf("the report with %d host batches differs from the one with 3", batches)
		}
	}
	return r
}
