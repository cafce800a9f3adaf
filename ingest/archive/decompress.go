package archive

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
)

// Magic numbers of the compressed and archive formats recognised.
var (
	magicGzip     = []byte{0x1f, 0x8b, 0x08}
	magicZstd     = []byte{0x28, 0xb5, 0x2f, 0xfd}
	magicZstdDict = []byte{0x5d, 0x2a, 0x4d, 0x18} // skippable frame 0x184D2A5D holding the dictionary
	magicDict     = []byte{0x37, 0xa4, 0x30, 0xec} // a Zstandard dictionary
	magicLZ4      = []byte{0x04, 0x22, 0x4d, 0x18}
	magicBzip2    = []byte("BZh")
)

// compression names the compression of an input, found from its first bytes.
type compression int

const (
	compNone compression = iota
	compGzip
	compZstd
	compLZ4
	compBzip2
)

// sniffCompression identifies the compression from the first bytes.
func sniffCompression(b []byte) compression {
	switch {
	case bytes.HasPrefix(b, magicGzip):
		return compGzip
	case bytes.HasPrefix(b, magicZstd), bytes.HasPrefix(b, magicZstdDict):
		return compZstd
	case bytes.HasPrefix(b, magicLZ4):
		return compLZ4
	case bytes.HasPrefix(b, magicBzip2) && len(b) > 3 && b[3] >= '1' && b[3] <= '9':
		return compBzip2
	}
	return compNone
}

// countingReader counts the bytes read from the input. It sits below the
// bufio.Reader, so the position as stored is n minus what bufio buffers.
type countingReader struct {
	r   io.Reader
	n   int64
	err error // first error other than io.EOF: the input cannot be read further
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil && err != io.EOF && c.err == nil {
		c.err = err
	}
	return n, err
}

// A source yields the decompressed bytes of an input member by member: a
// gzip member, a zstd frame, or the whole of an uncompressed input.
type source interface {
	// next starts the next member, passing over garbage before it (recorded
	// as Damage; skipped reports it). It returns io.EOF at the end of the
	// input and an *InputError when the input cannot be read.
	next() (skipped bool, err error)
	// read reads decompressed bytes of the current member: io.EOF at its
	// end, a *memberError when it is damaged, an *InputError when the input
	// cannot be read.
	read(p []byte) (int, error)
	memberStart() int64 // offset as stored of the current member
	pos() int64         // input bytes consumed, as stored
	compressed() bool
}

// input is the part shared by the sources: the counted, buffered input.
type input struct {
	name   string
	cr     countingReader
	br     *inBuf
	counts *Counts
	start  int64
	// rescanning is set after a failed member was rewound to its second
	// byte: the bytes then passed over belong to that member's damage.
	rescanning bool
	failed     int // index in counts.Damage of the failed member's damage; -1 when not listed
}

// memberFailed records the damage of the current member, goes back to its
// second byte when those bytes are still kept (the failing decompressor
// may have read past the next member's magic) and returns the error for
// the framer.
func (in *input) memberFailed(kind string, err error) error {
	in.rescanning = in.br.rewind(in.start + 1)
	in.failed = -1
	if len(in.counts.Damage) < MaxDamageList {
		in.failed = len(in.counts.Damage)
	}
	in.counts.damage(Damage{Kind: kind, Offset: in.start, Detail: err.Error()})
	return &memberError{kind: kind, err: err}
}

const inputBufferSize = 64 << 10

func newInput(r io.Reader, name string, counts *Counts) *input {
	in := &input{name: name, counts: counts}
	in.cr.r = r
	in.br = newInBuf(&in.cr)
	return in
}

func (in *input) pos() int64         { return in.br.pos() }
func (in *input) memberStart() int64 { return in.start }

// fatal returns the sticky error for a failed underlying reader, or nil.
func (in *input) fatal() error {
	if in.cr.err == nil {
		return nil
	}
	return &InputError{File: in.name, Offset: in.pos(), Err: fmt.Errorf("%w: %w", ErrRead, in.cr.err)}
}

