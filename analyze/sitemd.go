package analyze

import (
	"bufio"
	"io"
	"strings"
)

func writeSiteMarkdown(w io.Writer, r *SiteReport, title string) error {
	m := &mdWriter{w: bufio.NewWriter(w)}
	nc, nk := int64(len(r.Captures)), int64(len(r.Crawls))
	m.printf("# robots.txt of %s\n\nDataset %s: %s %s in %s %s.\n", code(r.Host), code(title), fmtInt(nc), plural(nc, "capture", "captures"), fmtInt(nk), plural(nk, "crawl", "crawls"))
	m.heading(2, "Findings")
	if len(r.Findings) == 0 {
		m.para("The checks found nothing to report.")
	}
	for _, f := range r.Findings {
		where := md(f.Crawl)
		if f.Line > 0 {
			where += ", line " + fmtInt(int64(f.Line))
		}
		m.printf("- **%s** %s (%s, %s)\n", f.Severity, md(f.Message), code(f.Check), where)
	}
	latest := r.Crawls[len(r.Crawls)-1]
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
	for i := len(r.Crawls) - 1; i >= 0; i-- {
		mdSiteCrawl(m, r.Crawls[i])
	}
	mdSiteCaptures(m, r.Captures)
	return m.flush()
}

func mdSiteCrawl(m *mdWriter, sc *SiteCrawl) {
	c := &sc.Capture
	m.heading(2, "robots.txt in "+md(sc.Crawl))
	m.para("Capture %s of %s: %s, outcome %s, %s; errors: %d, warnings: %d. Other hosts serving the same file: %s.",
		code(c.CaptureID), code(c.URL), status(c.Status), code(c.Outcome), fmtBytes(c.Length), c.Errors, c.Warnings, fmtInt(sc.SharedWith))
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

func pad(s string, n int) string {
	if len(s) >= n {
		return s
	}
	return strings.Repeat(" ", n-len(s)) + s
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
		rows = append(rows, []string{md(c.Crawl), when, code(c.URL), status(c.Status), md(c.Outcome), fmtInt(c.Length), fmtInt(int64(c.Errors)), deciding, code(c.WARCFilename + "@" + fmtInt(c.WARCOffset))})
	}
	m.table([]string{"crawl", "fetched (UTC)", "URL", " status", "outcome", " bytes", " errors", "deciding", "WARC record"}, rows)
}
