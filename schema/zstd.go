package schema

import (
	"sync"

	"github.com/klauspost/compress/zstd"
)

// The zstd encoder and decoder of [Zstd] pages, at its fastest level, one
// encoder and one decoder shared by every writer and reader (their
// EncodeAll and DecodeAll are safe for concurrent use), with a 1 MiB
// window. A page is at most a few MiB, so a larger window gains nothing,
// and each encoder of parquet-go's own codec holds an 8 MiB window: with a
// dozen files open at once that alone is 100 MiB.
var (
	zstdEncoder = sync.OnceValue(func() *zstd.Encoder {
		e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderCRC(false),
			zstd.WithWindowSize(1<<20), zstd.WithZeroFrames(true))
		if err != nil {
			panic(err) // only for invalid options, which these are not
		}
		return e
	})
	zstdDecoder = sync.OnceValue(func() *zstd.Decoder {
		d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(0))
		if err != nil {
			panic(err)
		}
		return d
	})
)
