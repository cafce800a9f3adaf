package dataset

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/robocensus/robocensus/schema"
)

// TestHostsParts: the hosts rows, handed on a bucket at a time, are cut
// into parts of hostsPartRows rows, in the order given, none lost or
// repeated at the cuts.
func TestHostsParts(t *testing.T) {
	defer func(rows int) { hostsPartRows = rows }(hostsPartRows)
	hostsPartRows = 4
	stage := newTestStaging(t)
	var want []schema.Host
	out := &hostsWriter{stage: stage}
	for _, bucket := range []int{3, 0, 5, 6, 1} {
		var rows []schema.Host
		for range bucket {
			rows = append(rows, schema.Host{URLHostName: fmt.Sprintf("h%02d.example", len(want)+len(rows)), Captures: 1, RedirectResult: "none"})
		}
		want = append(want, rows...)
		if err := out.add(rows); err != nil {
			t.Fatal(err)
		}
	}
	if err := out.close(); err != nil {
		t.Fatal(err)
	}
	parts := stagedHosts(t, stage)
	if wantParts := (len(want) + 3) / 4; len(parts) != wantParts {
		t.Fatalf("%d parts, want %d", len(parts), wantParts)
	}
	var got []schema.Host
	for i, part := range parts {
		if len(part) > 4 || len(part) < 4 && i < len(parts)-1 {
			t.Errorf("part %d has %d rows", i, len(part))
		}
		got = append(got, part...)
	}
	if !slices.Equal(got, want) {
		t.Errorf("hosts of the parts:\n got %+v\nwant %+v", got, want)
	}
}

// TestHostsEmpty: a partition without captures gets an empty hosts part,
// and the spill folder is gone.
func TestHostsEmpty(t *testing.T) {
	stage := newTestStaging(t)
	if err := writeEmpty(stage, schema.TableName[schema.Capture]()); err != nil {
		t.Fatal(err)
	}
	captures, _ := filepath.Glob(filepath.Join(stage.partitionDir("captures"), "*.parquet"))
	if err := buildHosts(stage, captures); err != nil {
		t.Fatal(err)
	}
	if parts := stagedHosts(t, stage); len(parts) != 1 || len(parts[0]) != 0 {
		t.Errorf("hosts parts of no capture: %v, want one empty part", parts)
	}
	if rest, _ := filepath.Glob(filepath.Join(stage.path, "hosts-work*")); len(rest) != 0 {
		t.Errorf("spill folder left: %v", rest)
	}
}

// newTestStaging returns a staging folder of a crawl in a temporary folder.
func newTestStaging(t *testing.T) *Staging {
	t.Helper()
	stage, err := newStaging(t.TempDir(), "CC-MAIN-2025-05", schema.Zstd)
	if err != nil {
		t.Fatal(err)
	}
	return stage
}

// stagedHosts returns the rows of each staged hosts part, in the order of
// the parts and of the rows in each.
func stagedHosts(t *testing.T, stage *Staging) [][]schema.Host {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(stage.partitionDir("hosts"), "*.parquet"))
	slices.Sort(paths) // part names sort in the order they were written
	var parts [][]schema.Host
	for _, p := range paths {
		rows := []schema.Host{}
		if err := eachRow(p, func(h *schema.Host) error { rows = append(rows, *h); return nil }); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, rows)
	}
	return parts
}
