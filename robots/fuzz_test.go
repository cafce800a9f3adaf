package robots

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Fuzz targets. Properties:
//   - FuzzParse: Parse never panics and its result is internally
//     consistent (see checkInvariants and checkExtensions: extension lines
//     and usage preferences agree with the lines they come from), the same
//     from bytes and string.
//   - FuzzMatch, FuzzMatchStructured: File.Allowed agrees with refAllowed,
//     the slow reference matcher of reference_test.go.

func seedBodies(tb testing.TB) []string {
	var out []string
	paths, _ := filepath.Glob(filepath.Join("testdata", "*", "*.txt"))
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			out = append(out, string(data))
		}
	}
	for _, c := range generatedCases() {
		if len(c.body) < 64<<10 {
			out = append(out, c.body)
		}
	}
	if len(out) == 0 {
		tb.Fatal("no seeds")
	}
	return out
}

func FuzzParse(f *testing.F) {
	for _, b := range seedBodies(f) {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		file := Parse(body)
		checkInvariants(t, file, string(body))
		if again := ParseString(string(body)); !sameButText(file, again) {
			t.Fatal("Parse and ParseString differ")
		}
		fuzzParser.Lock()
		defer fuzzParser.Unlock()
		if reused := fuzzParser.Parse(body); !sameButText(file, reused) {
			t.Fatal("Parse and a Parser that parsed the inputs before differ")
		}
	})
}

// fuzzParser parses every input of FuzzParse after the ones before it, so
// that what a parse leaves in a Parser's storage meets every next input.
var fuzzParser struct {
	sync.Mutex
	Parser
}

// sameButText reports whether two parses are deeply equal but for the
// text each keeps (a copy of the body, or the string given). It compares
// the Files in place: a File is not copied (its memo of readings is an
// atomic pointer).
func sameButText(a, b *File) bool {
	at, bt := a.text, b.text
	a.text, b.text = "", ""
	same := reflect.DeepEqual(a, b)
	a.text, b.text = at, bt
	return same
}

// checkInvariants asserts what must hold for any parse.
func checkInvariants(t *testing.T, f *File, body string) {
	t.Helper()
	s := f.Stats
	if s.Rules != len(f.Rules) || s.Allows+s.Disallows != s.Rules || s.Groups != len(f.Groups) || s.Sitemaps != len(f.Sitemaps) {
		t.Fatalf("inconsistent stats %+v", s)
	}
	if s.Errors+s.Warnings+s.Infos != len(f.Diagnostics) {
		t.Fatalf("severity counts %+v vs %d diagnostics", s, len(f.Diagnostics))
	}
	n := 0
	for gi, g := range f.Groups {
		if len(g.Agents(f)) == 0 {
			t.Fatalf("group %d has no agent", gi)
		}
		for _, r := range g.Rules(f) {
			if int(r.Group) != gi || r.Line < g.Line {
				t.Fatalf("rule %+v in group %d at line %d", r, gi, g.Line)
			}
			n++
		}
	}
	if n != len(f.Rules) {
		t.Fatalf("groups hold %d rules, file %d", n, len(f.Rules))
	}
	lines := map[int]string{}
	last := 0
	for l := range f.Lines() {
		if l.Number != last+1 {
			t.Fatalf("line %d after %d", l.Number, last)
		}
		last = l.Number
		lines[l.Number] = l.Text
	}
	prev := 0
	for _, d := range f.Diagnostics {
		if d.Line < prev || d.Line > last {
			t.Fatalf("diagnostic %+v out of order or range (last line %d)", d, last)
		}
		prev = d.Line
		if d.Line > 0 && d.Text(f) != lines[d.Line] {
			t.Fatalf("diagnostic text %q, line %d is %q", d.Text(f), d.Line, lines[d.Line])
		}
		if d.Message(f) == "" {
			t.Fatalf("empty message for %v", d.Code)
		}
	}
	checkExtensions(t, f, lines)
	if len(body) > MaxBytes != s.Oversize {
		t.Fatalf("oversize %v for %d bytes", s.Oversize, len(body))
	}
	checkAccess(t, f)
}

