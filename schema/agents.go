package schema

import (
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/robocensus/robocensus/robots"
)

// AgentsWriter writes the agents table, one row per capture and tracked
// crawler, an order of magnitude faster than Writer[Agent]. With some 180
// tracked crawlers the agents table has 180 times more rows than captures,
// and a general row writer spends most of an ingest run on it. The table's
// shape lets a writer skip the per-value work: within a capture every row
// has the same capture_id and url_host_name, and the agent column repeats
// the same crawlers in the same order. AgentsWriter therefore writes the
// Parquet file itself (the format structures and their Thrift encoding come
// from parquet-go): every column dictionary-encoded, indices in the
// RLE/bit-packed hybrid, one compressed page per column and row group.
//
// The file has the columns of [Agent], with the same types, the same footer
// metadata ([VersionKey], [TableKey], [WithMetadata]) and the same
// UTF-8 repair as a [Writer]; any Parquet reader reads it.
//
// Why not parquet-go's public API: it is an order of magnitude slower on
// this table and its files are half as big again. Measured on 2026-11-24
// (go1.26.8, parquet-go v0.32.0, a shared 2-core Xeon under load) with
//
//	go test ./schema -run '^$' -bench AgentsWriterVsPublic -benchtime 3x -count 5
//
// which writes the agents table of 20,000 captures with the 175 tracked
// crawlers (3.5M rows, verdicts mostly those of the '*' group) with this
// writer, with Writer[Agent] (the dataset's options), and with
// parquet.GenericWriter[Agent] tuned (no bounds, no UTF-8 repair, row
// groups of this writer's size). Medians of 5:
//
//	                         ns/row  file bytes  allocated B/op  allocs/op
//	AgentsWriter                 44     638,011      17,221,378      1,001
//	Writer[Agent]               865   1,086,061       8,325,280      2,213
//	GenericWriter, tuned        562     979,235      35,427,733        936
//
// and, the three writers timed in the same iterations (impl=both), public
// over AgentsWriter: time 14.0 (10.7 to 19.1) for Writer[Agent] and 7.4
// (6.3 to 11.1) tuned; file size 1.70 and 1.54; allocated bytes 0.49 and
// 2.07. The machine's load varied (a load average of 6 to 14), hence the
// spread; an earlier run gave time ratios of 16.8 and 9.7.
//
// This writer allocates more bytes than Writer[Agent], but a bounded amount
// per file (its row group buffers, grown to 2048 captures' rows and then
// reused), not an amount per row. The public
// writers spend the time per value: UTF-8 checks, dictionary lookups of
// strings, page min/max bounds. TestAgentsWriterVsPublicSameRows checks
// that the writers' files hold the same rows, of the same DuckDB types.
type AgentsWriter struct {
	w          countingWriter
	agents     []string // the agent dictionary: one value per tracked crawler
	agentWidth int
	perGroup   int // captures per row group
	codec      Compression
	meta       []format.KeyValue
	groups     []format.RowGroup
	rows       int64
	err        error
	closed     bool

	// The row group being built.
	ids        []string               // distinct capture IDs of the row group
	idIdx      map[string]int         // capture ID -> index in ids
	idOf       []uint32               // per capture: index in ids
	hosts      []string               // distinct hosts of the row group
	hostIdx    map[string]int         // host -> index in hosts
	hostOf     []uint32               // per capture: index in hosts
	named      []bool                 // per row
	verdicts   []robots.Access        // per row
	vias       []robots.Via           // per row
	sources    []robots.VerdictSource // per row
	cancelled  []bool                 // per row
	scratch    []uint32
	page       []byte
	compressed []byte
}

// agentsRowGroupCaptures is the number of captures per row group of an
// AgentsWriter: with 180 crawlers, some 370,000 rows.
const agentsRowGroupCaptures = 2048

