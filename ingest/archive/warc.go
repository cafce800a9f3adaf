package archive

import (
	"bytes"
	"io"
	"time"
)

// WARCReader reads the captures of a WARC file (WARC/1.1, 1.0, 0.18, 0.17),
// plain, gzip-compressed (per record or whole file) or zstd-compressed (the
// IIPC .warc.zst layout, with or without a dictionary). See the package
// documentation for the records it turns into captures.
type WARCReader struct {
	core
	h warcHeader
}

// NewWARCReader returns a reader of the WARC stream r, whose compression is
// found from its first bytes. name is recorded as Provenance.File and, in
// ModeAuto, a name containing "/robotstxt/" selects ModeRobotstxt. The only
// errors are invalid options; an input that cannot be read at all (an LZ4
// WARC, a bad zstd dictionary) makes Next return the error.
func NewWARCReader(r io.Reader, name string, opts ...Option) (*WARCReader, error) {
	w := &WARCReader{}
	if err := w.init(r, name, opts); err != nil {
		return nil, err
	}
	return w, nil
}

// isWARCStart reports whether line is a WARC version line ("WARC/" and a
// digit).
func isWARCStart(line []byte) bool {
	return len(line) > 5 && string(line[:5]) == "WARC/" && line[5] >= '0' && line[5] <= '9'
}

// Next returns the next capture, or io.EOF at the end of the input. See
// [CaptureReader].
func (w *WARCReader) Next() (*Capture, error) {
	if w.err != nil {
		return nil, w.err
	}
	for {
		c, err := w.record()
		if err != nil {
			return nil, w.fail(err)
		}
		if c != nil {
			return c, nil
		}
	}
}

// record reads one record. It returns a capture, or nil for a skipped
// record, or io.EOF or a fatal error.
func (w *WARCReader) record() (*Capture, error) {
	f := w.f
	clean, err := w.recordStart(isWARCStart)
	if err != nil {
		return nil, err
	}
	start := f.pos()
	f.prune(start)
	w.counts.Records++
	n, err := f.headerEnd(w.cfg.maxHeaderBytes)
	if err != nil {
		w.corrupt(start, headerFailure(err, w.cfg.maxHeaderBytes))
		return nil, nil
	}
	h := &w.h
	if msg := h.parse(f.buffered()[:n], w.cfg.maxHeaders); msg != "" {
		w.corrupt(start, msg)
		return nil, nil
	}
	f.skip(n)
	return w.dispatch(start, clean), nil
}

// headerFailure describes why a header block could not be read.
func headerFailure(err error, limit int) string {
	switch err {
	case errTooLarge:
		return "header block larger than " + itoa(int64(limit)) + " bytes"
	case io.EOF:
		return "input ends inside the header block"
	}
	return "header block cut by damaged input: " + err.Error()
}

// dispatch handles a record by its type: a capture, or a skip.
func (w *WARCReader) dispatch(start, clean int64) *Capture {
	h := &w.h
	if !w.decided && string(h.typ) != "warcinfo" {
		w.decided = true
	}
	switch string(h.typ) {
	case "response", "resource":
		return w.capture(start, clean)
	case "revisit":
		w.revisit(start, clean)
		return nil
	case "warcinfo":
		w.warcinfo()
	}
	w.counts.skip(skipReason(h.typ))
	w.skipBlock(h.length, isWARCStart)
	return nil
}

func skipReason(typ []byte) string {
	switch string(typ) {
	case "warcinfo":
		return SkipWarcinfo
	case "request":
		return SkipRequest
	case "metadata":
		return SkipMetadata
	case "conversion":
		return SkipConversion
	case "continuation":
		return SkipContinuation
	}
	return SkipUnknownType
}

// maxWarcinfoProbe is how much of a warcinfo block is searched for
// "robotstxt" in ModeAuto.
const maxWarcinfoProbe = 64 << 10

// warcinfo looks, in ModeAuto, for a mention of Common Crawl's robotstxt
// subset in a warcinfo block.
func (w *WARCReader) warcinfo() {
	if w.decided {
		return
	}
	n := int(min(w.h.length, maxWarcinfoProbe))
	w.f.ensure(n)
	b := w.f.buffered()
	if containsFold(b[:min(n, len(b))], "robotstxt") {
		w.robots = true
	}
}

// containsFold reports whether b contains the lower-case ASCII word s in
// any case.
func containsFold(b []byte, s string) bool {
	for i := 0; i+len(s) <= len(b); i++ {
		j := 0
		for j < len(s) && b[i+j]|0x20 == s[j] {
			j++
		}
		if j == len(s) {
			return true
		}
	}
	return false
}

