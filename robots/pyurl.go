package robots

import (
	"errors"
	"net/netip"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The functions of this file reproduce, for the python-legacy reading, the
// documented behaviour of the parts of Python's urllib.parse that
// urllib.robotparser applies to rule paths and URLs (Python 3.11 library
// reference, "urllib.parse — Parse URLs into components": urlparse,
// urlunparse, quote, unquote), checked against the module by the
// differential test (TestPythonLegacyAgainstModule).

// errPyURL is the ValueError urlparse raises for a network location with
// an unbalanced or invalid bracketed host ("Invalid IPv6 URL").
var errPyURL = errors.New("urlparse: invalid IPv6 URL")

// pyURL is the six parts of urlparse's result.
type pyURL struct {
	scheme, netloc, path, params, query, fragment string
}

// pySchemeByte reports a byte urlparse accepts in a scheme.
func pySchemeByte(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'
}

// pyUsesParams are the schemes whose last path segment urlparse splits at
// ';' into path and params (urllib.parse.uses_params); "" is a relative URL.
var pyUsesParams = []string{"", "ftp", "hdl", "prospero", "http", "imap", "https", "shttp", "rtsp", "rtspu", "sip", "sips", "mms", "sftp", "tel"}

// pyUsesNetloc are the schemes urlunparse writes with "//" even when the
// network location is empty (urllib.parse.uses_netloc).
var pyUsesNetloc = []string{"", "ftp", "http", "gopher", "nntp", "telnet", "imap", "wais", "file", "mms", "https", "shttp", "snews", "prospero", "rtsp", "rtspu", "rsync", "svn", "svn+ssh", "sftp", "nfs", "git", "git+ssh", "ws", "wss"}

// pyURLParse is urlparse(u): leading C0 controls and spaces dropped and
// tabs, CRs and LFs removed (the WHATWG rules the documentation describes),
// then scheme, "//" network location, '#' fragment, '?' query and ';'
// params of the last segment split off in that order.
func pyURLParse(u string) (pyURL, error) {
	var r pyURL
	u = strings.TrimLeft(u, "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f ")
	if strings.ContainsAny(u, "\t\r\n") {
		u = strings.NewReplacer("\t", "", "\r", "", "\n", "").Replace(u)
	}
	if i := strings.IndexByte(u, ':'); i > 0 && 'a' <= u[0]|0x20 && u[0]|0x20 <= 'z' && allBytes(u[:i], pySchemeByte) {
		r.scheme, u = strings.ToLower(u[:i]), u[i+1:]
	}
	if strings.HasPrefix(u, "//") {
		end := len(u)
		if j := strings.IndexAny(u[2:], "/?#"); j >= 0 {
			end = j + 2
		}
		r.netloc, u = u[2:end], u[end:]
		if err := pyCheckBrackets(r.netloc); err != nil {
			return r, err
		}
	}
	if i := strings.IndexByte(u, '#'); i >= 0 {
		u, r.fragment = u[:i], u[i+1:]
	}
	if i := strings.IndexByte(u, '?'); i >= 0 {
		u, r.query = u[:i], u[i+1:]
	}
	r.path = u
	if slices.Contains(pyUsesParams, r.scheme) && strings.IndexByte(u, ';') >= 0 {
		from := max(strings.LastIndexByte(u, '/'), 0)
		if i := strings.IndexByte(u[from:], ';'); i >= 0 {
			r.path, r.params = u[:from+i], u[from+i+1:]
		}
	}
	return r, nil
}

// pyCheckBrackets raises urlparse's "Invalid IPv6 URL": a '[' without a
// ']' or the reverse, or a bracketed host that is no IPv6 address (nor an
// IPvFuture "v..." literal).
func pyCheckBrackets(netloc string) error {
	open, close := strings.IndexByte(netloc, '['), strings.IndexByte(netloc, ']')
	switch {
	case open < 0 && close < 0:
		return nil
	case open < 0 || close < 0:
		return errPyURL
	}
	host := netloc
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		host = host[at+1:]
	}
	open, close = strings.IndexByte(host, '['), strings.IndexByte(host, ']')
	if open < 0 || close < open {
		return nil
	}
	lit := host[open+1 : close]
	if strings.HasPrefix(lit, "v") || strings.HasPrefix(lit, "V") {
		return nil
	}
	if a, err := netip.ParseAddr(lit); err != nil || !a.Is6() {
		return errPyURL
	}
	return nil
}

// pyURLUnparse is urlunparse: the parts joined back, each separator written
// only before a non-empty part ("/a?" comes back as "/a"), "//" before a
// network location or after a scheme of pyUsesNetloc.
func pyURLUnparse(r pyURL) string {
	u := r.path
	if r.params != "" {
		u += ";" + r.params
	}
	if r.netloc != "" || r.scheme != "" && slices.Contains(pyUsesNetloc, r.scheme) && !strings.HasPrefix(u, "//") {
		if u != "" && u[0] != '/' {
			u = "/" + u
		}
		u = "//" + r.netloc + u
	}
	if r.scheme != "" {
		u = r.scheme + ":" + u
	}
	if r.query != "" {
		u += "?" + r.query
	}
	if r.fragment != "" {
		u += "#" + r.fragment
	}
	return u
}

// pyQuote is quote(s): every byte of its UTF-8 form percent-encoded (upper
// case hex) except ASCII letters, digits, "_.-~" and '/'.
func pyQuote(s string) string {
	const hex = "0123456789ABCDEF"
	if allBytes(s, pyUnreserved) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); i++ {
		if c := s[i]; pyUnreserved(c) {
			b.WriteByte(c)
		} else {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xf])
		}
	}
	return b.String()
}

