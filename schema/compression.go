package schema

import (
	"fmt"
	"strings"

	"github.com/klauspost/compress/s2"
	"github.com/parquet-go/parquet-go/format"
)

// Compression is the codec of the data and dictionary pages of the files
// this package writes, chosen with [WithCompression]. Every Parquet reader
// reads the three (DuckDB, Arrow, Spark, parquet-go), and each column
// chunk names its own codec in the footer, so files, and row groups of one
// file (see [Concat]), may differ. The zero value is [Zstd], the default.
//
// The codecs trade size for the CPU time of writing: Snappy compresses
// several times faster than zstd's fastest level and makes larger pages;
// Uncompressed spends no time on it and makes the largest. The README's
// "Performance" section has their sizes and ingest times on the benchmark
// inputs.
type Compression uint8

const (
	// Zstd is zstd at its fastest level with a 1 MiB window (Parquet's
	// ZSTD): the smallest files. The default.
	Zstd Compression = iota
	// Snappy is Snappy's block format, as Parquet's SNAPPY codec has it,
	// at its fastest setting: faster to write than Zstd, larger files.
	Snappy
	// Uncompressed stores pages as they are (Parquet's UNCOMPRESSED).
	Uncompressed
)

// compressionNames are the names of the codecs, which [ParseCompression]
// reads and [Compression.String] gives.
var compressionNames = [...]string{Zstd: "zstd", Snappy: "snappy", Uncompressed: "none"}

// CompressionNames returns the names of the codecs, the default first:
// "zstd", "snappy", "none".
func CompressionNames() []string { return compressionNames[:] }

// ParseCompression returns the codec of a name of [CompressionNames], in
// any case; "uncompressed", Parquet's and DuckDB's name, is also read as
// "none". Any other name gives an error wrapping [ErrBadOption] that lists
// the names.
func ParseCompression(name string) (Compression, error) {
	lower := strings.ToLower(name)
	if lower == "uncompressed" {
		return Uncompressed, nil
	}
	for c, n := range compressionNames {
		if n == lower {
			return Compression(c), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown compression %q: want %s", ErrBadOption, name, strings.Join(compressionNames[:], ", "))
}

// String returns the codec's name: zstd, snappy or none.
func (c Compression) String() string {
	if !c.valid() {
		return fmt.Sprintf("Compression(%d)", uint8(c))
	}
	return compressionNames[c]
}

func (c Compression) valid() bool { return int(c) < len(compressionNames) }

// WithCompression sets the codec of the pages. Defaults to [Zstd].
func WithCompression(c Compression) WriterOption {
	return func(cfg *writerConfig) error {
		if !c.valid() {
			return fmt.Errorf("%w: WithCompression(%v): want one of %s", ErrBadOption, c, strings.Join(compressionNames[:], ", "))
		}
		cfg.compression = c
		return nil
	}
}

// codec is the codec's identifier in the Parquet footer.
func (c Compression) codec() format.CompressionCodec {
	switch c {
	case Snappy:
		return format.Snappy
	case Uncompressed:
		return format.Uncompressed
	}
	return format.Zstd
}

// encode compresses src, appending to dst[:0] (for Snappy, into dst's
// capacity when it holds the largest result).
func (c Compression) encode(dst, src []byte) []byte {
	switch c {
	case Snappy:
		return s2.EncodeSnappy(dst[:0], src)
	case Uncompressed:
		return append(dst[:0], src...)
	}
	return zstdEncoder().EncodeAll(src, dst[:0])
}

// decodePage decompresses src, a page compressed with the codec of
// Parquet identifier codec, into dst's capacity when it is large enough.
// Only the codecs this package writes are known.
func decodePage(codec format.CompressionCodec, dst, src []byte) ([]byte, error) {
	switch codec {
	case format.Zstd:
		return zstdDecoder().DecodeAll(src, dst[:0])
	case format.Snappy:
		return s2.Decode(dst[:0], src)
	case format.Uncompressed:
		return append(dst[:0], src...), nil
	}
	return nil, fmt.Errorf("schema: pages compressed with %v: this package reads only ZSTD, SNAPPY and UNCOMPRESSED", codec)
}

// pageCodec is a Compression as parquet-go's compress.Codec, for
// [Writer]. Its encoders and decoders are shared by every writer (zstd's
// EncodeAll and DecodeAll are safe for concurrent use; Snappy's functions
// keep no state).
type pageCodec struct{ c Compression }

// String names the codec as parquet-go does.
func (p pageCodec) String() string { return p.c.codec().String() }

// CompressionCodec is the codec's identifier in the Parquet footer.
func (p pageCodec) CompressionCodec() format.CompressionCodec { return p.c.codec() }

// Encode compresses src, appending to dst[:0].
func (p pageCodec) Encode(dst, src []byte) ([]byte, error) { return p.c.encode(dst, src), nil }

// Decode decompresses src, appending to dst[:0].
func (p pageCodec) Decode(dst, src []byte) ([]byte, error) {
	return decodePage(p.c.codec(), dst, src)
}
