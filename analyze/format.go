package analyze

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/robocensus/robocensus/analyze/internal/render"
	"github.com/robocensus/robocensus/analyze/internal/sections"
)

// Format is an output format of the reports.
type Format string

// The formats. All three carry the same figures.
const (
	// HTML is one self-contained page: inline CSS and SVG charts, no
	// script, nothing fetched. Every text from the dataset is escaped.
	HTML Format = "html"
	// Markdown is GitHub-flavoured Markdown: headings and tables.
	Markdown Format = "md"
	// JSON is the report struct as JSON, indented.
	JSON Format = "json"
)

// ParseFormat returns the format called name: "html", "md" (or "markdown")
// or "json". Other names give an error wrapping [ErrBadFormat].
func ParseFormat(name string) (Format, error) {
	switch strings.ToLower(name) {
	case "html":
		return HTML, nil
	case "md", "markdown":
		return Markdown, nil
	case "json":
		return JSON, nil
	}
	return "", fmt.Errorf("%w %q (want html, md or json)", ErrBadFormat, name)
}

// Write writes the crawl report in the given format. title names the
// dataset in the HTML and Markdown headings.
func (r *Report) Write(w io.Writer, f Format, title string) error {
	switch f {
	case HTML:
		return writeReportHTML(w, r, title)
	case Markdown:
		return writeReportMarkdown(w, r, title)
	case JSON:
		return writeJSON(w, r)
	}
	return fmt.Errorf("%w %q", ErrBadFormat, string(f))
}

// Write writes the site report in the given format. title names the
// dataset in the HTML and Markdown headings.
func (r *SiteReport) Write(w io.Writer, f Format, title string) error {
	switch f {
	case HTML:
		return writeSiteHTML(w, r.SiteReport, title)
	case Markdown:
		return writeSiteMarkdown(w, r.SiteReport, title)
	case JSON:
		return writeJSON(w, r.SiteReport)
	}
	return fmt.Errorf("%w %q", ErrBadFormat, string(f))
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v) // escapes <, > and & too
}

// Number formatting shared by the renderers.

// WriteSummary writes a summary of the latest crawl that fits a terminal:
// the headline figures, the outcomes, the most frequent errors and
// warnings, the AI crawlers most often named and the worst hosts.
func (r *Report) WriteSummary(w io.Writer) error {
	if len(r.Crawls) == 0 {
		return nil
	}
	c := r.Crawls[len(r.Crawls)-1]
	var b strings.Builder
	summaryHead(&b, c)
	summaryProblems(&b, c)
	summaryAI(&b, c)
	summaryWorst(&b, c)
	_, err := io.WriteString(w, b.String())
	return err
}

func summaryHead(b *strings.Builder, c *sections.Crawl) {
	fmt.Fprintf(b, "crawl %s: %s captures of %s hosts, %s with a usable robots.txt\n",
		c.Crawl, render.Int(c.Captures), render.Int(c.Hosts), sections.FormatRatio(sections.Ratio{N: c.UsableHosts, Of: c.Hosts}))
	b.WriteString("outcomes:")
	for _, o := range c.Outcomes {
		if o.Captures.N > 0 {
			fmt.Fprintf(b, " %s %s", o.Outcome, render.Share(o.Captures.Share()))
		}
	}
	fmt.Fprintf(b, "\ncaptures with an error: %s; over 500 KiB: %s\n", sections.FormatRatio(c.WithErrors), sections.FormatRatio(c.Sizes.Oversize))
}

// summaryProblems lists the errors and warnings found in most captures.
func summaryProblems(b *strings.Builder, c *sections.Crawl) {
	b.WriteString("most frequent problems:")
	var problems []sections.CodeShare
	for _, d := range c.Diagnostics {
		if d.Severity != "info" && d.Captures.N > 0 {
			problems = append(problems, d)
		}
	}
	slices.SortStableFunc(problems, func(a, b sections.CodeShare) int { return cmp.Compare(b.Captures.N, a.Captures.N) })
	for _, d := range problems[:min(6, len(problems))] {
		fmt.Fprintf(b, "\n  %-32s %-8s %s", d.Code, d.Severity, sections.FormatRatio(d.Captures))
	}
	b.WriteString("\n")
}

func summaryAI(b *strings.Builder, c *sections.Crawl) {
	ai := &c.Crawlers
	fmt.Fprintf(b, "AI crawlers: named by %s of usable robots.txt, fully disallowed by name by %s\n",
		render.Share(ai.AnyAINamed.Share()), render.Share(ai.AnyAINamedDisallowed.Share()))
	for _, agent := range sections.TrendAgents(c, 5) {
		v := sections.CrawlerUsable(c, agent)
		fmt.Fprintf(b, "  %-24s named %-6s fully disallowed %s\n", agent, render.Share(sections.Share(v.Named, v.Hosts)), render.Share(sections.Share(v.Disallowed, v.Hosts)))
	}
}

func summaryWorst(b *strings.Builder, c *sections.Crawl) {
	b.WriteString("hosts with the most errors:")
	for _, h := range c.WorstHosts[:min(5, len(c.WorstHosts))] {
		fmt.Fprintf(b, "\n  %-32s %d %s: %s", termSafe(h.Host), h.Errors, render.Plural(int64(h.Errors), "error", "errors"), strings.Join(h.Codes, ", "))
	}
	b.WriteString("\n")
}

// termSafe replaces control characters, which could drive a terminal, by
// U+FFFD.
func termSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return '\uFFFD'
		}
		return r
	}, s)
}
