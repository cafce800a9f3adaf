package scan

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/maphash"
	"math"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
)

// Typed access to the columns of a record. The strings these return
// alias the record's buffers: they are valid until the record is
// released, so anything kept is copied with strings.Clone.

// column returns the named column of rec as type A.
func Column[A arrow.Array](rec arrow.Record, name string) (A, error) {
	var zero A
	idx := rec.Schema().FieldIndices(name)
	if len(idx) != 1 {
		return zero, fmt.Errorf("analyze: record has no column %q", name)
	}
	a, ok := rec.Column(idx[0]).(A)
	if !ok {
		return zero, fmt.Errorf("analyze: column %q is %s, not %T", name, rec.Column(idx[0]).DataType(), zero)
	}
	return a, nil
}

// columnSet fetches several columns and remembers the first error, so
// that a pass can ask for all its columns and check once.
type Columns struct {
	Rec arrow.Record
	Err error
}

func (c *Columns) Str(name string) *array.String          { return get[*array.String](c, name) }
func (c *Columns) I32(name string) *array.Int32           { return get[*array.Int32](c, name) }
func (c *Columns) I64(name string) *array.Int64           { return get[*array.Int64](c, name) }
func (c *Columns) Boolean(name string) *array.Boolean     { return get[*array.Boolean](c, name) }
func (c *Columns) List(name string) *array.List           { return get[*array.List](c, name) }
func (c *Columns) Timestamp(name string) *array.Timestamp { return get[*array.Timestamp](c, name) }

// dict returns a string column read as a dictionary (scanSpec.dict).
func (c *Columns) Dict(name string) DictColumn {
	d := get[*array.Dictionary](c, name)
	if c.Err != nil {
		return DictColumn{}
	}
	vals, ok := d.Dictionary().(*array.String)
	idx, ok2 := d.Indices().(*array.Int32)
	if !ok || !ok2 || d.NullN() > 0 {
		c.Err = fmt.Errorf("analyze: column %q is %s with nulls %d, not a dictionary of strings without nulls", name, d.DataType(), d.NullN())
		return DictColumn{}
	}
	ix := idx.Int32Values()
	for _, i := range ix {
		if i < 0 || int(i) >= vals.Len() {
			c.Err = fmt.Errorf("analyze: column %q: dictionary index %d out of a dictionary of %d values", name, i, vals.Len())
			return DictColumn{}
		}
	}
	return DictColumn{Index: ix, Values: vals}
}

func get[A arrow.Array](c *Columns, name string) A {
	a, err := Column[A](c.Rec, name)
	if err != nil && c.Err == nil {
		c.Err = err
	}
	return a
}

// dictColumn is a string column of a record read as a dictionary: each
// row is an index in vals, the distinct values of its row group. The
// column has no NULL.
type DictColumn struct {
	Index  []int32
	Values *array.String
}

// value returns the value of row i.
func (d DictColumn) Value(i int) string { return d.Values.Value(int(d.Index[i])) }

// find returns the index of a value in the dictionary, or -1.
func (d DictColumn) Find(v string) int32 {
	for i := range d.Values.Len() {
		if d.Values.Value(i) == v {
			return int32(i)
		}
	}
	return -1
}

// noTime stands for a NULL fetch_time: it sorts before every real time.
const NoTime = math.MinInt64

// micros returns a timestamp value in microseconds, or noTime when NULL.
func Micros(a *array.Timestamp, i int) int64 {
	if a.IsNull(i) {
		return NoTime
	}
	return int64(a.Value(i))
}

// realLength returns the real size of the payload of row i:
// payload_length_real, or payload_length (the bytes stored) where it is
// NULL, in crawls published before schema 2.1.
func RealLength(real, stored *array.Int64, i int) int64 {
	if real.IsNull(i) {
		return stored.Value(i)
	}
	return real.Value(i)
}

// strOrEmpty returns the value of a nullable string column, "" for NULL.
func StrOrEmpty(a *array.String, i int) string {
	if a.IsNull(i) {
		return ""
	}
	return a.Value(i)
}

// hasher hashes identifiers (capture IDs, host names, payload digests) to
// 64 bits, so that the passes index them without keeping the strings. Two
// different identifiers of one crawl collide with a probability of about
// n²/2⁶⁵ for n identifiers: 3·10⁻⁸ for a million.
type Hasher struct{ seed maphash.Seed }

func NewHasher() Hasher { return Hasher{seed: maphash.MakeSeed()} }

// sum hashes s; the empty string hashes to 0, which stands for "none".
func (h Hasher) Sum(s string) uint64 {
	if s == "" {
		return 0
	}
	v := maphash.String(h.seed, s)
	if v == 0 {
		v = 1
	}
	return v
}

// lowerValues appends the values of row i of a list of strings to dst,
// lower-cased (ASCII and Unicode).
func LowerValues(dst []string, l *array.List, i int) []string {
	if l.IsNull(i) {
		return dst
	}
	vals, ok := l.ListValues().(*array.String)
	if !ok {
		return dst
	}
	start, end := l.ValueOffsets(i)
	for j := start; j < end; j++ {
		dst = append(dst, strings.ToLower(vals.Value(int(j))))
	}
	return dst
}

// captureKey holds a capture ID without a pointer: the 12 bytes of the
// 24 lower-case hex digits ingest writes (which sort as the IDs do), or,
// for other IDs, an index in captureKeys.other with long set.
type CaptureKey struct {
	b    [12]byte
	long bool
}

// captureKeys keeps the IDs that are not 24 hex digits.
type CaptureKeys struct{ other []string }

func (k *CaptureKeys) Key(id string) CaptureKey {
	var c CaptureKey
	if len(id) == 24 && decodeHex(c.b[:], id) {
		return c
	}
	c.long = true
	binary.LittleEndian.PutUint32(c.b[:], uint32(len(k.other)))
	k.other = append(k.other, strings.Clone(id))
	return c
}

// id returns the ID a key stands for.
func (k *CaptureKeys) ID(c CaptureKey) string {
	if c.long {
		return k.other[binary.LittleEndian.Uint32(c.b[:])]
	}
	return hex.EncodeToString(c.b[:])
}

// decodeHex decodes lower-case hex digits only, so that the encoding back
// gives the same string.
func decodeHex(dst []byte, s string) bool {
	for i := range dst {
		hi, ok1 := nibble(s[2*i])
		lo, ok2 := nibble(s[2*i+1])
		if !ok1 || !ok2 {
			return false
		}
		dst[i] = hi<<4 | lo
	}
	return true
}

func nibble(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}
