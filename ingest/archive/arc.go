package archive

import (
	"bytes"
	"io"
	"path/filepath"
	"time"
)

// ARCReader reads the captures of an ARC file (the Internet Archive's format
// before WARC, versions 1 and 2), plain or gzip-compressed per record.
type ARCReader struct {
	core
	version byte // '1' or '2', from the filedesc record
	base    string
}

// NewARCReader returns a reader of the ARC stream r, whose compression is
// found from its first bytes. name is recorded as Provenance.File. ARC
// files are read in ModeGeneral unless WithMode(ModeRobotstxt) is given.
func NewARCReader(r io.Reader, name string, opts ...Option) (*ARCReader, error) {
	a := &ARCReader{version: '1', base: filepath.Base(name)}
	if err := a.init(r, name, opts); err != nil {
		return nil, err
	}
	a.decided = true
	return a, nil
}

// arcFields splits an ARC header line into fields.
func arcFields(line []byte, out [][]byte) [][]byte {
	out = out[:0]
	line = bytes.TrimRight(line, "\r\n")
	for len(line) > 0 {
		i := bytes.IndexByte(line, ' ')
		if i < 0 {
			return append(out, line)
		}
		if i > 0 {
			out = append(out, line[:i])
		}
		line = line[i+1:]
	}
	return out
}

// isARCStart reports whether line looks like an ARC record header: at least
// five fields, the first a URL ("scheme:" then more), the IP address field
// made of hex digits, dots and colons. The length field is checked later,
// so that a header with a bad length counts as a corrupt record.
func isARCStart(line []byte) bool {
	if len(line) == 0 || line[len(line)-1] != '\n' || len(line) > maxProbeLine-1 {
		return false
	}
	var buf [16][]byte
	f := arcFields(line, buf[:0])
	if len(f) < 5 {
		return false
	}
	u := f[0]
	i := bytes.IndexByte(u, ':')
	if i <= 0 || i == len(u)-1 || !isLetter(u[0]) {
		return false
	}
	return isIPField(f[len(f)-4]) || len(f) >= 10 && isIPField(f[len(f)-9])
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isIPField(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f' || c == '.' || c == ':' || c == '-') {
			return false
		}
	}
	return true
}

// Next returns the next capture, or io.EOF at the end of the input. See
// [CaptureReader].
func (a *ARCReader) Next() (*Capture, error) {
	if a.err != nil {
		return nil, a.err
	}
	for {
		c, err := a.record()
		if err != nil {
			return nil, a.fail(err)
		}
		if c != nil {
			return c, nil
		}
	}
}

// arcHeader is the parsed header line of an ARC record.
type arcHeader struct {
	url, date, mime []byte
	length          int64
}

// parseARCHeader reads the header line fields from the right, so that a
// URL with spaces stays whole: version 1 "URL IP DATE MIME LENGTH",
// version 2 "URL IP DATE MIME STATUS CHECKSUM LOCATION OFFSET FILENAME
// LENGTH".
func (a *ARCReader) parseARCHeader(line []byte) (arcHeader, bool) {
	var buf [16][]byte
	f := arcFields(line, buf[:0])
	n := len(f)
	tail := 4 // fields after the URL
	if a.version == '2' && n >= 10 && !bytes.HasPrefix(f[0], []byte("filedesc:")) {
		tail = 9
	}
	var h arcHeader
	length, ok := parseLength(f[n-1])
	if !ok {
		return h, false
	}
	h.length = length
	h.date, h.mime = f[n-tail+1], f[n-tail+2]
	// The fields are sub-slices of line: their offsets follow from cap.
	end := cap(line) - cap(f[n-tail])
	h.url = bytes.TrimSpace(line[:end])
	return h, true
}

// record reads one ARC record.
func (a *ARCReader) record() (*Capture, error) {
	f := a.f
	clean, err := a.recordStart(isARCStart)
	if err != nil {
		return nil, err
	}
	start := f.pos()
	f.prune(start)
	a.counts.Records++
	line := f.peekLine()
	h, ok := a.parseARCHeader(line)
	if !ok {
		a.corrupt(start, "ARC header line with an invalid length")
		return nil, nil
	}
	f.skip(len(line))
	if hasPrefixFold(h.url, "filedesc:") {
		a.filedesc(h.length)
		return nil, nil
	}
	uri, _ := cleanURI(h.url)
	if ok, reason := a.wanted(uri); !ok {
		a.counts.skip(reason)
		a.skipBlock(h.length, isARCStart)
		return nil, nil
	}
	c := a.resetCapture()
	c.URL = string(uri)
	c.Host = hostOf(c.URL)
	if c.FetchTime, ok = parseARCDate(h.date); !ok {
		c.AddProblem(ProblemDateInvalid, "ARC date "+string(h.date))
	}
	a.givenTruncated, a.givenDigest, a.headerProblems = "", "", len(c.Problems)
	a.captureBlock(h.length, isARCStart, a.readHTTP)
	a.finish(c, start, f.pos(), clean)
	c.RecordID = "arc:" + a.base + "@" + itoa(c.Source.Offset)
	return c, nil
}

// filedesc reads the ARC file header record: its block starts with the
// version ("1 0 ..." or "2 0 ...").
func (a *ARCReader) filedesc(n int64) {
	a.counts.skip(SkipFiledesc)
	a.f.ensure(int(min(n, 2)))
	if b := a.f.buffered(); n >= 2 && len(b) >= 2 && (b[0] == '1' || b[0] == '2') && b[1] == ' ' {
		a.version = b[0]
	}
	a.skipBlock(n, isARCStart)
}

// parseARCDate parses the 14-digit ARC date "YYYYMMDDhhmmss" (UTC); longer
// digit strings are read by their first 14 digits.
func parseARCDate(b []byte) (time.Time, bool) {
	if len(b) < 14 {
		return time.Time{}, false
	}
	var v [6]int
	widths := [6]int{4, 2, 2, 2, 2, 2}
	i := 0
	for k, w := range widths {
		n, ok := digits(b[i:], w)
		if !ok {
			return time.Time{}, false
		}
		v[k] = n
		i += w
	}
	if _, ok := digits(b[14:], len(b)-14); !ok || v[1] < 1 || v[1] > 12 || v[2] < 1 || v[2] > 31 || v[3] > 23 || v[4] > 59 || v[5] > 60 {
		return time.Time{}, false
	}
	return time.Date(v[0], time.Month(v[1]), v[2], v[3], v[4], v[5], 0, time.UTC), true
}