// NewAgentsWriter returns a writer of the agents table to w, for the
// crawlers whose tokens are agents (in the order the rows of each capture
// follow). Only the [WithMetadata] and [WithCompression] options apply.
func NewAgentsWriter(w io.Writer, agents []string, opts ...WriterOption) *AgentsWriter {
	c, err := newWriterConfig(opts)
	a := &AgentsWriter{w: countingWriter{w: w}, agents: agents, perGroup: agentsRowGroupCaptures, hostIdx: map[string]int{}, idIdx: map[string]int{}, err: err}
	if err != nil {
		return a
	}
	if len(agents) == 0 {
		a.err = fmt.Errorf("%w: NewAgentsWriter: no agents", ErrBadOption)
		return a
	}
	a.agentWidth = bitWidth(len(agents) - 1)
	a.codec = c.compression
	a.meta = append(a.meta, format.KeyValue{Key: VersionKey, Value: Version}, format.KeyValue{Key: TableKey, Value: TableName[Agent]()})
	for _, kv := range c.metadata {
		a.meta = append(a.meta, format.KeyValue{Key: kv[0], Value: kv[1]})
	}
	a.err = a.w.write([]byte("PAR1"))
	return a
}

// Add appends the rows of one capture: for each crawler i of the writer's
// agents, whether the file names it (named[i]), its verdict (access[i]),
// through which group the verdict came (via[i]), whose lines shut it out
// (source[i], robots.Attribution.Source) and whether the site's own lines
// cancel a template's block (cancelled[i]).
func (a *AgentsWriter) Add(captureID, host string, named []bool, access []robots.Access, via []robots.Via, source []robots.VerdictSource, cancelled []bool) error {
	if a.closed {
		return ErrClosed
	}
	if a.err != nil {
		return a.err
	}
	if len(named) != len(a.agents) || len(access) != len(a.agents) || len(via) != len(a.agents) || len(source) != len(a.agents) || len(cancelled) != len(a.agents) {
		return fmt.Errorf("schema: AgentsWriter.Add: %d named, %d verdicts, %d vias, %d sources and %d cancelled for %d agents",
			len(named), len(access), len(via), len(source), len(cancelled), len(a.agents))
	}
	host = validUTF8String(host)
	// A dictionary holds each value once: readers that rebuild it as a
	// hash table (Arrow's) would shift the indices of a repeated one.
	a.idOf = append(a.idOf, uint32(dictIndex(&a.ids, a.idIdx, validUTF8String(captureID))))
	a.hostOf = append(a.hostOf, uint32(dictIndex(&a.hosts, a.hostIdx, host)))
	a.named = append(a.named, named...)
	a.verdicts = append(a.verdicts, access...)
	a.vias = append(a.vias, via...)
	a.sources = append(a.sources, source...)
	a.cancelled = append(a.cancelled, cancelled...)
	if len(a.idOf) >= a.perGroup {
		a.err = a.flush()
	}
	return a.err
}

// Rows returns the number of rows written so far.
func (a *AgentsWriter) Rows() int64 { return a.rows + int64(len(a.named)) }

// Close writes the last row group and the footer. It does not close the
// underlying writer.
func (a *AgentsWriter) Close() error {
	if a.closed {
		return a.err
	}
	a.closed = true
	if a.err == nil {
		a.err = a.flush()
	}
	if a.err == nil {
		a.err = a.footer()
	}
	return a.err
}

// verdictNames are the verdict dictionary, indexed by robots.Access.
var verdictNames = []string{robots.AccessAllowed.String(), robots.AccessPartial.String(), robots.AccessDisallowed.String()}

// viaNames are the via dictionary, indexed by robots.Via.
var viaNames = []string{robots.ViaNone.String(), robots.ViaNamed.String(), robots.ViaFallback.String(), robots.ViaStar.String()}

// sourceNames are the source dictionary, indexed by robots.VerdictSource.
var sourceNames = []string{robots.SourceNone.String(), robots.SourceTemplate.String(), robots.SourceSite.String(), robots.SourceBoth.String()}

