package robots

import (
	"unicode"
	"unicode/utf8"
)

// lineClass is what Google's parse learnt of one line that the other
// readings can reuse instead of cutting, stripping and keying the line
// again: its kind and, for an allow, disallow or user-agent line, where its
// value starts and ends in the line. A File records the classes of its
// lines only when its text is classifiable (classifiableText), where every
// reading would find the same key and value as Google: there the white
// space the readings trim (C's isspace, Python's str.strip, Java's trim,
// RFC 9309's SP and HTAB) is only space and tab, no line break but CR and
// LF exists, and no byte is replaced (the text is UTF-8).
//
// The kind is the low classKindBits bits; the value's start and end
// offsets in the line are the next classOffsetBits bits each, so a class
// fits in 32 bits beside its line's offsets (lineRef): a line of
// maxClassedLine bytes or more is lineSlow.
type lineClass uint32

const (
	classKindBits   = 4
	classOffsetBits = 14
	// maxClassedLine is the length from which a line is lineSlow: its
	// value's offsets would not fit in classOffsetBits. Google cuts lines
	// at MaxLineBytes anyway, which such lines pass or nearly.
	maxClassedLine = 1 << classOffsetBits
)

const (
	// lineSlow: the readings read the line themselves (a missing colon,
	// a misspelt or unknown key, a line Google cut, ...).
	lineSlow lineClass = iota
	// lineNone: empty, white space or a comment: no record for any reading.
	lineNone
	// lineOther: a sitemap line, spelt in full with its colon: a record
	// no reading acts on.
	lineOther
	lineUserAgent
	lineAllow
	lineDisallow
)

// classOf is the class of a line Google classified as l.
func classOf(l *Line) lineClass {
	switch l.Kind {
	case LineEmpty, LineComment:
		return lineNone
	case LineDirective:
	default:
		return lineSlow
	}
	if l.MissingColon || l.Typo || l.Prefix || l.TooLong || len(l.Text) >= maxClassedLine || len(l.KeyText) != len(l.Key.String()) {
		return lineSlow
	}
	var kind lineClass
	switch l.Key {
	case KeySitemap:
		return lineOther
	case KeyUserAgent:
		kind = lineUserAgent
	case KeyAllow:
		kind = lineAllow
	case KeyDisallow:
		kind = lineDisallow
	default:
		return lineSlow
	}
	start := l.valueAt
	end := start + len(l.Value)
	return kind | lineClass(start)<<classKindBits | lineClass(end)<<(classKindBits+classOffsetBits)
}

// kind is the class without its offsets.
func (c lineClass) kind() lineClass { return c & (1<<classKindBits - 1) }

// value is the value of the line text, trimmed, as Google found it.
func (c lineClass) value(text string) string {
	return text[c>>classKindBits&(1<<classOffsetBits-1) : c>>(classKindBits+classOffsetBits)]
}

// classifiesLines reports whether the parse records the classes of its
// file's lines: when it keeps the lines and their text is classifiable
// (classifiableText). It notes that in File.classified, and whether that
// text has bytes outside ASCII in File.classesNonASCII.
func (p *parser) classifiesLines() bool {
	if !p.keepLines {
		return false
	}
	text, plain := p.f.text[p.f.bom:], 0
	if p.f.bom == 0 {
		plain = p.plain // the text's plain prefix, which sniff found
	}
	ok, ascii := classifiableText(text, plain)
	p.f.classified, p.f.classesNonASCII = ok, ok && !ascii
	return ok
}

// classifiableText reports whether the lines of text s may have classes:
// s is plain (plainText), or it is UTF-8 whose bytes outside ASCII are
// runes no reading takes for white space or a line break
// (classifiableRune), its ASCII bytes plain. ascii reports that s is
// plain: the shortcuts that compare a file's bytes with what each reading
// accepts (ReadsAsGoogle, PythonReadsAsGoogle) take only such texts. The
// first plain bytes of s are known plain, not read again.
func classifiableText(s string, plain int) (ok, ascii bool) {
	ascii = true
	s = s[plain:]
	for {
		s = s[plainPrefix(s):]
		if s == "" {
			return true, ascii
		}
		if s[0] < utf8.RuneSelf {
			return false, false // a control character
		}
		r, size := utf8.DecodeRuneInString(s)
		if r == utf8.RuneError && size == 1 || !classifiableRune(r) {
			return false, false
		}
		ascii = false
		s = s[size:]
	}
}

