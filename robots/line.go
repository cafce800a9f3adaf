package robots

import "strings"

// Limits of the parser. Each is what Google's crawler and parser do.
const (
	// MaxBytes is how much of a file is obeyed: 500 KiB, the RFC 9309
	// §2.5 minimum and Google's limit. Bytes beyond it are ignored and the
	// file is flagged [Oversize].
	MaxBytes = 500 * 1024
	// MaxLineBytes is how much of a line Google's parser keeps (2083*8-1);
	// the rest of the line is dropped and it is flagged [LineTooLong].
	MaxLineBytes = 2083*8 - 1
)

// LineKind tells what Google's parser makes of a line.
type LineKind uint8

const (
	// LineEmpty is a line with nothing but whitespace.
	LineEmpty LineKind = iota
	// LineComment is a line with only a comment (and whitespace).
	LineComment
	// LineDirective is a key and a value; see [Line.Key].
	LineDirective
	// LineInvalid is a line Google's parser cannot use and ignores.
	LineInvalid
)

// String names the kind: "empty", "comment", "directive" or "invalid".
func (k LineKind) String() string {
	return [...]string{"empty", "comment", "directive", "invalid"}[k]
}

// Key is the directive of a line, as Google's parser recognises it.
type Key uint8

const (
	// KeyUnknown is any key Google's parser does not act on.
	KeyUnknown Key = iota
	// KeyUserAgent starts or extends a group.
	KeyUserAgent
	// KeyAllow is an allow rule.
	KeyAllow
	// KeyDisallow is a disallow rule.
	KeyDisallow
	// KeySitemap declares a sitemap; it belongs to no group.
	KeySitemap
)

// String returns the canonical name of the key ("user-agent", ...) or
// "unknown".
func (k Key) String() string {
	return [...]string{"unknown", "user-agent", "allow", "disallow", "sitemap"}[k]
}

// Line is one line of a robots.txt file as Google's parser sees it. Its
// strings are substrings of the parsed file.
type Line struct {
	Number int      // 1-based; CR, LF and CRLF each end a line
	Text   string   // the line as written, without its end of line
	Kind   LineKind // what the parser makes of it
	// For directives: the key and the value as written (trimmed, comment
	// removed, cut at MaxLineBytes and at a NUL byte as Google does).
	Key     Key
	KeyText string
	Value   string
	// Properties, in the spirit of Google's per-line metadata.
	Comment      bool // the line holds a '#' comment
	MissingColon bool // key and value are separated by whitespace only
	Typo         bool // the key is one of the misspellings Google accepts
	Prefix       bool // the key only starts with the directive name ("disallowed")
	TooLong      bool // over MaxLineBytes: Google cut it
	colon        int  // index of ':' in Text, or -1
	// keyAt and valueAt are where KeyText and Value start in Text, so that
	// a finding about either keeps its offsets without searching the line.
	keyAt, valueAt int
}

// keySpan is the span of the line's key (KeyText) in Text.
func (l *Line) keySpan() span { return partSpan(l.keyAt, len(l.KeyText)) }

// valueSpan is the span of the line's value in Text.
func (l *Line) valueSpan() span { return partSpan(l.valueAt, len(l.Value)) }

// partSpan is the span of the n bytes of a line at start; the zero span
// (the empty string) when n is 0.
func partSpan(start, n int) span {
	if n == 0 {
		return span{}
	}
	return span{start: int32(start), end: int32(start + n)}
}

// isSpace reports C's isspace for ASCII, which is what Google's parser
// strips around keys and values.
func isSpace(c byte) bool { return spaceTable[c] }

// spaceTable is isSpace by byte: one load instead of three comparisons, in
// loops that run on every line.
var spaceTable = [256]bool{' ': true, '\t': true, '\n': true, '\v': true, '\f': true, '\r': true}

func trimSpace(s string) string {
	i, j := trimBounds(s)
	return s[i:j]
}

// trimBounds returns the bounds of s without its leading and trailing
// whitespace: trimSpace(s) is s[i:j].
func trimBounds(s string) (i, j int) {
	i, j = 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return i, j
}

// indexBlank returns the index of the first space or tab in s, or -1.
func indexBlank(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' || s[i] == '\t' {
			return i
		}
	}
	return -1
}

