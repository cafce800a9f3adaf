//go:build !(cgo && libdeflate)

package archive

// LibdeflateBuilt reports whether this binary inflates whole gzip members
// with libdeflate (built with cgo and -tags libdeflate; see inflate.go).
const LibdeflateBuilt = false

// wholeInflater is the whole-member path of a build without libdeflate:
// it declines every member, and the streaming path reads them all.
type wholeInflater struct{ out []byte }

func (w *wholeInflater) available() bool { return false }

func (w *wholeInflater) inflate(in, out []byte) (n, used int, res inflateResult) {
	return 0, 0, inflateDeclined
}
