package analyze

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// The Markdown renderer. Text from the dataset goes through md or code,
// which escape what Markdown (and the HTML it may hold) would interpret.

func writeReportMarkdown(w io.Writer, r *Report, title string) error {
	m := &mdWriter{w: bufio.NewWriter(w)}
	m.printf("# robots.txt census: %s\n", code(title))
	for i := len(r.Crawls) - 1; i >= 0; i-- {
		mdCrawl(m, r.Crawls[i], r.Top)
	}
	if r.Trends != nil {
		mdTrends(m, r.Trends)
	}
	mdDefinitions(m)
	return m.flush()
}

func mdCrawl(m *mdWriter, c *Crawl, top int) {
	m.heading(2, "Crawl "+md(c.Crawl))
	for _, s := range crawlSections {
		s.Markdown(m, c, top)
	}
}

func mdTrends(m *mdWriter, t *Trends) {
	m.heading(2, "Trends")
	header := []string{"figure"}
	for _, c := range t.Crawls {
		header = append(header, " "+md(c))
	}
	header = append(header, " change")
	var rows [][]string
	for _, s := range t.Series {
		row := []string{md(s.Name)}
		for _, v := range s.Values {
			row = append(row, fmtValue(s, v))
		}
		rows = append(rows, append(row, fmtDelta(s)))
	}
	m.table(header, rows)
}

func mdDefinitions(m *mdWriter) {
	m.heading(2, "Definitions")
	m.para(`- **read capture**: HTTP status 2xx, or no status (tar entries, files): crawlers read the body.
- **deciding capture** of a host in a crawl: not a redirect if it has one, then the latest fetched, then the smallest capture_id.
- **usable robots.txt**: a deciding capture with outcome rules or no-rules, or unknown (no HTTP status: tar entries, files). A body with no status is judged by its content as a 2xx body is: without a rule, HTML, XML, binary or UTF-16 content is not-robots, not usable. The fetch classes robots-with-rules and robots-no-rules are the usable captures.
- **named**: a group's user-agent line names the crawler's product token (its name cut as Google cuts names: ` + "`Linguee Bot`" + ` is ` + "`Linguee`" + `); otherwise the ` + "`*`" + ` group applies.
- **fully / partially disallowed**: the rules that apply disallow every URL / some URLs (the agents table).`)
}

func writeSiteMarkdown(w io.Writer, r *SiteReport, title string) error {
	m := &mdWriter{w: bufio.NewWriter(w)}
	nc, nk := int64(len(r.Captures)), int64(len(r.Crawls))
	m.printf("# robots.txt of %s\n\nDataset %s: %s %s in %s %s.\n", code(r.Host), code(title),
		fmtInt(nc), plural(nc, "capture", "captures"), fmtInt(nk), plural(nk, "crawl", "crawls"))
	mdSiteFindings(m, r.Findings)
	mdSiteCrawlers(m, r.Crawls[len(r.Crawls)-1])
	for i := len(r.Crawls) - 1; i >= 0; i-- {
		mdSiteCrawl(m, r.Crawls[i])
	}
	mdSiteCaptures(m, r.Captures)
	return m.flush()
}

func mdSiteFindings(m *mdWriter, findings []Finding) {
	m.heading(2, "Findings")
	if len(findings) == 0 {
		m.para("The checks found nothing to report.")
	}
	for _, f := range findings {
		where := md(f.Crawl)
		if f.Line > 0 {
			where += ", line " + fmtInt(int64(f.Line))
		}
		m.printf("- **%s** %s (%s, %s)\n", f.Severity, md(f.Message), code(f.Check), where)
	}
}

// mdSiteCrawlers lists the tracked crawlers by verdict, named ones bold.
func mdSiteCrawlers(m *mdWriter, latest *SiteCrawl) {
	m.heading(2, "Tracked crawlers in "+md(latest.Crawl))
	for _, g := range verdictGroups(latest) {
		var names []string
		for _, c := range g.Crawlers {
			n := code(c.Agent)
			if c.Named {
				n = "**" + n + "**"
			}
			names = append(names, n)
		}
		m.para("%s (%d): %s", g.Title, len(g.Crawlers), strings.Join(names, ", "))
	}
	m.para("Bold: named by a group; the others follow the `*` group.")
	if latest.CrawlersFrom != "" {
		m.para("The host's robots.txt redirects: these are the verdicts of %s, where its redirects lead, as Google follows them.", md(latest.CrawlersFrom))
	}
}

