package archive

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
)

// member is one gzip member or zstd frame (or the whole of a plain input)
// seen by a framer: where its decompressed bytes lie in the decompressed
// stream and where it lies in the input as stored.
type member struct {
	dStart, dEnd int64 // decompressed offsets; dEnd is -1 while the member is being read
	cStart, cEnd int64 // offsets as stored
}

// framer is the buffer the record readers parse from: the decompressed
// stream of a source, read member after member into one buffer, with the
// members' positions kept so that a record can be mapped back to its
// compressed bytes. Parsing works on []byte in the buffer (headers are made
// contiguous there); bodies are copied out.
//
// A discontinuity (a damaged member, garbage skipped between members) stops
// the data: fill returns errGap once the bytes before it are buffered, and
// the reader must call passGap to read on. The position keep, when set, is
// retained on compaction (up to maxBuf bytes), so that a record's block can
// be read again when its length turns out to be wrong.
//
// The members kept are bounded whatever the input: those from the one
// holding the current record's start (set by prune) and those that reach
// into the buffer; empty members at one offset are kept as one (the last),
// so a run of empty or failed members costs nothing (see forget).
type framer struct {
	src     source
	counts  *Counts
	buf     []byte
	r, w    int   // unread bytes are buf[r:w]
	base    int64 // decompressed offset of buf[0]
	keep    int64 // offset to retain on compaction; -1 when none
	maxBuf  int
	members []member
	anchor  int64 // start of the current record (see prune)
	open    bool  // a member of src is being read
	gapped  bool  // the data ends at a discontinuity at end()
	broken  int64 // decompressed offset where the data last broke (a damaged member); -1 when never
	eof     bool  // src is exhausted
	err     error // sticky fatal error
}

const (
	initialBuffer = 64 << 10
	minRead       = 8 << 10
)

func newFramer(src source, counts *Counts, maxBuf int) *framer {
	return &framer{src: src, counts: counts, buf: make([]byte, initialBuffer), keep: -1, broken: -1, maxBuf: maxBuf}
}

func (f *framer) pos() int64       { return f.base + int64(f.r) }
func (f *framer) end() int64       { return f.base + int64(f.w) }
func (f *framer) buffered() []byte { return f.buf[f.r:f.w] }
func (f *framer) skip(n int)       { f.r += n }

// fill reads more of the stream into the buffer. It returns nil when bytes
// were added, errGap at a discontinuity, io.EOF at the end of the input, or
// a fatal *InputError.
func (f *framer) fill() error {
	if f.err != nil {
		return f.err
	}
	if f.gapped {
		return errGap
	}
	if f.eof {
		return io.EOF
	}
	f.makeRoom()
	for {
		if !f.open {
			skipped, err := f.src.next()
			if err == io.EOF {
				f.eof = true
				return io.EOF
			}
			if err != nil {
				f.err = err
				return err
			}
			f.forget()
			f.members = append(f.members, member{dStart: f.end(), dEnd: -1, cStart: f.src.memberStart()})
			f.open = true
			if skipped {
				f.gapped = true
				return errGap
			}
		}
		n, err := f.src.read(f.buf[f.w:])
		f.w += n
		switch {
		case err == io.EOF:
			f.closeMember()
		case err != nil:
			var me *memberError
			if !errors.As(err, &me) {
				f.err = err
				return err
			}
			f.closeMember()
			f.gapped, f.broken = true, f.end()
			if n == 0 {
				return errGap
			}
		}
		if n > 0 {
			return nil
		}
	}
}

func (f *framer) closeMember() {
	n := len(f.members)
	m := &f.members[n-1]
	m.dEnd, m.cEnd = f.end(), f.src.pos()
	f.open = false
	// An empty member after an empty member at the same offset replaces
	// it: every lookup answers the same with the last one alone.
	if n >= 2 && m.dStart == m.dEnd {
		if prev := &f.members[n-2]; prev.dStart == m.dStart && prev.dEnd == m.dEnd {
			*prev = *m
			f.members = f.members[:n-1]
		}
	}
}

