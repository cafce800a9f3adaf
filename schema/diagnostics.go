package schema

import "io"

// DiagnosticsWriter writes the diagnostics table as [Writer][Diagnostic]
// does, and as [RulesWriter] writes the rules table: the same schema, rows,
// row groups, encodings and row group statistics, in a fraction of the
// time. capture_id and url_host_name are looked up once a capture, code and
// severity once a change; text and message, free text, are PLAIN (text
// NULL when empty) with no min and max, as [Writer] leaves them.
//
// TestDiagnosticsWriterSameAsWriter checks, with DuckDB and parquet-go,
// that both writers' files hold the same rows and row group statistics.
type DiagnosticsWriter struct {
	f columnFile

	// The row group being built.
	n                         int // rows
	ids, hosts, codes, levels dictBuilder
	line                      []int32
	texts, messages           textColumn
}

var diagnosticsFooter = footerOf[Diagnostic]()

// NewDiagnosticsWriter returns a writer of the diagnostics table to w. The
// options are those of [NewWriter]; [WithPageBufferSize] sizes the pages
// of text and message (the other columns have one page a row group).
func NewDiagnosticsWriter(w io.Writer, opts ...WriterOption) *DiagnosticsWriter {
	d := &DiagnosticsWriter{texts: textColumn{optional: true}}
	d.f.init(w, TableName[Diagnostic](), diagnosticsFooter, opts)
	d.reset()
	return d
}

func (d *DiagnosticsWriter) reset() {
	d.n = 0
	for _, b := range []*dictBuilder{&d.ids, &d.hosts, &d.codes, &d.levels} {
		b.reset()
	}
	d.line = d.line[:0]
}

// Write writes rows and returns how many were written. The rows are not
// kept after Write returns, and never modified; strings that are not UTF-8
// are written repaired, as [Writer.Write] does.
func (d *DiagnosticsWriter) Write(rows []Diagnostic) (int, error) {
	if err := d.f.check(); err != nil {
		return 0, err
	}
	for i := range rows {
		d.add(&rows[i])
		if d.n >= d.f.perGroup {
			if err := d.flush(); err != nil {
				return i + 1, err
			}
		}
	}
	return len(rows), nil
}

// add appends one row to the row group.
func (d *DiagnosticsWriter) add(row *Diagnostic) {
	d.n++
	d.ids.add(row.CaptureID)
	d.hosts.add(row.URLHostName)
	d.codes.add(row.Code)
	d.levels.add(row.Severity)
	d.line = append(d.line, row.Line)
	d.texts.add(row.Text, &d.f)
	d.messages.add(row.Message, &d.f)
}

// Flush ends the current row group, writing it to the output.
func (d *DiagnosticsWriter) Flush() error { return d.f.flushGroup(d.flush) }

// Close writes the last row group and the footer. It does not close the
// underlying writer. Calling Close again returns the result of the first
// call.
func (d *DiagnosticsWriter) Close() error { return d.f.close(d.flush, "robocensus DiagnosticsWriter") }

// Rows returns the number of rows written so far.
func (d *DiagnosticsWriter) Rows() int64 { return d.f.rows + int64(d.n) }

// flush writes the row group being built, its columns in the order of
// Diagnostic's fields.
func (d *DiagnosticsWriter) flush() error {
	if d.n == 0 {
		return nil
	}
	f := &d.f
	f.beginGroup(d.n)
	f.add(f.dictChunk([]string{"capture_id"}, &d.ids, nil, nil))
	f.add(f.dictChunk([]string{"url_host_name"}, &d.hosts, nil, nil))
	f.add(f.int32Chunk("line", d.line))
	f.add(f.dictChunk([]string{"code"}, &d.codes, nil, nil))
	f.add(f.dictChunk([]string{"severity"}, &d.levels, nil, nil))
	f.add(f.textChunk("text", &d.texts))
	f.add(f.textChunk("message", &d.messages))
	err := f.endGroup()
	d.reset()
	return err
}
