package robots

import (
	"fmt"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/robocensus/robocensus/internal/testutil"
)

// verdictsOf returns every reading's verdicts for the file: the root and
// each rule's own path for GPTBot, CCBot and Googlebot.
func verdictsOf(f *File) []Verdict {
	urls := []string{"/", "/robots.txt", "/index.html"}
	for i, r := range f.Rules {
		if i == 20 {
			break
		}
		urls = append(urls, "/"+strings.TrimLeft(r.Value(f), "/*"))
	}
	var vs []Verdict
	for _, s := range AllSemantics()[1:] {
		r := f.As(s)
		for _, a := range []string{"GPTBot", "CCBot", "Googlebot"} {
			for _, u := range urls {
				vs = append(vs, r.Match(u, []string{a}))
			}
		}
	}
	return vs
}

// TestLineClassesChangeNoVerdict: the readings give the same verdicts from
// the line classes Google's parse records as from reading every line
// themselves, over the egonkm corpus's bodies (every reading, the root,
// common paths and the paths the file's own rules name, three crawlers).
func TestLineClassesChangeNoVerdict(t *testing.T) {
	bodies := testutil.TarBodies(t, testutil.Corpus(t, "robots", "egonkm-robots-txt", "robots.tar.gz"))
	classified, compared := 0, 0
	for _, body := range bodies {
		f := ParseResponse(Response{}, body.Data)
		if !f.classified {
			continue
		}
		classified++
		want := verdictsOf(unclassified(f))
		got := verdictsOf(f)
		for i := range want {
			compared++
			if got[i] != want[i] {
				t.Fatalf("%s: verdict %d: %+v from the classes, %+v from the lines", body.Name, i, got[i], want[i])
			}
		}
	}
	if classified < len(bodies)/2 {
		t.Errorf("%d of %d bodies have line classes, want most", classified, len(bodies))
	}
	t.Logf("%d of %d bodies classified, %d verdicts compared", classified, len(bodies), compared)
}

// unclassified returns f as its parse would be without line classes: the
// same groups, rules, text and lines, every line lineSlow, so that every
// reading reads every line itself.
func unclassified(f *File) *File {
	lines := make([]lineRef, len(f.lines))
	for i, l := range f.lines {
		lines[i] = lineRef{start: l.start, end: l.end}
	}
	return &File{Response: f.Response, Size: f.Size, Groups: f.Groups, Rules: f.Rules,
		text: f.text, bom: f.bom, hasNUL: f.hasNUL, hasLT: f.hasLT, badUTF8: f.badUTF8, agents: f.agents, lines: lines}
}

// TestLineClasses checks the classes of the lines of a plain text and that
// a text that is not plain has none.
func TestLineClasses(t *testing.T) {
	f := ParseString("User-agent: a # x\n\n  Disallow :  /p \nSitemap: http://x/s\nDissallow: /q\nCrawl-delay: 1\n# c\nAllow /n\n")
	want := []struct {
		kind  lineClass
		value string
	}{{lineUserAgent, "a"}, {lineNone, ""}, {lineDisallow, "/p"}, {lineOther, ""}, {lineSlow, ""}, {lineSlow, ""}, {lineNone, ""}, {lineSlow, ""}, {lineNone, ""}}
	if !f.classified || len(f.lines) != len(want) {
		t.Fatalf("classified %v, %d lines, want %d classes", f.classified, len(f.lines), len(want))
	}
	for i, w := range want {
		c := f.lines[i].class
		if c.kind() != w.kind || w.kind >= lineUserAgent && (f.classValue(i) != w.value || c.value(f.line(i)) != w.value) {
			t.Errorf("line %d %q: class %d value %q, want %d %q", i+1, f.line(i), c.kind(), f.classValue(i), w.kind, w.value)
		}
	}
	// A line as long as maxClassedLine is read by each reading itself; one
	// byte shorter, its value's end is the largest offset a class holds.
	long := "Disallow: /" + strings.Repeat("a", maxClassedLine-len("Disallow: /"))
	if f := ParseString(long + "\n" + long[:maxClassedLine-1]); !f.classified || f.lines[0].class.kind() != lineSlow ||
		f.lines[1].class.kind() != lineDisallow || f.classValue(1) != long[len("Disallow: "):maxClassedLine-1] {
		t.Errorf("classes of lines around maxClassedLine: %v", f.lines)
	}
	for _, text := range []string{"User-agent: a\fDisallow: /\n", "User-agent: a\x00\n", "\x1c",
		"User-agent: a\u00a0\n", "Disallow: /a\u2028b\n", "Disallow: /a\u0085\n", "Disallow: /\u3000\n", "Disallow: /\ufeffa\n", "Disallow: /\xff\n"} {
		if ParseString(text).classified {
			t.Errorf("%q: classes for a text that is not classifiable", text)
		}
	}
	// Bytes outside ASCII that no reading takes for white space or a line
	// break leave the classes, but not the shortcuts that read ASCII only.
	f = ParseString("User-agent: \u00e9\nDisallow: /caf\u00e9 # \u30c4\n")
	if !f.classified || len(f.lines) != 3 || f.lines[0].class.kind() != lineUserAgent || f.classValue(1) != "/caf\u00e9" {
		t.Errorf("classes of a UTF-8 text: %v", f.lines)
	}
	if f.asciiClassified() || !ParseString("Disallow: /\n").asciiClassified() {
		t.Error("asciiClassified wrong")
	}
	if !plainText("User-agent: *\r\n\tDisallow: /a b~\x7f") || plainText("abcdefgh\x0bxyz") || plainText("abcdefghijklmno\x85") {
		t.Error("plainText wrong")
	}
}

