package archive

import (
	"encoding/binary"
	"hash/crc32"
	"io"

	"github.com/klauspost/compress/flate"
)

// A gzip member (RFC 1952 §2.2): a header, deflate data, and a trailer of
// the data's CRC-32 and size. The header and the trailer are read here, by
// both paths: the whole-member path hands libdeflate the deflate data alone
// and the streaming path hands it to klauspost's inflater, so that the two
// take and refuse the same members. (klauspost's gzip reader refuses a file
// name or comment of over 511 bytes, which RFC 1952 allows and libdeflate's
// gzip reader takes; libdeflate's does not check a header CRC.)

// gzipFault is a member found wrong by what it holds, not by running out:
// the cause quoted after ErrCorruptCompression, worded as klauspost's gzip
// reader words it.
type gzipFault string

func (f gzipFault) Error() string { return "gzip: " + string(f) }

const (
	errGzipHeader   gzipFault = "invalid header"
	errGzipChecksum gzipFault = "invalid checksum"
)

// The bits of a gzip header's flag byte (RFC 1952 §2.3.1); FTEXT is only a
// hint and is not read.
const (
	gzipFlagHeaderCRC = 1 << 1
	gzipFlagExtra     = 1 << 2
	gzipFlagName      = 1 << 3
	gzipFlagComment   = 1 << 4
	gzipFlagsReserved = 0xe0
)

const gzipTrailerLen = 8

// readGzipHeader reads a gzip member's header from r and returns its length
// in bytes. A header the input cuts short gives io.ErrUnexpectedEOF (io.EOF
// when it has no byte at all); a wrong one (magic, method, reserved flags,
// header CRC), errGzipHeader. A file name and a comment may be of any length.
func readGzipHeader(r io.ByteReader) (int, error) {
	h := headerReader{r: r, crc: ^uint32(0)}
	var fixed [10]byte // ID1 ID2 CM FLG MTIME(4) XFL OS
	for i := range fixed {
		b, err := h.next()
		if err != nil {
			if i == 0 && err == io.EOF {
				return 0, io.EOF
			}
			return h.n, noEOF(err)
		}
		fixed[i] = b
		if i == 2 && (fixed[0] != 0x1f || fixed[1] != 0x8b || fixed[2] != 8) || i == 3 && b&gzipFlagsReserved != 0 {
			return h.n, errGzipHeader
		}
	}
	flags := fixed[3]
	if flags&gzipFlagExtra != 0 {
		n, err := h.uint16()
		if err == nil {
			err = h.skip(int(n))
		}
		if err != nil {
			return h.n, noEOF(err)
		}
	}
	for _, flag := range []byte{gzipFlagName, gzipFlagComment} {
		if flags&flag == 0 {
			continue
		}
		if err := h.skipString(); err != nil {
			return h.n, noEOF(err)
		}
	}
	if flags&gzipFlagHeaderCRC != 0 {
		want := uint16(^h.crc)
		got, err := h.uint16()
		if err != nil {
			return h.n, noEOF(err)
		}
		if got != want {
			return h.n, errGzipHeader
		}
	}
	return h.n, nil
}

// headerReader reads a gzip header a byte at a time, counting the bytes and
// keeping the CRC-32 of them (inverted, as it is kept while computed).
type headerReader struct {
	r   io.ByteReader
	n   int
	crc uint32
}

func (h *headerReader) next() (byte, error) {
	b, err := h.r.ReadByte()
	if err != nil {
		return 0, err
	}
	h.n++
	h.crc = crc32.IEEETable[byte(h.crc)^b] ^ h.crc>>8
	return b, nil
}

// uint16 reads a little-endian 16-bit field (XLEN, CRC16).
func (h *headerReader) uint16() (uint16, error) {
	lo, err := h.next()
	if err != nil {
		return 0, err
	}
	hi, err := h.next()
	return uint16(lo) | uint16(hi)<<8, err
}

// skip passes over n bytes.
func (h *headerReader) skip(n int) error {
	for ; n > 0; n-- {
		if _, err := h.next(); err != nil {
			return err
		}
	}
	return nil
}

// skipString passes over a zero-terminated string.
func (h *headerReader) skipString() error {
	for {
		b, err := h.next()
		if err != nil || b == 0 {
			return err
		}
	}
}

// noEOF turns io.EOF into io.ErrUnexpectedEOF: the input ended inside a
// member.
func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// gzipMember reads one gzip member at a time: Reset (or start, when the
// header is already read) and then Read to io.EOF, which it returns only
// when the trailer's CRC-32 and size match what was inflated. Its inflater
// is kept from member to member; forget drops it.
type gzipMember struct {
	in      flate.Reader
	fl      io.ReadCloser // klauspost's inflater
	crc     uint32
	size    uint32
	err     error
	trailer [gzipTrailerLen]byte
}

// Reset reads the header of the member that in starts with and prepares to
// inflate its data.
func (m *gzipMember) Reset(in flate.Reader) error {
	if _, err := readGzipHeader(in); err != nil {
		m.err = noEOF(err)
		return m.err
	}
	m.start(in)
	return nil
}

// start prepares to inflate a member's data, its header read from in.
func (m *gzipMember) start(in flate.Reader) {
	m.in, m.crc, m.size, m.err = in, 0, 0, nil
	if m.fl == nil {
		m.fl = flate.NewReader(in)
		return
	}
	m.fl.(flate.Resetter).Reset(in, nil)
}

// forget drops the inflater, so that the next member has a new one.
func (m *gzipMember) forget() { m.fl = nil }

func (m *gzipMember) Read(p []byte) (int, error) {
	if m.err != nil {
		return 0, m.err
	}
	n, err := m.fl.Read(p)
	m.crc = crc32.Update(m.crc, crc32.IEEETable, p[:n])
	m.size += uint32(n)
	switch {
	case err == io.EOF:
		m.err = m.checkTrailer()
	case err != nil:
		m.err = noEOF(err)
	}
	return n, m.err
}

// checkTrailer reads the trailer after the deflate data: io.EOF when it
// matches.
func (m *gzipMember) checkTrailer() error {
	if _, err := io.ReadFull(m.in, m.trailer[:]); err != nil {
		return noEOF(err)
	}
	if !trailerMatches(m.trailer[:], m.crc, m.size) {
		return errGzipChecksum
	}
	return io.EOF
}

// trailerMatches reports whether a member's trailer holds crc and size
// (the size modulo 2^32, RFC 1952 §2.3.1).
func trailerMatches(t []byte, crc, size uint32) bool {
	return binary.LittleEndian.Uint32(t) == crc && binary.LittleEndian.Uint32(t[4:]) == size
}