// skipTo passes over input bytes up to the first occurrence of one of the
// magics (or to the end), recording the skipped bytes as garbage, or, after
// a rescan, adding them to the failed member's damage. It returns the
// number of bytes skipped.
func (in *input) skipTo(magics ...[]byte) int64 {
	start := in.pos()
	for {
		b := in.br.buf[in.br.r:in.br.w]
		if i := indexAny(b, magics); i >= 0 {
			in.br.r += i
			break
		}
		if len(b) > 3 {
			in.br.r += len(b) - 3 // keep a magic's first bytes that may continue
		}
		if in.br.fill() != nil {
			in.br.r = in.br.w
			break
		}
	}
	skipped := in.pos() - start
	switch {
	case skipped == 0:
	case in.rescanning:
		// The failed member's bytes, counted with its damage: only in the
		// list's entry, which a damage past MaxDamageList has not.
		if in.failed >= 0 {
			in.counts.Damage[in.failed].Skipped += skipped + 1
		}
	default:
		in.counts.damage(Damage{Kind: DamageGarbage, Offset: start, Skipped: skipped,
			Detail: fmt.Sprintf("%d bytes before the next member", skipped)})
	}
	in.rescanning = false
	return skipped
}

func indexAny(b []byte, magics [][]byte) int {
	best := -1
	for _, m := range magics {
		if i := bytes.Index(b, m); i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	return best
}

// plainSource is an uncompressed input: one member, the whole input.
type plainSource struct {
	*input
	started bool
}

func (s *plainSource) compressed() bool { return false }

func (s *plainSource) next() (bool, error) {
	if s.started {
		return false, io.EOF
	}
	s.started = true
	return false, nil
}

func (s *plainSource) read(p []byte) (int, error) {
	n, err := s.br.Read(p)
	if err != nil && err != io.EOF {
		return n, s.fatal()
	}
	return n, err
}

// gzipSource reads a gzip file member by member (gzipmember.go), so that
// each member's compressed offsets are known.
//
// The decompressor is fastest over a *bytes.Reader (it then reads bytes
// without an interface call each), so a member is first read from a window
// of the buffered input: when the member ends inside the window, the bytes it
// used are passed over. A member longer than the window (a whole-file gzip,
// a huge record) is read again from its start through the buffer, its first
// bytes already given discarded.
//
// Faster still, a member that lies whole in the window may be inflated in
// one call (wholeInflater, inflate.go); it is then given from that output.
type gzipSource struct {
	*input
	zr      gzipMember
	window  bytes.Reader // the fast path's view of the member's bytes
	fast    bool         // the member is being read from window
	size    int          // bytes in window at the member's start
	emitted int64        // decompressed bytes given from window

	whole      wholeInflater
	streamOnly bool   // every member is streamed (a test's reference read)
	wholeOut   []byte // what is left to give of a member inflated whole
	wholeUsed  int    // its bytes in the input; 0 when the member is streamed
	inflated   int    // members inflated whole so far
}

// The fast path reads a member from the input buffered at its start: at
// least gzipMinWindow bytes, else the buffer is first filled to gzipWindow.
// Filling only when little is left keeps the buffer's compaction (a copy of
// what is left) rare.
const (
	gzipMinWindow = 128 << 10
	gzipWindow    = 512 << 10
)

func (s *gzipSource) compressed() bool { return true }

func (s *gzipSource) next() (bool, error) {
	skipped := false
	for {
		b, _ := s.br.Peek(len(magicGzip))
		if err := s.fatal(); err != nil {
			return skipped, err
		}
		if len(b) == 0 {
			return skipped, io.EOF
		}
		if !bytes.Equal(b, magicGzip) {
			s.skipTo(magicGzip)
			skipped = true
			continue
		}
		s.start = s.pos()
		s.br.setMark(s.start)
		win := s.br.buf[s.br.r:s.br.w]
		if len(win) < gzipMinWindow {
			win, _ = s.br.Peek(gzipWindow)
		}
		s.window.Reset(win)
		s.size, s.emitted = len(win), 0
		header, err := readGzipHeader(&s.window)
		if err == nil {
			if s.inflateWhole(win, header) {
				return skipped, nil
			}
			s.fast = true
			s.zr.start(&s.window)
			return skipped, nil
		}
		s.fast = false
		readToEnd := s.window.Len() == 0 && s.windowIsRest()
		if s.window.Len() == 0 && !readToEnd && !judgedBad(err) {
			// The header runs on past the window (a file name or comment
			// of over gzipMinWindow bytes): read the member through the
			// buffer.
			if err = s.readThroughBuffer(); err == nil {
				return skipped, nil
			}
			readToEnd = s.br.Buffered() == 0 && s.br.err == io.EOF
		}
		if ferr := s.fatal(); ferr != nil {
			return skipped, ferr
		}
		kind := DamageCorruptMember
		if cutShort(readToEnd, err) {
			kind = DamageTruncated
		}
		s.counts.damage(Damage{Kind: kind, Offset: s.start, Detail: "gzip header: " + err.Error()})
		skipped = true
		s.br.rewind(s.start + 1)
	}
}

// inflateWhole inflates the member at the start of win in one call, if it
// can (see inflate.go), for read to give.
func (s *gzipSource) inflateWhole(win []byte, header int) bool {
	if s.streamOnly {
		return false
	}
	out, used, ok := s.whole.inflateWhole(win, header)
	if ok {
		s.wholeOut, s.wholeUsed = out, used
		s.inflated++
	}
	return ok
}

func (s *gzipSource) read(p []byte) (int, error) {
	if s.wholeUsed > 0 {
		n := copy(p, s.wholeOut)
		s.wholeOut = s.wholeOut[n:]
		if len(s.wholeOut) > 0 {
			return n, nil
		}
		s.br.Discard(s.wholeUsed)
		s.wholeUsed = 0
		return n, io.EOF
	}
	n, err := s.zr.Read(p)
	if s.fast {
		s.emitted += int64(n)
		if err == io.EOF {
			s.br.Discard(s.size - s.window.Len())
			s.fast = false
		}
	}
	if err == nil || err == io.EOF {
		return n, err
	}
	readToEnd := s.br.Buffered() == 0 && s.br.err == io.EOF
	fromWindow := s.fast
	if s.fast {
		s.fast = false // the buffer is still at the member's start
		readToEnd = s.window.Len() == 0 && s.windowIsRest()
		if s.window.Len() == 0 && !readToEnd && !judgedBad(err) {
			// The input goes on past the window, and the member may too,
			// whatever the inflater made of running out of it.
			return n, s.slowPath()
		}
	}
	if ferr := s.fatal(); ferr != nil {
		return n, ferr
	}
	if fromWindow && readToEnd {
		readToEnd, err = s.judgeAfresh(err)
	}
	if cutShort(readToEnd, err) {
		return n, s.memberFailed(DamageTruncated, fmt.Errorf("%w: gzip member cut short", ErrTruncated))
	}
	return n, s.memberFailed(DamageCorruptMember, fmt.Errorf("%w: %w", ErrCorruptCompression, err))
}

// judgeAfresh reads a member that failed in the fast path at the end of
// the input again from its start with a new inflater, and returns what
// that one made of it: whether it read to the end of the input, and its
// error. klauspost's inflater keeps its Huffman tables across a Reset, and
// where a damaged member has an empty or one-code tree it decodes on with
// the tables of the last member it inflated instead of failing there, as a
// new one does: the same damaged member would be corrupt or cut short
// depending on the members before it and on which of them the build
// inflated whole. A new inflater fails at or before the point where the
// reused one did (they differ only where the reused one reads a table the
// new one holds empty), so a member the reused one found bad inside the
// input is corrupt either way and is not read again (only the words of its
// detail may differ); one it read to the end is: a member the input may
// have cut, as a rule its last. A new inflater is an allocation of some
// 40 KB: one for every damaged member would make a file of nothing but
// small damaged members eight times slower to read.
func (s *gzipSource) judgeAfresh(err error) (readToEnd bool, _ error) {
	s.window.Seek(0, io.SeekStart)
	var fresh gzipMember
	ferr := fresh.Reset(&s.window)
	if ferr == nil {
		_, ferr = io.Copy(io.Discard, &fresh)
	}
	if ferr == nil {
		return true, err // cannot happen (see above); keep the first judgement
	}
	return s.window.Len() == 0 && s.windowIsRest(), ferr
}

// cutShort reports whether a gzip member whose header or data failed with
// err was cut short by the end of the input (DamageTruncated) rather than
// corrupt: the inflater read to the end of the input (readToEnd) and did
// not find a checksum or header field wrong. The kind is decided by where
// the inflater stopped, not by its words ("unexpected EOF" or "corrupt
// input"), and the inflater that decides is a new one (judgeAfresh): a
// reused one can read on past the point where a new one fails.
func cutShort(readToEnd bool, err error) bool { return readToEnd && !judgedBad(err) }

// judgedBad reports whether err says the inflater found the member bad by
// what it read, not by running out of it: a wrong header field or header
// CRC, or a wrong CRC-32 or size in the trailer.
func judgedBad(err error) bool {
	return errors.Is(err, errGzipHeader) || errors.Is(err, errGzipChecksum)
}

// windowIsRest reports whether the fast path's window holds all that is left
// of the input.
func (s *gzipSource) windowIsRest() bool {
	return s.br.err == io.EOF && s.start+int64(s.size) == s.br.base+int64(s.br.w)
}

// slowPath reads the current member again from its start through the
// buffer, past the bytes the fast path already gave.
func (s *gzipSource) slowPath() error {
	s.fast = false
	if err := s.readThroughBuffer(); err != nil {
		return s.memberFailed(DamageCorruptMember, fmt.Errorf("%w: %w", ErrCorruptCompression, err))
	}
	if _, err := io.CopyN(io.Discard, &s.zr, s.emitted); err != nil {
		if ferr := s.fatal(); ferr != nil {
			return ferr
		}
		return s.memberFailed(DamageCorruptMember, fmt.Errorf("%w: %w", ErrCorruptCompression, err))
	}
	return nil
}

// readThroughBuffer starts the member at the buffer's position, which is
// its start, to be read through the buffer. It reads with a new inflater,
// so that what it makes of the member does not depend on the members
// before it (see judgeAfresh); such members are longer than the window,
// so the allocation is slight.
func (s *gzipSource) readThroughBuffer() error {
	s.zr.forget()
	return s.zr.Reset(s.br)
}

// zstdSource reads a .warc.zst file frame by frame, as laid out by the IIPC
// zstd WARC draft: an optional dictionary frame (skippable frame 0x184D2A5D),
// then Zstandard frames, with other skippable frames ignored. Each frame is
// delimited by frameReader and decoded by a synchronous streaming decoder.
type zstdSource struct {
	*input
	dec   *zstd.Decoder
	fr    frameReader
	first bool
}

// maxZstdWindow is the largest zstd window the readers decode; Detect
// sniffs with the same limit, so that it takes what they can read.
const maxZstdWindow = 64 << 20

func newZstdSource(in *input) (*zstdSource, error) {
	s := &zstdSource{input: in, first: true}
	s.fr.br = in.br
	opts := []zstd.DOption{zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxZstdWindow)}
	dict, err := s.readDictionary()
	if err != nil {
		return nil, err
	}
	if dict != nil {
		opts = append(opts, zstd.WithDecoderDicts(dict))
	}
	s.dec, err = zstd.NewReader(nil, opts...)
	if err != nil {
		return nil, &InputError{File: in.name, Err: fmt.Errorf("%w: %w", ErrDictionary, err)}
	}
	return s, nil
}

