package schema

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// columnFile is what [RulesWriter] and [DiagnosticsWriter] share: a
// Parquet file written a row group at a time, each column of a row group
// one compressed page (a textColumn several), with the schema of the
// file [Writer] writes for the same table (so that [Concat] merges the
// files of both) and the same row group statistics. Pages carry no
// statistics, as with [Writer].
type columnFile struct {
	w          countingWriter
	perGroup   int // rows per row group
	pageSize   int // bytes of a page of a textColumn
	codec      Compression
	table      string
	meta       []format.KeyValue
	groups     []format.RowGroup
	rows       int64 // in the row groups written
	err        error
	closed     bool
	template   func() (*format.FileMetaData, error)
	rg         format.RowGroup // the row group being written
	page       []byte
	compressed []byte
}

// footerOf returns a function giving the footer of an empty file of
// Writer[T], computed once: its schema and column orders are those of the
// columnFile of T.
func footerOf[T Row]() func() (*format.FileMetaData, error) {
	return sync.OnceValues(func() (*format.FileMetaData, error) {
		var buf bytes.Buffer
		if err := NewWriter[T](&buf).Close(); err != nil {
			return nil, err
		}
		return readFooter(Source{Name: TableName[T]() + " template", R: bytes.NewReader(buf.Bytes()), Size: int64(buf.Len())})
	})
}

// init starts the file: the options are those of [NewWriter];
// [WithPageBufferSize] sizes the pages of the free-text columns, and
// [WithCompression] compresses every page.
func (f *columnFile) init(w io.Writer, table string, template func() (*format.FileMetaData, error), opts []WriterOption) {
	f.w, f.table, f.template = countingWriter{w: w}, table, template
	c, err := newWriterConfig(opts)
	if err == nil {
		_, err = template()
	}
	if err != nil {
		f.err = err
		return
	}
	f.perGroup = int(min(c.rowGroupRows, 1<<30))
	f.pageSize, f.codec = c.pageSize, c.compression
	f.meta = append(f.meta, format.KeyValue{Key: VersionKey, Value: Version}, format.KeyValue{Key: TableKey, Value: table})
	for _, kv := range c.metadata {
		f.meta = append(f.meta, format.KeyValue{Key: kv[0], Value: kv[1]})
	}
	f.err = f.w.write([]byte("PAR1"))
}

// check returns the error a write must return before it starts.
func (f *columnFile) check() error {
	if f.closed {
		return ErrClosed
	}
	return f.err
}

// beginGroup starts a row group of n rows.
func (f *columnFile) beginGroup(n int) {
	f.rg = format.RowGroup{NumRows: int64(n), FileOffset: f.w.n, Ordinal: int16(len(f.groups))}
}

// add adds a column chunk written to the row group, unless an earlier one
// failed.
func (f *columnFile) add(cc format.ColumnChunk, err error) {
	if f.err != nil {
		return
	}
	if f.err = err; err == nil {
		f.rg.Columns = append(f.rg.Columns, cc)
		f.rg.TotalByteSize += cc.MetaData.TotalUncompressedSize
		f.rg.TotalCompressedSize += cc.MetaData.TotalCompressedSize
	}
}

// endGroup ends the row group, returning the first error of its columns.
func (f *columnFile) endGroup() error {
	if f.err == nil {
		f.groups = append(f.groups, f.rg)
		f.rows += f.rg.NumRows
	}
	return f.err
}

// dictBuilder is a dictionary-encoded column of a row group: its values,
// each once and valid UTF-8, and the index of each row's value.
type dictBuilder struct {
	values []string
	index  map[string]uint32 // value as given -> index in values
	of     []uint32
}

// smallDict is the size up to which a dictionary is searched in order
// rather than through its map: directive, code and severity.
const smallDict = 8

// add appends v, repaired if it is not UTF-8. A value equal to the row
// before's costs no lookup.
func (d *dictBuilder) add(v string) {
	if n := len(d.of); n > 0 && v == d.values[d.of[n-1]] {
		d.of = append(d.of, d.of[n-1])
		return
	}
	if len(d.values) <= smallDict {
		for i, s := range d.values {
			if s == v { // a valid v: index[v] is i too
				d.of = append(d.of, uint32(i))
				return
			}
		}
	}
	i, ok := d.index[v]
	if !ok {
		i = d.insert(v)
	}
	d.of = append(d.of, i)
}

// insert adds v to the dictionary. A value that is not UTF-8 is stored
// repaired, once: two values that repair to the same string share it (a
// dictionary holds each value once, see AgentsWriter.Add).
func (d *dictBuilder) insert(v string) uint32 {
	v = strings.Clone(v) // the caller's strings are not kept
	fixed := validUTF8String(v)
	if fixed != v {
		if i, ok := d.index[fixed]; ok {
			d.index[v] = i
			return i
		}
	}
	i := uint32(len(d.values))
	d.values = append(d.values, fixed)
	d.index[fixed] = i
	if fixed != v {
		d.index[v] = i
	}
	return i
}

