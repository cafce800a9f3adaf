package robots

import (
	"strings"
	"testing"

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
		urls = append(urls, "/"+strings.TrimLeft(r.Value, "/*"))
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
		if f.lineClasses() == nil {
			continue
		}
		classified++
		want := verdictsOf(&File{Response: f.Response, Size: f.Size, Groups: f.Groups, Rules: f.Rules,
			text: f.text, bom: f.bom, hasNUL: f.hasNUL, badUTF8: f.badUTF8, agents: f.agents, lines: f.lines})
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

// TestLineClasses checks the classes of the lines of a plain text and that
// a text that is not plain has none.
func TestLineClasses(t *testing.T) {
	f := ParseString("User-agent: a # x\n\n  Disallow :  /p \nSitemap: http://x/s\nDissallow: /q\nCrawl-delay: 1\n# c\nAllow /n\n")
	want := []struct {
		kind  lineClass
		value string
	}{{lineUserAgent, "a"}, {lineNone, ""}, {lineDisallow, "/p"}, {lineOther, ""}, {lineSlow, ""}, {lineSlow, ""}, {lineNone, ""}, {lineSlow, ""}, {lineNone, ""}}
	cs := f.lineClasses()
	if len(cs) != len(want) {
		t.Fatalf("%d classes, want %d", len(cs), len(want))
	}
	for i, w := range want {
		if cs[i].kind() != w.kind || w.kind >= lineUserAgent && cs[i].value(f.lines[i]) != w.value {
			t.Errorf("line %d %q: class %d value %q, want %d %q", i+1, f.lines[i], cs[i].kind(), cs[i].value(f.lines[i]), w.kind, w.value)
		}
	}
	for _, text := range []string{"User-agent: a\fDisallow: /\n", "User-agent: \u00e9\n", "User-agent: a\x00\n", "\x1c"} {
		if ParseString(text).lineClasses() != nil {
			t.Errorf("%q: classes for a text that is not plain", text)
		}
	}
	if !plainText("User-agent: *\r\n\tDisallow: /a b~\x7f") || plainText("abcdefgh\x0bxyz") || plainText("abcdefghijklmno\x85") {
		t.Error("plainText wrong")
	}
}