// readDictionary reads the dictionary frame, if the input starts with one.
func (s *zstdSource) readDictionary() ([]byte, error) {
	b, _ := s.br.Peek(8)
	if !bytes.HasPrefix(b, magicZstdDict) {
		return nil, s.fatal()
	}
	bad := func(msg string) error {
		return &InputError{File: s.name, Err: fmt.Errorf("%w: %s", ErrDictionary, msg)}
	}
	if len(b) < 8 {
		return nil, bad("frame header cut short")
	}
	size := binary.LittleEndian.Uint32(b[4:])
	if size > MaxZstdDictionary {
		return nil, bad(fmt.Sprintf("%d bytes, over %d", size, MaxZstdDictionary))
	}
	s.br.Discard(8)
	data := make([]byte, size)
	if _, err := io.ReadFull(s.br, data); err != nil {
		return nil, bad("frame cut short")
	}
	if bytes.HasPrefix(data, magicZstd) {
		d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(MaxZstdDictionary))
		if err != nil {
			return nil, bad(err.Error())
		}
		defer d.Close()
		if data, err = d.DecodeAll(data, nil); err != nil {
			return nil, bad("compressed dictionary: " + err.Error())
		}
	}
	if !bytes.HasPrefix(data, magicDict) {
		return nil, bad("not a Zstandard dictionary")
	}
	return data, nil
}

