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
	var err error
	if r.scheme, r.netloc, u, err = pyURLCut(u); err != nil {
		return r, err
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

// pyURLCut is the first steps of urlparse(u) (and urlsplit): leading C0
// controls and spaces dropped and tabs, CRs and LFs removed (the WHATWG
// rules the documentation describes), then the scheme, lower-cased, and
// the "//" network location cut off; rest is what follows them, path,
// params, query and fragment as written. err is urlparse's ValueError for
// a bad bracketed host.
func pyURLCut(u string) (scheme, netloc, rest string, err error) {
	for len(u) > 0 && u[0] <= ' ' {
		u = u[1:]
	}
	if strings.IndexByte(u, '\t') >= 0 || strings.IndexByte(u, '\r') >= 0 || strings.IndexByte(u, '\n') >= 0 {
		u = strings.NewReplacer("\t", "", "\r", "", "\n", "").Replace(u)
	}
	if i := strings.IndexByte(u, ':'); i > 0 && 'a' <= u[0]|0x20 && u[0]|0x20 <= 'z' && allBytes(u[:i], pySchemeByte) {
		scheme, u = strings.ToLower(u[:i]), u[i+1:]
	}
	if strings.HasPrefix(u, "//") {
		end := len(u)
		if j := strings.IndexAny(u[2:], "/?#"); j >= 0 {
			end = j + 2
		}
		netloc, u = u[2:end], u[end:]
		if err := pyCheckBrackets(netloc); err != nil {
			return scheme, netloc, u, err
		}
	}
	return scheme, netloc, u, nil
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
	if pyQuoted(s) {
		return s
	}
	var b strings.Builder
	return pyQuoteInto(&b, s)
}

// pyQuoteInto appends quote(s) to b and returns it, or s itself when quote
// keeps it. It stays valid as b grows (a strings.Builder never changes the
// bytes it has written), so one builder holds the quoted paths of a file.
func pyQuoteInto(b *strings.Builder, s string) string {
	const hex = "0123456789ABCDEF"
	if pyQuoted(s) {
		return s
	}
	start := b.Len()
	if b.Cap()-start < len(s)+16 {
		b.Grow(max(len(s)+16, escapedBytes))
	}
	run := 0 // start of the bytes kept as they are, not yet written
	for i := 0; i < len(s); i++ {
		if c := s[i]; !pyUnreservedBytes[c] {
			b.WriteString(s[run:i])
			b.Write([]byte{'%', hex[c>>4], hex[c&0xf]})
			run = i + 1
		}
	}
	b.WriteString(s[run:])
	return b.String()[start:]
}

// pyUnreserved reports a byte quote keeps: an ASCII letter or digit, or
// one of "_.-~/".
func pyUnreserved(c byte) bool { return pyUnreservedBytes[c] }

var pyUnreservedBytes = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		b := byte(c)
		t[c] = 'a' <= b|0x20 && b|0x20 <= 'z' || '0' <= b && b <= '9' || b == '_' || b == '.' || b == '-' || b == '~' || b == '/'
	}
	return t
}()

// pyQuoted reports whether quote keeps s as it is.
func pyQuoted(s string) bool {
	for i := 0; i < len(s); i++ {
		if !pyUnreservedBytes[s[i]] {
			return false
		}
	}
	return true
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

// pyASCIISpace are the ASCII bytes Python's str.isspace accepts: TAB, LF,
// VT, FF, CR, U+001C to U+001F and the space.
var pyASCIISpace = func() (t [256]bool) {
	for c := 0; c < utf8.RuneSelf; c++ {
		t[c] = pyIsSpace(rune(c))
	}
	return t
}()

// pyStrip is str.strip(): Python's white space cut from both ends. ASCII
// ends are cut byte by byte; a non-ASCII end is decoded.
func pyStrip(s string) string {
	for len(s) > 0 && pyASCIISpace[s[0]] {
		s = s[1:]
	}
	for len(s) > 0 && pyASCIISpace[s[len(s)-1]] {
		s = s[:len(s)-1]
	}
	if len(s) == 0 || s[0] < utf8.RuneSelf && s[len(s)-1] < utf8.RuneSelf {
		return s
	}
	return strings.TrimFunc(s, pyIsSpace)
}

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
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if !pyBreakBytes[s[i]] {
			continue
		}
		if n := pyBreakLen(s[i:]); n > 0 {
			out = append(out, s[start:i])
			start = i + n
			i += n - 1
		}
	}
	if out == nil {
		return nil
	}
	return append(out, s[start:])
}

// pyBreakLen is the length of the line break of pySplitLines at the start
// of s, 0 when there is none.
func pyBreakLen(s string) int {
	switch {
	case s[0] < 0x80:
		return 1 // VT, FF, U+001C to U+001E
	case strings.HasPrefix(s, "\u0085"):
		return 2
	case strings.HasPrefix(s, "\u2028"), strings.HasPrefix(s, "\u2029"):
		return 3
	}
	return 0
}

