package robots

import (
	"slices"
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
)

// pySuiteCase is a case of CPython's Lib/test/test_robotparser.py (3.11),
// named by its test class: the file, the agent and the URLs the module's
// own test expects to be allowed (good) and disallowed (bad).
type pySuiteCase struct {
	class     string
	body      string
	agent     string
	good, bad []string
}

// pySuite are the can_fetch expectations of CPython 3.11's
// Lib/test/test_robotparser.py (github.com/python/cpython, branch 3.11),
// class by class; the agent is the class's, "test_robotparser" by default.
var pySuite = []pySuiteCase{
	{"UserAgentWildcardTest", "User-agent: *\nDisallow: /cyberworld/map/ # This is an infinite virtual URL space\nDisallow: /tmp/ # these will soon disappear\nDisallow: /foo.html\n", "test_robotparser",
		[]string{"/", "/test.html"}, []string{"/cyberworld/map/index.html", "/tmp/xxx", "/foo.html"}},
	{"CrawlDelayAndCustomAgentTest", "# robots.txt for http://www.example.com/\n\nUser-agent: *\nCrawl-delay: 1\nRequest-rate: 3/15\nDisallow: /cyberworld/map/ # This is an infinite virtual URL space\n\n# Cybermapper knows where to go.\nUser-agent: cybermapper\nDisallow:\n", "test_robotparser",
		[]string{"/", "/test.html"}, []string{"/cyberworld/map/index.html"}},
	{"CrawlDelayAndCustomAgentTest/cybermapper", "# robots.txt for http://www.example.com/\n\nUser-agent: *\nCrawl-delay: 1\nRequest-rate: 3/15\nDisallow: /cyberworld/map/ # This is an infinite virtual URL space\n\n# Cybermapper knows where to go.\nUser-agent: cybermapper\nDisallow:\n", "cybermapper",
		[]string{"/cyberworld/map/index.html"}, nil},
	{"RejectAllRobotsTest", "# go away\nUser-agent: *\nDisallow: /\n", "test_robotparser",
		nil, []string{"/cyberworld/map/index.html", "/", "/tmp/"}},
	{"CrawlDelayAndRequestRateTest", "User-agent: figtree\nCrawl-delay: 3\nRequest-rate: 9/30\nDisallow: /tmp\nDisallow: /a%3cd.html\nDisallow: /a%2fb.html\nDisallow: /%7ejoe/index.html\n", "figtree",
		[]string{"/foo.html"}, []string{"/tmp", "/tmp.html", "/tmp/a.html", "/a%3cd.html", "/a%3Cd.html", "/a%2fb.html", "/~joe/index.html"}},
	{"DifferentAgentTest", "User-agent: figtree\nCrawl-delay: 3\nRequest-rate: 9/30\nDisallow: /tmp\nDisallow: /a%3cd.html\nDisallow: /a%2fb.html\nDisallow: /%7ejoe/index.html\n", "FigTree Robot libwww-perl/5.04",
		[]string{"/foo.html"}, []string{"/tmp", "/tmp.html", "/tmp/a.html", "/a%3cd.html", "/a%3Cd.html", "/a%2fb.html", "/~joe/index.html"}},
	{"InvalidRequestRateTest", "User-agent: *\nDisallow: /tmp/\nDisallow: /a%3Cd.html\nDisallow: /a/b.html\nDisallow: /%7ejoe/index.html\nCrawl-delay: 3\nRequest-rate: 9/banana\n", "test_robotparser",
		[]string{"/tmp"}, []string{"/tmp/", "/tmp/a.html", "/a%3cd.html", "/a%3Cd.html", "/a/b.html", "/%7Ejoe/index.html"}},
	{"InvalidCrawlDelayTest", "User-Agent: *\nDisallow: /.\nCrawl-delay: pears\n", "test_robotparser",
		[]string{"/foo.html"}, nil},
	{"AnotherInvalidRequestRateTest", "User-agent: Googlebot\nAllow: /folder1/myfile.html\nDisallow: /folder1/\nRequest-rate: whale/banana\n", "Googlebot",
		[]string{"/folder1/myfile.html"}, []string{"/folder1/anotherfile.html"}},
	{"UserAgentOrderingTest", "User-agent: Googlebot\nDisallow: /\n\nUser-agent: Googlebot-Mobile\nAllow: /\n", "Googlebot",
		nil, []string{"/something.jpg"}},
	{"UserAgentGoogleMobileTest", "User-agent: Googlebot\nDisallow: /\n\nUser-agent: Googlebot-Mobile\nAllow: /\n", "Googlebot-Mobile",
		nil, []string{"/something.jpg"}},
	{"GoogleURLOrderingTest", "User-agent: Googlebot\nAllow: /folder1/myfile.html\nDisallow: /folder1/\n", "googlebot",
		[]string{"/folder1/myfile.html"}, []string{"/folder1/anotherfile.html"}},
	{"DisallowQueryStringTest", "User-agent: *\nDisallow: /some/path?name=value\n", "test_robotparser",
		[]string{"/some/path"}, []string{"/some/path?name=value"}},
	{"UseFirstUserAgentWildcardTest", "User-agent: *\nDisallow: /some/path\n\nUser-agent: *\nDisallow: /another/path\n", "test_robotparser",
		[]string{"/another/path"}, []string{"/some/path"}},
	{"EmptyQueryStringTest", "User-agent: *\nAllow: /some/path?\nDisallow: /another/path?\n", "test_robotparser",
		[]string{"/some/path?"}, []string{"/another/path?"}},
	{"DefaultEntryTest", "User-agent: *\nCrawl-delay: 1\nRequest-rate: 3/15\nDisallow: /cyberworld/map/\n", "test_robotparser",
		[]string{"/", "/test.html"}, []string{"/cyberworld/map/index.html"}},
}

