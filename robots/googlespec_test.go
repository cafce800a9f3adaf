package robots

import (
	"strconv"
	"strings"
	"testing"
)

// Every example of Google's published robots.txt specification: the
// path-matching table, the precedence table and the group examples.

// The path-matching table: for each pattern, the paths it matches and the
// paths it does not.
func TestGoogleSpec_PathMatching(t *testing.T) {
	cases := []struct {
		pattern  string
		match    []string
		noMatch  []string
		sameAsOf string // the pattern is documented as equivalent to this one
	}{
		{pattern: "/", match: []string{"/", "/fish", "/a/b/c.html"}},
		{pattern: "/*", match: []string{"/", "/fish", "/a/b/c.html"}, sameAsOf: "/"},
		{pattern: "/$", match: []string{"/"}, noMatch: []string{"/fish", "/?a"}},
		{
			pattern: "/fish",
			match:   []string{"/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fishheads/yummy.html", "/fish.php?id=anything"},
			noMatch: []string{"/Fish.asp", "/catfish", "/?id=fish", "/desert/fish"},
		},
		{
			pattern:  "/fish*",
			match:    []string{"/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fishheads/yummy.html", "/fish.php?id=anything"},
			noMatch:  []string{"/Fish.asp", "/catfish", "/?id=fish", "/desert/fish"},
			sameAsOf: "/fish",
		},
		{
			pattern: "/fish/",
			match:   []string{"/fish/", "/fish/?id=anything", "/fish/salmon.htm"},
			noMatch: []string{"/fish", "/fish.html", "/animals/fish/", "/Fish/Salmon.asp"},
		},
		{
			pattern: "/*.php",
			match:   []string{"/index.php", "/filename.php", "/folder/filename.php", "/folder/filename.php?parameters", "/folder/any.php.file.html", "/filename.php/"},
			noMatch: []string{"/", "/windows.PHP"},
		},
		{
			pattern: "/*.php$",
			match:   []string{"/filename.php", "/folder/filename.php"},
			noMatch: []string{"/filename.php?parameters", "/filename.php/", "/filename.php5", "/windows.PHP"},
		},
		{
			pattern: "/fish*.php",
			match:   []string{"/fish.php", "/fishheads/catfish.php?parameters"},
			noMatch: []string{"/Fish.PHP"},
		},
	}
	for _, c := range cases {
		body := "User-agent: *\nDisallow: " + c.pattern + "\n"
		for _, p := range c.match {
			if allowed(t, body, "http://example.com"+p, "FooBot") {
				t.Errorf("pattern %q should match %q", c.pattern, p)
			}
		}
		for _, p := range c.noMatch {
			if !allowed(t, body, "http://example.com"+p, "FooBot") {
				t.Errorf("pattern %q should not match %q", c.pattern, p)
			}
		}
		if c.sameAsOf != "" {
			other := "User-agent: *\nDisallow: " + c.sameAsOf + "\n"
			for _, p := range append(c.match, c.noMatch...) {
				u := "http://example.com" + p
				if allowed(t, body, u, "FooBot") != allowed(t, other, u, "FooBot") {
					t.Errorf("%q and %q differ on %q", c.pattern, c.sameAsOf, p)
				}
			}
		}
	}
}

// A rule whose second byte is not the path's is passed over without
// reading its pattern (Rule.lead), except where it may still match: a '*'
// may stand for anything, a final '$' is no byte to match, and an allow's
// index.htm leniency matches its shorter directory. Each case here is
// decided by, or passes over, such a rule.
func TestMatchRuleLead(t *testing.T) {
	for _, c := range []struct {
		body, path string
		allowed    bool
		line       int
	}{
		{"User-agent: *\nDisallow: /ab\n", "/a", true, 0},
		{"User-agent: *\nDisallow: /ab\n", "/ab", false, 2},
		{"User-agent: *\nDisallow: /ab$\n", "/ab", false, 2},
		{"User-agent: *\nDisallow: /ab$\n", "/a", true, 0},
		{"User-agent: *\nDisallow: /a*b*c\n", "/abc", false, 2},
		{"User-agent: *\nDisallow: /a***\n", "/a", false, 2},
		{"User-agent: *\nDisallow: /\nAllow: /dir/index.html\n", "/dir/", true, 3},
		{"User-agent: *\nDisallow: /\nAllow: /d\u00e9/index.htm\n", "/d%C3%A9/", true, 3},
		{"User-agent: *\nDisallow: /\nAllow: /caf\u00e9\n", "/caf%C3%A9", true, 3},
		{"User-agent: *\nDisallow: /\nAllow: /caf\u00e9\n", "/caf%C3%A", false, 2},
		{"User-agent: *\nDisallow: /a\n", "/", true, 0},
		{"User-agent: *\nDisallow: /a\n", "/b", true, 0},
		{"User-agent: *\nDisallow: /$\n", "/", false, 2},
		{"User-agent: *\nDisallow: /$\n", "/a", true, 0},
		{"User-agent: *\nDisallow: /*x\n", "/ax", false, 2},
		{"User-agent: *\nDisallow: *x\n", "/ax", false, 2},
		{"User-agent: *\nDisallow: /$x\n", "/$x", false, 2},
		{"User-agent: *\nDisallow: /\nAllow: /index.html\n", "/", true, 3},
		{"User-agent: *\nDisallow: /\nAllow: /\u00e9\n", "/%C3%A9", true, 3},
		{"User-agent: *\nDisallow: /\nAllow: /%c3%a9\n", "/%C3%A9", true, 3},
	} {
		if v := ParseString(c.body).Match("http://e.com"+c.path, []string{"bot"}); v.Allowed != c.allowed || v.Line != c.line {
			t.Errorf("%q on %s: %+v, want allowed %v by line %d", c.body, c.path, v, c.allowed, c.line)
		}
	}
}

