package schema

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"
)

// Writer sizes. The defaults are chosen for DuckDB scans (see [NewWriter]).
const (
	// DefaultRowGroupRows is the default number of rows per row group:
	// 122,880, the row group size DuckDB writes itself. DuckDB scans a
	// Parquet file in parallel one row group per thread, and prunes whole
	// row groups with their min/max statistics, so a row group is the unit
	// of both parallelism and skipping.
	DefaultRowGroupRows = 122_880

	// DefaultPageBufferSize is the default size of a data page before
	// compression: 1 MiB, the usual Parquet page size. Pages are compressed
	// one at a time (zstd frames by default, see [Compression]); bigger
	// pages compress better, smaller ones decode in smaller steps.
	DefaultPageBufferSize = 1 << 20

	// DefaultDictionaryMaxBytes caps a column's dictionary in a row group at
	// 1 MiB; past it, the column falls back to PLAIN encoding for the rest of
	// the row group.
	DefaultDictionaryMaxBytes = 1 << 20
)

// A WriterOption configures a [Writer]. Options check their arguments; an
// invalid one makes every method of the writer return an error wrapping
// [ErrBadOption].
type WriterOption func(*writerConfig) error

type writerConfig struct {
	rowGroupRows int64
	pageSize     int
	compression  Compression
	metadata     [][2]string // key, value in order given
}

// WithRowGroupRows sets the number of rows per row group, at least 1.
// Defaults to [DefaultRowGroupRows]. The writer holds a whole row group in
// memory (compressed) until it is complete.
func WithRowGroupRows(n int64) WriterOption {
	return func(c *writerConfig) error {
		if n < 1 {
			return fmt.Errorf("%w: WithRowGroupRows(%d): want at least 1", ErrBadOption, n)
		}
		c.rowGroupRows = n
		return nil
	}
}

// WithPageBufferSize sets the size in bytes of a data page before
// compression, from 4 KiB to 64 MiB. Defaults to [DefaultPageBufferSize].
func WithPageBufferSize(n int) WriterOption {
	return func(c *writerConfig) error {
		if n < 4<<10 || n > 64<<20 {
			return fmt.Errorf("%w: WithPageBufferSize(%d): want 4 KiB to 64 MiB", ErrBadOption, n)
		}
		c.pageSize = n
		return nil
	}
}

// WithMetadata adds a key/value pair to the file's footer metadata, e.g.
// ("robocensus.crawl", label). DuckDB shows it in parquet_kv_metadata(). The
// keys [VersionKey] and [TableKey] are reserved. Defaults to none.
func WithMetadata(key, value string) WriterOption {
	return func(c *writerConfig) error {
		if key == "" || key == VersionKey || key == TableKey {
			return fmt.Errorf("%w: WithMetadata(%q): empty or reserved key", ErrBadOption, key)
		}
		c.metadata = append(c.metadata, [2]string{key, value})
		return nil
	}
}

