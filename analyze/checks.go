package analyze

import (
	"fmt"
	"slices"
	"strings"

	"github.com/robocensus/robocensus/robots"
)

// Checks returns the built-in site checks, in the order they run.
func Checks() []*Check {
	return []*Check{FetchCheck, SyntaxCheck, SearchCheck, AICheck, SitemapCheck, SizeCheck, SharedCheck, ChangeCheck}
}

// FetchCheck looks at how robots.txt was served in the latest crawl.
var FetchCheck = &Check{
	Name: "fetch",
	Doc: `how robots.txt was served: status, redirects, content
A 5xx or 429 answer makes Google treat the whole site as disallowed while it
lasts; a 401 or 403 makes every crawler treat it as allowed; a 404 means no
robots.txt; an HTML page served with 200 holds no rules.`,
	Run: runFetch,
}

func runFetch(p *Pass) error {
	c := &p.Latest.Capture
	switch c.Outcome {
	case robots.OutcomeDisallowAll.String():
		p.Reportf(robots.Error, 0, "robots.txt answered %d: Google treats the whole site as disallowed until it answers again", c.Status)
	case robots.OutcomeAllowAll.String():
		if c.Status == 404 || c.Status == 410 {
			p.Reportf(robots.Info, 0, "there is no robots.txt (status %d): every crawler may fetch everything", c.Status)
		} else {
			p.Reportf(robots.Warning, 0, "robots.txt answered %d: crawlers treat that as no robots.txt and may fetch everything", c.Status)
		}
	case robots.OutcomeRedirect.String():
		p.Reportf(robots.Info, 0, "robots.txt redirects (%d) to %s: crawlers obey the target, and the dataset holds no other capture of this host in %s", c.Status, orNone(c.Redirect), p.Latest.Crawl)
	case robots.OutcomeNotRobots.String():
		p.Reportf(robots.Error, 0, "robots.txt is not a robots.txt (%s): crawlers find no rules in it", orNone(c.ContentType))
	case robots.OutcomeNoRules.String():
		p.Reportf(robots.Info, 0, "robots.txt has no rules: every crawler may fetch everything")
	}
	if c.Truncated != "" {
		p.Reportf(robots.Warning, 0, "the crawler cut the file (%s): rules past the cut were not seen", c.Truncated)
	}
	return nil
}

// SyntaxCheck sums up the engine's findings of the latest robots.txt.
var SyntaxCheck = &Check{
	Name: "syntax",
	Doc: `lines Google ignores or misreads, and likely mistakes
Sums up the diagnostics of the latest robots.txt by severity: errors are lines
Google ignores or reads otherwise than meant; warnings are probably not what
the author meant or depend on the crawler. The listing shows each at its line.`,
	Run: runSyntax,
}

func runSyntax(p *Pass) error {
	bySev := map[string][]string{}
	lines := map[string][]string{}
	for _, f := range p.Latest.findings {
		if strings.HasPrefix(f.Code, "http-") || f.Code == robots.RedirectCrossHost.String() {
			continue // the fetch check says these
		}
		if !slices.Contains(bySev[f.Severity], f.Code) {
			bySev[f.Severity] = append(bySev[f.Severity], f.Code)
		}
		if f.Line > 0 {
			lines[f.Severity] = append(lines[f.Severity], fmt.Sprint(f.Line))
		}
	}
	say := func(sev robots.Severity, what string) {
		codes := bySev[sev.String()]
		if len(codes) == 0 {
			return
		}
		at := ""
		if l := slices.Compact(lines[sev.String()]); len(l) > 0 {
			at = " at line " + strings.Join(firstN(l, 8), ", ")
		}
		p.Reportf(sev, 0, "%s%s: %s", what, at, strings.Join(codes, ", "))
	}
	say(robots.Error, "Google ignores or misreads part of the file")
	say(robots.Warning, "probably not what was meant")
	return nil
}

// firstN returns the first n strings, and "…" when there are more.
func firstN(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return append(slices.Clip(s[:n]), "…")
}

// SearchCheck tells whether search engines may crawl the site.
var SearchCheck = &Check{
	Name: "search-access",
	Doc: `whether search engines may crawl the site
Reports an error when Googlebot or Bingbot may fetch no URL at all (the site
drops out of their results), and lists the other search crawlers shut out.`,
	Run: runSearch,
}

// majorSearch are the crawlers whose exclusion is an error.
var majorSearch = []string{"Googlebot", "Bingbot"}