// TestPlainWordIsByteByByte: plainWord's masks, and plainPrefix's over
// one and two words, agree with a check of each byte, for every byte value
// at every place of a word of plain bytes, and for words of two odd bytes
// at every pair of places.
func TestPlainWordIsByteByByte(t *testing.T) {
	plain := func(c byte) bool { return c >= 0x20 && c < 0x80 || c == '\t' || c == '\r' || c == '\n' }
	base := []byte("Allow:/x")
	check := func(w []byte) {
		want := true
		for _, c := range w {
			want = want && plain(c)
		}
		if got := plainWord(load64(string(w))); got != want {
			t.Fatalf("plainWord(%q) = %v, want %v", w, got, want)
		}
		// Before, after and between plain words, so that the word falls
		// in each of plainPrefix's loops, at each place in the pair.
		for _, s := range []string{string(w) + "abc", string(w) + "Allow:/x" + "abc", "Allow:/x" + string(w) + "abc",
			"Allow:/xAllow:/x" + string(w) + "abc", "Allow:/xAllow:/x" + string(w) + "Allow:/x" + "abc"} {
			want := 0
			for want < len(s) && plain(s[want]) {
				want++
			}
			if got := plainPrefix(s); got != want {
				t.Fatalf("plainPrefix(%q) = %d, want %d", s, got, want)
			}
		}
	}
	odd := []byte{0, 1, '\t', '\n', 0x0b, '\r', 0x0e, 0x1f, ' ', '~', 0x7f, 0x80, 0xc3, 0xff}
	for i := range 8 {
		for c := range 256 {
			w := slices.Clone(base)
			w[i] = byte(c)
			check(w)
		}
		for j := range 8 {
			for _, a := range odd {
				for _, b := range odd {
					w := slices.Clone(base)
					w[i], w[j] = a, b
					check(w)
				}
			}
		}
	}
}

