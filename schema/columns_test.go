package schema_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/schema"
)

// sampleRules returns rules as ingest makes them: the rows of a capture
// share its capture_id and url_host_name strings, the rules of a group
// share one user_agents slice. Some lists are empty, and some strings are
// not UTF-8, among them two that repair to the same string.
func sampleRules(captures int) []schema.Rule {
	var rows []schema.Rule
	directives := []string{"allow", "disallow"}
	for c := range captures {
		id := "c" + strconv.Itoa(c*7919%captures)
		host := "host" + strconv.Itoa(c%97) + ".example"
		switch c % 50 {
		case 3:
			id += "\xff"
		case 4:
			host = "b\xe4d.example"
		case 5:
			host = "b\xf6d.example" // repairs to the same string as b\xe4d
		}
		groups := [][]string{{"*"}, {"GPTBot", "CCBot"}, {}, {"Google\xffbot"}, {"Bing" + strconv.Itoa(c%13)}}
		for g := range c%5 + 1 {
			agents := groups[(c+g)%len(groups)]
			for k := range (c+g)%7 + 1 {
				pattern := "/p" + strconv.Itoa(c) + "/" + strconv.Itoa(k)
				if k == 5 {
					pattern += "\xc3"
				}
				rows = append(rows, schema.Rule{CaptureID: id, URLHostName: host, GroupIndex: int32(g), UserAgents: agents,
					Directive: directives[(c+k)%2], Pattern: pattern, Line: int32(g*10 + k + 1),
					HasWildcard: k%3 == 0, HasEndAnchor: c%4 == 0 && k == 1})
			}
		}
	}
	return rows
}

