package archive

import "io"

// inBuf is the buffer over the input as stored, like a bufio.Reader that
// knows its offset and can keep a marked position: a gzip member or zstd
// frame that turns out to be corrupt is scanned again from its second byte
// for the next member, since the decompressor may have read past the next
// member's magic before it failed. The mark is kept for at most maxKeep
// bytes. It implements io.ByteReader, so decompressors read it unbuffered.
type inBuf struct {
	src     *countingReader
	buf     []byte
	r, w    int
	base    int64 // input offset of buf[0]
	mark    int64 // offset to keep; -1 when none
	maxKeep int
	err     error // the error that ended src (io.EOF or another)
}

const maxMemberRescan = 1 << 20

func newInBuf(src *countingReader) *inBuf {
	return &inBuf{src: src, buf: make([]byte, inputBufferSize), mark: -1, maxKeep: maxMemberRescan}
}

func (b *inBuf) pos() int64    { return b.base + int64(b.r) }
func (b *inBuf) Buffered() int { return b.w - b.r }

// fill reads more input; it returns nil when bytes were added.
func (b *inBuf) fill() error {
	for {
		if b.err != nil {
			return b.err
		}
		b.makeRoom()
		n, err := b.src.Read(b.buf[b.w:])
		b.w += n
		if err != nil {
			b.err = err
		}
		if n > 0 {
			return nil
		}
	}
}

func (b *inBuf) makeRoom() {
	if b.w < len(b.buf) {
		return
	}
	from := b.r
	if b.mark >= 0 {
		from = min(from, int(b.mark-b.base))
	}
	if from == 0 && len(b.buf) < b.maxKeep {
		nb := make([]byte, min(2*len(b.buf), b.maxKeep))
		copy(nb, b.buf[:b.w])
		b.buf = nb
		return
	}
	if from == 0 {
		b.mark, from = -1, b.r // give up the mark
	}
	copy(b.buf, b.buf[from:b.w])
	b.w -= from
	b.r -= from
	b.base += int64(from)
}

// ReadByte implements io.ByteReader.
func (b *inBuf) ReadByte() (byte, error) {
	if b.r == b.w {
		if err := b.fill(); err != nil {
			return 0, err
		}
	}
	c := b.buf[b.r]
	b.r++
	return c, nil
}

// Read implements io.Reader. Large reads with nothing buffered and nothing
// marked go straight to the input.
func (b *inBuf) Read(p []byte) (int, error) {
	if b.r == b.w {
		if b.mark < 0 && len(p) >= len(b.buf) && b.err == nil {
			n, err := b.src.Read(p)
			b.base += int64(n)
			if err != nil {
				b.err = err
			}
			return n, err
		}
		if err := b.fill(); err != nil {
			return 0, err
		}
	}
	n := copy(p, b.buf[b.r:b.w])
	b.r += n
	return n, nil
}

// Peek returns the next n bytes without consuming them, or fewer with the
// error that ended the input.
func (b *inBuf) Peek(n int) ([]byte, error) {
	for b.w-b.r < n {
		if err := b.fill(); err != nil {
			return b.buf[b.r:b.w], err
		}
	}
	return b.buf[b.r : b.r+n], nil
}

// Discard passes over n bytes.
func (b *inBuf) Discard(n int) (int, error) {
	done := 0
	for done < n {
		if b.r == b.w {
			if err := b.fill(); err != nil {
				return done, err
			}
		}
		k := min(n-done, b.w-b.r)
		b.r += k
		done += k
	}
	return done, nil
}

// setMark keeps the bytes from offset p on (p must be buffered or next).
func (b *inBuf) setMark(p int64) { b.mark = p }

// rewind moves back to offset p when it is still kept.
func (b *inBuf) rewind(p int64) bool {
	if b.mark < 0 || p < b.mark || p < b.base || p > b.base+int64(b.w) {
		return false
	}
	b.r = int(p - b.base)
	return true
}

var _ io.ByteReader = (*inBuf)(nil)
