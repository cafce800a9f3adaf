package site

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/robocensus/robocensus/analyze/internal/render"
	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// Checks returns the built-in site checks, in the order they run.
func Checks() []*Check {
	return []*Check{FetchCheck, SyntaxCheck, SearchCheck, AICheck, PreferencesCheck, SitemapCheck, SizeCheck, SharedCheck, ChangeCheck}
}

// FetchCheck looks at how robots.txt was served in the latest crawl.
var FetchCheck = &Check{
	Name: "fetch",
	Doc: `how robots.txt was served: status, redirects, content
A 5xx or 429 answer makes Google treat the whole site as disallowed while it
lasts; a 401 or 403 makes every crawler treat it as allowed; a 404 means no
robots.txt; an HTML page served with 200, or with no status (a tar entry, a
file), holds no rules.`,
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
		if c.Status == 0 { // a tar entry or a file: no HTTP status, no content type
			p.Reportf(robots.Error, 0, "the body (no HTTP status) is not a robots.txt: crawlers find no rules in it")
		} else {
			p.Reportf(robots.Error, 0, "robots.txt is not a robots.txt (%s): crawlers find no rules in it", orNone(c.ContentType))
		}
	case robots.OutcomeNoRules.String():
		p.Reportf(robots.Info, 0, "robots.txt has no rules: every crawler may fetch everything")
	}
	if c.Truncated != "" {
		sev, msg := truncation(c.Truncated)
		p.Reportf(sev, 0, "%s", msg)
	}
	return nil
}

