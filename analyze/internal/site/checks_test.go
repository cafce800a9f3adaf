package site

import (
	"fmt"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// Each site check on fixtures built by hand: a check whose computation is
// removed or wrong fails here (see scripts/mutate.hb).

// runCheck runs one check on a site whose crawls are given, oldest first,
// and returns its findings as "severity line: message".
func runCheck(t *testing.T, c *Check, crawls ...*SiteCrawl) []string {
	t.Helper()
	r := &SiteReport{Host: "www.example.com", Crawls: crawls}
	if err := runChecks(r, []*Check{c}); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range r.Findings {
		if f.Check != c.Name {
			t.Errorf("finding of %q reported as %q", c.Name, f.Check)
		}
		out = append(out, fmt.Sprintf("%s %d: %s", f.Severity, f.Line, f.Message))
	}
	return out
}

// rulesCrawl is a crawl whose robots.txt was served with 200 and has rules.
func rulesCrawl(crawl string) *SiteCrawl {
	return &SiteCrawl{Crawl: crawl, Capture: SiteCapture{Crawl: crawl, Status: 200, Outcome: robots.OutcomeRules.String(), Rules: 3,
		URL: "https://www.example.com/robots.txt", Digest: "sha1:AAAA"}}
}

// expect checks that the findings are, in order, of the given severities
// and lines and contain the given words.
func expect(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d findings %q, want %d %q", what, len(got), got, len(want), want)
		return
	}
	for i := range want {
		for _, w := range strings.Split(want[i], "|") {
			if !strings.Contains(got[i], w) {
				t.Errorf("%s: finding %q lacks %q", what, got[i], w)
			}
		}
	}
}

func TestFetchCheck(t *testing.T) {
	with := func(status int32, outcome robots.Outcome, edit func(*SiteCapture)) *SiteCrawl {
		c := rulesCrawl("c1")
		c.Capture.Status, c.Capture.Outcome = status, outcome.String()
		if edit != nil {
			edit(&c.Capture)
		}
		return c
	}
	expect(t, "rules", runCheck(t, FetchCheck, with(200, robots.OutcomeRules, nil)))
	expect(t, "503", runCheck(t, FetchCheck, with(503, robots.OutcomeDisallowAll, nil)), "error 0:|503|disallowed")
	expect(t, "404", runCheck(t, FetchCheck, with(404, robots.OutcomeAllowAll, nil)), "info 0:|no robots.txt|404")
	expect(t, "403", runCheck(t, FetchCheck, with(403, robots.OutcomeAllowAll, nil)), "warning 0:|403")
	expect(t, "redirect", runCheck(t, FetchCheck, with(301, robots.OutcomeRedirect, func(c *SiteCapture) { c.Redirect = "https://example.org/robots.txt" })),
		"info 0:|301|https://example.org/robots.txt")
	expect(t, "html", runCheck(t, FetchCheck, with(200, robots.OutcomeNotRobots, func(c *SiteCapture) { c.ContentType = "text/html" })), "error 0:|text/html")
	expect(t, "html, no status", runCheck(t, FetchCheck, with(0, robots.OutcomeNotRobots, nil)), "error 0:|no HTTP status|not a robots.txt")
	expect(t, "no rules", runCheck(t, FetchCheck, with(200, robots.OutcomeNoRules, nil)), "info 0:|no rules")
	expect(t, "cut", runCheck(t, FetchCheck, with(200, robots.OutcomeRules, func(c *SiteCapture) { c.Truncated = "length" })), "warning 0:|cut|length")
}

func TestSearchCheck(t *testing.T) {
	c := rulesCrawl("c1")
	search, ai := robots.CrawlerSearch.String(), robots.CrawlerAI.String()
	c.Crawlers = []SiteCrawler{
		{Agent: "Googlebot", Kind: search, Named: true, Verdict: robots.AccessDisallowed.String()},
		{Agent: "Bingbot", Kind: search, Verdict: robots.AccessAllowed.String()},
		{Agent: "YandexBot", Kind: search, Verdict: robots.AccessDisallowed.String()},
		{Agent: "Applebot", Kind: search, Verdict: robots.AccessPartial.String()},
		{Agent: "GPTBot", Kind: ai, Verdict: robots.AccessDisallowed.String()},
	}
	expect(t, "search", runCheck(t, SearchCheck, c), "error 0:|Googlebot|by name", "info 0:|shut out: YandexBot")
	c.Crawlers[0].Verdict = robots.AccessPartial.String()
	c.Crawlers[2].Verdict = robots.AccessAllowed.String()
	expect(t, "open", runCheck(t, SearchCheck, c))
}

