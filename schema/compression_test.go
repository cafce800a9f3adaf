package schema_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/schema"
)

// codecCases are the codecs with the name DuckDB's parquet_metadata gives
// their column chunks.
var codecCases = []struct {
	c      schema.Compression
	duckdb string
}{
	{schema.Zstd, "ZSTD"},
	{schema.Snappy, "SNAPPY"},
	{schema.Uncompressed, "UNCOMPRESSED"},
}

// codecFiles writes the same rows with each of the package's writers
// (Writer for captures and bodies, RulesWriter, DiagnosticsWriter,
// AgentsWriter), with opts, and returns the files by name. Small pages and
// row groups give the captures, rules and diagnostics several of both.
func codecFiles(t *testing.T, opts ...schema.WriterOption) map[string][]byte {
	t.Helper()
	opts = append([]schema.WriterOption{schema.WithRowGroupRows(700), schema.WithPageBufferSize(4 << 10)}, opts...)
	bodies := []schema.Body{{ContentDigest: "sha1:A", Body: strings.Repeat("User-agent: *\nDisallow: /private/\n", 300)},
		{ContentDigest: "sha1:B", Body: "User-agent: GPTBot\nDisallow: /\n"}}
	rules := rulesFile(t, sampleRules(300), 97, opts...)
	var diags, agents bytes.Buffer
	dw := schema.NewDiagnosticsWriter(&diags, opts...)
	if _, err := dw.Write(sampleDiagnostics(300)); err != nil {
		t.Fatal(err)
	}
	if err := dw.Close(); err != nil {
		t.Fatal(err)
	}
	tokens := []string{"Googlebot", "GPTBot", "CCBot"}
	caps, _ := agentCases(500, tokens, 3)
	aw := schema.NewAgentsWriter(&agents, tokens, opts...)
	for _, c := range caps {
		if err := aw.Add(c.id, c.host, c.named, c.access, c.via, c.source, c.cancel); err != nil {
			t.Fatal(err)
		}
	}
	if err := aw.Close(); err != nil {
		t.Fatal(err)
	}
	return map[string][]byte{
		"captures": ourFile(t, syntheticCaptures(1500), opts...), "bodies": ourFile(t, bodies, opts...),
		"rules": rules, "diagnostics": diags.Bytes(), "agents": agents.Bytes(),
	}
}

