package schema

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	pq "github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// arrowSchema derives the Arrow view of a table from its Parquet schema
// (the struct tags): what an [ArrowReader] returns when it reads every
// column, as arrow/go/v15's pqarrow derives it from the files. Parquet
// STRING is utf8, INT32 int32, INT64 int64, BOOLEAN bool. A field is
// nullable exactly when its Parquet column is optional, with two quirks of
// pqarrow v15:
//
//   - TIMESTAMP(MICROS) is timestamp[us, tz=UTC]: pqarrow ignores
//     isAdjustedToUTC=false, which is right here, as every timestamp of the
//     dataset is UTC.
//   - A LIST of required strings is list<list: utf8, nullable>: the item
//     field takes the name of the Parquet repeated group ("list", not
//     "element") and is always nullable, though no item is ever NULL.
//
// Dictionary-encoded columns are read as plain utf8, unless asked for with
// [WithDictionary]. TestTablesReadAsDeclared checks the result against
// pqarrow's reading of real files.
func arrowSchema(s *parquet.Schema) *arrow.Schema {
	fields := make([]arrow.Field, 0, len(s.Fields()))
	for _, f := range s.Fields() {
		fields = append(fields, arrow.Field{Name: f.Name(), Type: arrowType(f), Nullable: f.Optional()})
	}
	return arrow.NewSchema(fields, nil)
}

// arrowType is the Arrow type pqarrow gives a column of the dataset; it
// panics on a Parquet type no table uses, which the tests would show.
func arrowType(f parquet.Field) arrow.DataType {
	if lt := f.Type().LogicalType(); lt != nil && isLogical[*format.ListType](lt) {
		elem := f.Fields()[0].Fields()[0] // LIST > repeated group list > element
		return arrow.ListOfField(arrow.Field{Name: "list", Type: arrowType(elem), Nullable: true})
	}
	switch t := f.Type(); t.Kind() {
	case parquet.ByteArray:
		return arrow.BinaryTypes.String
	case parquet.Int32:
		return arrow.PrimitiveTypes.Int32
	case parquet.Int64:
		if lt := t.LogicalType(); lt != nil && isLogical[*format.TimestampType](lt) {
			return &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
		}
		return arrow.PrimitiveTypes.Int64
	case parquet.Boolean:
		return arrow.FixedWidthTypes.Boolean
	case parquet.Double:
		return arrow.PrimitiveTypes.Float64
	}
	panic(fmt.Sprintf("schema: no Arrow type for column %s (%s)", f.Name(), f.Type()))
}

// isLogical reports whether a logical type annotation is a T.
func isLogical[T format.LogicalTypeValue](lt *format.LogicalType) bool {
	_, ok := lt.Value.(T)
	return ok
}

// DefaultBatchSize is the default number of rows in a record returned by
// [ArrowReader.Next].
const DefaultBatchSize = 16_384

// A ReaderOption configures an [ArrowReader]. Options check their
// arguments; an invalid one makes [NewArrowReader] return an error wrapping
// [ErrBadOption].
type ReaderOption func(*readerConfig) error

type readerConfig struct {
	mem     memory.Allocator
	batch   int64
	columns []string
	dict    []string
	groups  []int
	table   string
}

// WithAllocator sets the allocator of the records' memory, not nil.
// Defaults to memory.DefaultAllocator.
func WithAllocator(mem memory.Allocator) ReaderOption {
	return func(c *readerConfig) error {
		if mem == nil {
			return fmt.Errorf("%w: WithAllocator(nil)", ErrBadOption)
		}
		c.mem = mem
		return nil
	}
}

// WithBatchSize sets the most rows in one record, at least 1. Defaults to
// [DefaultBatchSize].
func WithBatchSize(n int64) ReaderOption {
	return func(c *readerConfig) error {
		if n < 1 {
			return fmt.Errorf("%w: WithBatchSize(%d): want at least 1", ErrBadOption, n)
		}
		c.batch = n
		return nil
	}
}

// WithColumns reads only the named columns, which must exist; records hold
// them in the file's column order. Only the pages of these columns are read.
// Names are those of [Version]: in a file of schema 1.x, a column that
// schema 2.0 renamed ([RenamedColumns]) is read under its old name and
// returned under its new one. A column of the table that a file of an
// older version lacks, because it was added since (payload_length_real in
// a 2.0 file), is read as all NULL, after the file's columns; at least one
// named column must be in the file. Defaults to every column.
func WithColumns(names ...string) ReaderOption {
	return func(c *readerConfig) error {
		if len(names) == 0 {
			return fmt.Errorf("%w: WithColumns(): no column", ErrBadOption)
		}
		c.columns = slices.Clone(names)
		return nil
	}
}

