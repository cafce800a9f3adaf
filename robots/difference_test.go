package robots

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
)

// differenceCase is a file whose reading sem gives agent another verdict
// for path than Google's reading, and the difference it should have.
type differenceCase struct {
	name      string
	resp      Response
	body      string
	sem       Semantics
	agent     string
	path      string
	class     DifferenceClass
	line, ref int
}

// differenceCases has a real difference of every class but other (which
// no reading's difference is known to reach: TestExplainerOther builds
// one from its lines).
var differenceCases = []differenceCase{
	{name: "status 401", resp: Response{Status: 401}, body: "User-agent: *\nDisallow: /a\n",
		sem: SemanticsPythonLegacy, agent: "GPTBot", path: "/", class: DiffStatus},
	{name: "Latin-1 body", body: "User-agent: *\nDisallow: /caf\xe9/\n",
		sem: SemanticsPythonLegacy, agent: "GPTBot", path: "/", class: DiffBodyEncoding},
	{name: "crawl delay over 300 s", body: "User-agent: *\nDisallow: /private/\nCrawl-delay: 301\n",
		sem: SemanticsCrawlerCommons, agent: "CCBot", path: "/", class: DiffCrawlDelay, line: 3},
	{name: "crawl delay over 300 s, Google allowing by a rule", body: "User-agent: *\nCrawl-delay: 3600\nAllow: /\n",
		sem: SemanticsCrawlerCommons, agent: "CCBot", path: "/", class: DiffCrawlDelay, line: 2, ref: 3},
	{name: "robots.txt for RFC 9309", body: "User-agent: *\nDisallow: /\n",
		sem: SemanticsRFC9309, agent: "GPTBot", path: "/robots.txt", class: DiffRobotsTxtAllowed, line: 2},
	{name: "robots.txt for crawler-commons", body: "User-agent: CCBot\nDisallow: /robots\n",
		sem: SemanticsCrawlerCommons, agent: "CCBot", path: "/robots.txt", class: DiffRobotsTxtAllowed, line: 2},
	{name: "misspelled user-agent, Google's group", body: "Useragent: BadBot\nDisallow: /\n",
		sem: SemanticsRFC9309, agent: "BadBot", path: "/", class: DiffKeySpelling, line: 1, ref: 2},
	{name: "misspelled user-agent, the other reading's group", body: "User-agent: *\nDisallow: /tmp/\n\nUseragent: BadBot\nDisallow: /\n",
		sem: SemanticsRFC9309, agent: "SomeBot", path: "/", class: DiffKeySpelling, line: 4, ref: 5},
	{name: "empty user-agent", body: "User-agent: Googlebot\nUser-agent:\nDisallow: /\n",
		sem: SemanticsPythonLegacy, agent: "GPTBot", path: "/", class: DiffEmptyUserAgent, line: 2, ref: 3},
	{name: "blank line after user-agent", body: "User-agent: GPTBot\n\nDisallow: /\n",
		sem: SemanticsPythonLegacy, agent: "GPTBot", path: "/", class: DiffBlankLineEndsGroup, line: 3, ref: 1},
	{name: "misspelled disallow", body: "User-agent: *\nDissallow: /\n",
		sem: SemanticsPythonLegacy, agent: "GPTBot", path: "/", class: DiffKeySpelling, line: 2},
	{name: "substring of the crawler's name", body: "User-agent: bot\nDisallow: /\n",
		sem: SemanticsPythonLegacy, agent: "GPTBot", path: "/", class: DiffAgentMatching, line: 1},
	{name: "first group only", body: "User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n",
		sem: SemanticsPythonLegacy, agent: "GPTBot", path: "/b", class: DiffAgentMatching, line: 4},
	{name: "empty disallow first", body: "User-agent: *\nDisallow:\nDisallow: /\n",
		sem: SemanticsPythonLegacy, agent: "GPTBot", path: "/", class: DiffEmptyDisallow, line: 2, ref: 3},
	{name: "empty query", body: "User-agent: *\nDisallow: /?\n",
		sem: SemanticsPythonLegacy, agent: "GPTBot", path: "/", class: DiffURLNormalisation, line: 2},
	{name: "escaped tilde", body: "User-agent: *\nDisallow: /%7Ejoe/\n",
		sem: SemanticsRFC9309, agent: "GPTBot", path: "/~joe/x", class: DiffPercentEncoding, line: 2},
	{name: "wildcard", body: "User-agent: *\nDisallow: /*.pdf$\n",
		sem: SemanticsPythonLegacy, agent: "GPTBot", path: "/a.pdf", class: DiffWildcards, line: 2},
	{name: "WordPress's default file", body: "User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n",
		sem: SemanticsPythonLegacy, agent: "GPTBot", path: "/wp-admin/admin-ajax.php", class: DiffAllowOrder, line: 3, ref: 2},
}

