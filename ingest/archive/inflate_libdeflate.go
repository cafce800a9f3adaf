//go:build cgo && libdeflate

package archive

// #cgo LDFLAGS: -ldeflate
// #include <stdlib.h>
// #include <libdeflate.h>
import "C"

import (
	"runtime"
	"unsafe"
)

// LibdeflateBuilt reports whether this binary inflates whole gzip members
// with libdeflate (built with cgo and -tags libdeflate; see inflate.go).
const LibdeflateBuilt = true

// decompressor is a libdeflate decompressor, allocated at its first use
// and freed when its owner is collected.
type decompressor struct {
	d *C.struct_libdeflate_decompressor
}

func (w *decompressor) ready() bool {
	if w.d == nil {
		w.d = C.libdeflate_alloc_decompressor()
		if w.d == nil {
			return false
		}
		runtime.AddCleanup(w, func(d *C.struct_libdeflate_decompressor) { C.libdeflate_free_decompressor(d) }, w.d)
	}
	return true
}

// inflate inflates the deflate data at the start of in into out: it
// returns the bytes written and the bytes of in the data took.
func (w *decompressor) inflate(in, out []byte) (n, used int, res inflateResult) {
	var inUsed, outN C.size_t
	r := C.libdeflate_deflate_decompress_ex(w.d, unsafe.Pointer(unsafe.SliceData(in)), C.size_t(len(in)),
		unsafe.Pointer(unsafe.SliceData(out)), C.size_t(len(out)), &inUsed, &outN)
	switch r {
	case C.LIBDEFLATE_SUCCESS:
		return int(outN), int(inUsed), inflateOK
	case C.LIBDEFLATE_INSUFFICIENT_SPACE:
		return 0, 0, inflateShortOut
	}
	return 0, 0, inflateDeclined
}
