package schema_test

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/robocensus/robocensus/schema"
)

func TestWriterBadOptions(t *testing.T) {
	tests := []struct {
		name string
		opt  schema.WriterOption
	}{
		{"zero rows per group", schema.WithRowGroupRows(0)},
		{"negative rows per group", schema.WithRowGroupRows(-1)},
		{"tiny page", schema.WithPageBufferSize(100)},
		{"huge page", schema.WithPageBufferSize(1 << 30)},
		{"empty key", schema.WithMetadata("", "x")},
		{"version key", schema.WithMetadata(schema.VersionKey, "9.0")},
		{"table key", schema.WithMetadata(schema.TableKey, "rules")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			w := schema.NewWriter[schema.Agent](&buf, schema.WithRowGroupRows(10), tt.opt)
			if _, err := w.Write([]schema.Agent{{Agent: "GPTBot"}}); !errors.Is(err, schema.ErrBadOption) {
				t.Errorf("Write: %v, want ErrBadOption", err)
			}
			if err := w.Flush(); !errors.Is(err, schema.ErrBadOption) {
				t.Errorf("Flush: %v, want ErrBadOption", err)
			}
			if err := w.Close(); !errors.Is(err, schema.ErrBadOption) {
				t.Errorf("Close: %v, want ErrBadOption", err)
			}
			if buf.Len() != 0 {
				t.Errorf("wrote %d bytes", buf.Len())
			}
		})
	}
}

// TestWriterRowGroups: row groups end every WithRowGroupRows rows and at
// each Flush; extra metadata reaches the footer.
func TestWriterRowGroups(t *testing.T) {
	var buf bytes.Buffer
	w := schema.NewWriter[schema.Sitemap](&buf, schema.WithRowGroupRows(2), schema.WithMetadata("robocensus.crawl", crawlA))
	rows := make([]schema.Sitemap, 5)
	for _, batch := range [][]schema.Sitemap{rows[:3], rows[3:4]} {
		if _, err := w.Write(batch); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil { // ends the second group
		t.Fatal(err)
	}
	if _, err := w.Write(rows[4:]); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if w.Rows() != 5 {
		t.Errorf("Rows() = %d, want 5", w.Rows())
	}
	f, err := parquet.OpenFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	var sizes []int64
	for _, rg := range f.RowGroups() {
		sizes = append(sizes, rg.NumRows())
	}
	if want := []int64{2, 2, 1}; !reflect.DeepEqual(sizes, want) {
		t.Errorf("row groups of %v rows, want %v", sizes, want)
	}
	if v, _ := f.Lookup("robocensus.crawl"); v != crawlA {
		t.Errorf("robocensus.crawl = %q, want %q", v, crawlA)
	}
}

func TestWriterUseAfterClose(t *testing.T) {
	w := schema.NewWriter[schema.Input](io.Discard)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := w.Write([]schema.Input{{}}); !errors.Is(err, schema.ErrClosed) {
		t.Errorf("Write after Close: %v, want ErrClosed", err)
	}
	if err := w.Flush(); !errors.Is(err, schema.ErrClosed) {
		t.Errorf("Flush after Close: %v, want ErrClosed", err)
	}
}

// failingWriter fails every write after the first n bytes.
type failingWriter struct{ n int }

var errDiskFull = errors.New("disk full")

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		n := w.n
		w.n = 0
		return n, errDiskFull
	}
	w.n -= len(p)
	return len(p), nil
}

// TestWriterStickyError: once the output fails, every later call returns
// that error.
func TestWriterStickyError(t *testing.T) {
	w := schema.NewWriter[schema.Sitemap](&failingWriter{n: 10})
	big := []schema.Sitemap{{URL: randomText(200_000)}} // more than parquet-go buffers
	if _, err := w.Write(big); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); !errors.Is(err, errDiskFull) {
		t.Fatalf("Flush: %v, want disk full", err)
	}
	if _, err := w.Write(big); !errors.Is(err, errDiskFull) {
		t.Errorf("Write after failure: %v", err)
	}
	if err := w.Close(); !errors.Is(err, errDiskFull) {
		t.Errorf("Close after failure: %v", err)
	}
	if err := w.Close(); !errors.Is(err, errDiskFull) {
		t.Errorf("second Close after failure: %v", err)
	}
}