// flush writes the row group being built.
func (a *AgentsWriter) flush() error {
	rows := len(a.named)
	if rows == 0 {
		return nil
	}
	n := len(a.agents)
	rg := format.RowGroup{NumRows: int64(rows), FileOffset: a.w.n}
	var err error
	add := func(cc format.ColumnChunk, e error) {
		if err == nil {
			err = e
			rg.Columns = append(rg.Columns, cc)
			rg.TotalByteSize += cc.MetaData.TotalUncompressedSize
			rg.TotalCompressedSize += cc.MetaData.TotalCompressedSize
		}
	}
	// Within a capture, capture_id and url_host_name repeat n times: one
	// RLE run each, written directly.
	add(a.dictColumn("capture_id", a.ids, func(dst []byte, width int) []byte {
		for _, k := range a.idOf {
			dst = appendRun(dst, k, n, width)
		}
		return dst
	}))
	add(a.dictColumn("url_host_name", a.hosts, func(dst []byte, width int) []byte {
		for _, h := range a.hostOf {
			dst = appendRun(dst, h, n, width)
		}
		return dst
	}))
	add(a.dictColumn("agent", a.agents, func(dst []byte, width int) []byte {
		// 0, 1, ..., n-1 once a capture: written once, then copied.
		a.scratch = a.scratch[:0]
		for i := range n {
			a.scratch = append(a.scratch, uint32(i))
		}
		for total := n * len(a.idOf); len(a.scratch) < total; {
			a.scratch = append(a.scratch, a.scratch[:min(len(a.scratch), total-len(a.scratch))]...)
		}
		return appendPacked(dst, a.scratch, width)
	}))
	add(a.boolColumn("named", a.named))
	add(a.dictColumn("verdict", verdictNames, func(dst []byte, width int) []byte {
		a.scratch = a.scratch[:0]
		for _, v := range a.verdicts {
			a.scratch = append(a.scratch, uint32(v))
		}
		return appendHybrid(dst, a.scratch, width)
	}))
	add(a.dictColumn("via", viaNames, func(dst []byte, width int) []byte {
		a.scratch = a.scratch[:0]
		for _, v := range a.vias {
			a.scratch = append(a.scratch, uint32(v))
		}
		return appendHybrid(dst, a.scratch, width)
	}))
	add(a.dictColumn("source", sourceNames, func(dst []byte, width int) []byte {
		a.scratch = a.scratch[:0]
		for _, v := range a.sources {
			a.scratch = append(a.scratch, uint32(v))
		}
		return appendHybrid(dst, a.scratch, width)
	}))
	add(a.boolColumn("cancelled", a.cancelled))
	if err != nil {
		return err
	}
	a.groups = append(a.groups, rg)
	a.rows += int64(rows)
	a.ids, a.idOf, a.hosts, a.hostOf, a.named, a.verdicts, a.vias = a.ids[:0], a.idOf[:0], a.hosts[:0], a.hostOf[:0], a.named[:0], a.verdicts[:0], a.vias[:0]
	a.sources, a.cancelled = a.sources[:0], a.cancelled[:0]
	clear(a.hostIdx)
	clear(a.idIdx)
	return nil
}

