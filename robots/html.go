package robots

import "strings"

// Content sniffing: is the body text, binary or an HTML page?

// How much of the body the checks look at: the first binaryWindow bytes
// tell text from binary, the first htmlWindow bytes hold an HTML page's
// telltale tags.
const (
	binaryWindow = 1024
	htmlWindow   = 4096
)

// A binaryFormat is a kind of binary file that servers send for robots.txt,
// known by its first bytes.
type binaryFormat struct {
	key        string // the stable name, the Arg of a BinaryContent finding
	magic      string // the first bytes; '?' stands for any byte
	name       string // what messages call it
	compressed bool   // compressed data: a body sent compressed unasked
}

// binaryFormats are the formats sniffBinary knows, by magic number.
var binaryFormats = [...]binaryFormat{
	{"gzip", "\x1f\x8b", "gzip-compressed data", true},
	{"zstd", "\x28\xb5\x2f\xfd", "zstd-compressed data", true},
	{"xz", "\xfd7zXZ\x00", "xz-compressed data", true},
	{"bzip2", "BZh?1AY&SY", "bzip2-compressed data", true},
	{"zlib", "\x78\x9c", "zlib-compressed data (deflate)", true},
	{"zlib", "\x78\xda", "zlib-compressed data (deflate)", true},
	{"zlib", "\x78\x01", "zlib-compressed data (deflate)", true},
	{"png", "\x89PNG\r\n\x1a\n", "a PNG image", false},
	{"gif", "GIF8?a", "a GIF image", false},
	{"jpeg", "\xff\xd8\xff", "a JPEG image", false},
	{"webp", "RIFF????WEBP", "a WebP image", false},
	{"ico", "\x00\x00\x01\x00", "an icon (ICO) image", false},
	{"pdf", "%PDF-", "a PDF document", false},
	{"zip", "PK\x03\x04", "a ZIP archive", false},
}

// lookupBinaryFormat returns the format with the given key, or nil.
func lookupBinaryFormat(key string) *binaryFormat {
	for i := range binaryFormats {
		if binaryFormats[i].key == key {
			return &binaryFormats[i]
		}
	}
	return nil
}

// hasMagic reports whether s starts with magic, '?' matching any byte.
func hasMagic(s, magic string) bool {
	if len(s) < len(magic) {
		return false
	}
	for i := 0; i < len(magic); i++ {
		if magic[i] != '?' && magic[i] != s[i] {
			return false
		}
	}
	return true
}

// Thresholds of sniffBinary: a body is binary when more than one byte in
// ten of its first binaryWindow bytes is not text, or more than one in
// strayShare when there are at least minStrayControls of them. Text has
// next to none; random bytes, such as compressed data without a known
// header, have about one control character in nine.
const (
	strayShare       = 32
	minStrayControls = 8
)

// sniffBinary reports whether a body is not text, and the key of its
// format when its magic number is known. A body is binary when it starts
// with a known magic number, or when its first binaryWindow bytes hold too
// many bytes that are not text (see strayShare): control characters other
// than tab, LF, VT, FF and CR, and U+FFFD replacement characters (binary
// data once decoded as UTF-8, each counting once). A run of NUL bytes
// counts once, and NUL padding at the end of the body not at all: a text
// file with stray NULs is text. The first plain bytes of s (plainText)
// hold no such byte but DEL: they are only searched for DEL.
func sniffBinary(s string, plain int) (format string, binary bool) {
	for i := range binaryFormats {
		if hasMagic(s, binaryFormats[i].magic) {
			return binaryFormats[i].key, true
		}
	}
	t := strings.TrimRight(s, "\x00")
	if t == "" {
		return "", s != "" // nothing but NUL bytes
	}
	w := t[:min(len(t), binaryWindow)]
	p := min(plain, len(w))
	odd := strings.Count(w[:p], "\x7f") + controlBytes(w[p:]) + strings.Count(w[p:], "\uFFFD")
	return "", odd*10 > len(w) || odd >= minStrayControls && odd*strayShare > len(w)
}

