package schema

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

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
//
// Each column chunk keeps its codec, so sources written with different
// codecs ([WithCompression]) give a file whose row groups differ in codec,
// which is valid Parquet that every reader reads; [ConcatCompressed] gives
// every chunk one codec.
func Concat(w io.Writer, sources []Source) (int64, error) { return concat(w, sources, nil) }

// ConcatCompressed is [Concat] with every column chunk compressed with c:
// a chunk of the sources already compressed with c is copied byte for
// byte, as Concat copies it, and one of another codec is copied page by
// page, each page decompressed and compressed again with c (its header,
// encodings, values and statistics otherwise unchanged). Only the codecs
// of [Compression] can be decompressed, and pages of version 1 (those
// this package writes): a chunk with others is an error.
func ConcatCompressed(w io.Writer, sources []Source, c Compression) (int64, error) {
	if !c.valid() {
		return 0, fmt.Errorf("%w: ConcatCompressed with %v", ErrBadOption, c)
	}
	return concat(w, sources, &c)
}

// concat is Concat, with every chunk recompressed to *codec when codec is
// not nil.
func concat(w io.Writer, sources []Source, codec *Compression) (int64, error) {
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
			moved, err := copyRowGroup(&out, src, rg, codec)
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
// group with its offsets moved to where the chunks now are. A chunk of
// another codec than *codec, when codec is not nil, is recompressed.
func copyRowGroup(out *countingWriter, src Source, rg format.RowGroup, codec *Compression) (format.RowGroup, error) {
	moved := format.RowGroup{NumRows: rg.NumRows, TotalByteSize: rg.TotalByteSize, SortingColumns: rg.SortingColumns}
	moved.Columns = slices.Clone(rg.Columns)
	for i := range moved.Columns {
		cc := &moved.Columns[i]
		m := &cc.MetaData
		start := m.DataPageOffset
		if m.DictionaryPageOffset > 0 && m.DictionaryPageOffset < start {
			start = m.DictionaryPageOffset
		}
		if i == 0 {
			moved.FileOffset = out.n
		}
		cc.FileOffset = out.n
		if codec != nil && m.Codec != codec.codec() {
			if err := recompressChunk(out, src, m, start, *codec); err != nil {
				return moved, fmt.Errorf("column %s: %w", strings.Join(m.PathInSchema, "."), err)
			}
		} else if err := copyChunk(out, src, m, start); err != nil {
			return moved, err
		}
		m.BloomFilterOffset, m.BloomFilterLength = 0, 0
		cc.OffsetIndexOffset, cc.OffsetIndexLength, cc.ColumnIndexOffset, cc.ColumnIndexLength = 0, 0, 0, 0
		moved.TotalCompressedSize += m.TotalCompressedSize
	}
	return moved, nil
}

// copyChunk copies the column chunk m, starting at start in src, to out
// byte for byte, and moves m's offsets to where it now is.
func copyChunk(out *countingWriter, src Source, m *format.ColumnMetaData, start int64) error {
	delta := out.n - start
	if _, err := io.Copy(out, io.NewSectionReader(src.R, start, m.TotalCompressedSize)); err != nil {
		return err
	}
	m.DataPageOffset += delta
	if m.DictionaryPageOffset > 0 {
		m.DictionaryPageOffset += delta
	}
	if m.IndexPageOffset > 0 {
		m.IndexPageOffset += delta
	}
	return nil
}

// recompressChunk writes the column chunk m, starting at start in src, to
// out page by page, each compressed again with c, and sets m's codec,
// offsets and sizes to those of the copy.
func recompressChunk(out *countingWriter, src Source, m *format.ColumnMetaData, start int64, c Compression) error {
	chunk := make([]byte, m.TotalCompressedSize)
	if _, err := src.R.ReadAt(chunk, start); err != nil {
		return err
	}
	from := m.Codec
	m.Codec, m.TotalCompressedSize, m.TotalUncompressedSize = c.codec(), 0, 0
	m.DictionaryPageOffset, m.IndexPageOffset = 0, 0
	var plain, packed []byte
	dataPages := 0
	for pos := 0; pos < len(chunk); {
		h, body, err := nextPage(chunk, &pos)
		if err != nil {
			return err
		}
		switch h.Type {
		case format.DataPage:
			if dataPages == 0 {
				m.DataPageOffset = out.n
			}
			dataPages++
		case format.DictionaryPage:
			m.DictionaryPageOffset = out.n
		default:
			return fmt.Errorf("a %v page: only version 1 data pages and dictionary pages can be recompressed", h.Type)
		}
		if plain, err = decodePage(from, plain, body); err != nil {
			return fmt.Errorf("decompressing a page: %w", err)
		}
		if len(plain) != int(h.UncompressedPageSize) {
			return fmt.Errorf("a page of %d bytes, its header says %d", len(plain), h.UncompressedPageSize)
		}
		packed = c.encode(packed, plain)
		h.CompressedPageSize, h.CRC = int32(len(packed)), 0 // a CRC is of the compressed bytes
		head, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
		if err != nil {
			return err
		}
		m.TotalUncompressedSize += int64(len(head) + len(plain))
		m.TotalCompressedSize += int64(len(head) + len(packed))
		if err := errors.Join(out.write(head), out.write(packed)); err != nil {
			return err
		}
	}
	if dataPages == 0 {
		return errors.New("a column chunk without data pages")
	}
	return nil
}

// nextPage reads the page at *pos of a column chunk: its header and its
// compressed bytes, moving *pos past them.
func nextPage(chunk []byte, pos *int) (format.PageHeader, []byte, error) {
	var h format.PageHeader
	r := new(thrift.CompactProtocol).NewReaderFromBytes(chunk[*pos:])
	if err := thrift.NewDecoder(r).Decode(&h); err != nil {
		return h, nil, fmt.Errorf("reading a page header: %w", err)
	}
	*pos += r.BytesRead()
	if h.CompressedPageSize < 0 || int(h.CompressedPageSize) > len(chunk)-*pos {
		return h, nil, fmt.Errorf("a page of %d bytes past the end of its column chunk", h.CompressedPageSize)
	}
	body := chunk[*pos : *pos+int(h.CompressedPageSize)]
	*pos += len(body)
	return h, body, nil
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