// Each class is found for a real difference between two readings, with
// the line it is about.
func TestExplain(t *testing.T) {
	seen := map[DifferenceClass]bool{}
	for _, c := range differenceCases {
		t.Run(c.name, func(t *testing.T) {
			f := ParseResponseString(c.resp, c.body)
			g := f.Match(c.path, []string{c.agent})
			v := f.As(c.sem).Match(c.path, []string{c.agent})
			if g.Allowed == v.Allowed {
				t.Fatalf("%s gives %s the verdict Google gives (%v): no difference to explain", c.sem, c.path, g.Allowed)
			}
			got := f.Explain(Question{Semantics: c.sem, Path: c.path, Google: g, Other: v})
			want := Difference{Class: c.class, Line: c.line, Ref: c.ref}
			if got != want {
				t.Errorf("google line %d, %s line %d: %+v (%s), want %+v (%s)", g.Line, c.sem, v.Line, got, got.Class, want, want.Class)
			}
			seen[got.Class] = true
		})
	}
	for _, c := range DifferenceClasses() {
		if !seen[c] && c != DiffOther && c != DiffRulesBeforeUserAgent {
			t.Errorf("no case reaches %s", c)
		}
	}
}

// The classes no reading's difference is known to reach are found from
// the deciding lines alone: a rule before any user-agent line, and two
// disallow rules of one group.
func TestExplainerLines(t *testing.T) {
	f := ParseString("Disallow: /x\nUser-agent: *\nDisallow: /a\nDisallow: /b\n")
	var x Explainer
	for _, c := range []struct {
		gl, rl int
		want   Difference
	}{
		{1, 0, Difference{Class: DiffRulesBeforeUserAgent, Line: 1}},
		{3, 1, Difference{Class: DiffRulesBeforeUserAgent, Line: 1, Ref: 3}},
		{3, 4, Difference{Class: DiffOther, Line: 3, Ref: 4}},
		{3, 0, Difference{Class: DiffAgentMatching, Line: 2}},
	} {
		if got := x.Explain(f, c.gl, c.rl); got != c.want {
			t.Errorf("lines %d, %d: %+v, want %+v", c.gl, c.rl, got, c.want)
		}
	}
}

// An Explainer reused from file to file indexes each file's own lines,
// also for a file that ends where the last one's lines went on.
func TestExplainerReused(t *testing.T) {
	var x Explainer
	long := ParseString("User-agent: *\nDisallow: /a\n\nUser-agent: b\n\nDisallow: /c\n")
	short := ParseString("User-agent: *\nDissallow: /a\n")
	for i := range 3 {
		if got := x.Explain(long, 6, 0); got.Class != DiffBlankLineEndsGroup || got.Line != 6 || got.Ref != 4 {
			t.Errorf("round %d, long file: %+v", i, got)
		}
		if got := x.Explain(short, 2, 0); got.Class != DiffKeySpelling || got.Line != 2 {
			t.Errorf("round %d, short file: %+v", i, got)
		}
		if got := x.Explain(short, 6, 0); got.Class != DiffAgentMatching || got.Line != 0 {
			t.Errorf("round %d, a line past the end of the short file: %+v", i, got)
		}
	}
}

// The names of the classes are the dataset's: distinct, and "" only for
// no difference.
func TestDifferenceClassNames(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range DifferenceClasses() {
		n := c.String()
		if n == "" || seen[n] {
			t.Errorf("class %d: name %q", c, n)
		}
		seen[n] = true
	}
	if n := DifferenceClass(0).String(); n != "" {
		t.Errorf("no difference is named %q", n)
	}
	if got := fmt.Sprint(len(DifferenceClasses())); got != "15" {
		t.Errorf("%s classes, want 15", got)
	}
}