func pyUnreserved(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-' || c == '~' || c == '/'
}

// pyUnquote is unquote(s): each "%XX" (two hex digits) becomes its byte and
// the bytes are read as UTF-8, each invalid sequence one U+FFFD (errors
// "replace"); a '%' without two hex digits stays as it is.
func pyUnquote(s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
			continue
		}
		b = append(b, s[i])
	}
	return pyDecodeReplace(b)
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// pyDecodeReplace decodes b as UTF-8 as Python does with errors "replace":
// each maximal subpart of an invalid sequence (a lead byte and the
// continuation bytes that could still complete it) is one U+FFFD.
func pyDecodeReplace(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var out strings.Builder
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || size > 1 {
			out.Write(b[i : i+size])
			i += size
			continue
		}
		out.WriteRune(utf8.RuneError)
		i += invalidSubpart(b[i:])
	}
	return out.String()
}

// invalidSubpart returns the length of the maximal subpart of the invalid
// sequence at the start of b: its lead byte and the continuation bytes
// that could still have completed it (Unicode's "U+FFFD substitution of
// maximal subparts", which Python's decoder follows).
func invalidSubpart(b []byte) int {
	lo, hi, need := byte(0x80), byte(0xBF), 0
	switch c := b[0]; {
	case 0xC2 <= c && c <= 0xDF:
		need = 1
	case c == 0xE0:
		lo, need = 0xA0, 2
	case c == 0xED:
		hi, need = 0x9F, 2
	case 0xE1 <= c && c <= 0xEF:
		need = 2
	case c == 0xF0:
		lo, need = 0x90, 3
	case c == 0xF4:
		hi, need = 0x8F, 3
	case 0xF1 <= c && c <= 0xF3:
		need = 3
	}
	n := 1
	for n <= need && n < len(b) && lo <= b[n] && b[n] <= hi {
		n++
		lo, hi = 0x80, 0xBF
	}
	return n
}

// pyIsSpace reports Python's str.isspace for one rune: Unicode white space
// and the separators U+001C to U+001F.
func pyIsSpace(r rune) bool {
	return unicode.IsSpace(r) || 0x1C <= r && r <= 0x1F
}

// pyStrip is str.strip(): Python's white space cut from both ends.
func pyStrip(s string) string { return strings.TrimFunc(s, pyIsSpace) }

// pyLower is str.lower(): full Unicode lower-casing, where U+0130 (capital
// I with dot) becomes "i" and a combining dot, not "i" alone.
func pyLower(s string) string {
	if allBytes(s, func(c byte) bool { return c < utf8.RuneSelf }) {
		return strings.ToLower(s)
	}
	return strings.ToLower(strings.ReplaceAll(s, "\u0130", "i\u0307"))
}

// pyIsDigits reports Python's str.isdigit for s (not empty, every rune a
// digit: decimal, category Nd, or one of pyDigitOnly) and whether int()
// then accepts it: only when every rune is decimal.
func pyIsDigits(s string) (digits, decimal bool) {
	if s == "" {
		return false, false
	}
	decimal = true
	for _, r := range s {
		switch {
		case unicode.IsDigit(r):
		case unicode.Is(pyDigitOnly, r):
			decimal = false
		default:
			return false, false
		}
	}
	return true, decimal
}

// pyDigitOnly are the runes Python's isdigit accepts that are not decimal
// digits (superscripts, circled digits, ...), listed from Python 3.11's
// own answers: [c for c in all code points if chr(c).isdigit() and not
// chr(c).isdecimal()].
var pyDigitOnly = &unicode.RangeTable{
	R16: []unicode.Range16{
		{0xB2, 0xB3, 1}, {0xB9, 0xB9, 1}, {0x1369, 0x1371, 1}, {0x19DA, 0x19DA, 1},
		{0x2070, 0x2070, 1}, {0x2074, 0x2079, 1}, {0x2080, 0x2089, 1}, {0x2460, 0x2468, 1},
		{0x2474, 0x247C, 1}, {0x2488, 0x2490, 1}, {0x24EA, 0x24EA, 1}, {0x24F5, 0x24FD, 1},
		{0x24FF, 0x24FF, 1}, {0x2776, 0x277E, 1}, {0x2780, 0x2788, 1}, {0x278A, 0x2792, 1},
	},
	R32: []unicode.Range32{
		{0x10A40, 0x10A43, 1}, {0x10E60, 0x10E68, 1}, {0x11052, 0x1105A, 1}, {0x1F100, 0x1F10A, 1},
	},
	LatinOffset: 2,
}

// pySplitLines cuts s at the line boundaries of Python's str.splitlines
// that Google's parser does not use (it cuts at CR and LF only): VT, FF,
// U+001C to U+001E, U+0085, U+2028 and U+2029. It returns nil when s has
// none.
func pySplitLines(s string) []string {
	if !strings.ContainsAny(s, "\v\f\x1c\x1d\x1e\u0085\u2028\u2029") {
		return nil
	}
	var out []string
	start := 0
	for i, r := range s {
		switch r {
		case '\v', '\f', 0x1C, 0x1D, 0x1E, 0x85, 0x2028, 0x2029:
			out = append(out, s[start:i])
			start = i + utf8.RuneLen(r)
		}
	}
	return append(out, s[start:])
}

// allBytes reports whether every byte of s satisfies ok.
func allBytes(s string, ok func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}