func runSearch(p *Pass) error {
	var others []string
	for _, c := range p.Latest.Crawlers {
		if c.Kind != robots.CrawlerSearch.String() {
			continue
		}
		switch {
		case c.Verdict == robots.AccessDisallowed.String() && slices.Contains(majorSearch, c.Agent):
			p.Reportf(robots.Error, 0, "%s may fetch no URL of the site (%s): it will drop out of %s's results", c.Agent, how(c), c.Agent)
		case c.Verdict == robots.AccessDisallowed.String():
			others = append(others, c.Agent)
		}
	}
	if len(others) > 0 {
		p.Reportf(robots.Info, 0, "search crawlers shut out: %s", strings.Join(others, ", "))
	}
	return nil
}

// how says whether a verdict comes from a group naming the crawler.
func how(c SiteCrawler) string {
	if c.Named {
		return "by name"
	}
	return "through the '*' group"
}

// AICheck sums up what the robots.txt says to AI crawlers.
var AICheck = &Check{
	Name: "ai-access",
	Doc: `what the site says to AI crawlers
Counts the AI crawlers of the ai.robots.txt list that the file names, and
those it shuts out fully or partly, by name or through the '*' group.`,
	Run: runAI,
}

func runAI(p *Pass) error {
	var total, named, blocked, blockedByName, partial int
	for _, c := range p.Latest.Crawlers {
		if c.Kind != robots.CrawlerAI.String() {
			continue
		}
		total++
		if c.Named {
			named++
		}
		switch c.Verdict {
		case robots.AccessDisallowed.String():
			blocked++
			if c.Named {
				blockedByName++
			}
		case robots.AccessPartial.String():
			partial++
		}
	}
	if total == 0 {
		return nil
	}
	p.Reportf(robots.Info, 0, "AI crawlers tracked: %d; named: %d; fully disallowed: %d (%d by name); partly disallowed: %d", total, named, blocked, blockedByName, partial)
	return nil
}

// SitemapCheck looks at the sitemaps declared.
var SitemapCheck = &Check{
	Name: "sitemaps",
	Doc: `the sitemaps declared in robots.txt
Notes a robots.txt that declares no sitemap, and sitemaps on other hosts;
invalid sitemap lines are errors of the syntax check.`,
	Run: runSitemaps,
}

func runSitemaps(p *Pass) error {
	if !p.Usable() {
		return nil
	}
	if len(p.Latest.Sitemaps) == 0 {
		p.Reportf(robots.Info, 0, "no sitemap is declared: a Sitemap: line helps crawlers find the site's pages")
		return nil
	}
	for _, s := range p.Latest.Sitemaps {
		if h := urlHost(s.URL); s.Valid && h != "" && !sameSite(h, p.Site.Host) {
			p.Reportf(robots.Info, int(s.Line), "the sitemap is on another host (%s): search engines accept it only if that host is verified for the site", h)
		}
	}
	return nil
}

// urlHost returns the lower-cased host of an absolute URL, or "".
func urlHost(u string) string {
	_, rest, ok := strings.Cut(u, "://")
	if !ok {
		return ""
	}
	h, _, _ := strings.Cut(rest, "/")
	h, _, _ = strings.Cut(h, "?")
	if i := strings.LastIndexByte(h, '@'); i >= 0 {
		h = h[i+1:]
	}
	if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.HasSuffix(h, "]") {
		h = h[:i]
	}
	return strings.ToLower(h)
}

// sameSite reports whether two hosts differ at most by a "www." prefix.
func sameSite(a, b string) bool {
	return strings.TrimPrefix(a, "www.") == strings.TrimPrefix(b, "www.")
}

// SizeCheck looks at the size of the robots.txt.
var SizeCheck = &Check{
	Name: "size",
	Doc: `robots.txt over Google's 500 KiB limit
Google reads the first 500 KiB (512,000 bytes) of a robots.txt and ignores
the rest; rules past the limit have no effect.`,
	Run: runSize,
}

func runSize(p *Pass) error {
	c := &p.Latest.Capture
	if !c.Oversize {
		return nil
	}
	last := 0
	if p.Latest.Listing != nil {
		last = p.Latest.Listing.Total
	}
	p.Reportf(robots.Error, last, "the file is over 500 KiB (%d bytes stored): Google stops reading at line %d and ignores the rest", c.Length, last)
	return nil
}

// SharedCheck notes a robots.txt other hosts serve byte for byte.
var SharedCheck = &Check{
	Name: "shared-body",
	Doc: `the same robots.txt served by other hosts
A file shared by many hosts is a template (a CMS default), a parked domain or
a domain farm; the report's farm list shows the most shared ones.`,
	Run: runShared,
}

func runShared(p *Pass) error {
	if n := p.Latest.SharedWith; n > 0 {
		p.Reportf(robots.Info, 0, "%d other hosts serve this exact robots.txt in %s", n, p.Latest.Crawl)
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "none given"
	}
	return s
}