// Disagreements names each line other parsers read differently, once per
// class, with an example for each reading that differs there: WordPress's
// default file with a group "bot", which Python's substring match gives
// GPTBot (and Googlebot) but not Google-Extended: GPTBot then obeys it
// alone, and not the '*' group of line 1.
func TestDisagreements(t *testing.T) {
	f := ParseString("User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n\nUser-agent: bot\nDisallow: /x\n")
	got := f.Disagreements([]string{"Google-Extended", "GPTBot"})
	var lines []string
	for _, d := range got {
		var ex []string
		for _, e := range d.Examples {
			ex = append(ex, e.String())
		}
		lines = append(lines, fmt.Sprintf("%d %s: %q", d.Line, d.Class, ex))
	}
	want := []string{
		`1 agent-matching: ["python-legacy allows /wp-admin/ for GPTBot (no rule; Google disallows it, line 2)" "python allows /wp-admin/ for GPTBot (no rule; Google disallows it, line 2)"]`,
		`3 allow-order: ["python-legacy disallows /wp-admin/admin-ajax.php for Google-Extended (line 2; Google allows it, line 3)"]`,
		`5 agent-matching: ["python-legacy disallows /x for GPTBot (line 6; Google allows it, no rule)" "python disallows /x for GPTBot (line 6; Google allows it, no rule)"]`,
	}
	if !slices.Equal(lines, want) {
		t.Errorf("disagreements\n %q\nwant\n %q", lines, want)
	}
}

// The crawlers asked: those a user-agent value may name for some parser,
// the first of the others (for all of them), and the file's own values.
func TestDisagreementCrawlers(t *testing.T) {
	f := ParseString("User-agent: bot\nUser-agent: SomeSpider\nUser-agent: *\nDisallow: /\n")
	got := f.disagreementCrawlers([]string{"Google-Extended", "GPTBot", "CCBot", "facebookexternalhit", "Bytespider", "GPTBot"})
	want := []string{"Google-Extended", "GPTBot", "CCBot", "bot", "SomeSpider"}
	if !slices.Equal(got, want) {
		t.Errorf("crawlers %q, want %q", got, want)
	}
}

// A disagreement's finding is its class's code on its line, naming each
// reading, its verdict, the crawler and path, and both deciding lines;
// every class has its own code, other included (which no reading's
// difference is known to reach).
func TestDisagreementDiagnostic(t *testing.T) {
	f := ParseString("User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n")
	d := Disagreement{Line: 3, Class: DiffOther, Examples: []ReadingExample{
		{Semantics: SemanticsRFC9309, Crawler: "GPTBot", Path: "/p", Google: Verdict{Allowed: true, Line: 3}, Other: Verdict{Line: 2}},
		{Semantics: SemanticsCrawlerCommons, Crawler: "CCBot", Path: "/q", Google: Verdict{Line: 2}, Other: Verdict{Allowed: true}},
	}}
	diag := d.Diagnostic(f)
	if diag.Code != DisagreeOther || diag.Line != 3 || diag.Text(f) != "Allow: /wp-admin/admin-ajax.php" || diag.Severity() != Info {
		t.Errorf("%+v: text %q", diag, diag.Text(f))
	}
	want := "other parsers read this line differently from Google: rfc9309 disallows /p for GPTBot (line 2; Google allows it, line 3); crawler-commons allows /q for CCBot (no rule; Google disallows it, line 2)"
	if msg := string(d.AppendMessage(nil)); msg != want {
		t.Errorf("message %q\nwant %q", msg, want)
	}
	// f has no disagreement of class other on line 3: the finding names
	// no example.
	if msg := diag.Message(f); msg != "other parsers read this line differently from Google" {
		t.Errorf("message of a disagreement f does not have: %q", msg)
	}
	// The findings of f's own disagreements name their examples, whether
	// made one by one or by ReadingDiagnostics.
	var names []string
	for _, c := range TrackedCrawlers() {
		names = append(names, c.Token)
	}
	own := f.Disagreements(names)
	reading := f.ReadingDiagnostics()
	if len(own) == 0 || len(reading) != len(own) {
		t.Fatalf("%d disagreements, %d reading diagnostics", len(own), len(reading))
	}
	for i, dis := range own {
		want := string(dis.AppendMessage(nil))
		if got := dis.Diagnostic(f).Message(f); got != want || !strings.Contains(got, ": ") {
			t.Errorf("line %d: message %q, want %q", dis.Line, got, want)
		}
		if got := reading[i].Message(f); got != want {
			t.Errorf("reading diagnostic %d: message %q, want %q", i, got, want)
		}
	}
	codes := map[Code]bool{}
	for _, c := range DifferenceClasses() {
		code := c.Code()
		if ci := code.Info(); !ci.Readings || ci.Name != "parsers-disagree-"+c.String() || codes[code] {
			t.Errorf("class %s: code %s %+v", c, code, ci)
		}
		codes[code] = true
	}
	if c := DifferenceClass(0).Code(); c != codeNone {
		t.Errorf("no difference has code %s", c)
	}
}