// TestPythonLegacySuite gives the verdicts CPython's own test suite expects
// of urllib.robotparser, without python3.
func TestPythonLegacySuite(t *testing.T) {
	for _, c := range pySuite {
		r := ParseString(c.body).As(SemanticsPythonLegacy)
		for _, u := range c.good {
			if v := r.Match(u, []string{c.agent}); !v.Allowed {
				t.Errorf("%s: %s for %q: disallowed by line %d, want allowed", c.class, u, c.agent, v.Line)
			}
		}
		for _, u := range c.bad {
			if v := r.Match(u, []string{c.agent}); v.Allowed {
				t.Errorf("%s: %s for %q: allowed (line %d), want disallowed", c.class, u, c.agent, v.Line)
			}
		}
	}
}

// TestPythonLegacyDiffers pins each documented difference from Google: the
// verdict of each reading and the line that decided.
func TestPythonLegacyDiffers(t *testing.T) {
	tests := []struct {
		name, body, agent, url string
		google, python         Verdict
	}{
		{"first match, not longest (WordPress's default file)",
			"User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n", "GPTBot", "/wp-admin/admin-ajax.php",
			Verdict{true, 3}, Verdict{false, 2}},
		{"a blank line after user-agent ends the group",
			"User-agent: GPTBot\n\nDisallow: /\n", "GPTBot", "/",
			Verdict{false, 3}, Verdict{true, 0}},
		{"a blank line inside a group ends it",
			"User-agent: GPTBot\nDisallow: /a\n\nDisallow: /\n", "GPTBot", "/b",
			Verdict{false, 4}, Verdict{true, 0}},
		{"a whitespace-only line does not end the group",
			"User-agent: GPTBot\n \nDisallow: /\n", "GPTBot", "/",
			Verdict{false, 3}, Verdict{false, 3}},
		{"an empty user-agent names every crawler",
			"User-agent:\nDisallow: /\n", "GPTBot", "/",
			Verdict{true, 0}, Verdict{false, 2}},
		{"user-agent by substring of the crawler's name",
			"User-agent: bot\nDisallow: /\n", "GPTBot", "/",
			Verdict{true, 0}, Verdict{false, 2}},
		{"the first matching group wins, not the merge of all",
			"User-agent: GPT\nDisallow: /a\n\nUser-agent: GPTBot\nDisallow: /b\n", "GPTBot", "/b",
			Verdict{false, 5}, Verdict{true, 0}},
		{"only the first '*' group counts",
			"User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n", "GPTBot", "/b",
			Verdict{false, 5}, Verdict{true, 0}},
		{"Disallow: /? blocks everything",
			"User-agent: *\nDisallow: /?\n", "GPTBot", "/page",
			Verdict{true, 0}, Verdict{false, 2}},
		{"wildcards are literal",
			"User-agent: *\nDisallow: /*.pdf$\n", "GPTBot", "/a.pdf",
			Verdict{false, 2}, Verdict{true, 0}},
		{"rules and URLs percent-decoded",
			"User-agent: *\nDisallow: /%7Ejoe/\n", "GPTBot", "/~joe/",
			Verdict{true, 0}, Verdict{false, 2}},
		{"Disallow: with an empty path allows everything, first match",
			"User-agent: *\nDisallow:\nDisallow: /\n", "GPTBot", "/",
			Verdict{false, 3}, Verdict{true, 2}},
		{"rules before any user-agent are ignored",
			"Disallow: /\nUser-agent: *\nAllow: /a\n", "GPTBot", "/b",
			Verdict{true, 0}, Verdict{true, 0}},
		{"a typo Google accepts is an unknown key",
			"User-agent: *\nDissallow: /\n", "GPTBot", "/",
			Verdict{false, 2}, Verdict{true, 0}},
		{"a missing colon is an unknown line",
			"User-agent: *\nDisallow /\n", "GPTBot", "/",
			Verdict{false, 2}, Verdict{true, 0}},
		{"crawl-delay closes the user-agent lines",
			"User-agent: *\nCrawl-delay: 5\nUser-agent: GPTBot\nDisallow: /\n", "CCBot", "/",
			Verdict{false, 4}, Verdict{true, 0}},
		{"/robots.txt is not special",
			"User-agent: *\nDisallow: /\n", "GPTBot", "/robots.txt",
			Verdict{false, 2}, Verdict{false, 2}},
		{"a byte order mark spoils the first line",
			"\uFEFFUser-agent: GPTBot\nDisallow: /\n", "GPTBot", "/",
			Verdict{false, 2}, Verdict{true, 0}},
		{"a body that is not UTF-8 is never parsed: can_fetch is false",
			"User-agent: *\nAllow: /\n# caf\xE9\n", "GPTBot", "/",
			Verdict{true, 2}, Verdict{false, 0}},
		{"a ValueError of the parse keeps the groups before it",
			"User-agent: *\nDisallow: /a\n\nUser-agent: GPTBot\nDisallow: //[x\nDisallow: /\n", "GPTBot", "/a",
			Verdict{false, 6}, Verdict{false, 2}},
	}
	for _, tt := range tests {
		f := ParseString(tt.body)
		if g := f.As(SemanticsGoogle).Match(tt.url, []string{tt.agent}); g != tt.google {
			t.Errorf("%s: google %+v, want %+v", tt.name, g, tt.google)
		}
		if p := f.As(SemanticsPythonLegacy).Match(tt.url, []string{tt.agent}); p != tt.python {
			t.Errorf("%s: python-legacy %+v, want %+v", tt.name, p, tt.python)
		}
	}
}