// randomText returns n letters that do not compress much.
func randomText(n int) string {
	b := make([]byte, n)
	x := uint32(2463534242)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = 'a' + byte(x%26)
	}
	return string(b)
}

// TestWriterInvalidUTF8: strings that are not UTF-8 are repaired in the
// file and left alone in the caller's rows.
func TestWriterInvalidUTF8(t *testing.T) {
	agents := []string{"ok", "b\xe4d", "fine"}
	rows := []schema.Rule{
		{CaptureID: "c", Pattern: "/fine"},
		{CaptureID: "c", Pattern: "/gr\xf6\xdfe", UserAgents: agents},
		{CaptureID: "c\xff", Pattern: "/x"},
	}
	before := []schema.Rule{rows[0], rows[1], rows[2]}
	data := ourFile(t, rows)
	if !reflect.DeepEqual(rows, before) || agents[1] != "b\xe4d" {
		t.Errorf("Write modified the caller's rows: %+v", rows)
	}
	got, err := parquet.Read[schema.Rule](bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/fine", "/gr\uFFFDe", "/x"}
	for i, r := range got {
		if r.Pattern != want[i] {
			t.Errorf("row %d: pattern %q, want %q", i, r.Pattern, want[i])
		}
	}
	if got[1].UserAgents[1] != "b\uFFFDd" || got[2].CaptureID != "c\uFFFD" {
		t.Errorf("not repaired: %q %q", got[1].UserAgents, got[2].CaptureID)
	}
}

// TestWriterInvalidUTF8Repeats: the writer checks a capture_id,
// url_host_name or user_agents list equal to the row before's only once
// (utf8Memo); a key that changes, and a list that is another slice of the
// same length, are checked again, and a bad key repeated is repaired in
// every row.
func TestWriterInvalidUTF8Repeats(t *testing.T) {
	group := []string{"GPTBot", "CCBot"}
	other := []string{"GPTBot", "CC\xffBot"}
	rows := []schema.Rule{
		{CaptureID: "c1", URLHostName: "a.example", UserAgents: group, Pattern: "/1"},
		{CaptureID: "c1", URLHostName: "a.example", UserAgents: group, Pattern: "/2"},
		{CaptureID: "c1", URLHostName: "a.example", UserAgents: other, Pattern: "/3"},
		{CaptureID: "c1\xff", URLHostName: "b\xff.example", UserAgents: other, Pattern: "/4"},
		{CaptureID: "c1\xff", URLHostName: "b\xff.example", UserAgents: group, Pattern: "/5"},
		{CaptureID: "c2", URLHostName: "a.example", UserAgents: group[:1], Pattern: "/6"},
	}
	data := ourFile(t, rows)
	got, err := parquet.Read[schema.Rule](bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ id, host, agent string }{
		{"c1", "a.example", "CCBot"}, {"c1", "a.example", "CCBot"}, {"c1", "a.example", "CC\uFFFDBot"},
		{"c1\uFFFD", "b\uFFFD.example", "CC\uFFFDBot"}, {"c1\uFFFD", "b\uFFFD.example", "CCBot"}, {"c2", "a.example", ""},
	}
	for i, r := range got {
		agent := ""
		if len(r.UserAgents) > 1 {
			agent = r.UserAgents[1]
		}
		if r.CaptureID != want[i].id || r.URLHostName != want[i].host || agent != want[i].agent {
			t.Errorf("row %d: %q %q %q, want %q", i, r.CaptureID, r.URLHostName, agent, want[i])
		}
	}
	if other[1] != "CC\xffBot" {
		t.Errorf("Write modified the caller's list: %q", other)
	}
}

// TestWriterNoRows: a file with no rows is valid and has every column.
func TestWriterNoRows(t *testing.T) {
	data := ourFile[schema.Capture](t, nil)
	r, err := schema.NewArrowReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Table().Name != "captures" || r.NumRows() != 0 || !sameFields(r.Schema(), r.Table().Arrow) {
		t.Errorf("table %s, %d rows, schema\n%s", r.Table().Name, r.NumRows(), r.Schema())
	}
	if rec, err := r.Next(); err != io.EOF {
		t.Errorf("Next = %v, %v; want io.EOF", rec, err)
	}
}