// TestCompression: every writer's file with each codec names the codec in
// every column chunk, and DuckDB reads from it the rows of the zstd file
// written from the same rows (Arrow and parquet-go too, for the captures).
// The codecs' sizes are logged.
func TestCompression(t *testing.T) {
	dir := t.TempDir()
	files := map[schema.Compression]map[string][]byte{}
	for _, cc := range codecCases {
		files[cc.c] = codecFiles(t, schema.WithCompression(cc.c))
		for name, data := range files[cc.c] {
			if err := os.WriteFile(filepath.Join(dir, cc.c.String()+"-"+name+".parquet"), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	db := testutil.OpenDuckDB(t)
	for _, cc := range codecCases {
		t.Run(cc.c.String(), func(t *testing.T) {
			for _, name := range []string{"captures", "bodies", "rules", "diagnostics", "agents"} {
				path := filepath.Join(dir, cc.c.String()+"-"+name+".parquet")
				zstd := filepath.Join(dir, "zstd-"+name+".parquet")
				got := testutil.Query(t, db, fmt.Sprintf("SELECT string_agg(DISTINCT compression, ',') || ' in ' || count(DISTINCT row_group_id) || ' row groups' FROM parquet_metadata('%s')", path))
				if !strings.HasPrefix(got, cc.duckdb+" in ") || strings.HasSuffix(got, " in 1 row groups") && name != "bodies" && name != "agents" {
					t.Errorf("%s: codecs %s, want %s (in several row groups)", name, got, cc.duckdb)
				}
				n := testutil.Query(t, db, fmt.Sprintf("SELECT count(*) FROM '%s'", path))
				differ := testutil.Query(t, db, fmt.Sprintf("SELECT count(*) FROM (SELECT * FROM '%[1]s' EXCEPT ALL SELECT * FROM '%[2]s' UNION ALL (SELECT * FROM '%[2]s' EXCEPT ALL SELECT * FROM '%[1]s'))", path, zstd))
				if n == "0" || differ != "0" {
					t.Errorf("%s: %s rows, %s differ from the zstd file's", name, n, differ)
				}
				t.Logf("%s: %d bytes (zstd %d)", name, len(files[cc.c][name]), len(files[schema.Zstd][name]))
			}
			captures := filepath.Join(dir, cc.c.String()+"-captures.parquet")
			if got, want := readArrowRows[schema.Capture](t, captures), normalize(syntheticCaptures(1500)); !reflect.DeepEqual(got, want) {
				t.Error("Arrow reads other captures")
			}
			r, err := schema.NewReader[schema.Capture](bytes.NewReader(files[cc.c]["captures"]), int64(len(files[cc.c]["captures"])))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			rows := make([]schema.Capture, 2000)
			if n, _ := r.Read(rows); n != 1500 {
				t.Errorf("schema.Reader reads %d captures, want 1500", n)
			}
		})
	}
	if s, z := len(files[schema.Snappy]["bodies"]), len(files[schema.Zstd]["bodies"]); s <= z {
		t.Errorf("bodies: snappy %d bytes, not more than zstd's %d", s, z)
	}
	if u, s := len(files[schema.Uncompressed]["bodies"]), len(files[schema.Snappy]["bodies"]); u <= s {
		t.Errorf("bodies: uncompressed %d bytes, not more than snappy's %d", u, s)
	}
}

func TestParseCompression(t *testing.T) {
	for name, want := range map[string]schema.Compression{
		"zstd": schema.Zstd, "ZSTD": schema.Zstd, "snappy": schema.Snappy, "Snappy": schema.Snappy,
		"none": schema.Uncompressed, "uncompressed": schema.Uncompressed,
	} {
		if got, err := schema.ParseCompression(name); got != want || err != nil {
			t.Errorf("ParseCompression(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
	for _, name := range []string{"", "gzip", "lz4", "zstd ", "brotli"} {
		_, err := schema.ParseCompression(name)
		if !errors.Is(err, schema.ErrBadOption) || !strings.Contains(err.Error(), "zstd, snappy, none") || !strings.Contains(err.Error(), fmt.Sprintf("%q", name)) {
			t.Errorf("ParseCompression(%q): %v; want ErrBadOption naming the value and the codecs", name, err)
		}
	}
	for _, c := range []schema.Compression{schema.Zstd, schema.Snappy, schema.Uncompressed} {
		if back, err := schema.ParseCompression(c.String()); back != c || err != nil {
			t.Errorf("ParseCompression(%v.String()) = %v, %v", c, back, err)
		}
	}
	if got := strings.Join(schema.CompressionNames(), " "); got != "zstd snappy none" {
		t.Errorf("CompressionNames() = %s", got)
	}
}

// TestWithCompressionInvalid: a codec that is none of the package's is
// refused by every writer, before anything is written.
func TestWithCompressionInvalid(t *testing.T) {
	bad := schema.WithCompression(schema.Compression(9))
	var buf bytes.Buffer
	errs := map[string]error{
		"Writer":            schema.NewWriter[schema.Capture](&buf, bad).Close(),
		"RulesWriter":       schema.NewRulesWriter(&buf, bad).Close(),
		"DiagnosticsWriter": schema.NewDiagnosticsWriter(&buf, bad).Close(),
		"AgentsWriter":      schema.NewAgentsWriter(&buf, []string{"GPTBot"}, bad).Close(),
	}
	for name, err := range errs {
		if !errors.Is(err, schema.ErrBadOption) {
			t.Errorf("%s: %v, want ErrBadOption", name, err)
		}
	}
	if buf.Len() != 0 {
		t.Errorf("%d bytes written", buf.Len())
	}
}

// TestConcatCompressed: Concat of the files of the three codecs keeps each
// chunk's codec (a file of mixed codecs, which DuckDB reads);
// ConcatCompressed gives every chunk one codec, copying those already in
// it byte for byte, and DuckDB and parquet-go read the same rows from
// either.
func TestConcatCompressed(t *testing.T) {
	dir := t.TempDir()
	byCodec := map[schema.Compression]map[string][]byte{}
	for _, cc := range codecCases {
		byCodec[cc.c] = codecFiles(t, schema.WithCompression(cc.c))
	}
	db := testutil.OpenDuckDB(t)
	codecsOf := func(path string) string {
		return testutil.Query(t, db, fmt.Sprintf("SELECT string_agg(DISTINCT compression, ',' ORDER BY compression) FROM parquet_metadata('%s')", path))
	}
	for _, name := range []string{"captures", "bodies", "rules", "diagnostics", "agents"} {
		var sources []schema.Source
		for _, cc := range codecCases {
			data := byCodec[cc.c][name]
			sources = append(sources, schema.Source{Name: cc.c.String(), R: bytes.NewReader(data), Size: int64(len(data))})
		}
		mixed := filepath.Join(dir, name+"-mixed.parquet")
		writeConcat(t, mixed, func(w *bytes.Buffer) (int64, error) { return schema.Concat(w, sources) })
		if got := codecsOf(mixed); got != "SNAPPY,UNCOMPRESSED,ZSTD" {
			t.Errorf("%s: Concat gives chunks of %s, want the three codecs", name, got)
		}
		rows := testutil.Query(t, db, fmt.Sprintf("SELECT count(*) FROM '%s'", mixed))
		for _, cc := range codecCases {
			path := filepath.Join(dir, name+"-"+cc.c.String()+".parquet")
			writeConcat(t, path, func(w *bytes.Buffer) (int64, error) { return schema.ConcatCompressed(w, sources, cc.c) })
			if got := codecsOf(path); got != cc.duckdb {
				t.Errorf("%s: ConcatCompressed(%v) gives chunks of %s", name, cc.c, got)
			}
			differ := testutil.Query(t, db, fmt.Sprintf("SELECT count(*) FROM (SELECT * FROM '%[1]s' EXCEPT ALL SELECT * FROM '%[2]s' UNION ALL (SELECT * FROM '%[2]s' EXCEPT ALL SELECT * FROM '%[1]s'))", path, mixed))
			if differ != "0" {
				t.Errorf("%s: ConcatCompressed(%v): %s rows differ from Concat's", name, cc.c, differ)
			}
			if n, err := readAllRows(path); err != nil || fmt.Sprint(n) != rows {
				t.Errorf("%s: ConcatCompressed(%v): parquet-go reads %d rows (%v), want %s", name, cc.c, n, err, rows)
			}
		}
	}
	// A file of one codec only, recompressed to it, is Concat's byte for byte.
	data := byCodec[schema.Snappy]["rules"]
	one := []schema.Source{{Name: "snappy", R: bytes.NewReader(data), Size: int64(len(data))}}
	var plain, same bytes.Buffer
	if _, err := schema.Concat(&plain, one); err != nil {
		t.Fatal(err)
	}
	if _, err := schema.ConcatCompressed(&same, one, schema.Snappy); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(plain.Bytes(), same.Bytes()) {
		t.Error("ConcatCompressed of chunks already in the codec is not a copy")
	}
}

// writeConcat writes the output of concat to path.
func writeConcat(t *testing.T, path string, concat func(*bytes.Buffer) (int64, error)) {
	t.Helper()
	var buf bytes.Buffer
	if _, err := concat(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readAllRows reads every row of the Parquet file at path with parquet-go,
// decoding every page, and returns how many there are.
func readAllRows(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil {
		return 0, err
	}
	r := parquet.NewReader(pf)
	defer r.Close()
	rows := make([]parquet.Row, 100)
	var total int64
	for {
		n, err := r.ReadRows(rows)
		total += int64(n)
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}
