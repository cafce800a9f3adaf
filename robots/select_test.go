package robots

import (
	"testing"
)

// A Selection gives Reading.Match's verdict, line included, for every
// reading, on every 40th body of each set of the shared corpus (and, for the statuses that
// decide alone, on a few of them with each such status), for the crawlers
// its user-agent values name, by token and by name, GPTBot, CCBot,
// Googlebot, no crawler and two agents at once, on the paths the census
// asks (askedPaths) and URLs that each reading parses or refuses in its
// own way. One Selection is reused from crawler to crawler and reading to
// reading, as the census reuses it.
func TestSelectionMatchesReading(t *testing.T) {
	extra := []string{"https://e.com/a?b#c", "//[x/y", "/robots.txt", "/robots.txt?x", "/a%3Cb", "/%7Ejoe/", "http://e.com", "/wp-admin/admin-ajax.php"}
	var s Selection
	compared, files := 0, 0
	check := func(name string, f *File) {
		files++
		paths := append(askedPaths(f), extra...)
		agents := namedTokens(f, trackedTokens())
		for _, n := range pyNames(f) {
			agents = append(agents, []string{n})
		}
		agents = append(agents, []string{"Googlebot-Image", "Googlebot"})
		for _, sem := range AllSemantics() {
			r := f.As(sem)
			for _, a := range agents {
				r.Select(a, &s)
				for _, p := range paths {
					compared++
					if got, want := s.Match(p), r.Match(p, a); got != want {
						t.Fatalf("%s: %s, agents %q, %q: the selection gives %+v, the reading %+v", name, sem, a, p, got, want)
					}
				}
			}
		}
	}
	for _, set := range loadCorpus(t) {
		for i := 0; i < len(set.bodies); i += 40 {
			body := set.bodies[i]
			check(set.name+"/"+body.Name, ParseResponse(Response{}, body.Data))
			if i < 800 {
				for _, status := range []int{301, 401, 404, 429, 503} {
					check(set.name+"/"+body.Name, ParseResponse(Response{Status: status}, body.Data))
				}
			}
		}
	}
	t.Logf("%d files, %d verdicts compared", files, compared)
}

// trackedTokens are the product tokens of the tracked crawlers, each once.
func trackedTokens() []string {
	var tokens []string
	seen := map[string]bool{}
	for _, c := range TrackedCrawlers() {
		if t := c.MatchToken(); !seen[t] {
			seen[t] = true
			tokens = append(tokens, t)
		}
	}
	return tokens
}