// TestPlainBlockIsByteByByte: plainPrefix's 32-byte blocks (the test of
// the four words at once, then plainWords when a block holds a control
// character other than LF) agree with a check of each byte, for every byte
// value at every place of a block of plain bytes, for two odd bytes at
// every pair of places, and for a block that follows a plain block.
func TestPlainBlockIsByteByByte(t *testing.T) {
	plain := func(c byte) bool { return c >= 0x20 && c < 0x80 || c == '\t' || c == '\r' || c == '\n' }
	base := []byte("User-agent: *\nDisallow: /a/b?c=\n")
	check := func(b []byte) {
		t.Helper()
		for _, s := range []string{string(b), string(b) + "abc", string(base) + string(b) + "Allow:/x"} {
			want := 0
			for want < len(s) && plain(s[want]) {
				want++
			}
			if got := plainPrefix(s); got != want {
				t.Fatalf("plainPrefix(%q) = %d, want %d", s, got, want)
			}
		}
	}
	odd := []byte{0, 1, '\t', '\n', 0x0b, '\r', 0x0e, 0x1f, ' ', '*', '~', 0x7f, 0x80, 0xc3, 0xff}
	for i := range base {
		for c := range 256 {
			b := slices.Clone(base)
			b[i] = byte(c)
			check(b)
		}
		for j := range base {
			for _, x := range odd {
				for _, y := range odd {
					b := slices.Clone(base)
					b[i], b[j] = x, y
					check(b)
				}
			}
		}
	}
}

// TestNonASCIILineClassesChangeNoVerdict: in texts with bytes outside
// ASCII, the readings give the same verdicts from the line classes as from
// reading every line themselves: over every body of every corpus set that
// has such classes, and over every 20th egonkm body with runes outside
// ASCII put after each colon, before each '#' and at the end of each line,
// among them the white space and line breaks that some reading strips or
// splits at (the texts classifiableText refuses) and runes whose lower case
// is ASCII (U+212A, U+0130).
func TestNonASCIILineClassesChangeNoVerdict(t *testing.T) {
	compared, files := 0, 0
	check := func(name string, f *File) {
		if !f.classified || !f.classesNonASCII {
			return
		}
		files++
		want := verdictsOf(unclassified(f))
		got := verdictsOf(f)
		for i := range want {
			compared++
			if got[i] != want[i] {
				t.Fatalf("%s: verdict %d: %+v from the classes, %+v from the lines", name, i, got[i], want[i])
			}
		}
	}
	for _, set := range loadCorpus(t) {
		for _, body := range set.bodies {
			check(set.name+"/"+body.Name, ParseResponse(Response{}, body.Data))
		}
	}
	corpusFiles := files
	runes := []string{"\u00e9", "\u30c4", "\u212a", "\u0130", "\u180e", "\u00a0", "\u0085", "\u2028", "\u2029", "\u3000", "\u1680", "\u202f", "\ufeff"}
	bodies := testutil.TarBodies(t, testutil.Corpus(t, "robots", "egonkm-robots-txt", "robots.tar.gz"))
	for i := 0; i < len(bodies); i += 20 {
		for _, r := range runes {
			text := strings.NewReplacer(":", ":"+r, "#", r+"#", "\n", r+"\n").Replace(string(bodies[i].Data))
			check(fmt.Sprintf("%s with %q", bodies[i].Name, r), ParseString(text))
		}
	}
	if corpusFiles < 100 || files-corpusFiles < 1000 {
		t.Errorf("%d corpus files and %d made ones with classes outside ASCII, want more", corpusFiles, files-corpusFiles)
	}
	t.Logf("%d corpus files, %d made ones with classes outside ASCII, %d verdicts compared", corpusFiles, files-corpusFiles, compared)
}

// TestClassifiableRuneAgainstPython: the runes outside ASCII that
// classifiableRune refuses, U+FEFF aside, are those python3's str.isspace
// takes for white space or str.splitlines for a line break; crawler-commons'
// line breaks (U+0085, U+2028, U+2029) are among them.
func TestClassifiableRuneAgainstPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: the white space of Python's str.strip is compared with it")
	}
	out, err := exec.Command(py, "-c", `import sys
for c in range(0x80, sys.maxunicode + 1):
    s = chr(c)
    if s.isspace() or len(("a" + s + "b").splitlines()) > 1:
        print(c)`).Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	var want []rune
	for _, l := range strings.Fields(string(out)) {
		n, err := strconv.Atoi(l)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, rune(n))
	}
	var got []rune
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		if !classifiableRune(r) && r != '\uFEFF' {
			got = append(got, r)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("refused %U, python3's white space and line breaks %U", got, want)
	}
	for _, r := range []rune{'\u0085', '\u2028', '\u2029', '\uFEFF'} {
		if classifiableRune(r) {
			t.Errorf("%U classifiable", r)
		}
	}
}
