package robots

import (
	"slices"
	"strings"
	"testing"
)

// Every body of the shared corpus that ReadsAsGoogle says rfc9309 or
// crawler-commons reads as Google does gets, from that reading, Google's
// verdict on the root, the census's probe path, "/index.html" and the paths
// its first 50 rules name (askedPaths), for every tracked crawler a
// user-agent value names, whole or by Google's cut (by the product token
// Google's cut gives it, as the census asks), for GPTBot, CCBot and
// Googlebot, and for no crawler (the '*' groups), wherever
// AgentsReadAsGoogle accepts the crawler. It also checks that the claim is
// made for a good share of the files and refused for the others.
func TestReadsAsGoogleOnCorpus(t *testing.T) {
	var tokens []string
	for _, c := range TrackedCrawlers() {
		if t := c.MatchToken(); !slices.Contains(tokens, t) {
			tokens = append(tokens, t)
		}
	}
	total, alike, compared, refused := 0, map[Semantics]int{}, 0, 0
	for _, set := range loadCorpus(t) {
		for _, body := range set.bodies {
			total++
			f := ParseResponse(Response{}, body.Data)
			paths := askedPaths(f)
			for _, s := range AllSemantics() {
				if !f.ReadsAsGoogle(s) {
					continue
				}
				alike[s]++
				r := f.As(s)
				agents := namedTokens(f, tokens)
				for _, a := range agents {
					if !f.AgentsReadAsGoogle(s, a) {
						refused++
						continue
					}
					for _, p := range paths {
						compared++
						if got, want := r.Match(p, a).Allowed, f.Match(p, a).Allowed; got != want {
							t.Fatalf("%s/%s: %s gives %v agents %q the verdict allowed=%v, Google allowed=%v", set.name, body.Name, s, p, a, got, want)
						}
					}
				}
			}
		}
	}
	for _, s := range []Semantics{SemanticsGoogle, SemanticsPythonLegacy, SemanticsPython} {
		if alike[s] != 0 {
			t.Errorf("%s: ReadsAsGoogle true for %d files, want none", s, alike[s])
		}
	}
	for _, s := range []Semantics{SemanticsRFC9309, SemanticsCrawlerCommons} {
		if alike[s] < total/4 {
			t.Errorf("%s: ReadsAsGoogle true for %d of %d files, want a quarter at least", s, alike[s], total)
		}
	}
	t.Logf("%d bodies; read as Google: rfc9309 %d, crawler-commons %d; %d verdicts compared, %d agents refused", total, alike[SemanticsRFC9309], alike[SemanticsCrawlerCommons], compared, refused)
}

// ReadsAsGoogle refuses each kind of line on which a reading may differ.
func TestReadsAsGoogleRefuses(t *testing.T) {
	alike := "User-agent: GPTBot\nUser-agent: *\nDisallow: /private/*.php$\nAllow: /private/ok?x=1\n\n# c\nSitemap: https://x/s.xml\n"
	for _, s := range []Semantics{SemanticsRFC9309, SemanticsCrawlerCommons} {
		if !ParseString(alike).ReadsAsGoogle(s) {
			t.Fatalf("%s: a plain file read as Google's is refused", s)
		}
		for _, body := range []string{
			"User-agent: * x\nDisallow: /\n",                // '*' for Google alone
			"User-agent: *\nDissallow: /\n",                 // misspelt key
			"User-agent: *\nCrawl-delay: 500\nDisallow: /a", // crawl-delay
			"User-agent: *\nDisallow: /a%2Fb\n",             // percent-encoding
			"User-agent: *\nDisallow: /a b\n",               // a byte crawler-commons encodes
			"User-agent: *\nDisallow: /a$b\n",               // '$' inside
			"User-agent: *\nAllow: /d/index.html\n",         // index.htm leniency
			"User-agent: *\nDisallow: /robots.txt\n",        // always allowed
			"User-agent: *\nDisallow: a\n",                  // no leading '/'
			"<html>User-agent: *\nDisallow: /\n",            // HTML
			"User-agent: *\nDisallow: /é\n",                 // not plain
		} {
			if ParseString(body).ReadsAsGoogle(s) {
				t.Errorf("%s: %q read as Google's", s, body)
			}
		}
		if ParseResponse(Response{Status: 429}, []byte(alike)).ReadsAsGoogle(s) {
			t.Errorf("%s: status 429 read as Google's", s)
		}
	}
	version := ParseString("User-agent: GPTBot/1.0\nDisallow: /\n\nUser-agent:\nDisallow: /a\n")
	for _, c := range []struct {
		s      Semantics
		agents []string
		want   bool
	}{
		{SemanticsRFC9309, []string{"GPTBot"}, false}, // the whole value names no crawler for RFC 9309
		{SemanticsRFC9309, []string{"CCBot"}, true},
		{SemanticsRFC9309, nil, true},
		{SemanticsCrawlerCommons, []string{"GPTBot"}, true}, // "GPTBot/1.0" starts with a name
	} {
		if !version.ReadsAsGoogle(c.s) || version.AgentsReadAsGoogle(c.s, c.agents) != c.want {
			t.Errorf("%s: a versioned value and an empty one, agents %q: want %v", c.s, c.agents, c.want)
		}
	}
	if ParseString(alike).AgentsReadAsGoogle(SemanticsPython, nil) {
		t.Errorf("python: AgentsReadAsGoogle true")
	}
}

// namedTokens are the agents TestReadsAsGoogleOnCorpus asks for: each of
// tokens that a user-agent value of f, whole or by Google's cut, names
// ignoring case, GPTBot, CCBot, Googlebot, and none.
func namedTokens(f *File, tokens []string) [][]string {
	out := [][]string{{"GPTBot"}, {"CCBot"}, {"Googlebot"}, nil}
	for _, t := range tokens {
		for _, a := range f.agents {
			if strings.EqualFold(a.Value(f), t) || strings.EqualFold(a.Token(f), t) {
				out = append(out, []string{t})
				break
			}
		}
	}
	return out
}

// A status outside 2xx decides every reading's verdicts without its body
// (As reads nothing then): each reading gives, for a body that disallows
// everything to everyone, what its doc comment says of the status, whatever
// the crawler and the path.
func TestReadingStatusDecidesAlone(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /\n\nUser-agent: GPTBot\nAllow: /\n")
	allowed := map[int][]bool{ // google, python-legacy, rfc9309, python, crawler-commons
		301: {true, true, true, true, true},
		401: {true, false, true, false, true},
		404: {true, true, true, true, true},
		429: {false, true, true, true, true},
		503: {false, false, false, false, false},
	}
	for status, want := range allowed {
		f := ParseResponse(Response{Status: status}, body)
		for _, s := range AllSemantics() {
			r := f.As(s)
			for _, agents := range [][]string{{"GPTBot"}, {"CCBot"}, nil} {
				for _, p := range []string{"/", "/a"} {
					if got := r.Match(p, agents); got.Allowed != want[s] || got.Line != 0 {
						t.Errorf("status %d, %s, %q, %s: %+v, want allowed=%v by no line", status, s, agents, p, got, want[s])
					}
				}
			}
		}
	}
}