// classifiableRune reports whether a rune outside ASCII reads as an
// ordinary character for every reading: not white space for Python's
// str.strip (U+0085, U+00A0, U+1680, U+2000 to U+200A, U+2028, U+2029,
// U+202F, U+205F, U+3000: Go's unicode.IsSpace outside ASCII, which
// TestClassifiableRuneAgainstPython compares with python3), not a line
// break for Python's str.splitlines or crawler-commons (U+0085, U+2028,
// U+2029, all white space too), and not U+FEFF, which some parsers take
// for a byte order mark.
func classifiableRune(r rune) bool { return !unicode.IsSpace(r) && r != '\uFEFF' }

// plainText reports whether every byte of s is printable ASCII, a tab, a
// CR or an LF.
func plainText(s string) bool { return plainPrefix(s) == len(s) }

// plainPrefix returns the length of the longest prefix of s that is plain
// (plainText), 32 bytes at a time. A block of four words passes at once
// when no byte has its high bit and none is a control character but LF
// (controlsButLF, exact for words without a high bit; where one has it the
// block fails anyway): the usual 32 bytes of a robots.txt written with LF
// line endings, checked with fewer operations a word than plainWord. A
// block that fails is checked word by word (plainWords). The test is
// written out in the loop: as a function it costs more than the compiler
// inlines.
func plainPrefix(s string) int {
	i := 0
	for ; i+32 <= len(s); i += 32 {
		b := s[i : i+32]
		w0, w1, w2, w3 := load64(b[0:8]), load64(b[8:16]), load64(b[16:24]), load64(b[24:32])
		if (w0|w1|w2|w3|controlsButLF(w0)|controlsButLF(w1)|controlsButLF(w2)|controlsButLF(w3))&highBits != 0 && !plainWords(b) {
			break
		}
	}
	for ; i+8 <= len(s) && plainWord(load64(s[i:])); i += 8 {
	}
	for ; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || c < 0x20 && c != '\t' && c != '\r' && c != '\n' {
			break
		}
	}
	return i
}

// plainWord reports whether the eight bytes of w are plain (plainText),
// without a branch a byte: no byte has its high bit, and every byte under
// 0x20 is a tab, an LF or a CR. Each mask is exact byte by byte, as no sum
// below carries out of its byte.
func plainWord(w uint64) bool {
	if w&highBits != 0 {
		return false
	}
	control := ^(w + 0x6060606060606060) & highBits // bytes under 0x20
	if control == 0 {
		return true
	}
	const ones = 0x0101010101010101
	return control&^(zeroBytes(w^'\t'*ones)|zeroBytes(w^'\n'*ones)|zeroBytes(w^'\r'*ones)) == 0
}

// plainWords reports whether the 32 bytes of b are plain, a word at a time.
func plainWords(b string) bool {
	return plainWord(load64(b)) && plainWord(load64(b[8:])) && plainWord(load64(b[16:])) && plainWord(load64(b[24:]))
}

// controlsButLF has the high bit of each byte of w under 0x20 other than
// LF set, the others clear (its other bits are noise: mask them with
// highBits); no byte of w has its high bit. XOR with LF maps
// LF to 0 and keeps the other bytes under 0x20 under it, and the bytes from
// 0x20 up at or over it: the bytes wanted are those from 1 to 0x1F after
// it, found without a carry between bytes.
func controlsButLF(w uint64) uint64 {
	y := w ^ '\n'*lowBits
	return (y + 0x7F*lowBits) &^ (y + 0x60*lowBits)
}

// zeroBytes has the high bit of each zero byte of x set, the others clear;
// every byte of x is under 0x80.
func zeroBytes(x uint64) uint64 { return ^((x + 0x7F7F7F7F7F7F7F7F) | x) & highBits }

// asciiClassified reports whether f's lines have classes and its text is
// plain ASCII (plainText): what the shortcuts that compare a file's bytes
// with what each reading accepts read.
func (f *File) asciiClassified() bool { return f.classified && !f.classesNonASCII }
