package archive

import (
	"bytes"
	"crypto/sha1"
	"hash"
	"io"
	"net/url"
	"path/filepath"
	"strings"
)

// core is the part of the WARC and ARC readers that does not depend on the
// record syntax: the framer, the counts, the reused capture and payload
// state, the mode and the redirect targets of general mode.
type core struct {
	cfg    config
	name   string
	f      *framer
	counts Counts
	err    error // sticky

	cap     Capture
	body    []byte // backing array of cap.Body, MaxBody bytes once needed
	scratch []byte
	sha     hash.Hash
	block   blockReader
	dec     decoders
	// What the record header gave, kept to read a block again.
	givenTruncated, givenDigest string
	headerProblems              int
	robots                      bool // robotstxt mode in force
	decided                     bool // robots is final
	redirects                   redirectSet
}

func (c *core) init(r io.Reader, name string, opts []Option) error {
	cfg, err := newConfig(opts)
	if err != nil {
		return err
	}
	c.cfg, c.name = cfg, name
	in := newInput(r, name, &c.counts)
	src, err := newSource(in, cfg.streamOnly)
	if err != nil {
		// The input cannot be read at all: every Next returns the error.
		c.err = err
		src = &plainSource{input: in, started: true}
	}
	c.f = newFramer(src, &c.counts, cfg.maxHeaderBytes+cfg.maxBody+2*initialBuffer)
	switch cfg.mode {
	case ModeRobotstxt:
		c.robots, c.decided = true, true
	case ModeGeneral:
		c.decided = true
	default:
		c.robots = strings.Contains(filepath.ToSlash(name), "/robotstxt/")
		c.decided = c.robots
	}
	return nil
}

// Counts returns a snapshot of the running totals.
func (c *core) Counts() Counts {
	c.counts.Bytes = c.f.src.pos()
	return c.counts.snapshot()
}

// fail makes err sticky.
func (c *core) fail(err error) error {
	if err != io.EOF {
		c.err = err
	}
	c.counts.Bytes = c.f.src.pos()
	return err
}

// recordStart skips white space and garbage to the next record start, for
// which isStart is true. It returns the offset from which only white space
// came before the start (for Provenance), io.EOF or a fatal error.
func (c *core) recordStart(isStart func([]byte) bool) (int64, error) {
	f := c.f
	clean := f.pos()
	for {
		err := f.skipSpace(false)
		if err == errGap {
			f.passGap()
			clean = f.pos()
			continue
		}
		if err != nil {
			return 0, err
		}
		if isStart(f.peekLine()) {
			return clean, nil
		}
		if err := f.resync(isStart, false); err != nil {
			return 0, err
		}
		return f.pos(), nil
	}
}

// corrupt counts a record whose header cannot be used and passes over its
// first line, so that the search for the next record starts after it.
func (c *core) corrupt(start int64, detail string) {
	c.counts.skip(SkipCorrupt)
	c.counts.damage(Damage{Kind: DamageRecordHeader, Offset: c.f.storedOffset(start), Detail: detail})
	c.f.rewind(start)
	c.f.skip(len(c.f.peekLine()))
}

// skipBlock passes over a block of n bytes of a skipped record and its
// trailer, re-delimiting the record when its length is wrong.
func (c *core) skipBlock(n int64, isStart func([]byte) bool) {
	f := c.f
	blockStart := f.pos()
	f.setKeep(blockStart)
	defer f.setKeep(-1)
	c.block.reset(f, n)
	c.block.drain()
	q, ok, short := c.checkEnd(blockStart, isStart)
	switch {
	case ok:
		f.rewind(q)
		c.counts.damage(Damage{Kind: DamageLengthMismatch, Offset: f.storedOffset(blockStart),
			Detail: "block length " + itoa(n) + " disagrees with the data; record re-delimited"})
	case short:
		c.counts.damage(Damage{Kind: DamageRecordBroken, Offset: f.storedOffset(blockStart), Detail: "input ends inside a record block"})
	}
}