func (s *zstdSource) compressed() bool { return true }

func (s *zstdSource) next() (bool, error) {
	skipped := false
	for {
		b, _ := s.br.Peek(18)
		if err := s.fatal(); err != nil {
			return skipped, err
		}
		if len(b) == 0 {
			return skipped, io.EOF
		}
		switch {
		case bytes.HasPrefix(b, magicZstd):
			s.start = s.pos()
			s.br.setMark(s.start)
			if err := s.fr.start(b); err != nil {
				s.counts.damage(Damage{Kind: DamageCorruptMember, Offset: s.start, Detail: err.Error()})
				s.br.Discard(1)
				skipped = true
				continue
			}
			if err := s.dec.Reset(&s.fr); err != nil {
				return skipped, &InputError{File: s.name, Offset: s.start, Err: err}
			}
			return skipped, nil
		case len(b) >= 8 && b[0]&0xf0 == 0x50 && bytes.Equal(b[1:4], magicZstdDict[1:4]):
			// A skippable frame: an extension the reader ignores.
			n := int(binary.LittleEndian.Uint32(b[4:8]))
			if d, _ := s.br.Discard(8 + n); d < 8+n {
				s.counts.damage(Damage{Kind: DamageTruncated, Offset: s.pos() - int64(d), Skipped: int64(d), Detail: "skippable frame cut short"})
				return true, io.EOF
			}
		default:
			s.skipTo(magicZstd)
			skipped = true
		}
	}
}

