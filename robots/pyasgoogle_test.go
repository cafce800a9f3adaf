package robots

import (
	"fmt"
	"strings"
	"testing"
)

// Every body of the shared corpus that PythonReadsAsGoogle says a python
// reading reads as Google does gets, from that reading, for every crawler
// for which PythonTokenAsGoogle finds a token, Google's verdict for that
// token (and, for python, its deciding line) on askedPaths. The crawlers
// asked are, as the census asks them, each tracked crawler a user-agent
// value relates to (by its name, and by its product token as a fallback
// is asked), and GPTBot, CCBot and Googlebot. It also checks that the
// claim is made for a good share of the files and never for the other
// readings.
func TestPythonReadsAsGoogleOnCorpus(t *testing.T) {
	total, alike, asked, compared := 0, map[Semantics]int{}, 0, 0
	for _, set := range loadCorpus(t) {
		for _, body := range set.bodies {
			total++
			f := ParseResponse(Response{}, body.Data)
			for _, s := range AllSemantics() {
				if !f.PythonReadsAsGoogle(s) {
					continue
				}
				alike[s]++
				n, err := pyVerdictsAlike(f, s)
				asked, compared = asked+n, compared+n*len(askedPaths(f))
				if err != nil {
					t.Fatalf("%s/%s: %v", set.name, body.Name, err)
				}
			}
		}
	}
	for _, s := range AllSemantics() {
		python := s == SemanticsPythonLegacy || s == SemanticsPython
		if !python && alike[s] != 0 || python && alike[s] < total/10 {
			t.Errorf("%s: PythonReadsAsGoogle true for %d of %d files; want a tenth at least for the python readings, none for the others", s, alike[s], total)
		}
	}
	t.Logf("%d bodies; read as Google: python-legacy %d, python %d; %d crawlers, %d verdicts compared", total, alike[SemanticsPythonLegacy], alike[SemanticsPython], asked, compared)
}

// pyVerdictsAlike compares python reading s of f with Google's for every
// crawler of pyNames for which PythonTokenAsGoogle finds a token, on
// askedPaths: how many crawlers it compared, and the first difference.
func pyVerdictsAlike(f *File, s Semantics) (int, error) {
	r, n := f.As(s), 0
	for _, name := range pyNames(f) {
		token, ok := f.PythonTokenAsGoogle(s, name)
		if !ok {
			continue
		}
		n++
		var google []string
		if token != "" {
			google = []string{token}
		}
		for _, p := range askedPaths(f) {
			got, want := r.Match(p, []string{name}), f.Match(p, google)
			if got.Allowed != want.Allowed || s == SemanticsPython && got.Line != want.Line {
				return n, fmt.Errorf("%s gives %q on %s %+v, Google given %q %+v", s, name, p, got, google, want)
			}
		}
	}
	return n, nil
}

// askedPaths are the paths TestPythonReadsAsGoogleOnCorpus asks: the root,
// the census's probe path, "/index.html" and, for each of f's first 50
// rules, the path it names with '*' and '$' taken out, and, for a rule
// with a wildcard or an anchor, that path with each '*' standing for
// "x/y" and with "z" after it (past the anchor).
func askedPaths(f *File) []string {
	paths := []string{"/", "/robocensus-census-probe", "/index.html"}
	for _, r := range f.Rules[:min(len(f.Rules), 50)] {
		if p := strings.NewReplacer("*", "", "$", "").Replace(r.Value(f)); strings.HasPrefix(p, "/") {
			paths = append(paths, p)
		}
		if strings.ContainsAny(r.Value(f), "*$") {
			if p := strings.NewReplacer("*", "x/y", "$", "").Replace(r.Value(f)); strings.HasPrefix(p, "/") {
				paths = append(paths, p, p+"z")
			}
		}
	}
	return paths
}