// classify turns one line into a Line the way Google's parser does: cut at
// MaxLineBytes and at the first NUL (its lines are C strings), drop the
// comment, trim, split at the first ':' or, failing that, at whitespace when
// the line has exactly two words. hasNUL is a hint that the file holds a NUL.
func classify(num int, text string, hasNUL bool) Line {
	return classifyLine(num, text, hasNUL, strings.IndexByte(text, '#'))
}

// classifyLine is classify given hash, the index of the first '#' of text
// or -1. It returns the Line rather than filling one through a pointer: a
// Line holds strings, and writing them through a pointer costs a write
// barrier each while the collector runs, where a result is the caller's
// stack.
func classifyLine(num int, text string, hasNUL bool, hash int) (l Line) {
	l = Line{Number: num, Text: text, colon: -1}
	t := text
	if len(t) > MaxLineBytes {
		t = t[:MaxLineBytes]
		l.TooLong = true
	}
	if hasNUL {
		if i := strings.IndexByte(t, 0); i >= 0 {
			t = t[:i]
		}
	}
	if hash >= 0 && hash < len(t) {
		t = t[:hash]
		l.Comment = true
	}
	start, end := trimBounds(t)
	t = t[start:end]
	if t == "" {
		if l.Comment {
			l.Kind = LineComment
		}
		return l
	}
	var key string
	valueAt := start // where the value, untrimmed, starts in text
	if c := strings.IndexByte(t, ':'); c >= 0 {
		key, valueAt = t[:c], start+c+1
		l.colon = start + c
	} else {
		// Google-specific: a missing colon is accepted when whitespace
		// separates exactly two words.
		b := indexBlank(t)
		if b < 0 {
			l.Kind = LineInvalid
			return l
		}
		rest := t[b:]
		for len(rest) > 0 && (rest[0] == ' ' || rest[0] == '\t') {
			rest = rest[1:]
		}
		if indexBlank(rest) >= 0 {
			l.Kind = LineInvalid
			return l
		}
		key, valueAt = t[:b], start+b+1
		l.MissingColon = true
	}
	for key != "" && isSpace(key[len(key)-1]) { // t starts with no space: only the key's end can
		key = key[:len(key)-1]
	}
	if key == "" {
		l.Kind = LineInvalid
		return l
	}
	l.Kind = LineDirective
	l.KeyText, l.keyAt = key, start
	// t ends with no space: so does the value, unless it is all space.
	end = start + len(t)
	for valueAt < end && isSpace(text[valueAt]) {
		valueAt++
	}
	l.Value, l.valueAt = text[valueAt:end], valueAt
	l.Key, l.Typo, l.Prefix = parseKey(key)
	return l
}

// A keyForm is one spelling of a key that Google's parser accepts by prefix.
type keyForm struct {
	text string // lower case
	key  Key
	typo bool
}

// keyForms in the order Google's parser tries them: user-agent, allow,
// disallow, sitemap, each with the misspellings it accepts.
var keyForms = [...]keyForm{
	{"user-agent", KeyUserAgent, false},
	{"useragent", KeyUserAgent, true},
	{"user agent", KeyUserAgent, true},
	{"allow", KeyAllow, false},
	{"disallow", KeyDisallow, false},
	{"dissallow", KeyDisallow, true},
	{"dissalow", KeyDisallow, true},
	{"disalow", KeyDisallow, true},
	{"diasllow", KeyDisallow, true},
	{"disallaw", KeyDisallow, true},
	{"sitemap", KeySitemap, false},
	{"site-map", KeySitemap, true},
}

// parseKey recognises a key by case-insensitive prefix, as Google's parser
// does ("disallowed" is a disallow). prefix reports that the key is longer
// than the spelling it matched.
func parseKey(k string) (key Key, typo, prefix bool) {
	if key, n := canonicalKey(k); n > 0 {
		return key, false, len(k) > n
	}
	for _, f := range keyFormsFrom[k[0]|0x20] {
		if hasPrefixFold(k, f.text) {
			return f.key, f.typo, len(k) > len(f.text)
		}
	}
	return KeyUnknown, false, false
}