func TestAICheck(t *testing.T) {
	c := rulesCrawl("c1")
	ai := robots.CrawlerAI.String()
	c.Crawlers = []SiteCrawler{
		{Agent: "GPTBot", Kind: ai, Named: true, Verdict: robots.AccessDisallowed.String()},
		{Agent: "CCBot", Kind: ai, Verdict: robots.AccessDisallowed.String()},
		{Agent: "ClaudeBot", Kind: ai, Named: true, Verdict: robots.AccessPartial.String()},
		{Agent: "Bytespider", Kind: ai, Verdict: robots.AccessAllowed.String()},
		{Agent: "Googlebot", Kind: robots.CrawlerSearch.String(), Verdict: robots.AccessDisallowed.String()},
	}
	expect(t, "ai", runCheck(t, AICheck, c), "info 0:|tracked: 4; named: 2; fully disallowed: 2 (1 by name); partly disallowed: 1")
}

func TestSitemapCheck(t *testing.T) {
	c := rulesCrawl("c1")
	expect(t, "none", runCheck(t, SitemapCheck, c), "info 0:|no sitemap")
	c.Sitemaps = []SiteSitemap{
		{URL: "https://example.com/sitemap.xml", Line: 3, Valid: true},       // same site without www.
		{URL: "https://cdn.example.net/s.xml", Line: 4, Valid: true},         // another host
		{URL: "https://user@Other.Example:8443/s.xml", Line: 5, Valid: true}, // another host, with user and port
		{URL: "/relative.xml", Line: 6, Valid: false},                        // the syntax check's
		{URL: "https://example.com/sitemap.xml#top", Line: 7, Valid: true},   // same site, with a fragment
		{URL: "https://www.example.com#top", Line: 8, Valid: true},           // same site, a fragment and no path
		{URL: "https://www.example.com?page=2", Line: 9, Valid: true},        // same site, a query and no path
		{URL: "https://[2001:db8::1]:8443/s.xml", Line: 10, Valid: true},     // an IPv6 address, with a port
		{URL: "https://[2001:DB8::2]/s.xml", Line: 11, Valid: true},          // an IPv6 address
	}
	expect(t, "hosts", runCheck(t, SitemapCheck, c), "info 4:|cdn.example.net", "info 5:|other.example)",
		"info 10:|host (2001:db8::1)", "info 11:|host (2001:db8::2)")
	c.Capture.Outcome, c.Capture.Status = robots.OutcomeAllowAll.String(), 404
	c.Sitemaps = nil
	expect(t, "not usable", runCheck(t, SitemapCheck, c))
}

func TestSizeCheck(t *testing.T) {
	c := rulesCrawl("c1")
	expect(t, "small", runCheck(t, SizeCheck, c))
	c.Capture.Oversize, c.Capture.Length, c.Capture.RealLength = true, 600_000, 600_000
	c.Listing = &Listing{Total: 20_000}
	expect(t, "oversize", runCheck(t, SizeCheck, c), "error|500 KiB|600000")
	// The real size of a file robocensus stored cut (issue 27 item 7).
	c.Capture.Length, c.Capture.RealLength = 1<<20, 2_695_790
	expect(t, "oversize, capped", runCheck(t, SizeCheck, c), "error|500 KiB|2695790 bytes")
}

func TestSharedCheck(t *testing.T) {
	c := rulesCrawl("c1")
	expect(t, "alone", runCheck(t, SharedCheck, c))
	c.SharedWith = 41
	expect(t, "shared", runCheck(t, SharedCheck, c), "info 0:|41 other hosts|c1")
}