// TestPythonLegacyStatus checks how statuses map to read()'s flags: 401 and
// 403 disallow all, other 4xx allow all, 5xx leave the parser unread.
func TestPythonLegacyStatus(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /a\n")
	for status, want := range map[int]bool{200: true, 401: false, 403: false, 404: true, 429: true, 500: false, 503: false, 301: true} {
		f := ParseResponse(Response{Status: status}, body)
		if got := f.As(SemanticsPythonLegacy).Match("/b", []string{"GPTBot"}).Allowed; got != want {
			t.Errorf("status %d: allowed %v, want %v", status, got, want)
		}
	}
}

// TestParseKeepsLines checks the line list the readings derive from: every
// line, raw, numbered as in diagnostics, each line's text found from the
// offsets (File.line) as the splitter cuts it, at every kind of line ending
// and at the text's ends.
func TestParseKeepsLines(t *testing.T) {
	for text, want := range map[string][]string{
		"\uFEFFUser-agent: a\r\n\r\n  Disallow: /x # c\rlast": {"User-agent: a", "", "  Disallow: /x # c", "last"},
		"":                      {""},
		"\xEF\xBB":              {""},
		"a":                     {"a"},
		"\n":                    {"", ""},
		"\r":                    {"", ""},
		"\r\n":                  {"", ""},
		"\n\r":                  {"", "", ""},
		"a\r\r\nb\n\nc\r\n":     {"a", "", "b", "", "c", ""},
		"\r\r\r":                {"", "", "", ""},
		"x\ry\r\n\r\nz":         {"x", "y", "", "z"},
		"Allow: /a\x00b\r\nend": {"Allow: /a\x00b", "end"},
	} {
		f := ParseString(text)
		got := make([]string, len(f.lines))
		for i := range f.lines {
			got[i] = f.line(i)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: lines %q, want %q", text, got, want)
		}
	}
	if g := ParseResponse(Response{Status: 404}, []byte("User-agent: *")); g.lines != nil {
		t.Errorf("an ignored body keeps lines %v", g.lines)
	}
}