// WithTable makes [NewArrowReader] refuse, with an error wrapping
// [ErrWrongTable], a file that does not hold the named table. Defaults to
// accepting any table.
func WithTable(name string) ReaderOption {
	return func(c *readerConfig) error {
		if _, err := LookupTable(name); err != nil {
			return fmt.Errorf("%w: WithTable: %w", ErrBadOption, err)
		}
		c.table = name
		return nil
	}
}

// WithDictionary reads the named string columns (top-level, not lists) as
// dictionaries: their arrays in the records are *array.Dictionary with
// int32 indices into a utf8 dictionary, instead of *array.String. Values
// are not copied row by row: the dictionary of a column chunk (the
// distinct values of a row group) is decoded once, and each row is an
// index. This is much faster for a column with few distinct values or
// long runs of one value, such as the columns of the agents table.
//
// A record then never spans two row groups (arrow/go/v15 cannot join two
// dictionaries in one record): the file is read one row group after the
// other, and a record may hold fewer rows than the batch size at the end
// of each. Every record of a row group holds the dictionary of its column
// chunk: the same values at the same indices (values of pages a writer did
// not dictionary-encode are added at the end). Columns not listed with
// [WithColumns] are not read, dictionary or not. Defaults to none.
func WithDictionary(names ...string) ReaderOption {
	return func(c *readerConfig) error {
		if len(names) == 0 {
			return fmt.Errorf("%w: WithDictionary(): no column", ErrBadOption)
		}
		c.dict = slices.Clone(names)
		return nil
	}
}

// WithRowGroups reads only the given row groups of the file (numbered from
// 0, each less than [ArrowReader.NumRowGroups]), in the order given, so
// that several readers can share out the row groups of one file. Defaults
// to every row group.
func WithRowGroups(groups ...int) ReaderOption {
	return func(c *readerConfig) error {
		if len(groups) == 0 {
			return fmt.Errorf("%w: WithRowGroups(): no row group", ErrBadOption)
		}
		c.groups = slices.Clone(groups)
		return nil
	}
}

