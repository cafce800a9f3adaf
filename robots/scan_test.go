package robots

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// The parser's one-pass scans agree with the plain searches they replace:
// scanValue with compilePattern and strings.IndexByte on a rule's value,
// the splitter's cached '#' positions with a search of each line.
func TestScansAgreeWithSearches(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	const alphabet = "/*$%# \t\r\nab\x00\x80\xC3index.htm"
	for range 20000 {
		checkScans(t, randomText(rng, alphabet, 40))
	}
}

// randomText returns a text of under n bytes drawn from alphabet.
func randomText(rng *rand.Rand, alphabet string, n int) string {
	b := make([]byte, rng.IntN(n))
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(b)
}

// The rule path's jumps from '%' to '%' agree with a byte-by-byte
// reading: percentEscapes's lower with needsEscape (of a value with no
// byte from 0x80), its bad and badPercentEscape with the first '%' that
// two hex digits do not follow, over values crowded with '%', hex digits
// of both cases and bytes from 0x80 at the end.
func TestPercentScansAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	const alphabet = "%%%aAfF09g/"
	for range 20000 {
		s := randomText(rng, alphabet, 12)
		if got, _ := percentEscapes(s); got != needsEscape(s) {
			t.Fatalf("percentEscapes(%q) lower = %v, needsEscape %v", s, got, needsEscape(s))
		}
		if rng.IntN(4) == 0 {
			s += "\xc3\xa9"
		}
		if got, want := badPercentEscape(s), firstBadEscape(s); got != want {
			t.Fatalf("badPercentEscape(%q) = %q, want %q", s, got, want)
		}
		if _, got := percentEscapes(s); got != (firstBadEscape(s) != "") {
			t.Fatalf("percentEscapes(%q) bad = %v, first bad escape %q", s, got, firstBadEscape(s))
		}
	}
}

// hasLowerEscape reports, byte by byte, whether s has an escape ('%' and
// two hex digits) with a lower-case digit.
func hasLowerEscape(s string) bool {
	for i := 0; i+2 < len(s); i++ {
		if s[i] == '%' && isHex(s[i+1]) && isHex(s[i+2]) {
			if isLowerHex(s[i+1]) || isLowerHex(s[i+2]) {
				return true
			}
			i += 2
		}
	}
	return false
}

// firstBadEscape is badPercentEscape read byte by byte: the first '%' not
// followed by two hex digits, with up to two bytes after it that are
// neither '%' nor from 0x80.
func firstBadEscape(v string) string {
	for i := 0; i < len(v); i++ {
		switch {
		case v[i] != '%':
		case i+2 < len(v) && isHex(v[i+1]) && isHex(v[i+2]):
			i += 2
		default:
			end := i + 1
			for end < len(v) && end < i+3 && v[end] != '%' && v[end] < 0x80 {
				end++
			}
			return v[i:end]
		}
	}
	return ""
}

