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
	path := filepath.Join(dir, name+".parquet")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
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
