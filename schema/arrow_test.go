package schema_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/parquet-go/parquet-go"

	"github.com/robocensus/robocensus/schema"
)

func TestArrowReaderErrors(t *testing.T) {
	data := ourFile(t, fixtureA().captures)
	tests := []struct {
		name string
		opts []schema.ReaderOption
		want error
	}{
		{"no such column", []schema.ReaderOption{schema.WithColumns("capture_id", "nope")}, schema.ErrNoColumn},
		{"no column", []schema.ReaderOption{schema.WithColumns()}, schema.ErrBadOption},
		{"wrong table", []schema.ReaderOption{schema.WithTable("rules")}, schema.ErrWrongTable},
		{"unknown table", []schema.ReaderOption{schema.WithTable("robots")}, schema.ErrUnknownTable},
		{"zero batch", []schema.ReaderOption{schema.WithBatchSize(0)}, schema.ErrBadOption},
		{"nil allocator", []schema.ReaderOption{schema.WithAllocator(nil)}, schema.ErrBadOption},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			opts := append([]schema.ReaderOption{schema.WithAllocator(mem)}, tt.opts...)
			r, err := schema.NewArrowReader(bytes.NewReader(data), int64(len(data)), opts...)
			if !errors.Is(err, tt.want) {
				t.Errorf("got %v, want %v", err, tt.want)
			}
			if err == nil {
				r.Close()
			}
		})
	}
}