func (d *dictBuilder) reset() {
	if d.index == nil {
		d.index = map[string]uint32{}
	}
	clear(d.index)
	clear(d.values) // the strings of the row group
	d.values, d.of = d.values[:0], d.of[:0]
}

// bounds returns the least and greatest value of the dictionary: every
// value is some row's, so these are the column's min and max.
func (d *dictBuilder) bounds() (lo, hi string) {
	lo, hi = d.values[0], d.values[0]
	for _, v := range d.values[1:] {
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}

// dictChunk writes a dictionary page of d's values and a data page of its
// indices. For a list column, reps and defs are its levels (of maximum 1),
// one entry per element or empty list; an empty list counts as a null, as
// parquet-go counts it.
func (f *columnFile) dictChunk(path []string, d *dictBuilder, reps, defs []uint32) (format.ColumnChunk, error) {
	md := format.ColumnMetaData{Type: format.ByteArray, PathInSchema: path, Codec: f.codec.codec(),
		Encoding: []format.Encoding{format.Plain, format.RLEDictionary}}
	numValues := len(d.of)
	if defs != nil {
		md.Encoding = []format.Encoding{format.Plain, format.RLE, format.RLEDictionary}
		numValues = len(defs)
		md.Statistics.NullCount = int64(len(defs) - len(d.of))
	}
	md.NumValues = int64(numValues)
	if len(d.values) > 0 {
		lo, hi := d.bounds()
		md.Statistics.MinValue, md.Statistics.MaxValue = []byte(lo), []byte(hi)
	}
	f.page = f.page[:0]
	for _, s := range d.values {
		f.page = binary.LittleEndian.AppendUint32(f.page, uint32(len(s)))
		f.page = append(f.page, s...)
	}
	md.DictionaryPageOffset = f.w.n
	if err := f.writePage(&md, format.PageHeader{Type: format.DictionaryPage,
		DictionaryPageHeader: thrift.New(format.DictionaryPageHeader{NumValues: int32(len(d.values)), Encoding: format.Plain})}, f.page); err != nil {
		return format.ColumnChunk{}, err
	}
	f.page = f.page[:0]
	if defs != nil {
		f.page = appendLevels(f.page, reps)
		f.page = appendLevels(f.page, defs)
	}
	width := bitWidth(max(len(d.values)-1, 0))
	f.page = appendHybrid(append(f.page, byte(width)), d.of, width)
	md.DataPageOffset = f.w.n
	err := f.writePage(&md, dataPageHeader(numValues, format.RLEDictionary), f.page)
	return format.ColumnChunk{FileOffset: md.DictionaryPageOffset, MetaData: md}, err
}

// appendLevels appends repetition or definition levels of maximum 1 as a
// version 1 data page has them: their length, then the hybrid encoding.
func appendLevels(dst []byte, levels []uint32) []byte {
	start := len(dst)
	dst = appendHybrid(append(dst, 0, 0, 0, 0), levels, 1)
	binary.LittleEndian.PutUint32(dst[start:], uint32(len(dst)-start-4))
	return dst
}

// int32Chunk writes a PLAIN int32 column with its min and max.
func (f *columnFile) int32Chunk(name string, values []int32) (format.ColumnChunk, error) {
	lo, hi := values[0], values[0]
	f.page = f.page[:0]
	for _, v := range values {
		lo, hi = min(lo, v), max(hi, v)
		f.page = binary.LittleEndian.AppendUint32(f.page, uint32(v))
	}
	stats := format.Statistics{MinValue: binary.LittleEndian.AppendUint32(nil, uint32(lo)), MaxValue: binary.LittleEndian.AppendUint32(nil, uint32(hi))}
	return f.plainChunk([]string{name}, format.Int32, len(values), f.page, stats, false)
}

// boolChunk writes a PLAIN (bit-packed) boolean column with its min and max.
func (f *columnFile) boolChunk(name string, values []bool) (format.ColumnChunk, error) {
	f.page = appendBools(f.page[:0], values)
	lo, hi := byte(1), byte(0)
	if slices.Contains(values, false) {
		lo = 0
	}
	if slices.Contains(values, true) {
		hi = 1
	}
	return f.plainChunk([]string{name}, format.Boolean, len(values), f.page, format.Statistics{MinValue: []byte{lo}, MaxValue: []byte{hi}}, false)
}

// plainChunk writes page, n PLAIN entries of a column (definition levels
// first if it is optional), as one data page.
func (f *columnFile) plainChunk(path []string, typ format.Type, n int, page []byte, stats format.Statistics, optional bool) (format.ColumnChunk, error) {
	md := format.ColumnMetaData{Type: typ, Encoding: []format.Encoding{format.Plain}, PathInSchema: path, Codec: f.codec.codec(),
		NumValues: int64(n), DataPageOffset: f.w.n, Statistics: stats}
	if optional {
		md.Encoding = []format.Encoding{format.Plain, format.RLE}
	}
	err := f.writePage(&md, dataPageHeader(n, format.Plain), page)
	return format.ColumnChunk{FileOffset: md.DataPageOffset, MetaData: md}, err
}

// writePage compresses page and writes it with its header, adding its
// sizes to md.
func (f *columnFile) writePage(md *format.ColumnMetaData, h format.PageHeader, page []byte) error {
	f.compressed = f.codec.encode(f.compressed, page)
	return f.writeCompressed(md, h, len(page), f.compressed)
}

// writeCompressed writes a compressed page of size bytes uncompressed with
// its header, adding its sizes to md.
func (f *columnFile) writeCompressed(md *format.ColumnMetaData, h format.PageHeader, size int, compressed []byte) error {
	h.UncompressedPageSize, h.CompressedPageSize = int32(size), int32(len(compressed))
	head, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
	if err != nil {
		return err
	}
	md.TotalUncompressedSize += int64(len(head) + size)
	md.TotalCompressedSize += int64(len(head) + len(compressed))
	if err := f.w.write(head); err != nil {
		return err
	}
	return f.w.write(compressed)
}

// textColumn is a column of free text (PLAIN strings, no min and max, see
// textColumns), optional or not, compressed a page at a time as rows come
// so that a row group of text is held compressed, as [Writer] holds it.
type textColumn struct {
	optional bool
	buf      []byte   // the page being filled: PLAIN values
	defs     []uint32 // its definition levels, when optional
	n        int      // its entries
	rows     int      // entries of the row group
	nulls    int64    // NULLs of the row group
	pages    []textPage
}

// textPage is a compressed page of a textColumn.
type textPage struct {
	n, size    int // entries, bytes uncompressed
	compressed []byte
}

// add appends s; an optional column writes "" as NULL. A page of f's
// page size is compressed with f's codec.
func (c *textColumn) add(s string, f *columnFile) {
	c.n++
	c.rows++
	if c.optional {
		if s == "" {
			c.defs = append(c.defs, 0)
			c.nulls++
			return
		}
		c.defs = append(c.defs, 1)
	}
	c.buf = appendPlain(c.buf, validUTF8String(s))
	if len(c.buf) >= f.pageSize {
		c.cut(f.codec)
	}
}

// cut compresses the page being filled with codec.
func (c *textColumn) cut(codec Compression) {
	if c.n == 0 {
		return
	}
	var page []byte
	if c.optional {
		page = appendLevels(nil, c.defs)
	}
	page = append(page, c.buf...)
	c.pages = append(c.pages, textPage{n: c.n, size: len(page), compressed: codec.encode(nil, page)})
	c.buf, c.defs, c.n = c.buf[:0], c.defs[:0], 0
}

// appendPlain appends s as a PLAIN BYTE_ARRAY value.
func appendPlain(dst []byte, s string) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(s)))
	return append(dst, s...)
}

