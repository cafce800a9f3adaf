package archive

import "hash/crc32"

// Whole-member inflation: a gzip member that lies whole in the buffered
// input is inflated in one call by Debian's libdeflate when the binary is
// built with cgo and the build tag libdeflate (inflate_libdeflate.go), about
// twice as fast as klauspost/compress's streaming inflater on Common Crawl's
// per-record members. The member's header and trailer are read by this
// package (gzipmember.go), as on the streaming path; libdeflate inflates the
// deflate data between them. The member is accepted only when libdeflate
// inflates it whole and the trailer's CRC-32 and size match; anything else
// (a member longer than the buffered window or than maxWholeMember once
// inflated, damaged data) is left to the streaming path, which then reads
// the member's data from its start as if the fast path had not been tried.
// Damage is therefore always found, reported and recovered from by one
// reader, the streaming one.
//
// Without the tag (the default, and every build without cgo) there is no
// decompressor and every member is declined: inflate_portable.go.

// maxWholeMember is the most a member may inflate to on the whole-member
// path; its output buffer starts at minWholeMember and doubles as members
// need.
const (
	minWholeMember = 64 << 10
	maxWholeMember = 1 << 20
)

// inflateResult is what an attempt to inflate a whole member came to.
type inflateResult int

const (
	inflateOK       inflateResult = iota // the member was inflated whole
	inflateShortOut                      // it inflates to more than the buffer given
	inflateDeclined                      // damaged, cut by the window, or not tried
)

// wholeInflater is the whole-member path of a gzip source: the
// decompressor of the build and the buffer it inflates into.
type wholeInflater struct {
	dec decompressor
	out []byte
}

// inflateWhole inflates the gzip member at the start of window, whose
// header is its first header bytes, into a buffer of its own, growing it up
// to maxWholeMember. It returns the inflated bytes (valid until the next
// call) and the bytes of window the member took, or ok false when the
// streaming path must read the member.
func (w *wholeInflater) inflateWhole(window []byte, header int) (out []byte, used int, ok bool) {
	if !w.dec.ready() {
		return nil, 0, false
	}
	if w.out == nil {
		w.out = make([]byte, minWholeMember)
	}
	data := window[header:]
	for {
		n, dataLen, res := w.dec.inflate(data, w.out)
		switch {
		case res == inflateOK:
			trailer := data[dataLen:]
			if len(trailer) < gzipTrailerLen || !trailerMatches(trailer, crc32.ChecksumIEEE(w.out[:n]), uint32(n)) {
				return nil, 0, false
			}
			return w.out[:n], header + dataLen + gzipTrailerLen, true
		case res == inflateShortOut && len(w.out) < maxWholeMember:
			w.out = make([]byte, 2*len(w.out))
		default:
			return nil, 0, false
		}
	}
}
