package ingest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
)

// Builders of test inputs (see internal/testutil).
var (
	robotsBody = testutil.RobotsBody
	ccFile     = testutil.CCFile
	makeTar    = testutil.MixedTar
	testTar    = testutil.BodiesTarGz
	gz         = testutil.Gzip
	perRecord  = testutil.PerRecord
	robots200  = testutil.Robots200
	response   = testutil.Response
)

// ingestRecords ingests one WARC of records as crawl and returns a check
// of the dataset: expect(query, want) fails the test unless DuckDB answers
// want.
func ingestRecords(t *testing.T, crawl string, records ...string) (expect func(query, want string)) {
	t.Helper()
	path := filepath.Join(t.TempDir(), crawl+".warc.gz")
	if err := os.WriteFile(path, perRecord(t, records...), 0o644); err != nil {
		t.Fatal(err)
	}
	return ingestPaths(t, crawl, path)
}

// ingestPaths ingests the given inputs as crawl and returns a check of
// the dataset as ingestRecords does.
func ingestPaths(t *testing.T, crawl string, paths ...string) (expect func(query, want string)) {
	t.Helper()
	dir := t.TempDir()
	if _, err := Run(context.Background(), Config{Dir: dir, Crawl: crawl, Workers: 1}, paths); err != nil {
		t.Fatal(err)
	}
	db := testutil.DuckDB(t, dir)
	return func(query, want string) {
		t.Helper()
		if got := testutil.Query(t, db, query); got != want {
			t.Errorf("%s\n got %s\nwant %s", query, got, want)
		}
	}
}