func TestChangeCheck(t *testing.T) {
	a, b := rulesCrawl("c1"), rulesCrawl("c2")
	expect(t, "same", runCheck(t, ChangeCheck, a, b))
	b.Capture.Status, b.Capture.Outcome = 503, robots.OutcomeDisallowAll.String()
	b.Capture.Digest = "sha1:BBBB"
	a.Crawlers = []SiteCrawler{{Agent: "GPTBot", Verdict: robots.AccessAllowed.String()}, {Agent: "CCBot", Verdict: robots.AccessAllowed.String()}}
	b.Crawlers = []SiteCrawler{{Agent: "GPTBot", Verdict: robots.AccessDisallowed.String()}, {Agent: "CCBot", Verdict: robots.AccessAllowed.String()}}
	expect(t, "changed", runCheck(t, ChangeCheck, a, b), "warning 0:|200|503|c2", "info 0:|file changed", "info 0:|GPTBot allowed → disallowed")
	a, b = rulesCrawl("c1"), rulesCrawl("c2")
	a.Host, b.Host = &SiteHost{FetchClass: schema.FetchRobotsWithRules}, &SiteHost{FetchClass: schema.FetchHTTPDeferVisits}
	expect(t, "class", runCheck(t, ChangeCheck, a, b), "info 0:|fetch class changed from robots-with-rules|to http-defer-visits")
	b.Host = nil // a crawl published before the hosts table
	expect(t, "no class", runCheck(t, ChangeCheck, a, b))
}

func TestSyntaxCheck(t *testing.T) {
	c := rulesCrawl("c1")
	expect(t, "clean", runCheck(t, SyntaxCheck, c))
	c.findings = []SiteDiagnostic{
		{Line: 3, Code: "typo-accepted", Severity: "warning"},
		{Line: 5, Code: "rule-outside-group", Severity: "error"},
		{Line: 0, Code: "http-status-5xx", Severity: "error"}, // the fetch check's
	}
	expect(t, "findings", runCheck(t, SyntaxCheck, c), "error 0:|line 5|rule-outside-group", "warning 0:|line 3|typo-accepted")
}

func TestPreferencesCheck(t *testing.T) {
	c := rulesCrawl("c1")
	expect(t, "none", runCheck(t, PreferencesCheck, c))
	no, yes := false, true
	ai := robots.CrawlerAI.String()
	c.Crawlers = []SiteCrawler{
		{Agent: "Bytespider", Kind: ai, Verdict: robots.AccessAllowed.String()},
		{Agent: "GPTBot", Kind: ai, Verdict: robots.AccessAllowed.String()},
		{Agent: "ClaudeBot", Kind: ai, Named: true, Verdict: robots.AccessDisallowed.String()},
		{Agent: "Googlebot", Kind: robots.CrawlerSearch.String(), Verdict: robots.AccessAllowed.String()},
	}
	c.Preferences = []SitePreference{
		{Line: 2, Source: "content-signal", Path: "/", Category: "search", Value: "yes", Allowed: &yes, Agents: []string{}},
		{Line: 2, Source: "content-signal", Path: "/", Category: "ai-train", Value: "no", Allowed: &no, Agents: []string{}},
		{Line: 5, Source: "content-usage", Path: "/drafts/", Category: "train-ai", Value: "n", Allowed: &no, Agents: []string{"*"}},
	}
	expect(t, "no training, crawlers open", runCheck(t, PreferencesCheck, c),
		"warning 2:|train AI models|2 AI crawlers|GPTBot, Bytespider",
		"info 2:|search|train|not an access rule",
		"info 5:|/drafts/")
	// A preference for one crawler or one path is not the site's.
	c.Preferences = c.Preferences[2:]
	expect(t, "path only", runCheck(t, PreferencesCheck, c), "info 5:")
	c.Preferences = []SitePreference{{Line: 3, Source: "content-usage", Path: "/", Category: "train-ai", Value: "n", Allowed: &no, Agents: []string{"*"}}}
	c.Crawlers = c.Crawlers[2:] // every AI crawler left is shut out
	expect(t, "crawlers shut out", runCheck(t, PreferencesCheck, c), "info 3:")
}