func FuzzScans(f *testing.F) {
	for _, s := range []string{"/a/*.php$", "# c\nUser-agent: *\nDisallow: /x # y\n", "/index.html", "/a%2f b\t\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkScans(t, s) })
}

func checkScans(t *testing.T, s string) {
	t.Helper()
	v := scanValue(s)
	want := valueScan{
		star: int32(strings.IndexByte(s, '*')), dollar: int32(strings.IndexByte(s, '$')), slash: int32(strings.LastIndexByte(s, '/')),
		blank: strings.ContainsAny(s, " \t"), percent: strings.IndexByte(s, '%') >= 0, high: hasNonASCII(s),
		lowerEscape: hasLowerEscape(s), badEscape: firstBadEscape(s) != "",
	}
	if strings.IndexByte(s, 'x') < 0 {
		want.slash = -1 // only looked up for "/index.htm"
	}
	if v != want {
		t.Fatalf("scanValue(%q) = %+v, want %+v", s, v, want)
	}
	if got, want := v.pattern(s), compilePattern(s); got != want {
		t.Fatalf("pattern(%q) = %+v, compilePattern %+v", s, got, want)
	}
	e := EscapePattern(s)
	if got, want := v.escapedPattern(e), compilePattern(e); got != want {
		t.Fatalf("escapedPattern(%q) of %q = %+v, compilePattern %+v", e, s, got, want)
	}
	sp := newLineSplitter(s)
	for {
		line, num, ok := sp.next()
		if !ok {
			break
		}
		if got, want := sp.hashIn(), strings.IndexByte(line, '#'); got != want {
			t.Fatalf("%q line %d %q: hashIn %d, want %d", s, num, line, got, want)
		}
	}
}

// escapeInto gives what a byte-by-byte escape gives, across its chunk
// boundaries, and the patterns it wrote before stay as they were while the
// builder grows.
func TestEscapeIntoKeepsEarlierPatterns(t *testing.T) {
	naive := func(p string) string {
		var out []byte
		for i := 0; i < len(p); i++ {
			c := p[i]
			switch {
			case c == '%' && i+2 < len(p) && isHex(p[i+1]) && isHex(p[i+2]):
				out = append(out, '%', upper(p[i+1]), upper(p[i+2]))
				i += 2
			case c >= 0x80:
				out = append(out, '%', "0123456789ABCDEF"[c>>4], "0123456789ABCDEF"[c&0xf])
			default:
				out = append(out, c)
			}
		}
		return string(out)
	}
	rng := rand.New(rand.NewPCG(3, 9))
	const alphabet = "/a%2f%C3\xC3\xA9\xFFx"
	var b strings.Builder
	var inputs, got []string
	for n := range 400 {
		p := make([]byte, n)
		for i := range p {
			p[i] = alphabet[rng.IntN(len(alphabet))]
		}
		inputs = append(inputs, string(p))
		got = append(got, escapeInto(&b, string(p)))
	}
	for i, p := range inputs {
		if want := naive(p); got[i] != want {
			t.Fatalf("escapeInto(%q) = %q, want %q", p, got[i], want)
		}
	}
}

// appendQuote is strconv.AppendQuote, on every byte value and on text.
func TestAppendQuote(t *testing.T) {
	strconvQuote := func(s string) string { return string(appendQuote([]byte("x"), s)[1:]) }
	for c := range 256 {
		s := "a" + string(rune(c)) + string([]byte{byte(c)}) + "/x"
		if got, want := strconvQuote(s), strconv.Quote(s); got != want {
			t.Fatalf("strconvQuote(%q) = %s, want %s", s, got, want)
		}
	}
	for _, s := range []string{"", "Googlebot", `a"b`, `a\b`, "caf\u00e9", "\x00", "\x7f"} {
		if got, want := strconvQuote(s), strconv.Quote(s); got != want {
			t.Errorf("strconvQuote(%q) = %s, want %s", s, got, want)
		}
	}
}

// TestParseKeyAgreesWithForms: parseKey, whose canonicalKey compares the
// four keys spelt in full a word at a time, recognises what a search of
// keyForms in order, byte by byte, recognises: for every form and every
// prefix of it, in random case, followed by nothing, a letter, a '-' or a
// space, with each byte replaced in turn by bytes that differ from it in
// bit 5 only or that are no letter (NUL, CR, '-', ' ', '@', '`', 0xC1).
func TestParseKeyAgreesWithForms(t *testing.T) {
	byForms := func(k string) (Key, bool, bool) {
		for _, f := range keyForms {
			if hasPrefixFold(k, f.text) {
				return f.key, f.typo, len(k) > len(f.text)
			}
		}
		return KeyUnknown, false, false
	}
	check := func(k string) {
		t.Helper()
		key, typo, prefix := parseKey(k)
		wantKey, wantTypo, wantPrefix := byForms(k)
		if key != wantKey || typo != wantTypo || prefix != wantPrefix {
			t.Fatalf("parseKey(%q) = %v, %v, %v; keyForms give %v, %v, %v", k, key, typo, prefix, wantKey, wantTypo, wantPrefix)
		}
	}
	rng := rand.New(rand.NewPCG(33, 1))
	for _, f := range keyForms {
		for n := 1; n <= len(f.text); n++ {
			for _, tail := range []string{"", "s", "-", " ", "ed"} {
				b := []byte(f.text[:n] + tail)
				for i := range b {
					if rng.IntN(2) == 0 && 'a' <= b[i] && b[i] <= 'z' {
						b[i] -= 'a' - 'A'
					}
				}
				check(string(b))
				for i := range b {
					for _, c := range []byte{b[i] ^ 0x20, 0, '\r', '-', ' ', '@', '`', 0xC1} {
						m := []byte(string(b))
						m[i] = c
						check(string(m))
					}
				}
			}
		}
	}
}

// TestClassifyAgreesWithPlainReading: classify, which trims each end of a
// line once and reads the value's start only, gives every field that a
// plain reading of Google's rules gives (cut at MaxLineBytes, at a NUL
// and at '#', trim C's white space, split at the first ':' or at the
// blanks between exactly two words, trim key and value), over random lines
// of key letters, colons, '#', NUL and every white space byte, some of
// them around MaxLineBytes long.
func TestClassifyAgreesWithPlainReading(t *testing.T) {
	const spaces = " \t\v\f\r\n"
	trim := func(s string) string { return strings.Trim(s, spaces) }
	plain := func(num int, text string, hasNUL bool) Line {
		l := Line{Number: num, Text: text, colon: -1}
		t := text
		if len(t) > MaxLineBytes {
			t, l.TooLong = t[:MaxLineBytes], true
		}
		if i := strings.IndexByte(t, 0); hasNUL && i >= 0 {
			t = t[:i]
		}
		if i := strings.IndexByte(t, '#'); i >= 0 {
			t, l.Comment = t[:i], true
		}
		body := trim(t)
		if body == "" {
			if l.Comment {
				l.Kind = LineComment
			}
			return l
		}
		start := strings.Index(t, body)
		var key, value string
		if c := strings.IndexByte(body, ':'); c >= 0 {
			key, value, l.colon = body[:c], body[c+1:], start+c
		} else {
			words := strings.FieldsFunc(body, func(r rune) bool { return r == ' ' || r == '\t' })
			if len(words) != 2 {
				l.Kind = LineInvalid
				return l
			}
			b := strings.IndexAny(body, " \t")
			key, value, l.MissingColon = body[:b], body[b+1:], true
		}
		if key = trim(key); key == "" {
			l.Kind = LineInvalid
			return l
		}
		l.Kind, l.KeyText, l.keyAt = LineDirective, key, start
		l.Value = trim(value)
		l.valueAt = start + len(body) - len(value) + strings.Index(value, l.Value)
		if l.Value == "" {
			l.valueAt = start + len(body)
		}
		l.Key, l.Typo, l.Prefix = parseKey(key)
		return l
	}
	rng := rand.New(rand.NewPCG(33, 2))
	pieces := []string{"Disallow", "user-agent", "Allow", "x", "/a", ":", "#", "\x00", " ", "\t", "\v", "\f", "\r", "  ", "é"}
	for i := range 200000 {
		var b strings.Builder
		if i%1000 == 0 { // around the cut at MaxLineBytes
			b.WriteString("Disallow: /")
			b.WriteString(strings.Repeat("a", MaxLineBytes-14))
		}
		for range rng.IntN(8) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		text, hasNUL := b.String(), rng.IntN(2) == 0
		if got, want := classify(7, text, hasNUL), plain(7, text, hasNUL); got != want {
			t.Fatalf("classify(%q, %v) = %+v\nplain reading gives %+v", text, hasNUL, got, want)
		}
	}
}