// checkEnd checks the end of a block just read. When the block is cut
// short by the data (short), or is followed by neither a record end nor a
// line end (its length too small), or by a line end and then something
// other than a record start that a record start inside the block explains
// (its length too large), it looks for the next record start from the
// block's start: ok reports that q is where the record really ends. The
// read position is then unspecified; otherwise it is after the trailer.
func (c *core) checkEnd(blockStart int64, isStart func([]byte) bool) (q int64, ok, short bool) {
	f := c.f
	short = c.block.short()
	end := f.pos()
	trailer := true
	if !short {
		if f.ensure(1) == nil && !f.memberBoundary(end) {
			b := f.buffered()[0]
			trailer = b == '\r' || b == '\n'
		}
		if c.atRecordEnd(isStart) {
			return 0, false, false
		}
	}
	after := f.pos()
	q, ok = f.findLine(blockStart, isStart)
	if ok && (short || q < end || !trailer) {
		return q, true, short
	}
	if !short && f.kept(after) {
		f.rewind(after) // garbage after a good record: passed over by recordStart
	}
	return 0, false, short
}

// atRecordEnd skips the white space after a block and reports whether the
// record ends there: at the end of the input, a discontinuity, a member
// boundary or a record start.
func (c *core) atRecordEnd(isStart func([]byte) bool) bool {
	f := c.f
	if err := f.skipSpace(true); err != nil {
		return true
	}
	return f.memberBoundary(f.pos()) || isStart(f.peekLine())
}

// captureBlock reads the block of n bytes of a capture record with read
// (which fills the HTTP fields, Body and BodySize of c.cap), checks the
// record's end and, when the length is wrong and the block is still
// buffered, re-delimits the block at the next record start and reads it
// again.
func (c *core) captureBlock(n int64, isStart func([]byte) bool, read func(*blockReader)) {
	f := c.f
	blockStart := f.pos()
	f.setKeep(blockStart)
	defer f.setKeep(-1)
	c.block.reset(f, n)
	read(&c.block)
	c.block.drain()
	q, ok, short := c.checkEnd(blockStart, isStart)
	switch {
	case ok:
		f.rewind(blockStart)
		m := trimTrailer(f.buffered()[:q-blockStart])
		c.resetPayload()
		c.block.reset(f, int64(m))
		read(&c.block)
		c.block.drain()
		f.rewind(q)
		c.cap.AddProblem(ProblemLengthMismatch, "block length "+itoa(n)+", next record found after "+itoa(int64(m))+" bytes")
	case short:
		c.incomplete(blockStart)
	}
}

// incomplete marks the capture as cut by the end of the data.
func (c *core) incomplete(blockStart int64) {
	c.cap.AddProblem(ProblemRecordIncomplete, "input ends inside the record")
	if c.cap.Truncated == "" || c.cap.Truncated == TruncatedBodyCap {
		c.cap.Truncated = TruncatedInput
	}
	c.counts.damage(Damage{Kind: DamageRecordBroken, Offset: c.f.storedOffset(blockStart), Detail: "input ends inside a record block"})
}

// trimTrailer returns len(b) less the record trailer (up to two line ends)
// at its end.
func trimTrailer(b []byte) int {
	n := len(b)
	for i := 0; i < 4 && n > 0 && (b[n-1] == '\n' || b[n-1] == '\r'); i++ {
		n--
	}
	return n
}

// resetCapture readies the reused capture for a new record.
func (c *core) resetCapture() *Capture {
	problems := c.cap.Problems[:0]
	c.cap = Capture{Problems: problems}
	return &c.cap
}

// resetPayload clears what reading a block set, before reading it again.
func (c *core) resetPayload() {
	cp := &c.cap
	cp.Status, cp.ContentType, cp.Location = 0, "", ""
	cp.Body, cp.BodySize = nil, 0
	cp.Truncated, cp.PayloadDigest = c.givenTruncated, c.givenDigest
	cp.Problems = cp.Problems[:c.headerProblems]
}

// finish completes a capture at the end of its record.
func (c *core) finish(cp *Capture, start, end, clean int64) *Capture {
	if b := c.f.broken; start < b && b <= end {
		cp.AddProblem(ProblemInputDamaged, "compressed data of this record is damaged")
	}
	cp.Source = c.f.provenance(c.name, start, end, clean)
	c.counts.Captures++
	if c.robots || cp.Status < 300 || cp.Status > 399 || cp.Location == "" {
		return cp
	}
	if target := resolveRedirect(cp.URL, cp.Location); target != "" {
		c.redirects.add(target)
	}
	return cp
}