// checkExtensions holds File.Extensions and File.Preferences to the lines
// they come from: a known key, the line's value, a group that exists and
// agents that precede the line in it; each preference belongs to a
// Content-Signal or Content-Usage line, its category and value are in the
// line, and its Usage agrees with its value.
func checkExtensions(t *testing.T, f *File, lines map[int]string) {
	t.Helper()
	byLine := map[int]*Extension{}
	prev := 0
	for i := range f.Extensions {
		e := &f.Extensions[i]
		l := classify(e.Line, lines[e.Line], f.hasNUL)
		if e.Line <= prev || lookupExtension(l.KeyText) == nil || e.Key(f) != strings.ToLower(l.KeyText) && !strings.HasPrefix(e.Key(f), "acap-") || e.Value(f) != l.Value {
			t.Fatalf("extension %+v for line %q", *e, lines[e.Line])
		}
		prev = e.Line
		checkScope(t, f, e.Line, e.Group, e.Agents(f))
		byLine[e.Line] = e
	}
	for _, p := range f.Preferences {
		e := byLine[p.Line]
		if e == nil || e.Key(f) != p.Source.String() || p.Group != e.Group || len(p.Agents(f)) != len(e.Agents(f)) || p.Path(f) == "" {
			t.Fatalf("preference %+v without its line (%+v)", p, e)
		}
		if !strings.Contains(e.Value(f), p.Category(f)) || !strings.Contains(e.Value(f), p.Value(f)) {
			t.Fatalf("preference %s=%s not in %q", p.Category(f), p.Value(f), e.Value(f))
		}
		if p.Allowed != UsageUnknown && p.Allowed != usageOf(p.Source, p.Value(f)) {
			t.Fatalf("preference %s=%s is %v", p.Category(f), p.Value(f), p.Allowed)
		}
		if p.Explain(f) == "" {
			t.Fatal("empty explanation")
		}
	}
}

// checkScope asserts that a line of group g is addressed to the agents of
// that group, which start before it, or to everyone before the first group.
func checkScope(t *testing.T, f *File, line, g int, agents []Agent) {
	t.Helper()
	if g < 0 {
		if len(agents) != 0 || len(f.Groups) > 0 && f.Groups[0].Line < line {
			t.Fatalf("line %d outside a group with agents %v", line, agents)
		}
		return
	}
	if g >= len(f.Groups) || f.Groups[g].Line > line || !slices.Equal(agents, f.Groups[g].Agents(f)) {
		t.Fatalf("line %d: group %d, agents %v", line, g, agents)
	}
}

// checkAccess holds File.Access to what Match says on URLs that probe it:
// "allowed" means nothing is disallowed, "disallowed" means nothing is
// allowed.
func checkAccess(t *testing.T, f *File) {
	t.Helper()
	urls := []string{"/", "/x", "/index.html"}
	for _, r := range f.Rules {
		urls = append(urls, strings.ReplaceAll(strings.TrimSuffix(r.Pattern(f), "$"), "*", "x"))
	}
	access := f.Access("FooBot")
	for _, u := range urls {
		ok := f.Allowed("http://e.com"+u, "FooBot")
		if access == AccessAllowed && !ok || access == AccessDisallowed && ok {
			t.Fatalf("Access says %v but %q is allowed=%v", access, u, ok)
		}
	}
}

func FuzzMatch(f *testing.F) {
	urls := []string{"http://e.com/", "http://e.com/x/y?z", "/a/b", "http://e.com/index.html", "//h/p#f"}
	for i, b := range seedBodies(f) {
		f.Add(b, urls[i%len(urls)], "FooBot")
	}
	f.Add("User-agent: FooBot\nDisallow: /a*b$\nAllow: /a/index.htm", "http://e.com/a/", "foobot")
	f.Fuzz(func(t *testing.T, body, url, agents string) {
		if len(body) > maxFuzzBody || len(url) > maxFuzzURL {
			t.Skip("input too large for the slow reference")
		}
		compare(t, body, url, strings.Split(agents, ","))
	})
}

// The reference is slow (regular expressions per rule and URL): the
// differential targets skip inputs larger than these.
const (
	maxFuzzBody = 8 << 10
	maxFuzzURL  = 1 << 10
)