// capture reads a response or resource record.
func (w *WARCReader) capture(start, clean int64) *Capture {
	h := &w.h
	uri, changed := cleanURI(h.targetURI)
	if ok, reason := w.wanted(uri); !ok {
		w.counts.skip(reason)
		w.skipBlock(h.length, isWARCStart)
		return nil
	}
	c := w.resetCapture()
	c.URL = string(uri)
	c.Host = hostOf(c.URL)
	if changed || len(uri) == 0 {
		c.AddProblem(ProblemTargetURIInvalid, "WARC-Target-URI "+string(h.targetURI))
	}
	w.setRecordFields(c)
	read := w.readHTTP
	if string(h.typ) == "resource" {
		c.ContentType = string(bytes.TrimSpace(h.contentType))
		read = func(br *blockReader) { w.readPayload(br, false, nil) }
	}
	w.captureBlock(h.length, isWARCStart, read)
	return w.finish(c, start, w.f.pos(), clean)
}

// setRecordFields copies the WARC header fields a capture keeps.
func (w *WARCReader) setRecordFields(c *Capture) {
	h := &w.h
	var ok bool
	if c.FetchTime, ok = parseWARCDate(h.date); !ok {
		c.AddProblem(ProblemDateInvalid, "WARC-Date "+string(h.date))
	}
	if h.invalid {
		c.AddProblem(ProblemWARCHeaderInvalid, h.invalidWhy)
	}
	c.DetectedType = string(bytes.TrimSpace(h.idType))
	c.RecordID = string(h.recordID)
	c.Truncated = string(bytes.TrimSpace(h.truncated))
	c.PayloadDigest = string(bytes.TrimSpace(h.payloadDigest))
	w.givenTruncated, w.givenDigest, w.headerProblems = c.Truncated, c.PayloadDigest, len(c.Problems)
}

// revisit counts a revisit record and, when its URL would make a capture,
// hands it to the revisit function.
func (w *WARCReader) revisit(start, clean int64) {
	h := &w.h
	w.counts.skip(SkipRevisit)
	uri, _ := cleanURI(h.targetURI)
	ok, _ := w.wanted(uri)
	if !ok || w.cfg.revisit == nil {
		w.skipBlock(h.length, isWARCStart)
		return
	}
	v := &Revisit{URL: string(uri), RecordID: string(h.recordID), Profile: string(h.profile),
		RefersTo: string(h.refersTo), RefersToTargetURI: string(h.refersToTarget),
		PayloadDigest: string(h.payloadDigest)}
	v.Host = hostOf(v.URL)
	v.FetchTime, _ = parseWARCDate(h.date)
	v.RefersToDate, _ = parseWARCDate(h.refersToDate)
	if w.f.ensure(int(min(h.length, 256))) == nil || len(w.f.buffered()) > 0 {
		b := w.f.buffered()
		line, _ := nextLine(b[:min(len(b), int(min(h.length, 256)))])
		v.Status, _ = parseStatusLine(line)
	}
	w.skipBlock(h.length, isWARCStart)
	v.Source = w.f.provenance(w.name, start, w.f.pos(), clean)
	w.cfg.revisit(v)
}

// warcHeader holds the fields of a WARC record header the reader uses. The
// slices point into the framer's buffer (or into small copies for folded
// fields) and are valid until the block is read.
type warcHeader struct {
	typ, date, recordID, targetURI, truncated, idType []byte
	payloadDigest, refersTo, refersToTarget           []byte
	refersToDate, profile, contentType                []byte
	length                                            int64
	invalid                                           bool
	invalidWhy                                        string
}

// parse parses a header block: the version line, then "Name: value" fields
// up to the empty line. Names are case-insensitive; the first of repeated
// fields counts; continuation lines (leading space or tab) are joined. It
// returns why the record cannot be framed, or "".
func (h *warcHeader) parse(b []byte, maxFields int) string {
	*h = warcHeader{length: -1}
	_, rest := nextLine(b) // the version line
	var last *[]byte
	fields := 0
	for len(rest) > 0 {
		var line []byte
		line, rest = nextLine(rest)
		if len(line) == 0 {
			break
		}
		if line[0] == ' ' || line[0] == '\t' {
			if last != nil {
				*last = joinValue(*last, " ", bytes.TrimSpace(line))
			}
			continue
		}
		if fields++; fields > maxFields {
			return "more than " + itoa(int64(maxFields)) + " header fields"
		}
		i := bytes.IndexByte(line, ':')
		if i <= 0 {
			h.invalid, h.invalidWhy, last = true, "header line without a colon ignored", nil
			continue
		}
		name, value := bytes.TrimRight(line[:i], " \t"), bytes.TrimSpace(line[i+1:])
		if hasPrefixFold(name, "Content-Length") && len(name) == 14 {
			if msg := h.setLength(value); msg != "" {
				return msg
			}
			last = nil
			continue
		}
		if last = h.slot(name); last != nil && *last == nil {
			*last = value
		} else {
			last = nil
		}
	}
	if h.length < 0 {
		return "no Content-Length"
	}
	return ""
}