// wanted reports whether a record with this (cleaned) target URI is a
// capture in the mode in force; reason is the skip reason when not.
func (c *core) wanted(uri []byte) (ok bool, reason string) {
	if !isHTTPURL(uri) {
		return false, SkipNotHTTP
	}
	if c.robots || isRobotsURL(uri) || c.redirects.has(uri) {
		return true, ""
	}
	return false, SkipNotRobotsURL
}

// isHTTPURL reports whether u starts with http:// or https://, any case.
func isHTTPURL(u []byte) bool {
	return hasPrefixFold(u, "http://") || hasPrefixFold(u, "https://")
}

func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && strings.EqualFold(string(b[:len(prefix)]), prefix)
}

// isRobotsURL reports whether the path of the http(s) URL u is exactly
// "/robots.txt" (case-sensitive, as servers and RFC 9309 treat it) with no
// query: a crawler asks for nothing else.
func isRobotsURL(u []byte) bool {
	i := bytes.Index(u, []byte("://"))
	if i < 0 {
		return false
	}
	rest := u[i+3:]
	j := bytes.IndexAny(rest, "/?#")
	if j < 0 {
		return false
	}
	path := rest[j:]
	if k := bytes.IndexByte(path, '#'); k >= 0 {
		path = path[:k]
	}
	return string(path) == "/robots.txt"
}

// hostOf returns the lower-case host of an absolute URL, without userinfo,
// port or IPv6 brackets.
func hostOf(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return ""
	}
	h := u[i+3:]
	if j := strings.IndexAny(h, "/?#"); j >= 0 {
		h = h[:j]
	}
	if j := strings.LastIndexByte(h, '@'); j >= 0 {
		h = h[j+1:]
	}
	if strings.HasPrefix(h, "[") {
		if j := strings.IndexByte(h, ']'); j >= 0 {
			h = h[1:j]
		}
	} else if j := strings.LastIndexByte(h, ':'); j >= 0 {
		h = h[:j]
	}
	for k := 0; k < len(h); k++ {
		if 'A' <= h[k] && h[k] <= 'Z' {
			return strings.ToLower(h)
		}
	}
	return h
}

// cleanURI trims white space and the angle brackets some writers put around
// WARC-Target-URI; changed reports whether anything was removed.
func cleanURI(b []byte) (u []byte, changed bool) {
	u = bytes.TrimSpace(b)
	if len(u) >= 2 && u[0] == '<' && u[len(u)-1] == '>' {
		u = bytes.TrimSpace(u[1 : len(u)-1])
	}
	return u, len(u) != len(b) || bytes.ContainsAny(u, " \t")
}

// resolveRedirect returns the absolute URL a Location header points to from
// base, or "".
func resolveRedirect(base, loc string) string {
	b, err := url.Parse(base)
	if err != nil {
		return ""
	}
	l, err := url.Parse(strings.TrimSpace(loc))
	if err != nil {
		return ""
	}
	t := b.ResolveReference(l)
	t.Fragment = ""
	if t.Scheme != "http" && t.Scheme != "https" {
		return ""
	}
	return t.String()
}

// redirectSet holds the pending redirect targets of robots.txt captures in
// general mode, bounded by maxRedirectTargets (oldest evicted first).
type redirectSet struct {
	m     map[string]struct{}
	order []string
}

func (s *redirectSet) add(u string) {
	if s.m == nil {
		s.m = make(map[string]struct{})
	}
	if _, ok := s.m[u]; ok {
		return
	}
	if len(s.order) >= maxRedirectTargets {
		delete(s.m, s.order[0])
		s.order = s.order[1:]
	}
	s.m[u] = struct{}{}
	s.order = append(s.order, u)
}

func (s *redirectSet) has(u []byte) bool {
	if len(s.m) == 0 {
		return false
	}
	_, ok := s.m[string(u)]
	return ok
}

func itoa(n int64) string {
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// newSHA1 returns the reader's reused SHA-1 state, reset.
func (c *core) newSHA1() hash.Hash {
	if c.sha == nil {
		c.sha = sha1.New()
	}
	c.sha.Reset()
	return c.sha
}
