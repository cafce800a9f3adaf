//go:build !(cgo && libdeflate)

package archive

// LibdeflateBuilt reports whether this binary inflates whole gzip members
// with libdeflate (built with cgo and -tags libdeflate; see inflate.go).
const LibdeflateBuilt = false

// decompressor is the absent one of a build without libdeflate: never
// ready, so the streaming path reads every member.
type decompressor struct{}

func (decompressor) ready() bool { return false }

func (decompressor) inflate(in, out []byte) (n, used int, res inflateResult) {
	return 0, 0, inflateDeclined
}