// TestArrowReaderColumns: a projection reads the named columns, in file
// order, a list column included.
func TestArrowReaderColumns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	data := ourFile(t, fixtureA().captures, schema.WithMetadata("robocensus.crawl", crawlA))
	r, err := schema.NewArrowReader(bytes.NewReader(data), int64(len(data)), schema.WithAllocator(mem),
		schema.WithColumns("user_agents", "capture_id"), schema.WithTable("captures"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got := fieldNames(r.Schema()); len(got) != 2 || got[0] != "capture_id" || got[1] != "user_agents" {
		t.Errorf("fields %v, want [capture_id user_agents]", got)
	}
	if r.Version() != schema.Version || r.Metadata("robocensus.crawl") != crawlA || r.Metadata("nope") != "" {
		t.Errorf("version %q, crawl %q", r.Version(), r.Metadata("robocensus.crawl"))
	}
	rec, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	ids, lists := rec.Column(0).(*array.String), rec.Column(1).(*array.List)
	if ids.Value(2) != "a-3" || lists.ValueStr(2) != `["😀bot","Ünïcødé","","*"]` {
		t.Errorf("row 2: %q %s", ids.Value(2), lists.ValueStr(2))
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("second Next: %v, want io.EOF", err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("Next after EOF: %v, want io.EOF", err)
	}
}

func TestArrowReaderUseAfterClose(t *testing.T) {
	data := ourFile(t, fixtureA().agents)
	r, err := schema.NewArrowReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := r.Next(); !errors.Is(err, schema.ErrClosed) {
		t.Errorf("Next after Close: %v, want ErrClosed", err)
	}
}

// TestArrowReaderBoundedMemory reads a file of several row groups in small
// batches: the memory held at any time stays far below the file's size,
// and all of it is freed.
func TestArrowReaderBoundedMemory(t *testing.T) {
	const n = 2*schema.DefaultRowGroupRows + 1000
	data := ourFile(t, syntheticCaptures(n))
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r, err := schema.NewArrowReader(bytes.NewReader(data), int64(len(data)), schema.WithAllocator(mem), schema.WithBatchSize(4096))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var rows int64
	peak := 0
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		rows += rec.NumRows()
		peak = max(peak, mem.CurrentAlloc())
	}
	if rows != n {
		t.Errorf("read %d rows, want %d", rows, n)
	}
	t.Logf("file %d bytes, %d rows; peak Arrow memory %d bytes", len(data), n, peak)
	if peak > 16<<20 {
		t.Errorf("peak Arrow memory %d bytes; want under 16 MiB", peak)
	}
}

// TestArrowV15Leaks is why NewWriter fixes data page version 1 and PLAIN
// strings: with parquet-go's defaults (version 2 pages, strings in
// DELTA_LENGTH_BYTE_ARRAY), arrow/go/v15's reader does not free all it
// allocates. If this test fails, a newer Arrow fixed it and the writer may
// use the defaults again.
func TestArrowV15Leaks(t *testing.T) {
	data := parquetFile(t, fixtureA().diagnostics,
		parquet.KeyValueMetadata(schema.VersionKey, schema.Version), parquet.KeyValueMetadata(schema.TableKey, "diagnostics"))
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	r, err := schema.NewArrowReader(bytes.NewReader(data), int64(len(data)), schema.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	for err == nil {
		_, err = r.Next()
	}
	if err != io.EOF {
		t.Fatal(err)
	}
	r.Close()
	if mem.CurrentAlloc() == 0 {
		t.Error("no leak with parquet-go's default encodings any more")
	}
}

// TestArrowReaderDictionary reads string columns as dictionaries from
// files of several row groups, in batches that do not divide them (where
// arrow/go/v15 cannot join two dictionaries in one record), and checks
// every value against a plain read: an agents file of AgentsWriter, and a
// diagnostics file of Writer with small row groups and data pages.
func TestArrowReaderDictionary(t *testing.T) {
	var agents bytes.Buffer
	caps, _ := agentCases(5000, []string{"GPTBot", "CCBot", "Googlebot"}, 3)
	writeAgents(t, &agents, []string{"GPTBot", "CCBot", "Googlebot"}, caps)
	var diags []schema.Diagnostic
	for i := range 5000 {
		diags = append(diags, schema.Diagnostic{CaptureID: fmt.Sprint("c", i/7), Code: fmt.Sprint("code-", i%13), Severity: "info", Message: "m"})
	}
	f := func(name string, data []byte, columns ...string) {
		t.Helper()
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		plain := readStrings(t, data, nil, mem, columns)
		dict := readStrings(t, data, columns, mem, columns)
		if len(plain) == 0 || !slices.Equal(plain, dict) {
			t.Errorf("%s: %d values read as dictionaries, %d plain, or they differ", name, len(dict), len(plain))
		}
	}
	f("agents", agents.Bytes(), "capture_id", "agent", "verdict")
	f("diagnostics", ourFile(t, diags, schema.WithRowGroupRows(1500), schema.WithPageBufferSize(4096)), "capture_id", "code")
}

// readStrings reads the named string columns of a file in batches of 1000
// rows, those in dict as dictionaries, and returns their values row by
// row.
func readStrings(t *testing.T, data []byte, dict []string, mem memory.Allocator, columns []string, more ...schema.ReaderOption) []string {
	t.Helper()
	opts := append([]schema.ReaderOption{schema.WithAllocator(mem), schema.WithBatchSize(1000), schema.WithColumns(columns...)}, more...)
	if dict != nil {
		opts = append(opts, schema.WithDictionary(dict...))
	}
	r, err := schema.NewArrowReader(bytes.NewReader(data), int64(len(data)), opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []string
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec.NumRows() > 1000 {
			t.Errorf("record of %d rows, batch size 1000", rec.NumRows())
		}
		for i := range int(rec.NumRows()) {
			for c := range columns {
				switch col := rec.Column(c).(type) {
				case *array.Dictionary:
					out = append(out, col.Dictionary().(*array.String).Value(col.GetValueIndex(i)))
				case *array.String:
					out = append(out, col.Value(i))
				default:
					t.Fatalf("column %s is %s", columns[c], col.DataType())
				}
			}
		}
	}
}

// Row groups read alone, plain or as dictionaries, add up to the file; they
// are read in the order given; a row group the file does not have is an
// error.
func TestArrowReaderRowGroups(t *testing.T) {
	var diags []schema.Diagnostic
	for i := range 5000 {
		diags = append(diags, schema.Diagnostic{CaptureID: fmt.Sprint("c", i/7), Code: fmt.Sprint("code-", i%13), Severity: "info", Message: "m"})
	}
	data := ourFile(t, diags, schema.WithRowGroupRows(1500))
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	columns := []string{"capture_id", "code"}
	all := readStrings(t, data, nil, mem, columns)
	r, err := schema.NewArrowReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	groups := r.NumRowGroups()
	r.Close()
	if groups != 4 || len(all) != 2*5000 {
		t.Fatalf("%d row groups, %d values; want 4 and 10000", groups, len(all))
	}
	for _, dict := range [][]string{nil, columns} {
		var parts [][]string
		var joined []string
		for g := range groups {
			part := readStrings(t, data, dict, mem, columns, schema.WithRowGroups(g))
			parts = append(parts, part)
			joined = append(joined, part...)
		}
		if !slices.Equal(joined, all) {
			t.Errorf("dictionaries %v: row groups read one by one differ from the file", dict)
		}
		if got := readStrings(t, data, dict, mem, columns, schema.WithRowGroups(2, 0)); !slices.Equal(got, slices.Concat(parts[2], parts[0])) {
			t.Errorf("dictionaries %v: row groups 2 and 0 are not read in that order", dict)
		}
	}
	for _, opt := range []schema.ReaderOption{schema.WithRowGroups(), schema.WithRowGroups(4), schema.WithRowGroups(-1)} {
		if _, err := schema.NewArrowReader(bytes.NewReader(data), int64(len(data)), opt); !errors.Is(err, schema.ErrBadOption) {
			t.Errorf("got %v, want ErrBadOption", err)
		}
	}
}

func TestArrowReaderDictionaryErrors(t *testing.T) {
	data := ourFile(t, fixtureA().diagnostics)
	for _, tc := range []struct {
		opt  schema.ReaderOption
		want error
	}{
		{schema.WithDictionary(), schema.ErrBadOption},
		{schema.WithDictionary("nope"), schema.ErrNoColumn},
		{schema.WithDictionary("line"), schema.ErrBadOption},
	} {
		r, err := schema.NewArrowReader(bytes.NewReader(data), int64(len(data)), tc.opt)
		if !errors.Is(err, tc.want) {
			t.Errorf("got %v, want %v", err, tc.want)
		}
		if err == nil {
			r.Close()
		}
	}
}

// capture20 is a captures row as schema 2.0 wrote it, for the columns the
// test reads: without payload_length_real, which 2.1 added.
type capture20 struct {
	CaptureID     string `parquet:"capture_id"`
	PayloadLength int64  `parquet:"payload_length"`
	Oversize      bool   `parquet:"oversize"`
}

// TestArrowReaderAddedColumn (issue 27 item 7): a column added since a
// file's version was written reads from it as NULL, after the file's
// columns; a file of the current version without it, a column of no
// table, and a projection of absent columns alone are refused.
func TestArrowReaderAddedColumn(t *testing.T) {
	rows := []capture20{{"a", 1 << 20, true}, {"b", 0, false}}
	captures := func(version string) []byte {
		return parquetFile(t, rows, parquet.DataPageVersion(1), parquet.DefaultEncodingFor(parquet.ByteArray, &parquet.Plain), // as NewWriter writes (TestArrowV15Leaks)
			parquet.KeyValueMetadata(schema.VersionKey, version), parquet.KeyValueMetadata(schema.TableKey, "captures"))
	}
	read := func(data []byte, columns ...string) (string, error) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		r, err := schema.NewArrowReader(bytes.NewReader(data), int64(len(data)), schema.WithAllocator(mem), schema.WithColumns(columns...))
		if err != nil {
			return "", err
		}
		defer r.Close()
		rec, err := r.Next()
		if err != nil {
			return "", err
		}
		out := fmt.Sprint(fieldNames(r.Schema()))
		for i, c := range rec.Columns() {
			out += fmt.Sprintf(" %s:%s", rec.ColumnName(i), c)
		}
		return out, nil
	}
	for _, v := range []string{"2.0", "1.3"} {
		got, err := read(captures(v), "payload_length_real", "capture_id", "payload_length")
		if want := `[capture_id payload_length payload_length_real] capture_id:["a" "b"] payload_length:[1048576 0] payload_length_real:[(null) (null)]`; err != nil || got != want {
			t.Errorf("schema %s file:\n got %s, %v\nwant %s", v, got, err, want)
		}
	}
	for _, tt := range []struct {
		version string
		columns []string
	}{
		{schema.Version, []string{"capture_id", "payload_length_real"}}, // a current file must have it
		{"2.0", []string{"capture_id", "nope"}},                         // not a column of captures
		{"2.0", []string{"payload_length_real"}},                        // nothing from the file
	} {
		if got, err := read(captures(tt.version), tt.columns...); !errors.Is(err, schema.ErrNoColumn) {
			t.Errorf("schema %s file, columns %v: %s, %v, want ErrNoColumn", tt.version, tt.columns, got, err)
		}
	}
}