// dictColumn writes a dictionary page of dict and a data page of the
// row group's indices into it, which encode appends in the RLE/bit-packed
// hybrid at the given bit width.
func (a *AgentsWriter) dictColumn(name string, dict []string, encode func(dst []byte, width int) []byte) (format.ColumnChunk, error) {
	md := format.ColumnMetaData{
		Type: format.ByteArray, Encoding: []format.Encoding{format.Plain, format.RLE, format.RLEDictionary},
		PathInSchema: []string{name}, Codec: a.codec.codec(),
	}
	a.page = a.page[:0]
	for _, s := range dict {
		a.page = binary.LittleEndian.AppendUint32(a.page, uint32(len(s)))
		a.page = append(a.page, s...)
	}
	md.DictionaryPageOffset = a.w.n
	if err := a.writePage(&md, format.PageHeader{Type: format.DictionaryPage,
		DictionaryPageHeader: thrift.New(format.DictionaryPageHeader{NumValues: int32(len(dict)), Encoding: format.Plain})}); err != nil {
		return format.ColumnChunk{}, err
	}
	width := bitWidth(len(dict) - 1)
	a.page = encode(append(a.page[:0], byte(width)), width)
	rows := len(a.named)
	md.NumValues = int64(rows)
	md.DataPageOffset = a.w.n
	err := a.writePage(&md, dataPageHeader(rows, format.RLEDictionary))
	return format.ColumnChunk{FileOffset: md.DictionaryPageOffset, MetaData: md}, err
}

// boolColumn writes a PLAIN (bit-packed) boolean column.
func (a *AgentsWriter) boolColumn(name string, values []bool) (format.ColumnChunk, error) {
	md := format.ColumnMetaData{
		Type: format.Boolean, Encoding: []format.Encoding{format.Plain, format.RLE},
		PathInSchema: []string{name}, Codec: a.codec.codec(), NumValues: int64(len(values)), DataPageOffset: a.w.n,
	}
	a.page = appendBools(a.page[:0], values)
	err := a.writePage(&md, dataPageHeader(len(values), format.Plain))
	return format.ColumnChunk{FileOffset: md.DataPageOffset, MetaData: md}, err
}

// appendBools appends values as PLAIN booleans: bit-packed, the first
// value in the lowest bit.
func appendBools(dst []byte, values []bool) []byte {
	for i := 0; i < len(values); i += 8 {
		var b byte
		for j := 0; j < 8 && i+j < len(values); j++ {
			if values[i+j] {
				b |= 1 << j
			}
		}
		dst = append(dst, b)
	}
	return dst
}

func dataPageHeader(n int, enc format.Encoding) format.PageHeader {
	return format.PageHeader{Type: format.DataPage, DataPageHeader: thrift.New(format.DataPageHeader{
		NumValues: int32(n), Encoding: enc, DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE,
	})}
}

// writePage compresses a.page and writes it with its header, adding its
// sizes to md.
func (a *AgentsWriter) writePage(md *format.ColumnMetaData, h format.PageHeader) error {
	a.compressed = a.codec.encode(a.compressed, a.page)
	compressed := a.compressed
	h.UncompressedPageSize, h.CompressedPageSize = int32(len(a.page)), int32(len(compressed))
	head, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
	if err != nil {
		return err
	}
	md.TotalUncompressedSize += int64(len(head) + len(a.page))
	md.TotalCompressedSize += int64(len(head) + len(compressed))
	if err := a.w.write(head); err != nil {
		return err
	}
	return a.w.write(compressed)
}

// footer writes the file metadata and the trailer.
func (a *AgentsWriter) footer() error {
	str := func(name string) format.SchemaElement {
		return format.SchemaElement{
			Type: thrift.New(format.ByteArray), RepetitionType: thrift.New(format.Required), Name: name,
			ConvertedType: thrift.New(deprecated.UTF8), LogicalType: format.LogicalType{Value: new(format.StringType)},
		}
	}
	md := format.FileMetaData{
		Version: 1,
		Schema: []format.SchemaElement{
			{Name: "agents", NumChildren: thrift.New(int32(8))},
			str("capture_id"), str("url_host_name"), str("agent"),
			{Type: thrift.New(format.Boolean), RepetitionType: thrift.New(format.Required), Name: "named"},
			str("verdict"), str("via"), str("source"),
			{Type: thrift.New(format.Boolean), RepetitionType: thrift.New(format.Required), Name: "cancelled"},
		},
		NumRows: a.rows, RowGroups: a.groups, KeyValueMetadata: a.meta, CreatedBy: "robocensus AgentsWriter",
	}
	b, err := thrift.Marshal(new(thrift.CompactProtocol), &md)
	if err != nil {
		return err
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(b)))
	return a.w.write(append(b, "PAR1"...))
}