// truncation explains a content_truncated value. The crawler gives the
// WARC-Truncated reasons ("length", "time", "disconnect", "unspecified");
// robocensus's reader gives its own (robots.StoredTruncationReasons),
// which say nothing of the crawler.
func truncation(reason string) (robots.Severity, string) {
	switch reason {
	case robots.StoredBodyCap:
		// The cap is at least 500 KiB (ingest.MinMaxBody): what Google
		// reads was kept.
		return robots.Info, "robocensus stored only the first part of the file (its own cap on stored bytes, body-cap); the crawler fetched it whole and the first 500 KiB, all that Google reads, were kept"
	case robots.StoredRecordCap:
		return robots.Warning, "robocensus stopped reading the record at its own record-size cap (record-cap): the file's size is a lower bound"
	case robots.StoredInputEnd:
		return robots.Warning, "the input ended inside this record (input-end): the dataset holds only the part that could be read, so rules past it were not seen"
	case "length":
		return robots.Warning, "the crawler cut the file at its size limit (WARC-Truncated: length): rules past the cut were not seen"
	case "time":
		return robots.Warning, "the crawler cut the file when the fetch took too long (WARC-Truncated: time): rules past the cut were not seen"
	case "disconnect":
		return robots.Warning, "the connection broke before the end of the file (WARC-Truncated: disconnect): rules past the cut were not seen"
	}
	return robots.Warning, fmt.Sprintf("the crawler cut the file (WARC-Truncated: %s): rules past the cut were not seen", reason)
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

// PreferencesCheck says what the file asks of AI systems and how it sits
// with the rules.
var PreferencesCheck = &Check{
	Name: "ai-preferences",
	Doc: `AI usage preferences (Content-Signal, Content-Usage) next to the rules
Says in words what each preference line asks, and warns when the file asks
that content not be used to train AI models while its rules let AI crawlers
fetch everything: a preference is not an access rule, and a crawler that does
not read it is bound by the rules only.`,
	Run: runPreferences,
}

func runPreferences(p *Pass) error {
	prefs := p.Latest.Preferences
	noTraining := 0 // the line of a site-wide "do not train", or 0
	for i := 0; i < len(prefs); {
		j := i
		var asks []string
		for ; j < len(prefs) && prefs[j].Line == prefs[i].Line; j++ {
			asks = append(asks, strings.TrimSuffix(explainPreference(&prefs[j]), notAccessRule))
			if noTraining == 0 && asksNoTraining(&prefs[j]) {
				noTraining = int(prefs[j].Line)
			}
		}
		p.Reportf(robots.Info, int(prefs[i].Line), "%s%s", strings.Join(asks, "; "), notAccessRule)
		i = j
	}
	if noTraining == 0 {
		return nil
	}
	var open []string
	for _, c := range p.Latest.Crawlers {
		if c.Kind == robots.CrawlerAI.String() && c.Verdict == robots.AccessAllowed.String() {
			open = append(open, c.Agent)
		}
	}
	// The crawlers their operators say collect training data first.
	slices.SortStableFunc(open, func(a, b string) int {
		return cmp.Compare(trainingRank(a), trainingRank(b))
	})
	if len(open) > 0 {
		p.Reportf(robots.Warning, noTraining, "the file asks that its content not be used to train AI models, yet its rules let %d AI crawlers fetch everything (%s): a preference is not an access rule, and crawlers that do not read it are not bound by it",
			len(open), strings.Join(firstN(open, 6), ", "))
	}
	return nil
}

// notAccessRule ends what a preference line asks, once.
const notAccessRule = "; this is a preference, not an access rule"

// trainingCrawlers are AI crawlers whose operators document that they
// collect training data, or tokens that control training (Google-Extended,
// Applebot-Extended), named first when the rules leave them open.
var trainingCrawlers = []string{"GPTBot", "ClaudeBot", "CCBot", "Google-Extended", "Applebot-Extended", "Meta-ExternalAgent", "Bytespider"}

func trainingRank(agent string) int {
	if i := slices.Index(trainingCrawlers, agent); i >= 0 {
		return i
	}
	return len(trainingCrawlers)
}

// explainPreference says in words what a preference asks, as lint does.
func explainPreference(sp *SitePreference) string {
	src := robots.ContentUsage
	if sp.Source == robots.ContentSignal.String() {
		src = robots.ContentSignal
	}
	return robots.ExplainPreference(src, sp.Category, sp.Value, sp.Path)
}

// asksNoTraining reports a preference against AI training for the whole
// site and every crawler (see schema.NoTraining).
func asksNoTraining(sp *SitePreference) bool {
	return sp.Allowed != nil && schema.NoTraining(sp.Source, sp.Category, *sp.Allowed, sp.Path, sp.Agents)
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

// urlHost returns the lower-cased host of an absolute URL, without the
// brackets of an IPv6 address, its port, user, path, query or fragment;
// "" when the URL has no host or does not parse.
func urlHost(u string) string {
	parsed, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return strings.ToLower(parsed.Hostname())
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
	p.Reportf(robots.Error, last, "the file is over 500 KiB (%d bytes): Google stops reading at line %d and ignores the rest", c.RealLength, last)
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

// A Check is one site-health check, in the shape of go/analysis's
// Analyzer: plain data, a name, its documentation and a Run function that
// looks at one host through a [Pass] and reports findings. The driver
// ([Dataset.Site]) gathers the data and collects the findings; a check
// reads nothing itself.
type Check struct {
	// Name identifies the check in findings, e.g. "fetch". It is stable.
	Name string
	// Doc says what the check looks for: a first line that stands alone,
	// then details.
	Doc string
	// Run looks at pass.Site and calls pass.Report. It returns an error
	// only when it cannot do its job (which stops the report), never for a
	// problem of the site.
	Run func(pass *Pass) error
}

// CheckDoc names a check that ran and gives the first line of its Doc.
type CheckDoc struct {
	Name string `json:"name"`
	Doc  string `json:"doc"`
}

// Pass is what a check sees of one host.
type Pass struct {
	// Check is the check being run.
	Check *Check
	// Site is the whole site report, findings of other checks excepted.
	// Checks must not modify it.
	Site *SiteReport
	// Latest is the last crawl with a capture of the host.
	Latest *SiteCrawl
	// File is Latest's robots.txt parsed again by the engine with the
	// capture's status and content type, for checks that match URLs; nil
	// when the dataset keeps no body for it.
	File *robots.File
	// Report records a finding. Its Check field is filled in.
	Report func(Finding)
}

// Finding is one result of a check.
type Finding struct {
	Check    string `json:"check"`
	Severity string `json:"severity"` // "error", "warning" or "info"
	Crawl    string `json:"crawl"`    // the crawl it is about
	Line     int    `json:"line"`     // 0: the whole file
	Message  string `json:"message"`
}

// Reportf reports a finding about Latest at a line (0: the whole file).
func (p *Pass) Reportf(sev robots.Severity, line int, format string, args ...any) {
	p.Report(Finding{Severity: sev.String(), Crawl: p.Latest.Crawl, Line: line, Message: fmt.Sprintf(format, args...)})
}

// Usable reports whether Latest's deciding capture is a robots.txt that
// crawlers obey as a file (see the package documentation).
func (p *Pass) Usable() bool {
	o, ok := robots.ParseOutcome(p.Latest.Capture.Outcome)
	return ok && o.Usable()
}

// runChecks runs every check on the report and sorts the findings: most
// severe first, then in the order of the checks and lines.
func runChecks(r *SiteReport, checks []*Check) error {
	latest := r.Crawls[len(r.Crawls)-1]
	file := parseLatest(latest)
	for _, c := range checks {
		r.Checks = append(r.Checks, CheckDoc{Name: c.Name, Doc: firstLine(c.Doc)})
		pass := &Pass{Check: c, Site: r, Latest: latest, File: file}
		var found []Finding
		pass.Report = func(f Finding) {
			f.Check = c.Name
			found = append(found, f)
		}
		if err := c.Run(pass); err != nil {
			return fmt.Errorf("analyze: check %s: %w", c.Name, err)
		}
		r.Findings = append(r.Findings, found...)
	}
	slices.SortStableFunc(r.Findings, func(a, b Finding) int {
		return cmp.Compare(schema.SeverityRank(a.Severity), schema.SeverityRank(b.Severity))
	})
	return nil
}

// parseLatest parses the latest crawl's robots.txt again, or returns nil.
func parseLatest(sc *SiteCrawl) *robots.File {
	if sc.Listing == nil {
		return nil
	}
	resp := robots.Response{Status: int(sc.Capture.Status), ContentType: sc.Capture.ContentType, URL: sc.Capture.URL, Location: sc.Capture.Redirect}
	return robots.ParseResponseString(resp, sc.text)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// ChangeCheck reports what changed between the crawls of the dataset.
var ChangeCheck = &Check{
	Name: "changes",
	Doc: `what changed between crawls
Compares each crawl with the one before: the answer (status and outcome), the
file (content digest, when both have one) and the verdict for each tracked
crawler, both of the robots.txt that answers for the host with its redirects
followed, and the fetch class (hosts table): the definitions of the crawl
report's changes section, for one host.`,
	Run: runChanges,
}

// maxVerdictChanges is the most crawlers listed in one change finding.
const maxVerdictChanges = 12

func runChanges(p *Pass) error {
	crawls := p.Site.Crawls
	for i := 1; i < len(crawls); i++ {
		before, after := crawls[i-1], crawls[i]
		report := func(sev robots.Severity, format string, args ...any) {
			p.Report(Finding{Severity: sev.String(), Crawl: after.Crawl, Message: fmt.Sprintf(format, args...)})
		}
		b, a := &before.Capture, &after.Capture
		if b.Outcome != a.Outcome || b.Status != a.Status {
			sev := robots.Info
			if a.Outcome == robots.OutcomeDisallowAll.String() || a.Outcome == robots.OutcomeNotRobots.String() {
				sev = robots.Warning
			}
			report(sev, "the answer changed from %s (%s) in %s to %s (%s) in %s", render.Status(b.Status), b.Outcome, before.Crawl, render.Status(a.Status), a.Outcome, after.Crawl)
		}
		if bd, ad := before.effectiveDigest(), after.effectiveDigest(); bd != ad && bd != "" && ad != "" {
			report(robots.Info, "the file changed between %s and %s (%s → %s)", before.Crawl, after.Crawl, shortDigest(bd), shortDigest(ad))
		}
		if ch := verdictChanges(before, after); len(ch) > 0 {
			report(robots.Info, "crawler verdicts changed between %s and %s: %s", before.Crawl, after.Crawl, strings.Join(firstN(ch, maxVerdictChanges), "; "))
		}
		if bh, ah := before.Host, after.Host; bh != nil && ah != nil && bh.FetchClass != ah.FetchClass {
			report(robots.Info, "the fetch class changed from %s in %s to %s in %s", bh.FetchClass, before.Crawl, ah.FetchClass, after.Crawl)
		}
	}
	return nil
}

// verdictChanges lists the tracked crawlers whose verdict changed.
func verdictChanges(before, after *SiteCrawl) []string {
	old := map[string]string{}
	for _, c := range before.Crawlers {
		old[c.Agent] = c.Verdict
	}
	var out []string
	for _, c := range after.Crawlers {
		if v, ok := old[c.Agent]; ok && v != c.Verdict {
			out = append(out, fmt.Sprintf("%s %s → %s", c.Agent, v, c.Verdict))
		}
	}
	return out
}

// shortDigest shortens "sha1:ABCDEF..." for messages.
func shortDigest(d string) string {
	if len(d) > 17 {
		return d[:17] + "…"
	}
	return d
}