func mdSiteCrawl(m *mdWriter, sc *SiteCrawl) {
	c := &sc.Capture
	m.heading(2, "robots.txt in "+md(sc.Crawl))
	m.para("Capture %s of %s: %s, outcome %s, %s; errors: %d, warnings: %d. Other hosts serving the same file: %s.",
		code(c.CaptureID), code(c.URL), status(c.Status), code(c.Outcome), fmtBytes(c.RealLength), c.Errors, c.Warnings, fmtInt(sc.SharedWith))
	if h := sc.Host; h != nil {
		m.para("As a site: fetch class %s; %s.", code(h.FetchClass), siteRedirects(h))
	}
	for _, f := range sc.FileFindings {
		m.printf("- whole file: **%s** %s %s\n", f.Severity, md(f.Message), code(f.Code))
	}
	if sc.Listing == nil {
		m.para("\nThe dataset keeps no body for this capture (crawlers do not read the body of a %s answer).", status(c.Status))
	} else {
		mdListing(m, sc.Listing)
	}
	if len(sc.Sitemaps) > 0 {
		var rows [][]string
		for _, s := range sc.Sitemaps {
			valid := "yes"
			if !s.Valid {
				valid = "**no**"
			}
			rows = append(rows, []string{fmtInt(int64(s.Line)), code(s.URL), valid})
		}
		m.heading(3, "Sitemaps")
		m.table([]string{" line", "URL", "valid"}, rows)
	}
}

// mdListing writes the file in a fenced block, each finding on a line of
// its own after the line it concerns, marked "^".
func mdListing(m *mdWriter, l *Listing) {
	var b strings.Builder
	for _, line := range l.Lines {
		if line.Skipped > 0 {
			b.WriteString("   ⋮  (" + fmtInt(int64(line.Skipped)) + " lines without findings)\n")
			continue
		}
		b.WriteString(pad(fmtInt(int64(line.Number)), 5) + "  " + strings.ToValidUTF8(line.Text, "\uFFFD") + "\n")
		for _, f := range line.Findings {
			b.WriteString("       ^ " + f.Severity + ": " + f.Message + " [" + f.Code + "]\n")
		}
	}
	text := b.String()
	f := fence(text)
	m.printf("\n%stext\n%s%s\n\n", f, text, f)
}

// siteRedirects says in words what following the host's redirects gave.
func siteRedirects(h *SiteHost) string {
	switch h.RedirectResult {
	case "none":
		return "no redirect"
	case "resolved":
		to := "its own capture"
		if h.EffectiveURL != "" {
			to = h.EffectiveURL
		}
		return fmt.Sprintf("redirects resolved after %d %s to %s, outcome %s", h.RedirectHops, plural(int64(h.RedirectHops), "hop", "hops"), to, h.EffectiveOutcome)
	}
	return fmt.Sprintf("redirects not resolved (%s after %d %s)", h.RedirectResult, h.RedirectHops, plural(int64(h.RedirectHops), "hop", "hops"))
}

func mdSiteCaptures(m *mdWriter, caps []SiteCapture) {
	m.heading(2, "Captures")
	var rows [][]string
	for _, c := range caps {
		when := ""
		if c.FetchTime != nil {
			when = c.FetchTime.Format("2006-01-02 15:04")
		}
		deciding := ""
		if c.Deciding {
			deciding = "yes"
		}
		rows = append(rows, []string{md(c.Crawl), when, code(c.URL), status(c.Status), md(c.Outcome), fmtInt(c.RealLength), fmtInt(int64(c.Errors)), deciding, code(c.WARCFilename + "@" + fmtInt(c.WARCOffset))})
	}
	m.table([]string{"crawl", "fetched (UTC)", "URL", " status", "outcome", " bytes", " errors", "deciding", "WARC record"}, rows)
}