func newWriterConfig(opts []WriterOption) (*writerConfig, error) {
	c := &writerConfig{rowGroupRows: DefaultRowGroupRows, pageSize: DefaultPageBufferSize}
	for _, opt := range opts {
		if err := opt(c); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// parquetOptions turns the configuration into parquet-go options for a file
// of table t.
func (c *writerConfig) parquetOptions(t Table) []parquet.WriterOption {
	opts := []parquet.WriterOption{
		parquet.Compression(pageCodec{c.compression}),
		parquet.MaxRowsPerRowGroup(c.rowGroupRows),
		parquet.PageBufferSize(c.pageSize),
		parquet.DictionaryMaxBytes(DefaultDictionaryMaxBytes),
		parquet.DefaultEncodingFor(parquet.ByteArray, &parquet.Plain),
		parquet.DataPageVersion(1),
		parquet.DataPageStatistics(false),
		parquet.KeyValueMetadata(VersionKey, Version),
		parquet.KeyValueMetadata(TableKey, t.Name),
	}
	for _, kv := range c.metadata {
		opts = append(opts, parquet.KeyValueMetadata(kv[0], kv[1]))
	}
	for _, col := range textColumns[t.Name] {
		opts = append(opts, parquet.SkipPageBounds(col), parquet.SkipPageStatistics(col))
	}
	return opts
}

// textColumns are the columns of free text, per table: their min and max
// values say nothing a query could skip pages by, and computing them (string
// comparisons of whole bodies) was a tenth of the cost of writing them.
var textColumns = map[string][]string{
	"captures":    {"url", "url_surtkey", "fetch_redirect", "warc_record_id"},
	"diagnostics": {"text", "message"},
	"rules":       {"pattern"},
	"sitemaps":    {"url"},
	"bodies":      {"body"},
	"directives":  {"value"},
}

// Writer writes rows of one table to one Parquet file. It is a thin typed
// wrapper over parquet-go's GenericWriter: rows go in as []T batches, the
// column layout comes from T's struct tags (see [Row]), and every file
// carries the schema [Version] and the table name in its footer.
//
// A Writer opens no files: its caller owns the output, including writing
// aside and renaming once Close has succeeded, so that a partition is
// visible only when complete. Errors are sticky: after one, every method
// returns it. A Writer is not safe for concurrent use.
type Writer[T Row] struct {
	pw       *parquet.GenericWriter[T]
	rows     int64
	err      error
	closed   bool
	scratch  []T   // rows copied to repair invalid UTF-8
	optional []int // indexes of T's optional fields
	memo     utf8Memo
	perGroup int64 // rows a row group holds
	inGroup  int64 // rows of the row group being written
}

// NewWriter returns a Writer of T rows to w, which must not be nil.
//
// Rows are written in row groups of [DefaultRowGroupRows] rows and data pages
// of [DefaultPageBufferSize] bytes, compressed with zstd at its fastest
// level ([Zstd]), unless opts say otherwise. A row group is buffered in memory until it is full, then
// written to w in one go. If an option is invalid, nothing is written and
// every method returns the option's error.
//
// Two settings are fixed. Data pages are version 1, which every Parquet
// reader handles and DuckDB writes itself. Strings without a dictionary are
// PLAIN, where parquet-go would pick DELTA_LENGTH_BYTE_ARRAY: under zstd the
// sizes are alike, and arrow/go/v15's reader never gives back to its
// allocator some buffers it takes for version 2 pages and for delta-encoded
// strings (TestArrowV15Leaks). Go's garbage collector frees them anyway, but
// the leak would be real with a C allocator, and it hides real leaks from a
// checked one.
func NewWriter[T Row](w io.Writer, opts ...WriterOption) *Writer[T] {
	c, err := newWriterConfig(opts)
	if err != nil {
		return &Writer[T]{err: err}
	}
	return &Writer[T]{pw: parquet.NewGenericWriter[T](w, c.parquetOptions(TableOf[T]())...), perGroup: c.rowGroupRows}
}

// Write writes rows and returns how many were written. The rows are not
// kept after Write returns.
//
// Parquet strings must be UTF-8, and DuckDB refuses a file where one is not.
// Write therefore replaces each run of bytes that are not UTF-8 in a string
// or list column with U+FFFD (strings.ToValidUTF8). It does so on a copy:
// rows is never modified.
func (w *Writer[T]) Write(rows []T) (int, error) {
	if w.closed {
		return 0, ErrClosed
	}
	if w.err != nil {
		return 0, w.err
	}
	rows = w.validUTF8(rows)
	n, err := w.write(rows)
	clear(w.scratch) // drop references to the caller's strings
	w.scratch = w.scratch[:0]
	w.memo = utf8Memo{}
	w.rows += int64(n)
	if err != nil {
		w.err = fmt.Errorf("schema: writing %s rows: %w", TableName[T](), err)
	}
	return n, w.err
}

// write writes rows in pieces that keep every NULL (see safeBatch): no
// piece crosses the end of a row group, where parquet-go would cut it and
// count its 64-row words from the cut.
func (w *Writer[T]) write(rows []T) (int, error) {
	if w.optional == nil {
		w.optional = optionalFields[T]()
	}
	written := 0
	for len(rows) > 0 {
		if w.inGroup == w.perGroup {
			w.inGroup = 0 // parquet-go starts the next row group at the next row
		}
		piece := rows[:min(int64(len(rows)), w.perGroup-w.inGroup)]
		k := safeBatch(piece, w.optional)
		n, err := w.pw.Write(piece[:k])
		written += n
		w.inGroup += int64(n)
		if err != nil {
			return written, err
		}
		rows = rows[k:]
	}
	return written, nil
}

// Flush ends the current row group, writing it to the output. Calling it is
// never needed for correctness; it bounds how long rows stay in memory.
func (w *Writer[T]) Flush() error {
	if w.closed {
		return ErrClosed
	}
	if w.err != nil {
		return w.err
	}
	if err := w.pw.Flush(); err != nil {
		w.err = fmt.Errorf("schema: flushing %s row group: %w", TableName[T](), err)
	}
	w.inGroup = 0
	return w.err
}

// Close writes the last row group and the footer. It does not close the
// underlying io.Writer. A file is complete only once Close has returned
// nil; a file with no rows is valid and has the table's columns. Calling
// Close again returns the result of the first call.
func (w *Writer[T]) Close() error {
	if w.closed {
		return w.err
	}
	w.closed = true
	if w.err != nil {
		return w.err
	}
	if err := w.pw.Close(); err != nil {
		w.err = fmt.Errorf("schema: closing %s file: %w", TableName[T](), err)
	}
	return w.err
}

// Rows returns the number of rows written so far.
func (w *Writer[T]) Rows() int64 { return w.rows }

// validUTF8 returns rows, or a copy of rows with invalid UTF-8 replaced if
// any string needs it.
func (w *Writer[T]) validUTF8(rows []T) []T {
	w.memo = utf8Memo{}
	for i := range rows {
		if utf8Row(&rows[i]).validUTF8(false, &w.memo) {
			continue
		}
		w.scratch = append(w.scratch[:0], rows...)
		w.memo = utf8Memo{}
		for j := i; j < len(w.scratch); j++ {
			utf8Row(&w.scratch[j]).validUTF8(true, &w.memo)
		}
		return w.scratch
	}
	return rows
}

// utf8Fixer is implemented by a pointer to every row type. validUTF8 reports
// whether every string of the row is UTF-8; with fix set, it also replaces
// the strings that are not, cloning any list it changes. m remembers the
// valid keys of the rows before it in the same batch.
type utf8Fixer interface {
	validUTF8(fix bool, m *utf8Memo) bool
}

func utf8Row[T Row](p *T) utf8Fixer { return any(p).(utf8Fixer) }

// utf8Memo remembers, within one batch of rows, the last valid value of the
// columns that repeat from row to row: capture_id and url_host_name in the
// tables with several rows per capture, and user_agents, the same list for
// every rule of a group. A value equal to the one remembered (a comparison
// that stops at once when both are the same string) needs no UTF-8 check:
// checking them was most of the cost of the repair for the rules table. It
// holds the caller's strings, so it is cleared after each Write.
type utf8Memo struct {
	id, host string
	agents   []string
}

// validKeys is validStrings for the capture_id and url_host_name of a row.
func (m *utf8Memo) validKeys(fix bool, id, host *string) bool {
	ok := true
	if *id != m.id {
		if ok = validStrings(fix, id); ok {
			m.id = *id
		}
	}
	if *host != m.host {
		if validStrings(fix, host) {
			m.host = *host
		} else {
			ok = false
		}
	}
	return ok
}

// validAgents is validList for a user_agents list: the same slice as the
// row before it (the same backing array and length) is not checked again.
func (m *utf8Memo) validAgents(fix bool, list *[]string) bool {
	l := *list
	if len(l) > 0 && len(l) == len(m.agents) && &l[0] == &m.agents[0] {
		return true
	}
	if !validList(fix, list) {
		return false
	}
	m.agents = l
	return true
}

func (r *Capture) validUTF8(fix bool, _ *utf8Memo) bool {
	ok := validStrings(fix, &r.CaptureID, &r.URL, &r.URLHostName, &r.URLSurtKey, &r.URLHostTLD,
		&r.URLHostRegisteredDomain, &r.URLProtocol, &r.ContentMimeType, &r.ContentMimeDetected,
		&r.ContentCharset, &r.ContentDigest, &r.ContentTruncated, &r.WARCFilename, &r.WARCSegment,
		&r.WARCRecordID, &r.FetchRedirect, &r.Outcome, &r.Input)
	return validList(fix, &r.UserAgents) && ok
}

func (r *Diagnostic) validUTF8(fix bool, m *utf8Memo) bool {
	ok := m.validKeys(fix, &r.CaptureID, &r.URLHostName)
	return validStrings(fix, &r.Code, &r.Severity, &r.Text, &r.Message) && ok
}

func (r *Rule) validUTF8(fix bool, m *utf8Memo) bool {
	ok := m.validKeys(fix, &r.CaptureID, &r.URLHostName)
	ok = validStrings(fix, &r.Directive, &r.Pattern) && ok
	return m.validAgents(fix, &r.UserAgents) && ok
}

func (r *Sitemap) validUTF8(fix bool, m *utf8Memo) bool {
	ok := m.validKeys(fix, &r.CaptureID, &r.URLHostName)
	return validStrings(fix, &r.URL) && ok
}

func (r *Agent) validUTF8(fix bool, m *utf8Memo) bool {
	ok := m.validKeys(fix, &r.CaptureID, &r.URLHostName)
	return validStrings(fix, &r.Agent, &r.Verdict) && ok
}

func (r *Input) validUTF8(fix bool, _ *utf8Memo) bool {
	return validStrings(fix, &r.Input, &r.SkippedByReason, &r.Damage, &r.Error)
}

// validStrings reports whether every string is UTF-8, replacing those that
// are not when fix is set.
func validStrings(fix bool, ss ...*string) bool {
	ok := true
	for _, s := range ss {
		if utf8.ValidString(*s) {
			continue
		}
		ok = false
		if !fix {
			return false
		}
		*s = strings.ToValidUTF8(*s, "\uFFFD")
	}
	return ok
}

// validList is validStrings for a list; it replaces *list by a repaired
// copy, leaving the original backing array alone.
func validList(fix bool, list *[]string) bool {
	for i, s := range *list {
		if utf8.ValidString(s) {
			continue
		}
		if !fix {
			return false
		}
		fixed := append([]string(nil), *list...)
		for j := i; j < len(fixed); j++ {
			fixed[j] = strings.ToValidUTF8(fixed[j], "\uFFFD")
		}
		*list = fixed
		return false
	}
	return true
}

func (r *Body) validUTF8(fix bool, _ *utf8Memo) bool {
	return validStrings(fix, &r.ContentDigest, &r.Body)
}

func (r *Directive) validUTF8(fix bool, m *utf8Memo) bool {
	ok := m.validKeys(fix, &r.CaptureID, &r.URLHostName)
	ok = validStrings(fix, &r.Key, &r.Value) && ok
	return m.validAgents(fix, &r.UserAgents) && ok
}

func (r *Preference) validUTF8(fix bool, m *utf8Memo) bool {
	ok := m.validKeys(fix, &r.CaptureID, &r.URLHostName)
	ok = validStrings(fix, &r.Source, &r.Path, &r.Category, &r.Value) && ok
	return m.validAgents(fix, &r.UserAgents) && ok
}

func (r *Host) validUTF8(fix bool, _ *utf8Memo) bool {
	return validStrings(fix, &r.URLHostName, &r.URLHostRegisteredDomain, &r.CaptureID, &r.EffectiveCaptureID)
}

func (r *Reading) validUTF8(fix bool, m *utf8Memo) bool {
	ok := m.validKeys(fix, &r.CaptureID, &r.URLHostName)
	return validStrings(fix, &r.Agent, &r.Semantics, &r.Path, &r.Class) && ok
}

func (r *TemplateBlock) validUTF8(fix bool, m *utf8Memo) bool {
	ok := m.validKeys(fix, &r.CaptureID, &r.URLHostName)
	return validStrings(fix, &r.Template, &r.Version, &r.State, &r.Released) && validList(fix, &r.Missing) && ok
}