// The precedence table: the most specific (longest) rule wins, and the least
// restrictive on a tie. The table calls allow: /page against
// disallow: /*.htm "undefined"; Google's parser says disallow, as the
// longer pattern.
func TestGoogleSpec_Precedence(t *testing.T) {
	cases := []struct {
		url, rules string
		want       bool
	}{
		{"http://example.com/page", "allow: /p\ndisallow: /", true},
		{"http://example.com/folder/page", "allow: /folder\ndisallow: /folder", true},
		{"http://example.com/page.htm", "allow: /page\ndisallow: /*.htm", false},
		{"http://example.com/page.php5", "allow: /page\ndisallow: /*.ph", true},
		{"http://example.com/", "allow: /$\ndisallow: /", true},
		{"http://example.com/page.htm", "allow: /$\ndisallow: /", false},
	}
	for _, c := range cases {
		if got := allowed(t, "user-agent: *\n"+c.rules+"\n", c.url, "FooBot"); got != c.want {
			t.Errorf("%s with %q: allowed=%v, want %v", c.url, c.rules, got, c.want)
		}
	}
}

// Group selection: only the most specific matching group is followed.
// Google's crawlers pass their own token first and fall back to a more
// general one ("Googlebot-Image" then "Googlebot"); the matcher takes both.
func TestGoogleSpec_GroupSelection(t *testing.T) {
	const body = "user-agent: googlebot-news\ndisallow: /group1\n\nuser-agent: *\ndisallow: /group2\n\nuser-agent: googlebot\ndisallow: /group3\n"
	follows := func(agents []string) string {
		f := ParseString(body)
		var out []string
		for _, g := range []string{"/group1", "/group2", "/group3"} {
			if !f.Allowed("http://example.com"+g, agents...) {
				out = append(out, g)
			}
		}
		return strings.Join(out, ",")
	}
	cases := []struct {
		crawler string
		agents  []string
		group   string
	}{
		{"Googlebot News", []string{"googlebot-news"}, "/group1"},
		{"Googlebot (web)", []string{"googlebot"}, "/group3"},
		{"Googlebot Images", []string{"googlebot-image", "googlebot"}, "/group3"},
		{"Googlebot News (when crawling images)", []string{"googlebot-news"}, "/group1"},
		{"Otherbot (web)", []string{"otherbot"}, "/group2"},
		{"Otherbot (news)", []string{"otherbot-news"}, "/group2"},
	}
	for _, c := range cases {
		if got := follows(c.agents); got != c.group {
			t.Errorf("%s (%v): follows %q, want %q", c.crawler, c.agents, got, c.group)
		}
	}
}

// Grouping: four groups, the last one ("h") empty; whitespace and blank
// lines are optional.
func TestGoogleSpec_Groups(t *testing.T) {
	const body = "user-agent: a\ndisallow: /c\n\nuser-agent: b\ndisallow: /d\n\nuser-agent: e\nuser-agent: f\ndisallow: /g\n\nuser-agent: h\n"
	f := ParseString(body)
	var got []string
	for _, g := range f.Groups {
		var names []string
		for _, a := range g.Agents(f) {
			names = append(names, a.Value(f))
		}
		got = append(got, strings.Join(names, "+")+":"+strconv.Itoa(len(g.Rules(f))))
	}
	if strings.Join(got, " ") != "a:1 b:1 e+f:1 h:0" {
		t.Errorf("groups %v", got)
	}
	expectVerdicts(t, body, "h", "allow http://example.com/c")
	expectVerdicts(t, body, "f", "disallow http://example.com/g")
}

// Merging: rules of groups for the same agent are combined; the '*' group
// stays separate.
func TestGoogleSpec_MergedGroups(t *testing.T) {
	const body = "user-agent: googlebot-news\ndisallow: /fish\n\nuser-agent: *\ndisallow: /carrots\n\nuser-agent: googlebot-news\ndisallow: /shrimp\n"
	expectVerdicts(t, body, "googlebot-news", `
		disallow http://example.com/fish
		disallow http://example.com/shrimp
		allow http://example.com/carrots`)
	expectVerdicts(t, body, "otherbot", `
		allow http://example.com/fish
		disallow http://example.com/carrots`)
}

// The user-agent value is case-insensitive and everything after the token is
// ignored: googlebot/1.2 and googlebot* equal googlebot.
func TestGoogleSpec_AgentTokenExamples(t *testing.T) {
	for _, ua := range []string{"googlebot/1.2", "googlebot*", "Googlebot", "GOOGLEBOT"} {
		expectVerdicts(t, "user-agent: "+ua+"\ndisallow: /\n", "googlebot", "disallow http://example.com/x")
	}
}