// appendHybrid appends values in Parquet's RLE/bit-packed hybrid encoding
// at the given bit width: a run of 8 or more equal values becomes an RLE
// run, the rest bit-packed groups of 8 (the last one padded with zeros).
func appendHybrid(dst []byte, values []uint32, width int) []byte {
	start, i := 0, 0 // values[start:i] are pending bit-packing
	for i < len(values) {
		run := 1
		for i+run < len(values) && values[i+run] == values[i] {
			run++
		}
		if run < 8 {
			i += run
			continue
		}
		// Complete the pending bit-packed groups from the run, then
		// write the rest of the run as one RLE run if it is still long.
		fill := (8 - (i-start)%8) % 8
		i, run = i+fill, run-fill
		if run < 8 {
			i += run
			continue
		}
		dst = appendPacked(dst, values[start:i], width)
		dst = appendRun(dst, values[i], run, width)
		i += run
		start = i
	}
	return appendPacked(dst, values[start:], width)
}

// appendRun appends an RLE run: n times v.
func appendRun(dst []byte, v uint32, n, width int) []byte {
	dst = binary.AppendUvarint(dst, uint64(n)<<1)
	for b := 0; b < (width+7)/8; b++ {
		dst = append(dst, byte(v>>(8*b)))
	}
	return dst
}

// appendPacked appends values as one bit-packed run (LSB first), padded to
// a multiple of 8 values. Values must fit in width bits (at most 32).
func appendPacked(dst []byte, values []uint32, width int) []byte {
	if len(values) == 0 {
		return dst
	}
	groups := (len(values) + 7) / 8
	dst = binary.AppendUvarint(dst, uint64(groups)<<1|1)
	start := len(dst)
	dst = slices.Grow(dst, groups*width)[:start+groups*width]
	out := dst[start:]
	full := len(values) / 8
	for g := range full {
		packGroup(out[g*width:(g+1)*width], values[g*8:g*8+8], width)
	}
	if full < groups {
		var last [8]uint32
		copy(last[:], values[full*8:])
		packGroup(out[full*width:], last[:], width)
	}
	return dst
}

// packGroup packs 8 values of width bits into out[:width], LSB first.
func packGroup(out []byte, v []uint32, width int) {
	v = v[:8]
	if width <= 8 { // the 8 values fit in 64 bits
		var acc uint64
		for i := 7; i >= 0; i-- {
			acc = acc<<width | uint64(v[i])
		}
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], acc)
		copy(out[:width], b[:])
		return
	}
	var acc uint64
	nbits, o := 0, 0
	for _, x := range v {
		acc |= uint64(x) << nbits
		nbits += width
		if nbits >= 32 {
			binary.LittleEndian.PutUint32(out[o:], uint32(acc))
			o, acc, nbits = o+4, acc>>32, nbits-32
		}
	}
	for ; nbits > 0; nbits -= 8 { // 8 * width bits in all: whole bytes
		out[o] = byte(acc)
		o, acc = o+1, acc>>8
	}
}

// bitWidth is the number of bits needed for max, at least 1.
func bitWidth(n int) int { return max(bits.Len(uint(n)), 1) }

func validUTF8String(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	fixed := s
	validStrings(true, &fixed)
	return fixed
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) write(b []byte) error {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return err
}

// dictIndex returns the index of v in the dictionary *dict, adding it if
// it is new.
func dictIndex(dict *[]string, index map[string]int, v string) int {
	i, ok := index[v]
	if !ok {
		i = len(*dict)
		*dict = append(*dict, v)
		index[v] = i
	}
	return i
}
