package schema_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/parquet-go/parquet-go"

	"github.com/robocensus/robocensus/schema"
)

// Round trips: the fixture dataset is written to a temporary directory in
// the dataset layout, then read back with parquet-go and with the Arrow
// reader, and must come back equal.

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	data := writeDataset(t, dir)
	for _, crawl := range []string{crawlA, crawlB} {
		rows := data[crawl]
		t.Run(crawl, func(t *testing.T) {
			checkRoundTrip(t, dir, crawl, rows.captures)
			checkRoundTrip(t, dir, crawl, rows.diagnostics)
			checkRoundTrip(t, dir, crawl, rows.rules)
			checkRoundTrip(t, dir, crawl, rows.sitemaps)
			checkRoundTrip(t, dir, crawl, rows.agents)
			checkRoundTrip(t, dir, crawl, rows.inputs)
			checkRoundTrip(t, dir, crawl, rows.bodies)
		})
	}
}

// checkRoundTrip reads one part back both ways and compares with want.
func checkRoundTrip[T schema.Row](t *testing.T, dir, crawl string, want []T) {
	t.Helper()
	table := schema.TableName[T]()
	path := filepath.Join(schema.PartitionDir(dir, table, crawl), schema.PartName(0))
	want = normalize(want)

	got, err := parquet.ReadFile[T](path)
	if err != nil {
		t.Fatalf("%s: parquet-go: %v", table, err)
	}
	if got = normalize(got); !reflect.DeepEqual(got, want) {
		t.Errorf("%s: parquet-go read back\n%+v\nwant\n%+v", table, got, want)
	}

	if got := readArrowRows[T](t, path); !reflect.DeepEqual(got, want) {
		t.Errorf("%s: Arrow read back\n%+v\nwant\n%+v", table, got, want)
	}
}

// readArrowRows reads a file with the Arrow reader, in batches of 2 rows,
// and turns the records back into rows, checking that all memory is freed.
func readArrowRows[T schema.Row](t *testing.T, path string) []T {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	r, err := schema.NewArrowReader(f, st.Size(), schema.WithAllocator(mem), schema.WithBatchSize(2),
		schema.WithTable(schema.TableName[T]()))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var rows []T
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec.NumRows() > 2 {
			t.Errorf("record of %d rows, batch size is 2", rec.NumRows())
		}
		rows = append(rows, rowsFromRecord[T](t, rec)...)
	}
	if int64(len(rows)) != r.NumRows() {
		t.Errorf("read %d rows, footer says %d", len(rows), r.NumRows())
	}
	return normalize(rows)
}

// rowsFromRecord converts an Arrow record to rows of T, matching struct
// fields to columns by their parquet tag name; NULL becomes the zero value
// (nil for a pointer field).
func rowsFromRecord[T schema.Row](t *testing.T, rec arrow.Record) []T {
	t.Helper()
	rows := make([]T, rec.NumRows())
	rt := reflect.TypeFor[T]()
	for f := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(f).Tag.Get("parquet"), ",")
		idx := rec.Schema().FieldIndices(name)
		if len(idx) != 1 {
			t.Fatalf("column %s: %d matches in %s", name, len(idx), rec.Schema())
		}
		col := rec.Column(idx[0])
		for i := range rows {
			if !col.IsValid(i) {
				continue
			}
			field, v := reflect.ValueOf(&rows[i]).Elem().Field(f), arrowValue(t, col, i)
			if field.Kind() == reflect.Pointer { // NULL is nil, a value a pointer to it
				p := reflect.New(v.Type())
				p.Elem().Set(v)
				v = p
			}
			field.Set(v)
		}
	}
	return rows
}

