package ingest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/robocensus/robocensus/ingest"
	"github.com/robocensus/robocensus/ingest/dataset"
	"github.com/robocensus/robocensus/ingest/objstore"
	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/internal/testutil/s3test"
)

// TestIssue30RerunKeepsUnchangedParts: a rerun into object storage that
// reads one input again, changed (Fresh, naming it alone), puts only the
// parts whose content changed. With one captures part per few captures,
// every published captures part that holds no row of the changed input is
// named again by the new listing, its object untouched (the same file in
// versitygw's folder, not written again); the others are new. The rows
// equal those of a local dataset run the same way (DuckDB), and the bucket
// holds only the parts the listing names.
func TestIssue30RerunKeepsUnchangedParts(t *testing.T) {
	srv := s3test.Start(t)
	srv.CreateBucket(t, "reruns")
	t.Setenv("TMPDIR", t.TempDir())
	dataset.ConfigureS3(objstore.Config{Endpoint: srv.URL, Region: s3test.Region, Credentials: srv.Credentials()})
	src := t.TempDir()
	var inputs []string
	for i := range 5 {
		path := filepath.Join(src, fmt.Sprintf("CC-MAIN-2025-%05d.warc.gz", i))
		if err := os.WriteFile(path, sampleWARC(t, 20+i), 0o644); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, path)
	}
	changed := inputs[2]
	local, bucketDir := t.TempDir(), filepath.Join(srv.Dir, "reruns", "ds")
	run := func(in []string, fresh bool) {
		t.Helper()
		for _, dir := range []string{local, "s3://reruns/ds"} {
			cfg := ingest.Config{Dir: dir, Crawl: "c", Workers: 2, SegmentInputs: 1, PartCaptures: 6, PartBytes: 1, Fresh: fresh}
			if sum, err := ingest.Run(context.Background(), cfg, in); err != nil || !sum.Published {
				t.Fatalf("Run into %s: %+v, %v", dir, sum, err)
			}
		}
	}
	run(inputs, false)
	before := testutil.ListedParts(t, bucketDir, "c")
	holding := partsHolding(t, bucketDir, changed)
	stats := map[string]os.FileInfo{}
	for _, p := range before["captures"] {
		fi, err := os.Stat(filepath.Join(bucketDir, p))
		if err != nil {
			t.Fatal(err)
		}
		stats[p] = fi
	}
	if len(before["captures"]) < 4 || len(holding) == 0 || len(holding) == len(before["captures"]) {
		t.Fatalf("captures parts %v, of which %v hold %s: want several, some of them", before["captures"], holding, changed)
	}
	if err := os.WriteFile(changed, sampleWARC(t, 40), 0o644); err != nil {
		t.Fatal(err)
	}
	run([]string{changed}, true)
	after := testutil.ListedParts(t, bucketDir, "c")
	for _, p := range before["captures"] {
		kept := slices.Contains(after["captures"], p)
		if want := !slices.Contains(holding, p); kept != want {
			t.Errorf("captures part %s: kept %v, want %v (it holds the changed input: %v)", p, kept, want, !want)
			continue
		}
		if fi, err := os.Stat(filepath.Join(bucketDir, p)); kept && (err != nil || !os.SameFile(fi, stats[p]) || !fi.ModTime().Equal(stats[p].ModTime())) {
			t.Errorf("kept part %s was written again: %v", p, err)
		}
	}
	putAgain, kept := 0, 0
	for table, parts := range after {
		for _, p := range parts {
			if slices.Contains(before[table], p) {
				kept++
			} else {
				putAgain++
			}
		}
	}
	t.Logf("rerun with one of %d inputs changed: %d parts kept, %d put (captures: %d of %d held its rows)", len(inputs), kept, putAgain, len(holding), len(before["captures"]))
	samePartitions(t, bucketDir, local)
	if got := testutil.Query(t, testutil.OpenDuckDB(t), fmt.Sprintf("SELECT count(*) FROM glob('%s')", filepath.Join(bucketDir, "*", "crawl=c", "*.parquet"))); got != fmt.Sprint(kept+putAgain) {
		t.Errorf("%s parts in the bucket, the listing names %d", got, kept+putAgain)
	}
}

// partsHolding returns the captures parts of crawl c in the dataset folder
// dir that hold a capture of input, by their path under dir.
func partsHolding(t *testing.T, dir, input string) []string {
	t.Helper()
	db := testutil.OpenDuckDB(t)
	rows, err := db.Query(fmt.Sprintf("SELECT DISTINCT filename FROM read_parquet('%s', filename = true) WHERE input = ? ORDER BY 1",
		filepath.Join(dir, "captures", "crawl=c", "*.parquet")), input)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, name)
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}