func compare(t *testing.T, body, url string, agents []string) {
	t.Helper()
	got := ParseString(body).Allowed(url, agents...)
	if want := refAllowed(body, agents, url); got != want {
		t.Fatalf("Allowed=%v, reference=%v\nagents %q url %q\nrobots.txt %q", got, want, agents, url, body)
	}
}

// FuzzMatchStructured builds robots.txt files and URLs from a vocabulary of
// the tokens that matter, so that the fuzzer explores matching rather than
// line noise.
func FuzzMatchStructured(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, []byte{1, 2, 3}, uint8(0))
	f.Add([]byte("robots.txt file for testing"), []byte("some url"), uint8(1))
	f.Fuzz(func(t *testing.T, program, url []byte, agent uint8) {
		if len(program) > maxFuzzBody || len(url) > maxFuzzURL {
			t.Skip("input too large for the slow reference")
		}
		body := buildRobots(program)
		u := buildURL(url)
		a := fuzzAgents[int(agent)%len(fuzzAgents)]
		compare(t, body, u, a)
	})
}

var (
	fuzzKeys = []string{"User-agent", "user-agent", "USERAGENT", "User agent", "Allow", "allow", "Disallow",
		"disallow", "Disalow", "Dissallow", "Disallowed", "Allowance", "Sitemap", "Crawl-delay", "Foo", "", "*", "Desallow"}
	fuzzSeps   = []string{": ", ":", " ", "\t", " : ", "", ":\t", "  "}
	fuzzValues = []string{"*", "foo", "FooBot", "bar", "* x", "foobot/1.0", "/", "/a", "/a/", "/a*", "/a$", "/*.b",
		"/*.b$", "/a/index.html", "/index.htm", "/%61", "/%e2%82%ac", "/é", "$", "*$", "/a*b*c", "/a$b", "",
		"/a/*/c", "a", "/fish", "/fish*.php", "/a /b", "**", "/*$", "/a/index.html$", "Foo_Bar-baz"}
	fuzzEnds   = []string{"\n", "\r\n", "\r", "\n\n", " # c\n", "\n#x\n"}
	fuzzPath   = []string{"/", "a", "b", "c", "/", ".b", "index.html", "index.htm", "%61", "%E2%82%AC", "é", "?", "x=1", "$", "*", "#f", ";", "fish", ".php", "/"}
	fuzzAgents = [][]string{{"FooBot"}, {"foobot"}, {"bar"}, {"Foo"}, {"FooBot", "bar"}, {"Foo_Bar-baz"}, {"other"}, {""}}
)

func buildRobots(program []byte) string {
	var b strings.Builder
	if len(program) > 0 && program[0] == 0xEF {
		b.WriteString("\xEF\xBB\xBF")
	}
	for i := 0; i+3 < len(program); i += 4 {
		if program[i]%11 == 0 {
			b.WriteString(" ")
		}
		b.WriteString(fuzzKeys[int(program[i])%len(fuzzKeys)])
		b.WriteString(fuzzSeps[int(program[i+1])%len(fuzzSeps)])
		b.WriteString(fuzzValues[int(program[i+2])%len(fuzzValues)])
		b.WriteString(fuzzEnds[int(program[i+3])%len(fuzzEnds)])
	}
	return b.String()
}

func buildURL(parts []byte) string {
	var b strings.Builder
	b.WriteString("http://e.com")
	for _, p := range parts {
		b.WriteString(fuzzPath[int(p)%len(fuzzPath)])
	}
	return b.String()
}

// TestReferenceAgrees runs the differential check without the fuzzer, over
// every fixture and a grid of URLs and agents, so that plain "go test"
// exercises it.
func TestReferenceAgrees(t *testing.T) {
	bodies := append(seedBodies(t), buildRobots([]byte("0123456789abcdefghijklmnopqrstuvwxyz")))
	for _, body := range bodies {
		for _, u := range []string{"http://e.com/", "http://e.com/x/", "http://e.com/private/a", "http://e.com/cart/", "/search?q=1", "http://e.com/a.pdf", "http://e.com/staging/press/"} {
			for _, a := range fuzzAgents {
				compare(t, body, u, a)
			}
		}
	}
}