// passGap lets fill read on after a discontinuity, once the bytes before it
// have been consumed.
func (f *framer) passGap() { f.gapped = false }

// makeRoom makes space at the end of the buffer: by moving the unread (and
// kept) bytes to its start, by growing it up to maxBuf, or at last by giving
// up the kept position.
func (f *framer) makeRoom() {
	if len(f.buf)-f.w >= minRead {
		return
	}
	from := f.r
	if f.keep >= 0 {
		from = min(from, int(f.keep-f.base))
	}
	if from > 0 && (from >= len(f.buf)/4 || len(f.buf) >= f.maxBuf) {
		f.shift(from)
		return
	}
	if len(f.buf) < f.maxBuf {
		nb := make([]byte, min(2*len(f.buf), f.maxBuf))
		copy(nb, f.buf[from:f.w])
		f.buf = nb
		f.w -= from
		f.r -= from
		f.base += int64(from)
		return
	}
	if f.keep >= 0 {
		f.keep = -1
		f.shift(f.r)
	}
}

func (f *framer) shift(from int) {
	copy(f.buf, f.buf[from:f.w])
	f.w -= from
	f.r -= from
	f.base += int64(from)
}

// setKeep asks that the bytes from p on stay buffered (best effort).
func (f *framer) setKeep(p int64) { f.keep = p }

// kept reports whether the bytes from p on are still buffered.
func (f *framer) kept(p int64) bool { return f.keep >= 0 && f.keep <= p && p >= f.base }

// rewind moves the read position back to p, which must be kept.
func (f *framer) rewind(p int64) { f.r = int(p - f.base) }

// ensure buffers at least n unread bytes, or as many as there are before a
// discontinuity or the end (returning its error).
func (f *framer) ensure(n int) error {
	for f.w-f.r < n {
		if err := f.fill(); err != nil {
			return err
		}
	}
	return nil
}

// The members are in stream order, so dStart and (of the closed ones) dEnd
// never decrease: lookups are binary searches, as a window may hold many
// tiny members.

// memberAt returns the index of the last member starting at or before p.
func (f *framer) memberAt(p int64) int {
	return sort.Search(len(f.members), func(i int) bool { return f.members[i].dStart > p }) - 1
}

// memberStartAfter returns the first member start after p, or -1.
func (f *framer) memberStartAfter(p int64) int64 {
	if i := f.memberAt(p) + 1; i < len(f.members) {
		return f.members[i].dStart
	}
	return -1
}

// memberBoundary reports whether a member ends (and so the next starts) at p.
func (f *framer) memberBoundary(p int64) bool {
	closed := len(f.members)
	if f.open {
		closed--
	}
	i := sort.Search(closed, func(i int) bool { return f.members[i].dEnd >= p })
	return i < closed && f.members[i].dEnd == p
}

// prune forgets members that end before p, the start of a record.
func (f *framer) prune(p int64) {
	f.anchor = p
	i := 0
	for i < len(f.members)-1 && f.members[i].dEnd >= 0 && f.members[i].dEnd < p {
		i++
	}
	if i > 0 {
		f.members = append(f.members[:0], f.members[i:]...)
	}
}

// forget drops the members that end before the buffer starts, which no
// read position can return to, but those up to the one holding the current
// record's start (its Provenance and damage offsets). Without it a record
// or a stretch of garbage spanning millions of members would keep them all.
// A damage offset inside a record, in a member already forgotten, is then
// that of the record's member.
func (f *framer) forget() {
	lo := f.memberAt(f.anchor) + 1
	hi := lo
	for hi < len(f.members) && f.members[hi].dEnd >= 0 && f.members[hi].dEnd < f.base {
		hi++
	}
	if hi > lo {
		f.members = slices.Delete(f.members, lo, hi)
	}
}