// controlBytes counts the control characters of w other than tab, LF, VT,
// FF and CR, a run of NUL bytes counting once.
func controlBytes(w string) int {
	ctl, i := 0, 0
	for ; i+8 <= len(w); i += 8 {
		if hasControl(load64(w[i:])) {
			ctl += countControl(w[i : i+8])
		}
	}
	return ctl + countControl(w[i:]) - repeatedNULs(w)
}

// repeatedNULs counts the NUL bytes of w that follow another NUL.
func repeatedNULs(w string) int {
	i := strings.IndexByte(w, 0)
	if i < 0 {
		return 0
	}
	n := 0
	for j := i + 1; j < len(w); j++ {
		if w[j] == 0 && w[j-1] == 0 {
			n++
		}
	}
	return n
}

// countControl counts the control characters of s other than tab, LF, VT,
// FF and CR.
func countControl(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && (c < '\t' || c > '\r') || c == 0x7f {
			n++
		}
	}
	return n
}

const (
	highBits = 0x8080808080808080
	lowBits  = 0x0101010101010101
)

// load64 returns the first eight bytes of s as a little-endian word (the
// compiler turns this into one load).
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// hasControl reports whether the word holds a control character
// other than tab, LF, VT, FF and CR: a byte below 0x09, one from 0x0E to
// 0x1F, or 0x7F. Each test is exact for the word as a whole (a borrow only
// starts at a byte that passes it), so line endings cost no byte-by-byte
// count.
func hasControl(x uint64) bool {
	const low7 = 0x7f * lowBits
	below9 := (x - 0x09*lowBits) &^ x & highBits
	// A byte b < 0x80 with 0x0D < b < 0x20: (b&0x7f)+(0x7f-0x0D) carries
	// into the high bit, (0x7f+0x20)-(b&0x7f) keeps it.
	y := x & low7
	between := ((0x7f+0x20)*lowBits - y) &^ x & (y + (0x7f-0x0D)*lowBits) & highBits
	del := x ^ low7
	return below9|between|((del-lowBits)&^del&highBits) != 0
}

// markupKind tells whether a body is a markup document rather than a
// robots.txt: "html" for an HTML page, "xml" for another XML document (a
// sitemap, an error document); "" otherwise. A body is markup when, after a
// byte order mark and whitespace, it starts with a tag ('<' then a letter,
// '!', '?' or '/'), or when it was served as text/html and holds an HTML tag
// within its first htmlWindow bytes. A robots.txt never starts with '<'.
func markupKind(s, contentType string) string {
	w := s[skipBOM(s):]
	w = trimSpace(w[:min(len(w), htmlWindow)])
	if w == "" {
		return ""
	}
	startsWithTag := len(w) > 1 && w[0] == '<' && (isLetter(w[1]) || w[1] == '!' || w[1] == '?' || w[1] == '/')
	servedAsHTML := strings.HasPrefix(strings.ToLower(strings.TrimSpace(contentType)), "text/html")
	switch {
	case (startsWithTag || servedAsHTML) && hasHTMLTag(w):
		return "html"
	case startsWithTag:
		return "xml"
	}
	return ""
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// htmlTags are the tag names that mark HTML, lower case.
var htmlTags = [...]string{
	"!doctype", "html", "head", "body", "title", "meta", "script", "style",
	"link", "div", "span", "p", "a", "br", "hr", "img", "table", "tr", "td",
	"form", "iframe", "center", "noscript", "pre", "ul", "li", "h1", "h2",
	"h3", "font", "b", "i", "input", "svg",
}

// hasHTMLTag reports whether s holds an HTML tag: '<', an optional '/', a
// known tag name (any case), then whitespace, '>' or '/'; or an HTML comment
// "<!--".
func hasHTMLTag(s string) bool {
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			return false
		}
		s = s[i+1:]
		if strings.HasPrefix(s, "!--") {
			return true
		}
		t := strings.TrimPrefix(s, "/")
		for _, name := range htmlTags {
			if hasPrefixFold(t, name) && len(t) > len(name) && endsTagName(t[len(name)]) {
				return true
			}
		}
	}
}

func endsTagName(c byte) bool {
	return c == '>' || c == '/' || isSpace(c)
}