// TestLineListOnCorpus: over every body of every corpus set, the line
// list's lines (File.line, from the offsets) are the lines File.Lines cuts
// when it splits the text again, in number and in bytes.
func TestLineListOnCorpus(t *testing.T) {
	lines := 0
	for _, set := range loadCorpus(t) {
		for _, body := range set.bodies {
			f := ParseResponse(Response{}, body.Data)
			i := 0
			for l := range f.Lines() {
				if i >= len(f.lines) || f.line(i) != l.Text {
					t.Fatalf("%s/%s: line %d of the list differs from the text's line %q", set.name, body.Name, l.Number, l.Text)
				}
				i++
			}
			if i != len(f.lines) {
				t.Fatalf("%s/%s: %d lines in the list, %d in the text", set.name, body.Name, len(f.lines), i)
			}
			lines += i
		}
	}
	t.Logf("%d lines compared", lines)
}

// TestPyUnparsesToItself: where pyUnparsesToItself holds, urlparse's
// parse joined back by urlunparse (pyURLParse, pyURLUnparse, which the
// module tests compare with python3) is the value itself, over every
// string of up to six bytes of an alphabet of the bytes urlparse cuts at
// and over the unquoted rule values of the egonkm corpus.
func TestPyUnparsesToItself(t *testing.T) {
	held := 0
	check := func(v string) {
		if !pyUnparsesToItself(v) {
			return
		}
		held++
		u, err := pyURLParse(v)
		if err != nil || pyURLUnparse(u) != v {
			t.Fatalf("%q: urlunparse(urlparse) is %q (%v)", v, pyURLUnparse(u), err)
		}
	}
	const alphabet = "/?#;:a\t\n\r[%"
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		check(prefix)
		if n == 0 {
			return
		}
		for i := 0; i < len(alphabet); i++ {
			gen(prefix+alphabet[i:i+1], n-1)
		}
	}
	gen("", 6)
	made := held
	for _, body := range testutil.TarBodies(t, testutil.Corpus(t, "robots", "egonkm-robots-txt", "robots.tar.gz")) {
		f := ParseResponse(Response{}, body.Data)
		for _, r := range f.Rules {
			check(pyUnquote(r.Value(f)))
		}
	}
	if made < 1000 || held-made < 1000 {
		t.Errorf("held for %d made values and %d corpus values, want more", made, held-made)
	}
}
