package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/robocensus/robocensus/analyze"
	"github.com/robocensus/robocensus/internal/testutil/datasets"
)

// The dataset robocensus demo writes is the one the tests build with
// datasets.Demo (the sample ingested by ingest.Run, which the analyze
// cross-checks hold to DuckDB): their JSON reports are byte-identical,
// and the sample's 36 captures are in it.
func TestDemoDatasetIsTheTests(t *testing.T) {
	dir := t.TempDir()
	if code, out, errb := runCLI("demo", "-o", dir); code != exitOK {
		t.Fatalf("demo: exit %d\n%s\n%s", code, out, errb)
	}
	report := func(dataset string) []byte {
		var b bytes.Buffer
		r := datasets.Report(t, dataset)
		if len(r.Crawls) != 1 || r.Crawls[0].Captures != 36 {
			t.Fatalf("%s: want one crawl of the sample's 36 captures", dataset)
		}
		if err := r.Write(&b, analyze.JSON, "DATASET"); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	if demo, tests := report(filepath.Join(dir, "dataset")), report(datasets.Demo(t)); !bytes.Equal(demo, tests) {
		t.Errorf("the report of robocensus demo's dataset differs from datasets.Demo's:\n%.400s\n%.400s", demo, tests)
	}
}
