package schema_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/robocensus/robocensus/schema"
)

func TestCheckVersion(t *testing.T) {
	tests := []struct {
		version string
		want    error
	}{
		{schema.Version, nil},
		{"1.0", nil},
		{"1.17", nil}, // a later minor version only adds columns
		{"", schema.ErrNoVersion},
		{"1.3", nil},  // the last 1.x: read, its renamed columns under their new names
		{"2.0", nil},  // the current major version
		{"2.12", nil}, // a later minor version only adds columns
		{"3.0", schema.ErrUnknownVersion},
		{"0.9", schema.ErrUnknownVersion},
		{"1", schema.ErrUnknownVersion},
		{"1.", schema.ErrUnknownVersion},
		{"1.0.0", schema.ErrUnknownVersion},
		{"v1.0", schema.ErrUnknownVersion},
		{"+1.0", schema.ErrUnknownVersion},
		{"1.-1", schema.ErrUnknownVersion},
		{"99999999999999999999.0", schema.ErrUnknownVersion},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			if err := schema.CheckVersion(tt.version); !errors.Is(err, tt.want) || (err == nil) != (tt.want == nil) {
				t.Errorf("CheckVersion(%q) = %v, want %v", tt.version, err, tt.want)
			}
		})
	}
}

// TestReadVersion reads footers of files this package wrote and of files it
// did not.
func TestReadVersion(t *testing.T) {
	rows := []schema.Sitemap{{CaptureID: "c", URL: "https://example.com/s.xml", Line: 1, Valid: true}}
	tests := []struct {
		name        string
		file        []byte
		wantVersion string
		wantErr     error // of ReadVersion; NewArrowReader fails too when set
		wantOpenErr error // of NewArrowReader only
	}{
		{"ours", ourFile(t, rows), schema.Version, nil, nil},
		{"no version", parquetFile(t, rows), "", schema.ErrNoVersion, nil},
		{"major 3", parquetFile(t, rows, parquet.KeyValueMetadata(schema.VersionKey, "3.0"),
			parquet.KeyValueMetadata(schema.TableKey, "sitemaps")), "3.0", schema.ErrUnknownVersion, nil},
		{"minor 9", parquetFile(t, rows, parquet.KeyValueMetadata(schema.VersionKey, "1.9"),
			parquet.KeyValueMetadata(schema.TableKey, "sitemaps")), "1.9", nil, nil},
		{"no table", parquetFile(t, rows, parquet.KeyValueMetadata(schema.VersionKey, "1.0")),
			"1.0", nil, schema.ErrUnknownTable},
		{"unknown table", parquetFile(t, rows, parquet.KeyValueMetadata(schema.VersionKey, "1.0"),
			parquet.KeyValueMetadata(schema.TableKey, "robots")), "1.0", nil, schema.ErrUnknownTable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := schema.ReadVersion(bytes.NewReader(tt.file), int64(len(tt.file)))
			if v != tt.wantVersion || !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Errorf("ReadVersion = %q, %v; want %q, %v", v, err, tt.wantVersion, tt.wantErr)
			}
			wantOpen := tt.wantErr
			if wantOpen == nil {
				wantOpen = tt.wantOpenErr
			}
			r, err := schema.NewArrowReader(bytes.NewReader(tt.file), int64(len(tt.file)))
			if !errors.Is(err, wantOpen) || (err == nil) != (wantOpen == nil) {
				t.Errorf("NewArrowReader: %v, want %v", err, wantOpen)
			}
			if err == nil {
				r.Close()
			}
		})
	}
}

func TestReadVersionNotParquet(t *testing.T) {
	for _, data := range [][]byte{nil, []byte("PAR1"), []byte("User-agent: *\nDisallow: /\n")} {
		if _, err := schema.ReadVersion(bytes.NewReader(data), int64(len(data))); err == nil {
			t.Errorf("ReadVersion(%q): no error", data)
		}
		if _, err := schema.NewArrowReader(bytes.NewReader(data), int64(len(data))); err == nil {
			t.Errorf("NewArrowReader(%q): no error", data)
		}
	}
}

// ourFile writes rows with a schema.Writer into memory.
func ourFile[T schema.Row](t *testing.T, rows []T, opts ...schema.WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := schema.NewWriter[T](&buf, opts...)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// parquetFile writes rows with plain parquet-go, as another program would.
func parquetFile[T any](t *testing.T, rows []T, opts ...parquet.WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := parquet.Write(&buf, rows, opts...); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