// setLength parses Content-Length; a repeated one must agree.
func (h *warcHeader) setLength(v []byte) string {
	n, ok := parseLength(v)
	switch {
	case !ok:
		return "invalid Content-Length " + string(v)
	case h.length < 0:
		h.length = n
	case h.length != n:
		h.invalid, h.invalidWhy = true, "repeated Content-Length "+string(v)+" ignored"
	}
	return ""
}

// parseLength parses a non-negative decimal of at most 18 digits.
func parseLength(v []byte) (int64, bool) {
	if len(v) == 0 || len(v) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// slot returns where the value of the named field goes, or nil.
func (h *warcHeader) slot(name []byte) *[]byte {
	switch len(name) {
	case 9:
		switch {
		case hasPrefixFold(name, "WARC-Type"):
			return &h.typ
		case hasPrefixFold(name, "WARC-Date"):
			return &h.date
		}
	case 12:
		switch {
		case hasPrefixFold(name, "Content-Type"):
			return &h.contentType
		case hasPrefixFold(name, "WARC-Profile"):
			return &h.profile
		}
	case 14:
		switch {
		case hasPrefixFold(name, "WARC-Record-ID"):
			return &h.recordID
		case hasPrefixFold(name, "WARC-Truncated"):
			return &h.truncated
		case hasPrefixFold(name, "WARC-Refers-To"):
			return &h.refersTo
		}
	case 15:
		if hasPrefixFold(name, "WARC-Target-URI") {
			return &h.targetURI
		}
	case 19:
		switch {
		case hasPrefixFold(name, "WARC-Payload-Digest"):
			return &h.payloadDigest
		case hasPrefixFold(name, "WARC-Refers-To-Date"):
			return &h.refersToDate
		}
	case 25:
		if hasPrefixFold(name, "WARC-Refers-To-Target-URI") {
			return &h.refersToTarget
		}
	case 28:
		if hasPrefixFold(name, "WARC-Identified-Payload-Type") {
			return &h.idType
		}
	}
	return nil
}

// parseWARCDate parses a W3C-DTF date as WARC uses it: "2024-05-18T01:58:10Z",
// with fractional seconds, with reduced precision ("2014", "2014-03",
// "2014-03-25", "2014-03-25T12:12Z", as WARC 1.1 allows) and with a numeric
// zone ("+01:00", "-0700") instead of "Z" or none. ok is false for anything
// else.
func parseWARCDate(b []byte) (t time.Time, ok bool) {
	b = bytes.TrimSpace(b)
	var v [6]int // year, month, day, hour, minute, second
	v[1], v[2] = 1, 1
	widths := [6]int{4, 2, 2, 2, 2, 2}
	seps := [6]byte{0, '-', '-', 'T', ':', ':'}
	i, k := 0, 0
	for k < 6 && i < len(b) {
		if k > 0 {
			if b[i] != seps[k] {
				break
			}
			i++
		}
		n, ok := digits(b[i:], widths[k])
		if !ok {
			return time.Time{}, false
		}
		v[k] = n
		i += widths[k]
		k++
	}
	if k == 0 || k == 4 {
		return time.Time{}, false
	}
	nsec := 0
	if k == 6 && i < len(b) && b[i] == '.' {
		i++
		scale := 100000000
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			nsec += int(b[i]-'0') * scale
			scale /= 10
			i++
		}
	}
	loc, ok := parseZone(b[i:])
	if !ok || v[1] < 1 || v[1] > 12 || v[2] < 1 || v[2] > 31 || v[3] > 23 || v[4] > 59 || v[5] > 60 {
		return time.Time{}, false
	}
	return time.Date(v[0], time.Month(v[1]), v[2], v[3], v[4], v[5], nsec, loc).UTC(), true
}

// digits parses exactly n decimal digits at the start of b.
func digits(b []byte, n int) (int, bool) {
	if len(b) < n {
		return 0, false
	}
	v := 0
	for _, c := range b[:n] {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// parseZone parses the zone after a time: "Z", "+hh:mm", "-hhmm". None is
// taken as UTC (lenient: WARC asks for one after a time, but reduced
// precision dates like "2019-08-15T01:02" are found without).
func parseZone(b []byte) (*time.Location, bool) {
	switch {
	case len(b) == 0:
		return time.UTC, true
	case len(b) == 1 && (b[0] == 'Z' || b[0] == 'z'):
		return time.UTC, true
	case len(b) != 5 && len(b) != 6 || b[0] != '+' && b[0] != '-':
		return nil, false
	}
	hh, ok1 := digits(b[1:], 2)
	rest := b[3:]
	if rest[0] == ':' {
		rest = rest[1:]
	}
	mm, ok2 := digits(rest, 2)
	if !ok1 || !ok2 || len(rest) != 2 || hh > 23 || mm > 59 {
		return nil, false
	}
	off := hh*3600 + mm*60
	if b[0] == '-' {
		off = -off
	}
	return time.FixedZone("", off), true
}
