package schema

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/parquet-go/parquet-go/encoding/rle"
)

// packedOneByOne is appendPacked as first written, a byte at a time: the
// reference the faster packer must match byte for byte.
func packedOneByOne(dst []byte, values []uint32, width int) []byte {
	if len(values) == 0 {
		return dst
	}
	groups := (len(values) + 7) / 8
	dst = binary.AppendUvarint(dst, uint64(groups)<<1|1)
	var acc uint64
	nbits := 0
	for i := 0; i < groups*8; i++ {
		var v uint32
		if i < len(values) {
			v = values[i]
		}
		acc |= uint64(v) << nbits
		nbits += width
		for nbits >= 8 {
			dst = append(dst, byte(acc))
			acc >>= 8
			nbits -= 8
		}
	}
	return dst
}

// checkHybrid encodes values after a prefix and checks the bytes: the
// prefix kept, the packed runs those of packedOneByOne, and parquet-go's
// decoder of the RLE/bit-packed hybrid reading back values (then at most 7
// zeros of padding).
func checkHybrid(t *testing.T, values []uint32, width int) {
	t.Helper()
	prefix := []byte{0xAA, 0xBB}
	packed := appendPacked(bytes.Clone(prefix), values, width)
	if want := packedOneByOne(bytes.Clone(prefix), values, width); !bytes.Equal(packed, want) {
		t.Fatalf("width %d, %d values: appendPacked differs from the byte-at-a-time packer", width, len(values))
	}
	enc := appendHybrid(bytes.Clone(prefix), values, width)
	if !bytes.Equal(enc[:2], prefix) {
		t.Fatalf("width %d: the prefix changed", width)
	}
	got, err := (&rle.Encoding{BitWidth: width}).DecodeInt32(nil, enc[2:])
	if err != nil {
		t.Fatalf("width %d, %d values: %v", width, len(values), err)
	}
	if len(got) < len(values) || len(got) > len(values)+7 {
		t.Fatalf("width %d: decoded %d values, want %d (+ at most 7 of padding)", width, len(got), len(values))
	}
	for i, v := range got {
		want := uint32(0)
		if i < len(values) {
			want = values[i]
		}
		if uint32(v) != want {
			t.Fatalf("width %d, %d values: value %d decoded as %d, want %d", width, len(values), i, v, want)
		}
	}
}

// The hybrid encoding of values of every width, in runs long and short,
// decodes to the values, and its bit-packed runs are those of the
// byte-at-a-time packer.
func TestAppendHybrid(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for width := 1; width <= 32; width++ {
		top := uint32(1<<width - 1)
		for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 17, 100, 1001} {
			random := make([]uint32, n)
			runs := make([]uint32, n)
			v := rng.Uint32() & top
			for i := range random {
				random[i] = rng.Uint32() & top
				if rng.IntN(10) == 0 {
					v = rng.Uint32() & top
				}
				runs[i] = v
			}
			highest := make([]uint32, n) // every bit of the width set
			for i := range highest {
				highest[i] = top
			}
			checkHybrid(t, random, width)
			checkHybrid(t, runs, width)
			checkHybrid(t, highest, width)
		}
	}
}

func FuzzAppendHybrid(f *testing.F) {
	f.Add(uint8(3), []byte{1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 0})
	f.Fuzz(func(t *testing.T, w uint8, data []byte) {
		width := int(w%32) + 1
		values := make([]uint32, len(data)/2)
		for i := range values {
			values[i] = uint32(binary.LittleEndian.Uint16(data[2*i:])) * 0x9E3779B1 >> (32 - width)
		}
		checkHybrid(t, values, width)
	})
}

// BenchmarkAppendPacked packs what the agents table's agent column holds:
// the indices 0 to 174 of the tracked crawlers, once a capture.
func BenchmarkAppendPacked(b *testing.B) {
	values := make([]uint32, 175*2048)
	for i := range values {
		values[i] = uint32(i % 175)
	}
	b.SetBytes(int64(4 * len(values)))
	b.ReportAllocs()
	var dst []byte
	for b.Loop() {
		dst = appendPacked(dst[:0], values, bitWidth(174))
	}
}

// BenchmarkAppendHybrid encodes what the agents table's verdict column
// holds: for each capture the verdicts of 175 crawlers, mostly one value
// with a few others.
func BenchmarkAppendHybrid(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	values := make([]uint32, 175*2048)
	for c := 0; c < 2048; c++ {
		common := uint32(rng.IntN(3))
		for i := range 175 {
			v := common
			if rng.IntN(20) == 0 {
				v = uint32(rng.IntN(3))
			}
			values[c*175+i] = v
		}
	}
	b.SetBytes(int64(4 * len(values)))
	b.ReportAllocs()
	var dst []byte
	for b.Loop() {
		dst = appendHybrid(dst[:0], values, 2)
	}
}