func rulesFile(t *testing.T, rows []schema.Rule, batch int, opts ...schema.WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := schema.NewRulesWriter(&buf, opts...)
	for len(rows) > 0 {
		k := min(batch, len(rows))
		if n, err := w.Write(rows[:k]); err != nil || n != k {
			t.Fatalf("Write = %d, %v", n, err)
		}
		rows = rows[k:]
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestRulesWriterSameAsWriter: RulesWriter's file holds the rows of
// Writer[Rule]'s, in the same order (read back with parquet-go), and DuckDB
// reads the same values, types, row groups and row group statistics from
// both.
func TestRulesWriterSameAsWriter(t *testing.T) {
	rows := sampleRules(3000)
	before := slicesCloneRules(rows)
	opts := []schema.WriterOption{schema.WithRowGroupRows(5000), schema.WithPageBufferSize(4 << 10), schema.WithMetadata("robocensus.crawl", "test")}
	ours := rulesFile(t, rows, 777, opts...)
	theirs := ourFile(t, rows, opts...)
	if !reflect.DeepEqual(rows, before) {
		t.Fatal("RulesWriter modified the caller's rows")
	}
	got, err := parquet.Read[schema.Rule](bytes.NewReader(ours), int64(len(ours)))
	if err != nil {
		t.Fatal(err)
	}
	want, err := parquet.Read[schema.Rule](bytes.NewReader(theirs), int64(len(theirs)))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || len(got) != len(rows) {
		t.Fatalf("%d rows, Writer[Rule] %d, given %d", len(got), len(want), len(rows))
	}
	for i := range got {
		if !reflect.DeepEqual(got[i], want[i]) && !(len(got[i].UserAgents) == 0 && len(want[i].UserAgents) == 0) {
			t.Fatalf("row %d:\n%+v\nwant\n%+v", i, got[i], want[i])
		}
	}
	t.Logf("%d rows: RulesWriter %d bytes, Writer[Rule] %d bytes", len(rows), len(ours), len(theirs))
	sameInDuckDB(t, ours, theirs)
}

// sameInDuckDB checks that DuckDB reads the same rows, types, row groups,
// row group statistics and footer metadata from two Parquet files.
func sameInDuckDB(t *testing.T, ours, theirs []byte) {
	t.Helper()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "ours.parquet"), filepath.Join(dir, "theirs.parquet")
	if err := os.WriteFile(a, ours, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, theirs, 0o644); err != nil {
		t.Fatal(err)
	}
	db := testutil.OpenDuckDB(t)
	same := func(what, query string) {
		t.Helper()
		var n int64
		q := "SELECT count(*) FROM (" + query + ")"
		if err := db.QueryRow(q).Scan(&n); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if n != 0 {
			t.Errorf("%s: %d rows differ (%s)", what, n, q)
		}
	}
	for _, pair := range [][2]string{{a, b}, {b, a}} {
		same("rows", "SELECT * FROM '"+pair[0]+"' EXCEPT ALL SELECT * FROM '"+pair[1]+"'")
		same("types", "SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM '"+pair[0]+"') EXCEPT ALL "+
			"SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM '"+pair[1]+"')")
		meta := "SELECT row_group_id, row_group_num_rows, column_id, path_in_schema, type, num_values, stats_min_value, stats_max_value, stats_null_count, compression FROM parquet_metadata('%s')"
		same("row groups and statistics", fmt.Sprintf(meta, pair[0])+" EXCEPT ALL "+fmt.Sprintf(meta, pair[1]))
		kv := "SELECT decode(key), decode(value) FROM parquet_kv_metadata('%s')"
		same("footer metadata", fmt.Sprintf(kv, pair[0])+" EXCEPT ALL "+fmt.Sprintf(kv, pair[1]))
	}
}

func slicesCloneRules(rows []schema.Rule) []schema.Rule {
	out := make([]schema.Rule, len(rows))
	for i, r := range rows {
		r.UserAgents = slices.Clone(r.UserAgents)
		out[i] = r
	}
	return out
}

// TestRulesWriterConcat: Concat merges files of RulesWriter and of
// Writer[Rule] (ingest writes parts with the first, a rerun copies kept
// rows with the second).
func TestRulesWriterConcat(t *testing.T) {
	rows := sampleRules(200)
	ours, theirs := rulesFile(t, rows, 64), ourFile(t, rows)
	var out bytes.Buffer
	n, err := schema.Concat(&out, []schema.Source{
		{Name: "ours", R: bytes.NewReader(ours), Size: int64(len(ours))},
		{Name: "theirs", R: bytes.NewReader(theirs), Size: int64(len(theirs))},
	})
	if err != nil || n != int64(2*len(rows)) {
		t.Fatalf("Concat = %d, %v", n, err)
	}
	got, err := parquet.Read[schema.Rule](bytes.NewReader(out.Bytes()), int64(out.Len()))
	if err != nil || len(got) != 2*len(rows) {
		t.Fatalf("%d rows, %v", len(got), err)
	}
}

// TestRulesWriterEmpty: a file with no rows, and one whose lists are all
// empty (an empty user_agents dictionary), are valid, and DuckDB reads them
// as it reads Writer[Rule]'s.
func TestRulesWriterEmpty(t *testing.T) {
	for _, rows := range [][]schema.Rule{nil, {{CaptureID: "c", Pattern: "/"}, {CaptureID: "c", Pattern: "/x", UserAgents: []string{}}}} {
		data := rulesFile(t, rows, 10)
		got, err := parquet.Read[schema.Rule](bytes.NewReader(data), int64(len(data)))
		if err != nil || len(got) != len(rows) {
			t.Errorf("%d rows: read %d, %v", len(rows), len(got), err)
		}
		sameInDuckDB(t, data, ourFile(t, rows))
	}
}

// sampleDiagnostics returns diagnostics as ingest makes them: the rows of
// a capture share its capture_id and url_host_name, codes and severities
// come from a small vocabulary, text is empty (NULL) for the file's own
// findings, and some strings are not UTF-8.
func sampleDiagnostics(captures int) []schema.Diagnostic {
	var rows []schema.Diagnostic
	codes := []string{"pattern-wildcard", "typo-accepted", "empty", "bom-utf8\xff", "unknown-directive"}
	severities := []string{"info", "warning", "error"}
	for c := range captures {
		id := "c" + strconv.Itoa(c*7919%captures)
		host := "host" + strconv.Itoa(c%97) + ".example"
		if c%50 == 4 {
			host = "b\xe4d.example"
		}
		for k := range c%9 + 1 {
			d := schema.Diagnostic{CaptureID: id, URLHostName: host, Line: int32(k * 3), Code: codes[(c+k)%len(codes)],
				Severity: severities[(c*k)%3], Message: "message " + strconv.Itoa(c) + " " + strconv.Itoa(k)}
			if k > 0 {
				d.Text = "Disallow: /" + strconv.Itoa(k)
			}
			if k == 4 {
				d.Text += "\xc3("
				d.Message += "\xff"
			}
			rows = append(rows, d)
		}
	}
	return rows
}

// TestDiagnosticsWriterSameAsWriter: DiagnosticsWriter's file holds the
// rows of Writer[Diagnostic]'s, in the same order, and DuckDB reads the same
// values, types, row groups and row group statistics from both.
func TestDiagnosticsWriterSameAsWriter(t *testing.T) {
	rows := sampleDiagnostics(3000)
	before := slices.Clone(rows)
	opts := []schema.WriterOption{schema.WithRowGroupRows(4000), schema.WithPageBufferSize(4 << 10), schema.WithMetadata("robocensus.crawl", "test")}
	var buf bytes.Buffer
	w := schema.NewDiagnosticsWriter(&buf, opts...)
	for batch := rows; len(batch) > 0; {
		k := min(555, len(batch))
		if n, err := w.Write(batch[:k]); err != nil || n != k {
			t.Fatalf("Write = %d, %v", n, err)
		}
		batch = batch[k:]
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	ours, theirs := buf.Bytes(), ourFile(t, rows, opts...)
	if !reflect.DeepEqual(rows, before) {
		t.Fatal("DiagnosticsWriter modified the caller's rows")
	}
	got, err := parquet.Read[schema.Diagnostic](bytes.NewReader(ours), int64(len(ours)))
	if err != nil {
		t.Fatal(err)
	}
	want, err := parquet.Read[schema.Diagnostic](bytes.NewReader(theirs), int64(len(theirs)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) || len(got) != len(rows) {
		t.Fatalf("%d rows read back, Writer[Diagnostic] %d, given %d, or they differ", len(got), len(want), len(rows))
	}
	t.Logf("%d rows: DiagnosticsWriter %d bytes, Writer[Diagnostic] %d bytes", len(rows), len(ours), len(theirs))
	sameInDuckDB(t, ours, theirs)
}
