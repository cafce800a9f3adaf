package schema

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// Source is one Parquet file given to [Concat].
type Source struct {
	Name string // for error messages
	R    io.ReaderAt
	Size int64
}

// ErrSchemaMismatch reports files of different schemas given to [Concat].
var ErrSchemaMismatch = errors.New("schema: files have different schemas")

// Concat writes to w one Parquet file holding the row groups of every
// source, in order, each column chunk copied byte for byte: nothing is
// decoded or recompressed, so merging many small part files into a few
// large ones costs little more than copying them. The sources must have the
// same schema (files of one table written by this package); the footer
// metadata is the first source's. Page indexes and Bloom filters are not
// carried over: the result has none. It returns the number of rows written.
func Concat(w io.Writer, sources []Source) (int64, error) {
	out := countingWriter{w: w}
	if err := out.write([]byte("PAR1")); err != nil {
		return 0, err
	}
	var md format.FileMetaData
	for i, src := range sources {
		smd, err := readFooter(src)
		if err != nil {
			return 0, err
		}
		if i == 0 {
			md = format.FileMetaData{Version: smd.Version, Schema: smd.Schema, KeyValueMetadata: smd.KeyValueMetadata,
				CreatedBy: "robocensus schema.Concat", ColumnOrders: smd.ColumnOrders}
		} else if !sameSchema(md.Schema, smd.Schema) {
			return 0, fmt.Errorf("%w: %s", ErrSchemaMismatch, src.Name)
		}
		for _, rg := range smd.RowGroups {
			moved, err := copyRowGroup(&out, src, rg)
			if err != nil {
				return 0, fmt.Errorf("schema: copying %s: %w", src.Name, err)
			}
			moved.Ordinal = int16(len(md.RowGroups))
			md.RowGroups = append(md.RowGroups, moved)
			md.NumRows += rg.NumRows
		}
	}
	if len(sources) == 0 {
		return 0, errors.New("schema: Concat of no files")
	}
	b, err := thrift.Marshal(new(thrift.CompactProtocol), &md)
	if err != nil {
		return 0, err
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(b)))
	return md.NumRows, out.write(append(b, "PAR1"...))
}

// readFooter reads and decodes the file metadata of a Parquet file.
func readFooter(src Source) (*format.FileMetaData, error) {
	var tail [8]byte
	if src.Size < 12 {
		return nil, fmt.Errorf("schema: %s: too short for Parquet", src.Name)
	}
	if _, err := src.R.ReadAt(tail[:], src.Size-8); err != nil {
		return nil, fmt.Errorf("schema: %s: %w", src.Name, err)
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if string(tail[4:]) != "PAR1" || n > src.Size-12 {
		return nil, fmt.Errorf("schema: %s: not a Parquet file", src.Name)
	}
	buf := make([]byte, n)
	if _, err := src.R.ReadAt(buf, src.Size-8-n); err != nil {
		return nil, fmt.Errorf("schema: %s: %w", src.Name, err)
	}
	md := new(format.FileMetaData)
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), buf, md); err != nil {
		return nil, fmt.Errorf("schema: %s: reading footer: %w", src.Name, err)
	}
	return md, nil
}

// copyRowGroup copies the column chunks of rg to out and returns the row
// group with its offsets moved to where the chunks now are.
func copyRowGroup(out *countingWriter, src Source, rg format.RowGroup) (format.RowGroup, error) {
	moved := format.RowGroup{NumRows: rg.NumRows, TotalByteSize: rg.TotalByteSize, SortingColumns: rg.SortingColumns}
	moved.Columns = slices.Clone(rg.Columns)
	for i := range moved.Columns {
		cc := &moved.Columns[i]
		m := &cc.MetaData
		start := m.DataPageOffset
		if m.DictionaryPageOffset > 0 && m.DictionaryPageOffset < start {
			start = m.DictionaryPageOffset
		}
		delta := out.n - start
		if i == 0 {
			moved.FileOffset = out.n
		}
		if _, err := io.Copy(out, io.NewSectionReader(src.R, start, m.TotalCompressedSize)); err != nil {
			return moved, err
		}
		m.DataPageOffset += delta
		if m.DictionaryPageOffset > 0 {
			m.DictionaryPageOffset += delta
		}
		if m.IndexPageOffset > 0 {
			m.IndexPageOffset += delta
		}
		m.BloomFilterOffset, m.BloomFilterLength = 0, 0
		cc.FileOffset = start + delta
		cc.OffsetIndexOffset, cc.OffsetIndexLength, cc.ColumnIndexOffset, cc.ColumnIndexLength = 0, 0, 0, 0
		moved.TotalCompressedSize += m.TotalCompressedSize
	}
	return moved, nil
}

// sameSchema compares two schemas element by element through their Thrift
// encoding.
func sameSchema(a, b []format.SchemaElement) bool {
	ea, err1 := thrift.Marshal(new(thrift.CompactProtocol), &format.FileMetaData{Schema: a})
	eb, err2 := thrift.Marshal(new(thrift.CompactProtocol), &format.FileMetaData{Schema: b})
	return err1 == nil && err2 == nil && bytes.Equal(ea, eb)
}

// Write lets io.Copy write through the counting writer.
func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}