// arrowValue returns the Go value of row i of an Arrow column.
func arrowValue(t *testing.T, col arrow.Array, i int) reflect.Value {
	switch col := col.(type) {
	case *array.String:
		return reflect.ValueOf(col.Value(i))
	case *array.Int32:
		return reflect.ValueOf(col.Value(i))
	case *array.Int64:
		return reflect.ValueOf(col.Value(i))
	case *array.Boolean:
		return reflect.ValueOf(col.Value(i))
	case *array.Timestamp:
		return reflect.ValueOf(time.UnixMicro(int64(col.Value(i))).UTC())
	case *array.List:
		start, end := col.ValueOffsets(i)
		elems := col.ListValues().(*array.String)
		list := []string{}
		for j := start; j < end; j++ {
			list = append(list, elems.Value(int(j)))
		}
		return reflect.ValueOf(list)
	}
	t.Fatalf("unexpected Arrow column type %s", col.DataType())
	return reflect.Value{}
}

// normalize makes rows comparable: times in UTC (parquet-go reads
// timestamps that are not adjusted to UTC in time.Local), and nil lists
// empty, as Parquet does not tell them apart.
func normalize[T schema.Row](rows []T) []T {
	out := make([]T, len(rows))
	for i := range rows {
		out[i] = rows[i]
		v := reflect.ValueOf(&out[i]).Elem()
		for f := range v.NumField() {
			switch x := v.Field(f).Interface().(type) {
			case time.Time:
				v.Field(f).Set(reflect.ValueOf(x.UTC()))
			case []string:
				if x == nil {
					v.Field(f).Set(reflect.ValueOf([]string{}))
				}
			}
		}
	}
	return out
}

// TestArrowSchemas checks each table's declared Arrow schema against the
// one the Arrow Parquet reader derives from a written file, and against the
// Parquet schema's column names.
func TestArrowSchemas(t *testing.T) {
	dir := t.TempDir()
	writeDataset(t, dir)
	for _, table := range schema.Tables() {
		t.Run(table.Name, func(t *testing.T) {
			r := openArrow(t, filepath.Join(schema.PartitionDir(dir, table.Name, crawlA), schema.PartName(0)))
			got := r.Schema()
			if !sameFields(got, table.Arrow) {
				t.Errorf("file reads as\n%s\ndeclared\n%s", got, table.Arrow)
			}
			var names []string
			for _, f := range table.Parquet.Fields() {
				names = append(names, f.Name())
			}
			if fmt.Sprint(names) != fmt.Sprint(fieldNames(table.Arrow)) {
				t.Errorf("Parquet columns %v, Arrow fields %v", names, fieldNames(table.Arrow))
			}
		})
	}
}

// sameFields compares names, types and nullability, ignoring the Parquet
// field-id metadata the reader adds.
func sameFields(a, b *arrow.Schema) bool {
	if a.NumFields() != b.NumFields() {
		return false
	}
	for i := range a.NumFields() {
		fa, fb := a.Field(i), b.Field(i)
		if fa.Name != fb.Name || fa.Nullable != fb.Nullable || !arrow.TypeEqual(fa.Type, fb.Type) {
			return false
		}
	}
	return true
}

func fieldNames(s *arrow.Schema) []string {
	var names []string
	for _, f := range s.Fields() {
		names = append(names, f.Name)
	}
	return names
}

// openArrow opens a file with the Arrow reader; the test closes both.
func openArrow(t *testing.T, path string, opts ...schema.ReaderOption) *schema.ArrowReader {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	r, err := schema.NewArrowReader(f, st.Size(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// TestTimestampPrecision: nanoseconds are cut to microseconds, DuckDB's unit.
func TestTimestampPrecision(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2025, 2, 3, 4, 5, 6, 999_999_999, time.FixedZone("CET", 3600))
	path := writePart(t, dir, crawlA, []schema.Input{{Input: "x", Started: at, Finished: at}})
	got := readArrowRows[schema.Input](t, path)
	want := at.Truncate(time.Microsecond).UTC()
	if !got[0].Started.Equal(want) || got[0].Started.Nanosecond() != 999_999_000 {
		t.Errorf("started = %v, want %v", got[0].Started, want)
	}
}