// pyNames are the crawlers' names TestPythonReadsAsGoogleOnCorpus asks
// for in f.
func pyNames(f *File) []string {
	out := []string{"GPTBot", "CCBot", "Googlebot"}
	for _, c := range TrackedCrawlers() {
		token := c.MatchToken()
		for _, a := range f.agents {
			v, n := strings.ToLower(strings.TrimSpace(a.Value(f))), strings.ToLower(c.Token)
			if v != "*" && (strings.Contains(n, v) || strings.Contains(v, strings.ToLower(token))) {
				out = append(out, c.Token, token)
				break
			}
		}
	}
	return out
}

// PythonReadsAsGoogle and PythonTokenAsGoogle refuse each kind of line or
// name on which a python reading may differ.
func TestPythonReadsAsGoogleRefuses(t *testing.T) {
	alike := "# c\nUser-agent: GPTBot\nUser-agent: Googlebot\nDisallow: /private/\nDisallow:\n\nUser-agent: *\nDisallow: /a.b-c_d~/\nSitemap: https://x/s.xml?a\n"
	for _, s := range []Semantics{SemanticsPythonLegacy, SemanticsPython} {
		f := ParseString(alike)
		if s == SemanticsPythonLegacy {
			f = ParseString(strings.Replace(alike, "Disallow:\n", "", 1))
		}
		if !f.PythonReadsAsGoogle(s) {
			t.Fatalf("%s: a plain file read as Google's is refused", s)
		}
		for name, want := range map[string]string{
			"GPTBot":          "GPTBot",
			"Googlebot":       "Googlebot",
			"Googlebot-Image": "Googlebot", // "Googlebot" names part of it for Python
			"CCBot":           "",          // no group names it: the '*' groups
		} {
			if got, ok := f.PythonTokenAsGoogle(s, name); !ok || got != want {
				t.Errorf("%s: %s read as Google's %q, %v; want %q", s, name, got, ok, want)
			}
		}
		for _, c := range []struct{ body, name string }{
			{"User-agent: 2Bot\nDisallow: /\n", "AI2Bot"},                                            // no token for Google
			{"User-agent: Googlebot\nUser-agent: Googlebot-Image\nDisallow: /\n", "Googlebot-Image"}, // two tokens
			{"User-agent: GPTBot\nDisallow: /a\n\nUser-agent: GPTBot/2\nDisallow: /\n", "GPTBot"},    // the token names a value Python does not take
		} {
			if token, ok := ParseString(c.body).PythonTokenAsGoogle(s, c.name); ok {
				t.Errorf("%s: %q for %s read as Google's %q", s, c.body, c.name, token)
			}
		}
		for _, body := range []string{
			"User-agent: *\nDisallow: /?\n",                     // urlunparse drops an empty query
			"User-agent: *\nDisallow: /a;b\n",                   // params
			"User-agent: *\nDisallow: /a$b\n",                   // '$' not at the end
			"User-agent: *\nDisallow: /a*//b\n",                 // a run starting "//": a network location
			"User-agent: *\nDisallow: //a\n",                    // a network location for urlparse
			"User-agent: *\nAllow: /d/index.html\n",             // index.htm leniency
			"User-agent: *\nDisallow: a\n",                      // no leading '/'
			"User-agent: *\nDisallow: /é\n",                     // not plain
			"Disallow: /\nUser-agent: *\nDisallow: /a\n",        // a rule before any user-agent
			"User-agent: *\nDisallow: /a\nUser-agent: GPTBot\n", // a last group without rules
			"User-agent: * x\nDisallow: /\n",                    // '*' for Google alone
			"User-agent: GPT%42ot\nDisallow: /\n",               // unquoted by Python
			"User-agent:\nDisallow: /\n",                        // empty user-agent
			"User-agent: *\nDissallow: /\n",                     // misspelt key
			"User-agent: *\nCrawl-delay: 5\nDisallow: /a\n",     // crawl-delay
			"User-agent: *\nDisallow: /a%2Fb\n",                 // percent-encoding
		} {
			if ParseString(body).PythonReadsAsGoogle(s) {
				t.Errorf("%s: %q read as Google's", s, body)
			}
		}
		if ParseResponse(Response{Status: 429}, []byte(alike)).PythonReadsAsGoogle(s) {
			t.Errorf("%s: status 429 read as Google's", s)
		}
	}
	for _, body := range []string{
		"User-agent: *\nDisallow: /*.php\n",                          // a literal '*'
		"User-agent: *\nDisallow: /a$\n",                             // a literal '$'
		"User-agent: *\nDisallow: /\nAllow: /a\n",                    // first match: a disallow before a longer allow
		"User-agent: *\nDisallow: /a\nAllow: /a\n",                   // first match: a disallow before an equal allow
		"User-agent: *\nAllow: /a\nDisallow: /a/b\n",                 // first match: an allow before a longer disallow
		"User-agent: *\n\nDisallow: /\n",                             // an empty line after user-agent lines
		"User-agent: *\nDisallow: /a\n\nDisallow: /\n",               // an empty line inside a group
		"User-agent: *\nDisallow:\nDisallow: /\n",                    // an empty disallow allows everything
		"User-agent: *\nDisallow: /a\nUser-agent: *\nDisallow: /b\n", // the first '*' group alone
	} {
		if ParseString(body).PythonReadsAsGoogle(SemanticsPythonLegacy) {
			t.Errorf("python-legacy: %q read as Google's", body)
		}
	}
	for _, body := range []string{
		"User-agent: *\nAllow: /a\nDisallow: /\n",                       // the longer first
		"User-agent: *\nAllow: /a\nDisallow: /a\n",                      // equal, the allow first: it wins for both
		"User-agent: *\nDisallow: /\n\nUser-agent: GPTBot\nAllow: /a\n", // another group
	} {
		if !ParseString(body).PythonReadsAsGoogle(SemanticsPythonLegacy) {
			t.Errorf("python-legacy: %q refused", body)
		}
	}
	if _, ok := ParseString("User-agent: GPTBot\nDisallow: /a\nUser-agent: GPTBot\nDisallow: /b\n").PythonTokenAsGoogle(SemanticsPythonLegacy, "GPTBot"); ok {
		t.Errorf("python-legacy: a crawler named by two groups accepted")
	}
	version := ParseString("User-agent: GPTBot/1.0\nDisallow: /\n")
	for _, s := range []Semantics{SemanticsPythonLegacy, SemanticsPython} {
		if token, ok := version.PythonTokenAsGoogle(s, "GPTBot"); !version.PythonReadsAsGoogle(s) || !ok || token != "" {
			t.Errorf("%s: GPTBot/1.0 read as Google's %q, %v; want the '*' groups (none)", s, token, ok)
		}
	}
	linguee := ParseString("User-agent: Linguee Bot\nDisallow: /a\n\nUser-agent: Linguee\nDisallow: /b\n")
	if linguee.As(SemanticsPython).Match("/b", []string{"Linguee Bot"}).Allowed == linguee.Match("/b", []string{"Linguee"}).Allowed {
		t.Errorf("python: the Linguee file reads as Google's; the case below proves nothing")
	}
	if token, ok := linguee.PythonTokenAsGoogle(SemanticsPython, "Linguee Bot"); ok {
		t.Errorf("python: a crawler named by its whole name and by a part of it read as Google's %q", token)
	}
	if !ParseString("User-agent: *\nDisallow: /*.php$\nDisallow: /a*b/**\n").PythonReadsAsGoogle(SemanticsPython) {
		t.Errorf("python: wildcards and a final anchor refused")
	}
	if ParseString(alike).PythonReadsAsGoogle(SemanticsRFC9309) {
		t.Errorf("rfc9309: PythonReadsAsGoogle true")
	}
}
