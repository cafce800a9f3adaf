package schema_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/schema"
)

func sourceOf(t *testing.T, path string) schema.Source {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return schema.Source{Name: path, R: bytes.NewReader(data), Size: int64(len(data))}
}

// concatTable merges the two fixture partitions of table T into one file and
// checks that every reader sees the rows of both, in order.
func concatTable[T schema.Row](t *testing.T, dir string, data map[string]crawlRows, rowsOf func(crawlRows) []T) {
	t.Helper()
	table := schema.TableName[T]()
	var sources []schema.Source
	var want []T
	for _, crawl := range []string{crawlA, crawlB} {
		sources = append(sources, sourceOf(t, filepath.Join(schema.PartitionDir(dir, table, crawl), schema.PartName(0))))
		want = append(want, rowsOf(data[crawl])...)
	}
	var buf bytes.Buffer
	n, err := schema.Concat(&buf, sources)
	if err != nil {
		t.Fatalf("%s: %v", table, err)
	}
	if n != int64(len(want)) {
		t.Errorf("%s: Concat says %d rows, want %d", table, n, len(want))
	}
	out := filepath.Join(t.TempDir(), "merged", table, "crawl=m", "part-00000.parquet")
	os.MkdirAll(filepath.Dir(out), 0o755)
	os.WriteFile(out, buf.Bytes(), 0o644)
	got, err := parquet.ReadFile[T](out)
	if err != nil {
		t.Fatalf("%s: parquet-go: %v", table, err)
	}
	if !reflect.DeepEqual(normalize(got), normalize(want)) {
		t.Errorf("%s: merged rows differ\n%+v\n%+v", table, got, want)
	}
	if len(want) > 0 && !reflect.DeepEqual(readArrowRows[T](t, out), normalize(want)) {
		t.Errorf("%s: Arrow reads other rows", table)
	}
	db := testutil.DuckDB(t, filepath.Join(filepath.Dir(out), "..", ".."))
	if got := testutil.Query(t, db, "SELECT count(*) FROM "+table); got != itoa(len(want)) {
		t.Errorf("%s: DuckDB counts %s rows, want %d", table, got, len(want))
	}
	v, err := schema.ReadVersion(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil || v != schema.Version {
		t.Errorf("%s: version %q %v", table, v, err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestConcat(t *testing.T) {
	dir := t.TempDir()
	data := writeDataset(t, dir)
	concatTable(t, dir, data, func(r crawlRows) []schema.Capture { return r.captures })
	concatTable(t, dir, data, func(r crawlRows) []schema.Diagnostic { return r.diagnostics })
	concatTable(t, dir, data, func(r crawlRows) []schema.Rule { return r.rules })
	concatTable(t, dir, data, func(r crawlRows) []schema.Agent { return r.agents })
	concatTable(t, dir, data, func(r crawlRows) []schema.Input { return r.inputs })
	concatTable(t, dir, data, func(r crawlRows) []schema.Body { return r.bodies })
}

// Files of the AgentsWriter merge too, several row groups each.
func TestConcatAgentsWriterFiles(t *testing.T) {
	agents := []string{"a", "b", "c"}
	var sources []schema.Source
	var want []schema.Agent
	for seed := range uint64(3) {
		caps, rows := agentCases(5000, agents, seed)
		var buf bytes.Buffer
		writeAgents(t, &buf, agents, caps)
		sources = append(sources, schema.Source{Name: "agents", R: bytes.NewReader(buf.Bytes()), Size: int64(buf.Len())})
		want = append(want, rows...)
	}
	var merged bytes.Buffer
	if _, err := schema.Concat(&merged, sources); err != nil {
		t.Fatal(err)
	}
	got, err := parquet.Read[schema.Agent](bytes.NewReader(merged.Bytes()), int64(merged.Len()))
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("merged agents: %d rows (want %d), %v", len(got), len(want), err)
	}
}

func TestConcatRefusesOtherSchemas(t *testing.T) {
	dir := t.TempDir()
	writeDataset(t, dir)
	a := sourceOf(t, filepath.Join(schema.PartitionDir(dir, "captures", crawlA), schema.PartName(0)))
	b := sourceOf(t, filepath.Join(schema.PartitionDir(dir, "rules", crawlA), schema.PartName(0)))
	if _, err := schema.Concat(&bytes.Buffer{}, []schema.Source{a, b}); !errors.Is(err, schema.ErrSchemaMismatch) {
		t.Errorf("captures + rules: %v", err)
	}
	bad := schema.Source{Name: "junk", R: bytes.NewReader([]byte("not parquet at all")), Size: 18}
	if _, err := schema.Concat(&bytes.Buffer{}, []schema.Source{bad}); err == nil {
		t.Error("junk accepted")
	}
}
