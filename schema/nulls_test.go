package schema_test

import (
	"bytes"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/schema"
)

// TestIssue16OptionalNulls: an optional column is NULL exactly where the Go
// value is zero, whatever the pattern of NULLs and values in a batch
// (parquet-go v0.32.0 wrote "" for some NULLs after a short run of values:
// see schema/nulls.go). Every optional column of the inputs, captures and
// diagnostics tables, random patterns and the patterns around 64-row words.
func TestIssue16OptionalNulls(t *testing.T) {
	db := testutil.OpenDuckDB(t)
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(16, 16))
	patterns := [][]bool{{true, false, true}, {false, true, false}, {false, true, true, false, false, true}}
	for range 40 {
		p := make([]bool, 1+rng.IntN(300))
		for i := range p {
			p[i] = rng.IntN(4) == 0
		}
		patterns = append(patterns, p)
	}
	for k, p := range patterns {
		want := 0
		inputs := make([]schema.Input, len(p))
		captures := make([]schema.Capture, len(p))
		diags := make([]schema.Diagnostic, len(p))
		for i, set := range p {
			inputs[i] = schema.Input{Input: fmt.Sprint(i)}
			captures[i] = schema.Capture{CaptureID: fmt.Sprint(i)}
			diags[i] = schema.Diagnostic{CaptureID: fmt.Sprint(i)}
			if set {
				want++
				inputs[i].Error, inputs[i].Damage = "e", "d"
				c := &captures[i]
				c.FetchTime, c.FetchStatus, c.ContentMimeType, c.ContentMimeDetected = time.Unix(1, 0).UTC(), 200, "m", "m"
				c.ContentDigest, c.ContentTruncated, c.WARCRecordID, c.FetchRedirect = "p", "t", "w", "r"
				diags[i].Text = "x"
			}
		}
		check(t, db, dir, fmt.Sprintf("inputs-%d", k), inputs, want, "error", "damage")
		check(t, db, dir, fmt.Sprintf("captures-%d", k), captures, want, "fetch_time", "fetch_status", "content_mime_type",
			"content_mime_detected", "content_digest", "content_truncated", "warc_record_id", "fetch_redirect")
		check(t, db, dir, fmt.Sprintf("diagnostics-%d", k), diags, want, "text")
	}
}

// check writes rows to a file and asks DuckDB how many values of each
// column are not NULL.
func check[T schema.Row](t *testing.T, db *sql.DB, dir, name string, rows []T, want int, columns ...string) {
	t.Helper()
	var buf bytes.Buffer
	w := schema.NewWriter[T](&buf)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	countNotNull(t, db, dir, name, buf.Bytes(), want, columns)
}

// countNotNull writes file as name in dir and asks DuckDB how many values
// of each column are not NULL.
func countNotNull(t *testing.T, db *sql.DB, dir, name string, file []byte, want int, columns []string) {
	t.Helper()
	path := filepath.Join(dir, name+".parquet")
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, col := range columns {
		var got int
		if err := db.QueryRow(fmt.Sprintf("SELECT count(%s) FROM read_parquet(%s)", col, quote(path))).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s: %d values of %s not NULL, want %d", name, got, col, want)
		}
	}
}

// TestOptionalNullsAcrossRowGroups: a NULL stays NULL when a batch crosses
// a row group's end. parquet-go cuts such a batch where the row group is
// full and counts its 64-row words from there, not from the batch's start
// (ingest's readings table wrote 0 for 80 NULLs of line this way, a run
// of rows with line 0 after a short run with a line, where a row group
// ended). Many batches of random sizes into small row groups, random runs
// of NULLs and values, with and without row groups ended early (Flush).
func TestOptionalNullsAcrossRowGroups(t *testing.T) {
	db := testutil.OpenDuckDB(t)
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(33, 16))
	for _, groupRows := range []int64{1, 7, 50, 64, 100, 1000} {
		for _, flushEvery := range []int{0, 7} {
			var readings []schema.Reading
			want := 0
			for len(readings) < int(min(20000, 300*groupRows)) {
				run := 1 + rng.IntN(40)
				set := rng.IntN(2) == 0
				for range run {
					r := schema.Reading{CaptureID: fmt.Sprint(len(readings))}
					if set {
						r.Line, r.GoogleLine = 3, 4
						want++
					}
					readings = append(readings, r)
				}
			}
			var sizes []int
			for n := 0; n < len(readings); {
				s := min(1+rng.IntN(250), len(readings)-n)
				sizes = append(sizes, s)
				n += s
			}
			name := fmt.Sprintf("readings-%d-%d", groupRows, flushEvery)
			checkBatches(t, db, dir, name, readings, sizes, flushEvery, want, schema.WithRowGroupRows(groupRows))
		}
	}
}

// checkBatches is check with rows written in batches of the given sizes,
// a row group ended (Flush) after every flushEvery-th batch when it is
// not 0, and the columns line and google_line counted.
func checkBatches(t *testing.T, db *sql.DB, dir, name string, rows []schema.Reading, sizes []int, flushEvery, want int, opts ...schema.WriterOption) {
	t.Helper()
	var buf bytes.Buffer
	w := schema.NewWriter[schema.Reading](&buf, opts...)
	for i, s := range sizes {
		if _, err := w.Write(rows[:s]); err != nil {
			t.Fatal(err)
		}
		rows = rows[s:]
		if flushEvery > 0 && i%flushEvery == flushEvery-1 {
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	countNotNull(t, db, dir, name, buf.Bytes(), want, []string{"line", "google_line"})
}