// textChunk writes the pages of c, and empties it for the next row group.
func (f *columnFile) textChunk(name string, c *textColumn) (format.ColumnChunk, error) {
	c.cut(f.codec)
	md := format.ColumnMetaData{Type: format.ByteArray, Encoding: []format.Encoding{format.Plain}, PathInSchema: []string{name},
		Codec: f.codec.codec(), NumValues: int64(c.rows), DataPageOffset: f.w.n, Statistics: format.Statistics{NullCount: c.nulls}}
	if c.optional {
		md.Encoding = []format.Encoding{format.Plain, format.RLE}
	}
	var err error
	for _, p := range c.pages {
		if err == nil {
			err = f.writeCompressed(&md, dataPageHeader(p.n, format.Plain), p.size, p.compressed)
		}
	}
	clear(c.pages)
	c.pages, c.rows, c.nulls = c.pages[:0], 0, 0
	return format.ColumnChunk{FileOffset: md.DataPageOffset, MetaData: md}, err
}

// flushGroup ends the current row group with flush, the writer's own,
// unless an earlier error sticks.
func (f *columnFile) flushGroup(flush func() error) error {
	if err := f.check(); err != nil {
		return err
	}
	return flush()
}

// close writes the last row group with flush and the footer, naming the
// writer as createdBy, once: calling it again returns the first result.
func (f *columnFile) close(flush func() error, createdBy string) error {
	if f.closed {
		return f.err
	}
	f.closed = true
	if f.err == nil {
		f.err = flush()
	}
	if f.err == nil {
		f.err = f.footer(createdBy)
	}
	return f.err
}

// footer writes the file metadata and the trailer.
func (f *columnFile) footer(createdBy string) error {
	t, err := f.template()
	if err != nil {
		return err
	}
	md := format.FileMetaData{Version: t.Version, Schema: t.Schema, ColumnOrders: t.ColumnOrders,
		NumRows: f.rows, RowGroups: f.groups, KeyValueMetadata: f.meta, CreatedBy: createdBy}
	b, err := thrift.Marshal(new(thrift.CompactProtocol), &md)
	if err != nil {
		return fmt.Errorf("schema: writing %s footer: %w", f.table, err)
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(b)))
	return f.w.write(append(b, "PAR1"...))
}