// pyBreakBytes are the bytes that start a line break of pySplitLines:
// VT, FF, U+001C to U+001E, and the lead bytes of U+0085 (C2) and of
// U+2028 and U+2029 (E2).
var pyBreakBytes = func() (t [256]bool) {
	for _, c := range []byte{'\v', '\f', 0x1C, 0x1D, 0x1E, 0xC2, 0xE2} {
		t[c] = true
	}
	return t
}()

// hasPyBreak reports whether text holds a line break that only Python's
// splitlines makes (pySplitLines): false means no line of it needs
// pySplitLines. It looks for the breaks themselves, not for the bytes that
// may start one: the lead bytes C2 and E2 of U+0085, U+2028 and U+2029 are
// in every text with a '©' or a '’', where a byte-by-byte split of each
// line would find nothing.
func hasPyBreak(text string) bool {
	for _, c := range [...]byte{'\v', '\f', 0x1C, 0x1D, 0x1E} {
		if strings.IndexByte(text, c) >= 0 {
			return true
		}
	}
	return strings.Contains(text, "\u0085") || strings.Contains(text, "\u2028") || strings.Contains(text, "\u2029")
}

// asciiOnly reports whether s has no byte >= 0x80.
func asciiOnly(s string) bool { return !hasNonASCII(s) }

// allBytes reports whether every byte of s satisfies ok.
func allBytes(s string, ok func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

// The python reading compares rule paths and URLs as
// python/cpython#138502 ("gh-88375, gh-111788: Fix parsing errors and
// normalization in robotparser", CPython main, 2025-09-04, which
// gh-138907 builds on) made robotparser compare them; python-legacy keeps
// the chain before it (pyUnquote, pyURLParse, pyURLUnparse, pyQuote). The
// facts, from that change's description ("Don't fail trying to parse
// weird patterns", "No longer ignore trailing "?" in patterns and URLs",
// "Distinguish raw special characters "?", "=" and "&" from the
// percent-encoded ones") and its tests (testdata/python/percent-encoding.txt,
// cited by the URL they give):
//
//   - Escapes are decoded octet by octet and every octet quote does not
//     keep is encoded again in upper-case hex, whether or not the octets
//     are UTF-8: "%7E" is "~", "%2F" is "/", "%f0" is "%F0" ("/v1/%F0"
//     blocks "/v1/🐍", where python-legacy's unquote made it U+FFFD); a
//     '%' that starts no escape is "%25" ("/p1%xy" blocks "/p1%25xy").
//   - The first raw '?' starts the query and is kept, last or not
//     ("Disallow: /another/path?" does not block "/another/path"); an
//     escaped one is another character ("/question%3Fq=v" does not block
//     "/question?q=v"). python-legacy's urlunparse drops an empty query.
//   - In the query, raw '=' and '&' are kept and escaped ones are other
//     characters ("/query/eq?q%3Dv" does not block "/query/eq?q=v"); a
//     later raw '?' is "%3F" ("q=?" is "q=%3F").
//   - A rule's value is not parsed as a URL, so none makes urlparse raise
//     ("Disallow: //[spam]/path" blocks "/%2F[spam]/path",
//     LocalNetworkTestCase); a URL is, for its scheme and network location
//     alone (pyURLCut), the rest, fragment included, compared as written
//     ("/hash#f" is "/hash%23f").

// pyNormalise writes s as the python reading compares it (see above) to
// b and returns it, or returns s itself when that changes nothing. In a
// rule (wild true) a raw '*' is kept, a wildcard; in a URL it is "%2A",
// as an escaped one is everywhere ("Disallow: /asterisk%2A" blocks
// "/asterisk*" and not "/asterisk").
func pyNormalise(b *strings.Builder, s string, wild bool) string {
	if pyNormalised(s, wild) {
		return s
	}
	const hex = "0123456789ABCDEF"
	start := b.Len()
	b.Grow(len(s) + 16)
	query := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '?' && !query:
			query = true
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			c = unhex(s[i+1])<<4 | unhex(s[i+2])
			i += 2
			if !pyUnreservedBytes[c] {
				b.Write([]byte{'%', hex[c>>4], hex[c&0xf]})
				continue
			}
		case !pyKeptRaw(c, query, wild):
			b.Write([]byte{'%', hex[c>>4], hex[c&0xf]})
			continue
		}
		b.WriteByte(c)
	}
	return b.String()[start:]
}

// pyKeptRaw reports whether pyNormalise writes the raw byte c as it is:
// a byte quote keeps, a wildcard of a rule, or a separator of the query.
func pyKeptRaw(c byte, query, wild bool) bool {
	return pyUnreservedBytes[c] || wild && c == '*' || query && (c == '=' || c == '&')
}

// pyNormalised reports whether pyNormalise keeps s as it is: no '%' and
// every byte kept raw, the first '?' included.
func pyNormalised(s string, wild bool) bool {
	query := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '?' && !query:
			query = true
		case c == '%' || !pyKeptRaw(c, query, wild):
			return false
		}
	}
	return true
}