// storedOffset maps a decompressed offset to an offset as stored: itself for
// plain input, the start of the member holding it otherwise.
func (f *framer) storedOffset(p int64) int64 {
	if !f.src.compressed() {
		return p
	}
	if i := f.memberAt(p); i >= 0 {
		return f.members[i].cStart
	}
	return f.src.pos()
}

// provenance returns where the record [start, end) of the decompressed
// stream lies as stored. clean is the offset from which only white space
// preceded start.
func (f *framer) provenance(name string, start, end, clean int64) Provenance {
	p := Provenance{File: name, Offset: start, Length: end - start}
	if !f.src.compressed() {
		return p
	}
	p.Uncompressed = true
	i := f.memberAt(start)
	if i < 0 || f.members[i].dStart < clean {
		return p
	}
	for _, m := range f.members[i:] {
		if m.dEnd == end {
			return Provenance{File: name, Offset: f.members[i].cStart, Length: m.cEnd - f.members[i].cStart}
		}
	}
	return p
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// skipSpace passes over white space. With stopAtMember it stops at a member
// boundary. It returns nil when a byte is buffered at the read position.
func (f *framer) skipSpace(stopAtMember bool) error {
	for {
		if !stopAtMember {
			f.prune(f.pos()) // between records: a run of blank members is passed over, not kept
		}
		for f.r < f.w && isSpace(f.buf[f.r]) {
			if stopAtMember && f.memberBoundary(f.pos()) {
				return nil
			}
			f.r++
		}
		if f.r < f.w {
			return nil
		}
		if stopAtMember && f.memberBoundary(f.pos()) {
			return nil
		}
		if err := f.fill(); err != nil {
			return err
		}
	}
}

// maxProbeLine is how much of a line resync looks at to recognise a record
// start.
const maxProbeLine = 16 << 10

// peekLine returns the line at the read position, through its '\n' (or as
// much as is there before a discontinuity, the end or maxProbeLine bytes).
func (f *framer) peekLine() []byte {
	from := 0
	for {
		b := f.buffered()
		if i := bytes.IndexByte(b[from:], '\n'); i >= 0 {
			return b[:from+i+1]
		}
		if len(b) >= maxProbeLine {
			return b[:maxProbeLine]
		}
		from = len(b)
		if f.fill() != nil {
			return f.buffered()
		}
	}
}

// resync passes over bytes up to the next line for which isStart is true, a
// line being one that follows '\n', a discontinuity or a member start. The
// bytes passed over are recorded as garbage. It returns nil with the read
// position at that line, or io.EOF or a fatal error.
func (f *framer) resync(isStart func([]byte) bool, atLineStart bool) error {
	start := f.pos()
	from := f.storedOffset(start)
	var err error
	for {
		// The members passed over are no longer needed: without this, a
		// stretch of junk members would keep them all and make each line
		// cost a scan of them.
		f.prune(f.pos())
		if atLineStart {
			if line := f.peekLine(); len(line) > 0 && isStart(line) {
				err = nil
				break
			}
		}
		if f.r == f.w {
			if err = f.fill(); err == errGap {
				f.passGap()
				atLineStart = true
				continue
			} else if err != nil {
				break
			}
		}
		b := f.buffered()
		if q := f.memberStartAfter(f.pos()); q >= 0 && q < f.end() {
			b = b[:q-f.pos()]
		}
		i := bytes.IndexByte(b, '\n')
		if i >= 0 {
			f.r += i + 1
		} else {
			f.r += len(b)
		}
		atLineStart = i >= 0 || f.memberBoundary(f.pos())
	}
	if n := f.pos() - start; n > 0 {
		f.counts.damage(Damage{Kind: DamageGarbage, Offset: from, Skipped: n,
			Detail: fmt.Sprintf("%d bytes that are not a record", n)})
	}
	return err
}

// headerEnd returns the length of the header block at the read position,
// through the empty line that ends it, making it contiguous in the buffer.
// It returns errTooLarge when no end is found within limit bytes, and the
// error of fill (with the length buffered) when the data stops first.
func (f *framer) headerEnd(limit int) (int, error) {
	scanned := 0
	for {
		b := f.buffered()
		for {
			i := bytes.IndexByte(b[scanned:], '\n')
			if i < 0 {
				scanned = len(b)
				break
			}
			// A line end followed by an empty line: "\n" then "\n", with
			// any carriage returns between (some writers emit "\r\r\n").
			j := scanned + i + 1
			k := j
			for k < len(b) && k-j < 4 && b[k] == '\r' {
				k++
			}
			if k < len(b) && b[k] == '\n' {
				if k+1 > limit {
					return 0, errTooLarge
				}
				return k + 1, nil
			}
			if k >= len(b) {
				scanned += i
				break
			}
			scanned = j
		}
		if scanned >= limit {
			return 0, errTooLarge
		}
		if err := f.fill(); err != nil {
			return len(f.buffered()), err
		}
	}
}

// discard passes over n bytes. It returns how many it passed and, when the
// data stopped first, the error of fill.
func (f *framer) discard(n int64) (int64, error) {
	var done int64
	for done < n {
		if f.r == f.w {
			if err := f.fill(); err != nil {
				return done, err
			}
		}
		k := int(min(int64(f.w-f.r), n-done))
		f.r += k
		done += int64(k)
	}
	return done, nil
}

// blockReader reads the n bytes of a record block from a framer. It
// implements io.ByteReader too, so that decompressors read it unbuffered.
type blockReader struct {
	f      *framer
	remain int64
	stop   error // why the data ended before the block did (errGap, io.EOF, fatal)
}

func (b *blockReader) reset(f *framer, n int64) { *b = blockReader{f: f, remain: n} }

func (b *blockReader) more() bool {
	if b.remain <= 0 || b.stop != nil {
		return false
	}
	if b.f.r < b.f.w {
		return true
	}
	if err := b.f.fill(); err != nil {
		b.stop = err
		return false
	}
	return true
}

func (b *blockReader) Read(p []byte) (int, error) {
	if !b.more() {
		return 0, b.endErr()
	}
	n := copy(p[:min(int64(len(p)), b.remain)], b.f.buffered())
	b.f.r += n
	b.remain -= int64(n)
	return n, nil
}

func (b *blockReader) ReadByte() (byte, error) {
	if !b.more() {
		return 0, b.endErr()
	}
	c := b.f.buf[b.f.r]
	b.f.r++
	b.remain--
	return c, nil
}

func (b *blockReader) endErr() error {
	if b.remain <= 0 {
		return io.EOF
	}
	return io.ErrUnexpectedEOF
}

// short reports whether the data ended before the block did.
func (b *blockReader) short() bool { return b.remain > 0 && b.stop != nil }

// drain passes over the rest of the block.
func (b *blockReader) drain() {
	if b.remain > 0 && b.stop == nil {
		n, err := b.f.discard(b.remain)
		b.remain -= n
		b.stop = err
	}
}

// findLine looks for the first line after from (a line following '\n' or
// starting a member) for which isStart is true, without passing a
// discontinuity and only as far as the bytes from from on stay buffered. It
// moves the read position; the caller rewinds to from. When from is no
// longer buffered it finds nothing and leaves the position alone.
func (f *framer) findLine(from int64, isStart func([]byte) bool) (int64, bool) {
	if !f.kept(from) {
		return 0, false
	}
	f.rewind(from)
	for f.kept(from) {
		b := f.buffered()
		q := f.memberStartAfter(f.pos())
		if q >= 0 && q < f.end() {
			b = b[:q-f.pos()]
		}
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			f.r += i + 1
		} else if len(b) > 0 {
			f.r += len(b)
			if !f.memberBoundary(f.pos()) {
				continue
			}
		} else if f.fill() != nil {
			return 0, false
		} else {
			continue
		}
		p := f.pos()
		if line := f.peekLine(); len(line) > 0 && isStart(line) && f.kept(from) {
			return p, true
		}
		if !f.kept(from) {
			return 0, false
		}
		f.rewind(p)
	}
	return 0, false
}