func (s *zstdSource) read(p []byte) (int, error) {
	n, err := s.dec.Read(p)
	if err == nil || err == io.EOF {
		return n, err
	}
	if ferr := s.fatal(); ferr != nil {
		return n, ferr
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return n, s.memberFailed(DamageTruncated, fmt.Errorf("%w: zstd frame cut short", ErrTruncated))
	}
	return n, s.memberFailed(DamageCorruptMember, fmt.Errorf("%w: zstd: %w", ErrCorruptCompression, err))
}

// frameReader passes through exactly the bytes of one Zstandard frame,
// following its frame header and block headers (RFC 8878 §3.1.1), so that
// the decoder stops at the frame's end and the frame's offsets are known.
type frameReader struct {
	br       *inBuf
	pass     int  // bytes to pass before the next decision
	state    int  // what comes after the bytes to pass
	checksum bool // the frame has a Content_Checksum
}

const (
	frBlockHeader = iota
	frChecksum
	frDone
)

// start prepares for the frame whose first bytes (at least the header, when
// available) are b.
func (f *frameReader) start(b []byte) error {
	if len(b) < 6 {
		return fmt.Errorf("%w: zstd frame header cut short", ErrCorruptCompression)
	}
	fhd := b[4]
	if fhd&0x08 != 0 {
		return fmt.Errorf("%w: zstd frame header reserved bit set", ErrCorruptCompression)
	}
	single := fhd&0x20 != 0
	n := 5 + [4]int{0, 1, 2, 4}[fhd&3]
	if !single {
		n++
	}
	switch fcs := fhd >> 6; {
	case fcs == 0 && single:
		n++
	case fcs > 0:
		n += [4]int{0, 2, 4, 8}[fcs]
	}
	f.pass, f.state, f.checksum = n, frBlockHeader, fhd&0x04 != 0
	return nil
}

func (f *frameReader) Read(p []byte) (int, error) {
	for f.pass == 0 {
		switch f.state {
		case frBlockHeader:
			h, _ := f.br.Peek(3)
			if len(h) < 3 {
				return 0, io.ErrUnexpectedEOF
			}
			v := uint32(h[0]) | uint32(h[1])<<8 | uint32(h[2])<<16
			size, typ := int(v>>3), (v>>1)&3
			if typ == 3 || size > 128<<10 {
				return 0, fmt.Errorf("%w: invalid zstd block header", ErrCorruptCompression)
			}
			if typ == 1 {
				size = 1 // RLE: one byte stored
			}
			f.pass = 3 + size
			if v&1 != 0 {
				f.state = frChecksum
			}
		case frChecksum:
			f.state = frDone
			if f.checksum {
				f.pass = 4
			}
		default:
			return 0, io.EOF
		}
	}
	n, err := f.br.Read(p[:min(len(p), f.pass)])
	f.pass -= n
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

// newSource picks the source for the compression found at the start of in
// or, when garbage comes before the first gzip member or zstd frame of an
// archive, for that member's (the source passes over the garbage, and
// records it). streamOnly turns the whole-member path of gzip off.
func newSource(in *input, streamOnly bool) (source, error) {
	b, _ := in.br.Peek(len("WARC/"))
	if err := in.fatal(); err != nil {
		return nil, err
	}
	comp := sniffCompression(b)
	if comp == compNone && !bytes.HasPrefix(b, []byte("WARC/")) {
		// Only here is more read ahead, so that an input failing early
		// fails after the records before the failure, as it is read.
		if head, _ := in.br.Peek(SniffLen); archiveStart(head) == FormatUnknown {
			_, comp = archiveAfterGarbage(head)
		}
	}
	switch comp {
	case compGzip:
		return &gzipSource{input: in, streamOnly: streamOnly}, nil
	case compZstd:
		return newZstdSource(in)
	case compLZ4:
		return nil, &InputError{File: in.name, Err: fmt.Errorf("%w: LZ4-compressed", ErrUnsupportedFormat)}
	case compBzip2:
		return nil, &InputError{File: in.name, Err: fmt.Errorf("%w: bzip2-compressed", ErrUnsupportedFormat)}
	}
	return &plainSource{input: in}, nil
}

// String names the compression in messages.
func (c compression) String() string {
	return [...]string{"uncompressed", "gzip", "zstd", "LZ4", "bzip2"}[c]
}
