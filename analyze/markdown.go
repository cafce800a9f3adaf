package analyze

import (
	"bufio"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/robocensus/robocensus/analyze/internal/render"
	"github.com/robocensus/robocensus/analyze/internal/sections"
	"github.com/robocensus/robocensus/analyze/internal/site"
)

// The Markdown renderer. Text from the dataset goes through md or code,
// which escape what Markdown (and the HTML it may hold) would interpret.

func writeReportMarkdown(w io.Writer, r *Report, title string) error {
	m := &render.Markdown{W: bufio.NewWriter(w)}
	m.Printf("# robots.txt census: %s\n", render.Code(title))
	for i := len(r.Crawls) - 1; i >= 0; i-- {
		mdCrawl(m, r.Crawls[i], r.Top)
	}
	if r.Trends != nil {
		mdTrends(m, r.Trends)
	}
	mdDefinitions(m)
	return m.Flush()
}

func mdCrawl(m *render.Markdown, c *sections.Crawl, top int) {
	m.Heading(2, "Crawl "+render.Escape(c.Crawl))
	for _, s := range sections.CrawlSections {
		s.Markdown(m, c, top)
	}
}

func mdTrends(m *render.Markdown, t *sections.Trends) {
	m.Heading(2, "Trends")
	header := []string{"figure"}
	for _, c := range t.Crawls {
		header = append(header, " "+render.Escape(c))
	}
	header = append(header, " change")
	var rows [][]string
	for _, s := range t.Series {
		row := []string{render.Escape(s.Name)}
		for _, v := range s.Values {
			row = append(row, fmtValue(s, v))
		}
		rows = append(rows, append(row, fmtDelta(s)))
	}
	m.Table(header, rows)
}

func mdDefinitions(m *render.Markdown) {
	m.Heading(2, "Definitions")
	m.Para(`- **read capture**: HTTP status 2xx, or no status (tar entries, files): crawlers read the body.
- **deciding capture** of a host in a crawl: not a redirect if it has one, then the latest fetched, then the smallest capture_id.
- **usable robots.txt**: a deciding capture with outcome rules or no-rules, or unknown (no HTTP status: tar entries, files). A body with no status is judged by its content as a 2xx body is: without a rule, HTML, XML, binary or UTF-16 content is not-robots, not usable. The fetch classes robots-with-rules and robots-no-rules are the usable captures.
- **named**: a group's user-agent line names the crawler's product token (its name cut as Google cuts names: ` + "`Linguee Bot`" + ` is ` + "`Linguee`" + `); otherwise the ` + "`*`" + ` group applies.
- **fully / partially disallowed**: the rules that apply disallow every URL / some URLs (the agents table).`)
}

func writeSiteMarkdown(w io.Writer, r *site.SiteReport, title string) error {
	m := &render.Markdown{W: bufio.NewWriter(w)}
	nc, nk := int64(len(r.Captures)), int64(len(r.Crawls))
	m.Printf("# robots.txt of %s\n\nDataset %s: %s %s in %s %s.\n", render.Code(r.Host), render.Code(title),
		render.Int(nc), render.Plural(nc, "capture", "captures"), render.Int(nk), render.Plural(nk, "crawl", "crawls"))
	mdSiteFindings(m, r.Findings)
	mdSiteCrawlers(m, r.Crawls[len(r.Crawls)-1])
	for i := len(r.Crawls) - 1; i >= 0; i-- {
		mdSiteCrawl(m, r.Crawls[i])
	}
	mdSiteCaptures(m, r.Captures)
	return m.Flush()
}

func mdSiteFindings(m *render.Markdown, findings []site.Finding) {
	m.Heading(2, "Findings")
	if len(findings) == 0 {
		m.Para("The checks found nothing to report.")
	}
	for _, f := range findings {
		where := render.Escape(f.Crawl)
		if f.Line > 0 {
			where += ", line " + render.Int(int64(f.Line))
		}
		m.Printf("- **%s** %s (%s, %s)\n", f.Severity, render.Escape(f.Message), render.Code(f.Check), where)
	}
}

// mdSiteCrawlers lists the tracked crawlers by verdict, named ones bold.
func mdSiteCrawlers(m *render.Markdown, latest *site.SiteCrawl) {
	m.Heading(2, "Tracked crawlers in "+render.Escape(latest.Crawl))
	for _, g := range verdictGroups(latest) {
		var names []string
		for _, c := range g.Crawlers {
			n := render.Code(c.Agent)
			if c.Named {
				n = "**" + n + "**"
			}
			names = append(names, n)
		}
		m.Para("%s (%d): %s", g.Title, len(g.Crawlers), strings.Join(names, ", "))
	}
	m.Para("Bold: named by a group; the others follow the `*` group.")
	if latest.CrawlersFrom != "" {
		m.Para("The host's robots.txt redirects: these are the verdicts of %s, where its redirects lead, as Google follows them.", render.Escape(latest.CrawlersFrom))
	}
}