// ExamplePath names a path each pattern matches for Google ('*' and '$'
// taken out), and one for a value without its leading '/' (which Google
// matches with nothing).
func TestExamplePath(t *testing.T) {
	for pattern, want := range map[string]string{
		"/a/b": "/a/b", "/*.pdf$": "/.pdf", "private/": "/private/", "*": "/", "": "/", "/search?*q=": "/search?q=",
	} {
		if got := ExamplePath(pattern); got != want {
			t.Errorf("ExamplePath(%q) = %q, want %q", pattern, got, want)
		}
		matches := pattern != "" && (pattern[0] == '/' || pattern[0] == '*')
		if f := ParseString("User-agent: *\nDisallow: " + pattern + "\n"); matches && f.Allowed(ExamplePath(pattern), "FooBot") {
			t.Errorf("%q does not disallow its example path %q", pattern, want)
		}
	}
}

// TestDisagreementsAskEveryCrawler: Disagreements, which selects each
// reading's groups once per crawler and skips a crawler whose selections
// (Google's and the reading's) an earlier crawler had, finds what asking
// every reading of every crawler on every path finds, examples included:
// over every 30th body of the egonkm corpus with the tracked crawlers,
// a file where two crawlers share every selection, and one whose values
// Google cuts.
func TestDisagreementsAskEveryCrawler(t *testing.T) {
	var names []string
	for _, c := range trackedCrawlers {
		names = append(names, c.Token)
	}
	check := func(name string, f *File, crawlers []string) {
		t.Helper()
		got, want := f.Disagreements(crawlers), disagreementsOneByOne(f, crawlers)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: disagreements\n %+v\nasking every crawler\n %+v", name, got, want)
		}
	}
	check("two bots", ParseString("User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n\nUser-agent: bot\nDisallow: /x\n"),
		[]string{"Google-Extended", "GPTBot", "Googlebot", "CCBot"})
	// Values Google cuts ("008" to nothing, "Twitterbot/1.0" to a token)
	// asked as crawlers: the shortcuts for product tokens do not hold.
	check("cut values", ParseString("User-agent: *\nDisallow: /voting\n\nUser-agent: 008\nDisallow: /\t\n\nUser-agent: Twitterbot/1.0\nDisallow: /t\n"),
		[]string{"GPTBot"})
	bodies := testutil.TarBodies(t, testutil.Corpus(t, "robots", "egonkm-robots-txt", "robots.tar.gz"))
	files, found := 0, 0
	for i := 0; i < len(bodies); i += 30 {
		f := Parse(bodies[i].Data)
		check(bodies[i].Name, f, names)
		files, found = files+1, found+len(f.trackedDisagreements())
	}
	if found == 0 {
		t.Fatalf("no disagreement in %d files: the comparison proves nothing", files)
	}
	t.Logf("%d files, %d disagreements", files, found)
}

// disagreementsOneByOne is Disagreements asking every reading of every
// crawler on every path with Reading.Match, nothing shared or skipped.
func disagreementsOneByOne(f *File, crawlers []string) []Disagreement {
	var x Explainer
	found := map[Difference]*Disagreement{}
	var order []Difference
	var readings []*Reading
	for _, sem := range AllSemantics()[1:] {
		readings = append(readings, f.As(sem))
	}
	paths := f.examplePaths()
	for _, name := range f.disagreementCrawlers(crawlers) {
		token := []string{ExtractAgentToken(name)}
		for _, path := range paths {
			g := f.Match(path, token)
			for _, r := range readings {
				sem, agents := r.sem, token
				if sem == SemanticsPythonLegacy || sem == SemanticsPython {
					agents = []string{name}
				}
				v := r.Match(path, agents)
				if v.Allowed == g.Allowed {
					continue
				}
				d := x.ExplainQuestion(f, Question{Semantics: sem, Path: path, Google: g, Other: v})
				key := Difference{Class: d.Class, Line: d.Line}
				dis := found[key]
				if dis == nil {
					dis = &Disagreement{Line: d.Line, Class: d.Class}
					found[key], order = dis, append(order, key)
				}
				if !slices.ContainsFunc(dis.Examples, func(e ReadingExample) bool { return e.Semantics == sem }) {
					dis.Examples = append(dis.Examples, ReadingExample{Semantics: sem, Crawler: name, Path: path, Google: g, Other: v})
				}
			}
		}
	}
	slices.SortFunc(order, func(a, b Difference) int { return cmp.Or(a.Line-b.Line, int(a.Class)-int(b.Class)) })
	out := make([]Disagreement, 0, len(order))
	for _, k := range order {
		dis := found[k]
		slices.SortFunc(dis.Examples, func(a, b ReadingExample) int { return int(a.Semantics) - int(b.Semantics) })
		out = append(out, *dis)
	}
	return out
}
