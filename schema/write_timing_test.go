package schema_test

import (
	"bytes"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/robocensus/robocensus/schema"
)

// Benchmarks of the write and read paths over synthetic capture rows.
// Run with:
//
//	go test ./schema -run '^$' -bench . -benchtime 5x

// batchSize is how many rows each Write call takes, as an ingest worker
// might batch them.
const batchSize = 1024

func BenchmarkWriteCaptures(b *testing.B) {
	for _, n := range []int{10_000, 250_000} {
		rows := syntheticCaptures(n)
		size := writeCaptures(b, io.Discard, rows)
		data := bytes.NewBuffer(nil)
		writeCaptures(b, data, rows)
		checkRows(b, data.Bytes(), n) // correctness, outside the timed loop
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(size)
			for b.Loop() {
				writeCaptures(b, io.Discard, rows)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(size)/float64(n), "file-B/row")
		})
	}
}

func BenchmarkReadArrowCaptures(b *testing.B) {
	const n = 250_000
	var buf bytes.Buffer
	writeCaptures(b, &buf, syntheticCaptures(n))
	data := buf.Bytes()
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if got := readAll(b, data); got != n {
			b.Fatalf("read %d rows, want %d", got, n)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// writeCaptures writes rows in batches and returns the file size.
func writeCaptures(b *testing.B, w io.Writer, rows []schema.Capture) int64 {
	cw := &countingWriter{w: w}
	pw := schema.NewWriter[schema.Capture](cw)
	for i := 0; i < len(rows); i += batchSize {
		if _, err := pw.Write(rows[i:min(i+batchSize, len(rows))]); err != nil {
			b.Fatal(err)
		}
	}
	if err := pw.Close(); err != nil {
		b.Fatal(err)
	}
	return cw.n
}

func checkRows(b *testing.B, data []byte, n int) {
	if got := readAll(b, data); got != n {
		b.Fatalf("wrote %d rows, read back %d", n, got)
	}
}

// readAll reads every column of a file with the Arrow reader and returns
// the number of rows.
func readAll(b *testing.B, data []byte) int {
	r, err := schema.NewArrowReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	rows := 0
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return rows
		}
		if err != nil {
			b.Fatal(err)
		}
		rows += int(rec.NumRows())
	}
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// BenchmarkOwnWriters writes the same rules and diagnostics rows (those of
// sampleRules and sampleDiagnostics, in batches of batchSize, pages of the
// pipeline's 256 KiB) with Writer[T] and with RulesWriter and
// DiagnosticsWriter, alternately in each iteration, and reports the time
// of each per row and their ratio (Writer over own): the two run in the
// same moments of a shared machine's load.
func BenchmarkOwnWriters(b *testing.B) {
	opts := []schema.WriterOption{schema.WithPageBufferSize(256 << 10)}
	b.Run("table=rules", func(b *testing.B) {
		rows := sampleRules(20000)
		benchPair(b, len(rows),
			func(w io.Writer) rowWriter { return schema.NewWriter[schema.Rule](w, opts...) },
			func(w io.Writer) rowWriter { return schema.NewRulesWriter(w, opts...) },
			func(w rowWriter, i, j int) error {
				_, err := w.(interface {
					Write([]schema.Rule) (int, error)
				}).Write(rows[i:j])
				return err
			})
	})
	b.Run("table=diagnostics", func(b *testing.B) {
		rows := sampleDiagnostics(40000)
		benchPair(b, len(rows),
			func(w io.Writer) rowWriter { return schema.NewWriter[schema.Diagnostic](w, opts...) },
			func(w io.Writer) rowWriter { return schema.NewDiagnosticsWriter(w, opts...) },
			func(w rowWriter, i, j int) error {
				_, err := w.(interface {
					Write([]schema.Diagnostic) (int, error)
				}).Write(rows[i:j])
				return err
			})
	})
}

type rowWriter interface{ Close() error }

func benchPair(b *testing.B, n int, general, own func(io.Writer) rowWriter, write func(w rowWriter, i, j int) error) {
	run := func(newWriter func(io.Writer) rowWriter) (time.Duration, int64) {
		start := time.Now()
		cw := &countingWriter{w: io.Discard}
		w := newWriter(cw)
		for i := 0; i < n; i += batchSize {
			if err := write(w, i, min(i+batchSize, n)); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		return time.Since(start), cw.n
	}
	var tGeneral, tOwn time.Duration
	var sizeGeneral, sizeOwn int64
	b.ReportAllocs()
	for b.Loop() {
		t, s := run(general)
		tGeneral, sizeGeneral = tGeneral+t, s
		t, s = run(own)
		tOwn, sizeOwn = tOwn+t, s
	}
	perRow := func(t time.Duration) float64 { return float64(t.Nanoseconds()) / float64(n*b.N) }
	b.ReportMetric(perRow(tGeneral), "writer-ns/row")
	b.ReportMetric(perRow(tOwn), "own-ns/row")
	b.ReportMetric(float64(tGeneral)/float64(tOwn), "x-faster")
	b.ReportMetric(float64(sizeOwn)/float64(sizeGeneral), "size-ratio")
}
