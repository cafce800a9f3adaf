package robots

import (
	"fmt"
	"strings"
	"testing"
)

// pyQuery is a crawler as the census asks the python readings (by its
// name) and Google's (by a product token, or none for the '*' groups).
type pyQuery struct {
	name   string
	google []string
}

// Every body of the shared corpus that PythonReadsAsGoogle says a python
// reading reads as Google does gets, from that reading, for every crawler
// PythonNamesAsGoogle accepts, Google's verdict on the root, the census's
// probe path, "/index.html" and the path each of its first 50 rules names
// ('*' and '$' taken out). The crawlers asked are, as the census asks
// them, each tracked crawler a user-agent value relates to (by its name
// for Python; by its product token and by none for Google), each such
// token given to both (a fallback), and GPTBot, CCBot and Googlebot. It
// also checks that the claim is made for a good share of the files and
// never for the other readings.
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
// crawler of pyQueries that PythonNamesAsGoogle accepts, on askedPaths:
// how many crawlers it compared, and the first difference.
func pyVerdictsAlike(f *File, s Semantics) (int, error) {
	r, n := f.As(s), 0
	for _, q := range pyQueries(f) {
		if !f.PythonNamesAsGoogle(s, q.name, q.google) {
			continue
		}
		n++
		for _, p := range askedPaths(f) {
			if got, want := r.Match(p, []string{q.name}).Allowed, f.Match(p, q.google).Allowed; got != want {
				return n, fmt.Errorf("%s gives %q on %s allowed=%v, Google given %q allowed=%v", s, q.name, p, got, q.google, want)
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
		if p := strings.NewReplacer("*", "", "$", "").Replace(r.Value); strings.HasPrefix(p, "/") {
			paths = append(paths, p)
		}
		if strings.ContainsAny(r.Value, "*$") {
			if p := strings.NewReplacer("*", "x/y", "$", "").Replace(r.Value); strings.HasPrefix(p, "/") {
				paths = append(paths, p, p+"z")
			}
		}
	}
	return paths
}

// pyQueries are the crawlers TestPythonReadsAsGoogleOnCorpus asks for in f.
func pyQueries(f *File) []pyQuery {
	out := []pyQuery{{"GPTBot", []string{"GPTBot"}}, {"CCBot", []string{"CCBot"}}, {"Googlebot", []string{"Googlebot"}}, {"GPTBot", nil}}
	for _, c := range TrackedCrawlers() {
		token := c.MatchToken()
		for _, a := range f.agents {
			v, n := strings.ToLower(strings.TrimSpace(a.Value)), strings.ToLower(c.Token)
			if v != "*" && (strings.Contains(n, v) || strings.Contains(v, strings.ToLower(token))) {
				out = append(out, pyQuery{c.Token, []string{token}}, pyQuery{c.Token, nil}, pyQuery{token, []string{token}})
				break
			}
		}
	}
	return out
}

// PythonReadsAsGoogle and PythonNamesAsGoogle refuse each kind of line or
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
		for _, q := range []pyQuery{{"GPTBot", []string{"GPTBot"}}, {"Googlebot", []string{"Googlebot"}}, {"CCBot", nil}, {"CCBot", []string{"CCBot"}}} {
			if !f.PythonNamesAsGoogle(s, q.name, q.google) {
				t.Errorf("%s: %v refused", s, q)
			}
		}
		for _, q := range []pyQuery{
			{"Googlebot-Image", []string{"Googlebot-Image"}}, // "Googlebot" names part of it for Python
			{"GPTBot", nil}, // Python obeys the GPTBot group, Google the '*' group
			{"GPTBot", []string{"GPTBot", "X"}},
			{"CCBot", []string{"GPTBot"}}, // Google obeys a group Python does not
		} {
			if f.PythonNamesAsGoogle(s, q.name, q.google) {
				t.Errorf("%s: %v accepted", s, q)
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
		"User-agent: *\nAllow: /a\nDisallow: /\n",                    // first match
		"User-agent: *\n\nDisallow: /\n",                             // an empty line after user-agent lines
		"User-agent: *\nDisallow: /a\n\nDisallow: /\n",               // an empty line inside a group
		"User-agent: *\nDisallow:\nDisallow: /\n",                    // an empty disallow allows everything
		"User-agent: *\nDisallow: /a\nUser-agent: *\nDisallow: /b\n", // the first '*' group alone
	} {
		if ParseString(body).PythonReadsAsGoogle(SemanticsPythonLegacy) {
			t.Errorf("python-legacy: %q read as Google's", body)
		}
	}
	if ParseString("User-agent: GPTBot\nDisallow: /a\nUser-agent: GPTBot\nDisallow: /b\n").PythonNamesAsGoogle(SemanticsPythonLegacy, "GPTBot", []string{"GPTBot"}) {
		t.Errorf("python-legacy: a crawler named by two groups accepted")
	}
	version := ParseString("User-agent: GPTBot/1.0\nDisallow: /\n")
	for _, s := range []Semantics{SemanticsPythonLegacy, SemanticsPython} {
		if !version.PythonReadsAsGoogle(s) || version.PythonNamesAsGoogle(s, "GPTBot", []string{"GPTBot"}) || !version.PythonNamesAsGoogle(s, "CCBot", nil) {
			t.Errorf("%s: a versioned user-agent value is not judged crawler by crawler", s)
		}
	}
	linguee := ParseString("User-agent: Linguee Bot\nDisallow: /a\n\nUser-agent: Linguee\nDisallow: /b\n")
	if linguee.As(SemanticsPython).Match("/b", []string{"Linguee Bot"}).Allowed == linguee.Match("/b", []string{"Linguee"}).Allowed {
		t.Errorf("python: the Linguee file reads as Google's; the case below proves nothing")
	}
	if linguee.PythonNamesAsGoogle(SemanticsPython, "Linguee Bot", []string{"Linguee"}) {
		t.Errorf("python: a crawler named by its whole name and by a part of it accepted")
	}
	if !ParseString("User-agent: *\nDisallow: /*.php$\nDisallow: /a*b/**\n").PythonReadsAsGoogle(SemanticsPython) {
		t.Errorf("python: wildcards and a final anchor refused")
	}
	if ParseString(alike).PythonReadsAsGoogle(SemanticsRFC9309) {
		t.Errorf("rfc9309: PythonReadsAsGoogle true")
	}
}