func mdSiteCrawl(m *render.Markdown, sc *site.SiteCrawl) {
	c := &sc.Capture
	m.Heading(2, "robots.txt in "+render.Escape(sc.Crawl))
	m.Para("Capture %s of %s: %s, outcome %s, %s; errors: %d, warnings: %d. Other hosts serving the same file: %s.",
		render.Code(c.CaptureID), render.Code(c.URL), render.Status(c.Status), render.Code(c.Outcome), render.Bytes(c.RealLength), c.Errors, c.Warnings, render.Int(sc.SharedWith))
	if h := sc.Host; h != nil {
		m.Para("As a site: fetch class %s; %s.", render.Code(h.FetchClass), siteRedirects(h))
	}
	for _, f := range sc.FileFindings {
		m.Printf("- whole file: **%s** %s %s\n", f.Severity, render.Escape(f.Message), render.Code(f.Code))
	}
	if sc.Listing == nil {
		m.Para("\nThe dataset keeps no body for this capture (crawlers do not read the body of a %s answer).", render.Status(c.Status))
	} else {
		mdListing(m, sc.Listing)
	}
	mdSiteReadings(m, sc.Readings)
	mdSiteDisagreements(m, sc.Disagreements)
	mdSiteTemplates(m, sc.Templates, sc.Listing != nil)
	if len(sc.Sitemaps) > 0 {
		var rows [][]string
		for _, s := range sc.Sitemaps {
			valid := "yes"
			if !s.Valid {
				valid = "**no**"
			}
			rows = append(rows, []string{render.Int(int64(s.Line)), render.Code(s.URL), valid})
		}
		m.Heading(3, "Sitemaps")
		m.Table([]string{" line", "URL", "valid"}, rows)
	}
}

// mdSiteDisagreements writes every line of the body that other parsers
// read differently, with an example per parser.
func mdSiteDisagreements(m *render.Markdown, ds []site.SiteDisagreement) {
	if len(ds) == 0 {
		return
	}
	m.Heading(3, "Lines parsers read differently")
	var rows [][]string
	for _, d := range ds {
		line := "whole file"
		if d.Line > 0 {
			line = render.Int(int64(d.Line)) + " " + render.Code(d.Text)
		}
		rows = append(rows, []string{line, render.Code(d.Class), render.Escape(strings.Join(d.Examples, "; "))})
	}
	m.Table([]string{"line", "class", "how (one example per parser)"}, rows)
}

// mdSiteTemplates writes the template blocks of the file: who wrote
// which lines (listed: the dataset keeps the body).
func mdSiteTemplates(m *render.Markdown, ts []site.SiteTemplate, listed bool) {
	if !listed {
		return
	}
	m.Heading(3, "Who wrote this file")
	if len(ts) == 0 {
		m.Para("No template of the catalogue: the site wrote every line (or a template robocensus does not know).")
		return
	}
	for _, t := range ts {
		m.Printf("- lines %d-%d: %s, %s, **%s**", t.Start, t.End, render.Escape(t.Title), render.Code(t.Template+"@"+t.Version), t.State)
		if t.Released != "" {
			m.Printf(" (released %s)", t.Released)
		}
		if len(t.SiteLines) > 0 {
			m.Printf("; the site's own lines in it: %s", joinInts(t.SiteLines))
		}
		if l := t.List; l != nil {
			m.Printf("; similarity %.2f to that release", l.Similarity)
			if len(l.Missing) > 0 {
				m.Printf("; misses %d crawlers of the newest release: %s", len(l.Missing), render.Escape(l.MissingText()))
			}
		}
		m.Printf("\n")
		for _, c := range t.Cancelled {
			m.Printf("  - line %d cancels it: %s\n", c.Line, render.Escape(c.Message))
		}
	}
	m.Printf("\n")
}

// joinInts joins numbers with ", ".
func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ", ")
}

// mdSiteReadings writes the lines other parsers read differently.
func mdSiteReadings(m *render.Markdown, readings []site.SiteReading) {
	if len(readings) == 0 {
		return
	}
	m.Heading(3, "Where parsers disagree")
	line := func(n int32, text string) string {
		if n == 0 {
			return "no rule"
		}
		return render.Int(int64(n)) + " " + render.Code(text)
	}
	var rows [][]string
	for i := range readings {
		r := &readings[i]
		rows = append(rows, []string{render.Code(r.Semantics), render.Escape(r.Crawlers()), render.Escape(r.Change()),
			line(r.GoogleLine, r.GoogleLineText), line(r.Line, r.LineText), render.Code(r.Class)})
	}
	m.Table([]string{"parser", "crawlers", "Google → parser", "Google's deciding line", "parser's deciding line", "class"}, rows)
	var parsers []string
	for i, r := range readings {
		if i == slices.IndexFunc(readings, func(x site.SiteReading) bool { return x.Semantics == r.Semantics }) {
			parsers = append(parsers, render.Code(r.Semantics)+": "+render.Escape(r.Parser))
		}
	}
	m.Para("Parsers: %s.", strings.Join(parsers, "; "))
}

// mdListing writes the file in a fenced block, each finding on a line of
// its own after the line it concerns, marked "^".
func mdListing(m *render.Markdown, l *site.Listing) {
	var b strings.Builder
	for _, line := range l.Lines {
		if line.Skipped > 0 {
			b.WriteString("   ⋮  (" + render.Int(int64(line.Skipped)) + " lines without findings)\n")
			continue
		}
		b.WriteString(render.Pad(render.Int(int64(line.Number)), 5) + "  " + strings.ToValidUTF8(line.Text, "\uFFFD") + "\n")
		for _, f := range line.Findings {
			b.WriteString("       ^ " + f.Severity + ": " + f.Message + " [" + f.Code + "]\n")
		}
	}
	text := b.String()
	f := render.Fence(text)
	m.Printf("\n%stext\n%s%s\n\n", f, text, f)
}

func mdSiteCaptures(m *render.Markdown, caps []site.SiteCapture) {
	m.Heading(2, "Captures")
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
		rows = append(rows, []string{render.Escape(c.Crawl), when, render.Code(c.URL), render.Status(c.Status), render.Escape(c.Outcome), render.Int(c.RealLength), render.Int(int64(c.Errors)), deciding, render.Code(c.WARCFilename + "@" + render.Int(c.WARCOffset))})
	}
	m.Table([]string{"crawl", "fetched (UTC)", "URL", " status", "outcome", " bytes", " errors", "deciding", "WARC record"}, rows)
}
