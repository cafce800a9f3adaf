package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
)

// TestIssue27RerunSubsetKeeps: a crawl published from three WARC files,
// then ingested again with one of them, keeps the other two's rows in
// every table (the partition is the one published from all three), exits
// 0 and says what it kept; --drop-missing with two of them drops the third
// (the partition is the one a clean run of the two publishes) and says how
// many inputs and captures it dropped; with a mistyped input it drops
// nothing.
func TestIssue27RerunSubsetKeeps(t *testing.T) {
	const perInput = 30
	inputs := makeInputs(t, t.TempDir(), 3, perInput)
	ingest := func(dir string, extra []string, in ...string) (stdout, stderr string) {
		t.Helper()
		code, out, errs := runCLI(ingestArgs(dir, extra, in)...)
		if code != 0 {
			t.Fatalf("ingest %v: exit %d\n%s%s", in, code, out, errs)
		}
		return out, errs
	}
	dir := t.TempDir()
	ingest(dir, nil, inputs...)
	all := fingerprint(t, dir)

	out, errs := ingest(dir, nil, inputs[0])
	if got := fingerprint(t, dir); got != all {
		t.Errorf("rerun with one input of three changed the partition:\n got %s\nwant %s\n%s%s", got, all, out, errs)
	}
	if got := publishedCounts(t, dir); got != "3 inputs, 90 captures, 3 files" {
		t.Errorf("after the rerun with one input: %s, want every input's captures", got)
	}
	if want := fmt.Sprintf("inputs=2 captures=%d", 2*perInput); !hasLogLine(errs, "not named", want) {
		t.Errorf("the rerun did not log the inputs it kept (%s):\n%s", want, errs)
	}
	if !strings.Contains(out, "2 inputs not named kept as published (60 captures)") {
		t.Errorf("the rerun did not say it kept the inputs not named:\n%s", out)
	}

	out, _ = ingest(dir, []string{"--dry-run", "--drop-missing"}, inputs[:2]...)
	if want := "dropped\t" + inputs[2] + "\n"; !strings.Contains(out, want) || !strings.HasSuffix(out, ", 1 published not named dropped\n") {
		t.Errorf("--dry-run --drop-missing does not list the input it drops (%q):\n%s", want, out)
	}
	out, errs = ingest(dir, []string{"--drop-missing"}, inputs[:2]...)
	clean := t.TempDir()
	ingest(clean, nil, inputs[:2]...)
	if got, want := fingerprint(t, dir), fingerprint(t, clean); got != want {
		t.Errorf("--drop-missing: the partition is not that of a clean run of the inputs named:\n got %s\nwant %s\n%s%s", got, want, out, errs)
	}
	if got := publishedCounts(t, dir); got != "2 inputs, 60 captures, 2 files" {
		t.Errorf("after --drop-missing: %s", got)
	}
	if want := fmt.Sprintf("inputs=1 captures=%d", perInput); !hasLogLine(errs, "dropped", want) {
		t.Errorf("--drop-missing did not log what it dropped (%s):\n%s", want, errs)
	}
	if !strings.Contains(out, "dropped 1 input not named (30 captures)") {
		t.Errorf("--drop-missing did not say what it dropped:\n%s", out)
	}

	// A mistyped input, even with --drop-missing, publishes nothing: the
	// partition stays.
	before := fingerprint(t, dir)
	code, out, errs := runCLI(ingestArgs(dir, []string{"--drop-missing"}, []string{filepath.Join(t.TempDir(), "typo.warc.gz")})...)
	if code != 1 || !strings.Contains(out, "nothing published") || strings.Contains(out, "dropped") {
		t.Errorf("--drop-missing with a mistyped input: exit %d, want 1, nothing published, nothing dropped\n%s%s", code, out, errs)
	}
	if got := fingerprint(t, dir); got != before {
		t.Errorf("--drop-missing with a mistyped input changed the partition:\n got %s\nwant %s", got, before)
	}
}

// publishedCounts says how many inputs and captures the published
// partition has, and from how many WARC files its captures come.
func publishedCounts(t *testing.T, dir string) string {
	t.Helper()
	db := testutil.DuckDB(t, dir)
	return testutil.Query(t, db, `SELECT (SELECT count(*) FROM inputs) || ' inputs, ' || count(*) || ' captures, ' ||
		count(DISTINCT warc_filename) || ' files' FROM captures`)
}

// hasLogLine reports whether an info line of the log mentions what and
// holds fields.
func hasLogLine(log, what, fields string) bool {
	for line := range strings.Lines(log) {
		if strings.Contains(line, "level=INFO") && strings.Contains(line, what) && strings.Contains(line, fields) {
			return true
		}
	}
	return false
}

// TestIssue27RerunKeepsFailedInput: an input that failed in the published
// partition and is not given to a rerun is kept with its error: the rerun
// has nothing to do, and exits 1 while the crawl has a failed input.
func TestIssue27RerunKeepsFailedInput(t *testing.T) {
	inputs := makeInputs(t, t.TempDir(), 1, 10)
	missing := filepath.Join(t.TempDir(), "missing.warc.gz")
	dir := t.TempDir()
	if code, out, errs := runCLI(ingestArgs(dir, nil, []string{inputs[0], missing})...); code != 1 {
		t.Fatalf("first run: exit %d, want 1\n%s%s", code, out, errs)
	}
	before := fingerprint(t, dir)
	code, out, errs := runCLI(ingestArgs(dir, nil, inputs)...)
	if code != 1 || !strings.Contains(out, "already published") || !strings.Contains(out, "still failed: 1 input") {
		t.Errorf("rerun without the failed input: exit %d, want 1, nothing to do, still failed\n%s%s", code, out, errs)
	}
	if got := fingerprint(t, dir); got != before {
		t.Errorf("rerun without the failed input changed the partition:\n got %s\nwant %s", got, before)
	}
	if got := testutil.Query(t, testutil.DuckDB(t, dir), "SELECT count(*) FROM inputs WHERE error IS NOT NULL AND input = ?", missing); got != "1" {
		t.Errorf("the failed input's row: %s, want 1", got)
	}
}