// canonicalKey recognises the four keys spelt in full, the first form of
// each first letter in keyForms, so that the keys of nearly every line
// cost a comparison of a word or two instead of a loop a byte: it returns
// the key that k starts with, ignoring case, and the length of its
// spelling, or n = 0 for a key to look up in keyForms. Each comparison
// sets bit 5 (0x20) of the bytes at the places of a letter only, which
// makes an upper case letter lower case and nothing else its lower case.
func canonicalKey(k string) (key Key, n int) {
	const (
		disallow     = 0x776f6c6c61736964 // "disallow" as load64 reads it
		userAge      = 0x6567612d72657375 // "user-age"
		userAgeCase  = 0x2020200020202020 // its letters
		allo         = 0x6f6c6c61         // "allo"
		site         = 0x65746973         // "site"
		fourLetters  = 0x20202020
		eightLetters = 0x2020202020202020
	)
	switch {
	case len(k) >= 8:
		w := load64(k)
		switch {
		case w|eightLetters == disallow:
			return KeyDisallow, 8
		case w|userAgeCase == userAge && len(k) >= 10 && k[8]|0x20 == 'n' && k[9]|0x20 == 't':
			return KeyUserAgent, 10
		}
		fallthrough
	case len(k) >= 5:
		switch w := load32(k) | fourLetters; {
		case w == allo && k[4]|0x20 == 'w':
			return KeyAllow, 5
		case w == site && len(k) >= 7 && k[4]|0x20 == 'm' && k[5]|0x20 == 'a' && k[6]|0x20 == 'p':
			return KeySitemap, 7
		}
	}
	return KeyUnknown, 0
}

// load32 returns the first four bytes of s as a little-endian word.
func load32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// keyFormsFrom holds the keyForms by first letter, in order.
var keyFormsFrom = func() (t [256][]keyForm) {
	for _, f := range keyForms {
		t[f.text[0]] = append(t[f.text[0]], f)
	}
	return t
}()

// hasPrefixFold reports whether s starts with lower, ignoring ASCII case;
// lower must be lower case.
func hasPrefixFold(s, lower string) bool {
	if len(s) < len(lower) {
		return false
	}
	for i := 0; i < len(lower); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// lineSplitter cuts a body into lines at CR, LF and CRLF, like Google's
// parser, and counts the kinds of line ending it met.
type lineSplitter struct {
	s              string
	pos            int
	num            int
	nextLF, nextCR int // cached positions of the next LF and CR, len(s) if none
	nextHash       int // cached position of the next '#', len(s) if none
	start          int // where the last line returned starts
	hash           int // the index of the first '#' in the last line, or -1
	done           bool
	lf, crlf, cr   int
}

func newLineSplitter(s string) lineSplitter {
	return lineSplitter{s: s, nextLF: -1, nextCR: -1, nextHash: -1}
}

// next returns the next line and its number. Like Google's parser it always
// yields a last line, empty when the body ends with a line ending.
func (sp *lineSplitter) next() (text string, num int, ok bool) {
	if sp.done {
		return "", 0, false
	}
	s := sp.s
	sp.num++
	if sp.nextLF < sp.pos {
		sp.nextLF = indexFrom(s, '\n', sp.pos)
	}
	if sp.nextCR < sp.pos {
		sp.nextCR = indexFrom(s, '\r', sp.pos)
	}
	end := min(sp.nextLF, sp.nextCR)
	start := sp.pos
	switch {
	case end == len(s):
		sp.done = true
		sp.pos = end
	case s[end] == '\n':
		sp.lf++
		sp.pos = end + 1
	case end+1 < len(s) && s[end+1] == '\n':
		sp.crlf++
		sp.pos = end + 2
	default:
		sp.cr++
		sp.pos = end + 1
	}
	sp.start = start
	// The '#'s of the text are found one after the other, so a file with
	// few comments costs one scan, not one a line.
	if sp.nextHash < start {
		sp.nextHash = indexFrom(s, '#', start)
	}
	sp.hash = -1
	if sp.nextHash < end {
		sp.hash = sp.nextHash - start
	}
	return s[start:end], sp.num, true
}

// hashIn returns the index of the first '#' in the last line next
// returned, or -1.
func (sp *lineSplitter) hashIn() int { return sp.hash }

// indexFrom returns the index of c in s at or after from, or len(s).
func indexFrom(s string, c byte, from int) int {
	if i := strings.IndexByte(s[from:], c); i >= 0 {
		return from + i
	}
	return len(s)
}

// skipBOM returns how many leading bytes Google's parser skips: the longest
// prefix of s that is a prefix of the UTF-8 byte order mark EF BB BF.
func skipBOM(s string) int {
	const bom = "\xEF\xBB\xBF"
	n := 0
	for n < len(bom) && n < len(s) && s[n] == bom[n] {
		n++
	}
	return n
}
