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
// reading: lowerHexEscape with needsEscape, badPercentEscape with the
// first '%' that two hex digits do not follow, over values crowded with
// '%', hex digits of both cases and bytes from 0x80 at the end.
func TestPercentScansAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	const alphabet = "%%%aAfF09g/"
	for range 20000 {
		s := randomText(rng, alphabet, 12)
		if got, want := lowerHexEscape(s), needsEscape(s); got != want {
			t.Fatalf("lowerHexEscape(%q) = %v, needsEscape %v", s, got, want)
		}
		if rng.IntN(4) == 0 {
			s += "\xc3\xa9"
		}
		if got, want := badPercentEscape(s), firstBadEscape(s); got != want {
			t.Fatalf("badPercentEscape(%q) = %q, want %q", s, got, want)
		}
	}
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
	sp := newLineSplitter(s)
	for {
		line, num, ok := sp.next()
		if !ok {
			break
		}
		if got, want := sp.hashIn(line), strings.IndexByte(line, '#'); got != want {
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
