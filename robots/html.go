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

// looksBinary reports a body that is not text: it holds a NUL byte, or more
// than one byte in ten of its first binaryWindow bytes is a control
// character other than tab, LF, VT, FF and CR.
func looksBinary(s string, hasNUL bool) bool {
	if hasNUL {
		return true
	}
	w := s[:min(len(s), binaryWindow)]
	ctl, i := 0, 0
	for ; i+8 <= len(w); i += 8 {
		if x := load64(w[i:]); hasControl(x) {
			ctl += countControl(w[i : i+8])
		}
	}
	ctl += countControl(w[i:])
	return ctl*10 > len(w)
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