func newReaderConfig(opts []ReaderOption) (*readerConfig, error) {
	c := &readerConfig{mem: memory.DefaultAllocator, batch: DefaultBatchSize}
	for _, opt := range opts {
		if err := opt(c); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// ArrowReader reads one Parquet file of the dataset as a sequence of Arrow
// records, in the pull style of tar.Reader: call [ArrowReader.Next] until it
// returns io.EOF. Memory stays bounded by one batch plus one page per column
// read, whatever the file size: pages are read from the io.ReaderAt as they
// are needed (no row group is loaded whole).
//
// Errors are sticky. An ArrowReader is not safe for concurrent use.
type ArrowReader struct {
	pf        *file.Reader
	fr        *pqarrow.FileReader
	leaves    []int // leaf columns read; nil: all
	groups    []int // row groups read; nil: all
	perGroup  bool  // read one row group at a time (WithDictionary)
	nextGroup int   // the next row group to read when perGroup (index in groups, when set)
	rr        pqarrow.RecordReader
	schema    *arrow.Schema
	table     Table
	version   string
	names     *renames      // the file's renamed columns (schema 1.x); nil: none
	absent    []arrow.Field // columns asked for that the file, of an older version, lacks: read as NULL
	mem       memory.Allocator
	renamed   arrow.Record // the last record returned, when names or absent is set
	err       error
	closed    bool
}

// NewArrowReader reads the footer of the Parquet file of the given size in
// r and prepares to read its rows. It refuses files without a known
// [Version] ([ErrNoVersion], [ErrUnknownVersion]) or of an unknown table
// ([ErrUnknownTable]). The caller keeps r open until Close, and closes it.
func NewArrowReader(r io.ReaderAt, size int64, opts ...ReaderOption) (*ArrowReader, error) {
	c, err := newReaderConfig(opts)
	if err != nil {
		return nil, err
	}
	props := pq.NewReaderProperties(c.mem)
	props.BufferedStreamEnabled = true // read page by page, not whole column chunks
	pf, err := openParquet(r, size, []file.ReadOption{file.WithReadProps(props)})
	if err != nil {
		return nil, err
	}
	ar, err := newArrowReader(pf, c)
	if err != nil {
		pf.Close()
		return nil, err
	}
	return ar, nil
}

func newArrowReader(pf *file.Reader, c *readerConfig) (*ArrowReader, error) {
	table, err := checkFooter(pf.MetaData())
	if err != nil {
		return nil, err
	}
	if c.table != "" && table.Name != c.table {
		return nil, fmt.Errorf("%w: want %s, file holds %s", ErrWrongTable, c.table, table.Name)
	}
	version := footerValue(pf.MetaData(), VersionKey)
	names := newRenames(table.Name, version)
	inFile, absent, err := addedSince(pf, table, version, c.columns)
	if err != nil {
		return nil, err
	}
	leaves, err := leafIndices(pf, names.old(inFile))
	if err != nil {
		return nil, err
	}
	for _, g := range c.groups {
		if g < 0 || g >= pf.NumRowGroups() {
			return nil, fmt.Errorf("%w: WithRowGroups: row group %d of %d", ErrBadOption, g, pf.NumRowGroups())
		}
	}
	props := pqarrow.ArrowReadProperties{BatchSize: c.batch}
	if err := setReadDict(&props, pf, names.old(c.dict)); err != nil {
		return nil, err
	}
	fr, err := pqarrow.NewFileReader(pf, props, c.mem)
	if err != nil {
		return nil, fmt.Errorf("schema: reading %s as Arrow: %w", table.Name, err)
	}
	r := &ArrowReader{
		pf: pf, fr: fr, leaves: leaves, groups: c.groups, perGroup: len(c.dict) > 0 && pf.NumRowGroups() > 0,
		table: table, version: version, names: names, absent: absent, mem: c.mem,
	}
	if err := r.openReader(); err != nil {
		return nil, err
	}
	r.schema = names.schema(r.rr.Schema())
	if len(absent) > 0 {
		md := r.schema.Metadata()
		r.schema = arrow.NewSchema(append(r.schema.Fields(), absent...), &md)
	}
	return r, nil
}

// addedSince splits the columns asked for (current names; nil: all) into
// those to read from the file and those the table gained after the
// file's version was written, which the file lacks and the reader gives
// as NULL. A column the file lacks for any other reason stays with those
// to read, for leafIndices to refuse.
func addedSince(pf *file.Reader, table Table, version string, columns []string) (inFile []string, absent []arrow.Field, err error) {
	if columns == nil || !olderThanCurrent(version) {
		return columns, nil, nil
	}
	renames := newRenames(table.Name, version)
	for _, name := range columns {
		i := table.Arrow.FieldIndices(name)
		if len(i) == 1 && len(leavesUnder(pf, renames.old([]string{name})[0])) == 0 {
			f := table.Arrow.Field(i[0])
			absent = append(absent, arrow.Field{Name: f.Name, Type: f.Type, Nullable: true})
			continue
		}
		inFile = append(inFile, name)
	}
	if len(inFile) == 0 {
		return nil, nil, fmt.Errorf("%w: the file (schema %s) has none of %q", ErrNoColumn, version, columns)
	}
	return inFile, absent, nil
}

// renames maps the column names of a file of an older major version to
// those of [Version] and back; nil when the file has the current names.
type renames struct {
	toOld     map[string]string // current name -> name in the file
	toCurrent map[string]string // name in the file -> current name
}

// newRenames returns the renames of a file of a table written with schema
// version (one [CheckVersion] accepts).
func newRenames(table, version string) *renames {
	if IsCurrentMajor(version) || len(renamed1[table]) == 0 {
		return nil
	}
	m := &renames{toOld: map[string]string{}, toCurrent: map[string]string{}}
	for _, r := range renamed1[table] {
		m.toOld[r[0]], m.toCurrent[r[1]] = r[1], r[0]
	}
	return m
}

// old returns the file's names of the columns named (current names).
func (m *renames) old(names []string) []string {
	if m == nil || names == nil {
		return names
	}
	out := slices.Clone(names)
	for i, n := range out {
		if o, ok := m.toOld[n]; ok {
			out[i] = o
		}
	}
	return out
}

// schema returns s with the file's old column names replaced by the
// current ones.
func (m *renames) schema(s *arrow.Schema) *arrow.Schema {
	if m == nil {
		return s
	}
	fields := s.Fields()
	for i, f := range fields {
		if cur, ok := m.toCurrent[f.Name]; ok {
			fields[i].Name = cur
		}
	}
	md := s.Metadata()
	return arrow.NewSchema(fields, &md)
}

// setReadDict asks pqarrow to read the named columns as dictionaries.
func setReadDict(props *pqarrow.ArrowReadProperties, pf *file.Reader, names []string) error {
	sc := pf.MetaData().Schema
	for _, name := range names {
		i := sc.ColumnIndexByName(name)
		if i < 0 {
			return fmt.Errorf("%w: %q (WithDictionary)", ErrNoColumn, name)
		}
		if sc.Column(i).PhysicalType() != pq.Types.ByteArray {
			return fmt.Errorf("%w: WithDictionary: %q is not a string column", ErrBadOption, name)
		}
		props.SetReadDict(i, true)
	}
	return nil
}

// openReader starts reading the next row group, or every row group read
// when the file is not read one row group at a time.
func (r *ArrowReader) openReader() error {
	groups := r.groups
	if r.perGroup {
		g := r.nextGroup
		if r.groups != nil {
			g = r.groups[r.nextGroup]
		}
		groups = []int{g}
		r.nextGroup++
	}
	rr, err := r.fr.GetRecordReader(context.Background(), r.leaves, groups)
	if err != nil {
		return fmt.Errorf("schema: reading %s as Arrow: %w", r.table.Name, err)
	}
	r.rr = rr
	return nil
}

// leafIndices returns the Parquet leaf columns of the named top-level
// columns (a list column has one leaf below it), or nil for all.
func leafIndices(pf *file.Reader, names []string) ([]int, error) {
	if names == nil {
		return nil, nil
	}
	var leaves []int
	for _, name := range names {
		under := leavesUnder(pf, name)
		if len(under) == 0 {
			return nil, fmt.Errorf("%w: %q", ErrNoColumn, name)
		}
		leaves = append(leaves, under...)
	}
	slices.Sort(leaves)
	return slices.Compact(leaves), nil
}

// leavesUnder returns the Parquet leaf columns of the top-level column
// name (a list column has one leaf below it), none when the file lacks it.
func leavesUnder(pf *file.Reader, name string) []int {
	sc := pf.MetaData().Schema
	var leaves []int
	for i := range sc.NumColumns() {
		if sc.Column(i).ColumnPath()[0] == name {
			leaves = append(leaves, i)
		}
	}
	return leaves
}

// Table returns the table the file holds, from its footer.
func (r *ArrowReader) Table() Table { return r.table }

// Version returns the schema version the file was written with.
func (r *ArrowReader) Version() string { return r.version }

// Metadata returns the value of a footer key/value pair, such as one given
// to [WithMetadata], or "" if there is none.
func (r *ArrowReader) Metadata(key string) string { return footerValue(r.pf.MetaData(), key) }

// NumRows returns the number of rows in the file.
func (r *ArrowReader) NumRows() int64 { return r.pf.NumRows() }

// NumRowGroups returns the number of row groups in the file.
func (r *ArrowReader) NumRowGroups() int { return r.pf.NumRowGroups() }

// numGroupsRead is the number of row groups the reader reads.
func (r *ArrowReader) numGroupsRead() int {
	if r.groups != nil {
		return len(r.groups)
	}
	return r.pf.NumRowGroups()
}

// Schema returns the schema of the records: the table's Arrow schema, or
// the columns asked for with [WithColumns], with dictionary types for those
// asked for with [WithDictionary], the columns of a file of schema 1.x
// that schema 2.0 renamed under their 2.0 names. Fields carry Parquet
// field metadata that [Table.Arrow] does not.
func (r *ArrowReader) Schema() *arrow.Schema { return r.schema }

// Next returns the next record of at most the batch size rows, or io.EOF
// after the last. The record belongs to the reader and is released by the
// next call to Next or by Close; call its Retain method to keep it longer
// (and Release when done).
func (r *ArrowReader) Next() (arrow.Record, error) {
	if r.closed {
		return nil, ErrClosed
	}
	if r.err != nil {
		return nil, r.err
	}
	for {
		rec, err := r.rr.Read()
		end := errors.Is(err, io.EOF) || err == nil && rec == nil
		if end && r.perGroup && r.nextGroup < r.numGroupsRead() {
			r.rr.Release()
			if r.err = r.openReader(); r.err != nil {
				r.rr = nil
				return nil, r.err
			}
			continue
		}
		switch {
		case end:
			r.err = io.EOF
		case err != nil:
			r.err = fmt.Errorf("schema: reading %s records: %w", r.table.Name, err)
		default:
			return r.complete(rec), nil
		}
		return nil, r.err
	}
}

// complete returns rec under the reader's schema: as it is when the file
// has the current column names and every column asked for, else a record
// of the same columns with the current names, followed by an all-NULL
// column for each absent one, which the reader releases as it does rec.
func (r *ArrowReader) complete(rec arrow.Record) arrow.Record {
	if r.names == nil && len(r.absent) == 0 {
		return rec
	}
	if r.renamed != nil {
		r.renamed.Release()
		r.renamed = nil
	}
	cols := rec.Columns()
	n := int(rec.NumRows())
	for _, f := range r.absent {
		nulls := array.MakeArrayOfNull(r.mem, f.Type, n)
		defer nulls.Release() // the record retains it
		cols = append(cols[:len(cols):len(cols)], nulls)
	}
	r.renamed = array.NewRecord(r.schema, cols, rec.NumRows())
	return r.renamed
}

// Close releases the last record and the reader's buffers. It does not
// close the io.ReaderAt. Calling Close again does nothing.
func (r *ArrowReader) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	if r.renamed != nil {
		r.renamed.Release()
	}
	if r.rr != nil {
		r.rr.Release()
	}
	return r.pf.Close()
}
