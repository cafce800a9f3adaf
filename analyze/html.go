package analyze

import (
	"embed"
	"html/template"
	"io"
	"strings"

	"github.com/robocensus/robocensus/analyze/internal/engine"
	"github.com/robocensus/robocensus/analyze/internal/render"
	"github.com/robocensus/robocensus/analyze/internal/sections"
	"github.com/robocensus/robocensus/analyze/internal/site"
	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

//go:embed html/*.tmpl html/sections/*.tmpl html/style.css
var htmlFiles embed.FS

// style is the stylesheet every page inlines.
var style = func() template.CSS {
	b, err := htmlFiles.ReadFile("html/style.css")
	if err != nil {
		panic(err) // embedded: cannot happen
	}
	return template.CSS(b)
}()

// pages holds the HTML templates. html/template escapes every value for
// its context (text, attribute, CSS, URL), so text from robots.txt files
// cannot become markup; the pages hold no script at all, and their
// Content-Security-Policy forbids scripts and every fetch.
var pages = template.Must(template.New("").Funcs(template.FuncMap{
	"int":           render.Int,
	"share":         render.Share,
	"ratio":         sections.FormatRatio,
	"pct":           func(r sections.Ratio) string { return render.Share(r.Share()) },
	"bytes":         render.Bytes,
	"value":         fmtValue,
	"delta":         fmtDelta,
	"status":        render.Status,
	"plural":        render.Plural,
	"siteRedirects": siteRedirects,
	"frac":          func(n, of int64) float64 { return sections.Ratio{N: n, Of: of}.Share() },
	"lineClass":     lineClass,
}).ParseFS(htmlFiles, "html/*.tmpl", "html/sections/*.tmpl"))

// reportView is what the crawl report template draws.
type reportView struct {
	Title   string
	Style   template.CSS
	Latest  *crawlView
	Earlier []*crawlView // older crawls, newest first
	Trends  *trendsView
	Top     int
}

// crawlView is one crawl's figures with their charts.
type crawlView struct {
	*sections.Crawl
	Label      string // the crawl label (Crawl names the embedded figures)
	Cards      []card
	OutcomeBar *render.BarChart
	Outcomes   []outcomeRow
	Sections   []template.HTML   // each section's fragment, in report order
	Contents   []sections.Anchor // the links to the sections drawn, in report order
	top        int
	idSuffix   string // what the crawl's HTML ids end with (see ID)
}

// ID returns the HTML id of a part of the crawl's figures (a section's
// name, "crawl"): the name itself in the latest crawl, whose sections the
// page's table of contents links, and name-LABEL in an earlier crawl, so
// that no id repeats on the page (section names hold no '-').
func (v *crawlView) ID(name string) string { return name + v.idSuffix }

// sectionView is what a section's fragment draws: the crawl's figures,
// and what the section's View returns.
type sectionView struct {
	*crawlView
	View any
}

type card struct {
	Value, Label string
	Bad          bool
}

type outcomeRow struct {
	sections.OutcomeShare
	Class, Meaning, Statuses string
}

type trendsView struct {
	Crawls []string
	Rows   []trendRow
}

type trendRow struct {
	sections.Series
	Spark *render.Sparkline
	Up    bool
	Down  bool
}

func writeReportHTML(w io.Writer, r *Report, title string) error {
	v := &reportView{Title: title, Style: style, Top: r.Top}
	for i := len(r.Crawls) - 1; i >= 0; i-- {
		cv := newCrawlView(r.Crawls[i], r.Top)
		if v.Latest != nil {
			cv.idSuffix = "-" + cv.Label
		}
		if err := cv.renderSections(); err != nil {
			return err
		}
		if v.Latest == nil {
			v.Latest = cv
		} else {
			v.Earlier = append(v.Earlier, cv)
		}
	}
	if r.Trends != nil {
		v.Trends = newTrendsView(r.Trends)
	}
	return pages.ExecuteTemplate(w, "report.tmpl", v)
}

func newCrawlView(c *sections.Crawl, top int) *crawlView {
	v := &crawlView{Crawl: c, Label: c.Crawl, top: top}
	v.Cards = crawlCards(c)
	v.OutcomeBar, v.Outcomes = outcomeView(c)
	return v
}

// renderSections renders the fragment of each section of the crawl
// report ("section-NAME") for the crawl, and lists the links of the
// table of contents of the sections that drew something (Section.Title,
// Section.Anchors): the strata need ranks, the changes a crawl before.
func (v *crawlView) renderSections() error {
	for _, s := range sections.CrawlSections {
		if s.InHeader {
			continue
		}
		var b strings.Builder
		sv := sectionView{crawlView: v}
		if s.View != nil {
			sv.View = s.View(v.Crawl, engine.Params{Top: v.top})
		}
		if err := pages.ExecuteTemplate(&b, "section-"+s.Name, sv); err != nil {
			return err
		}
		v.Sections = append(v.Sections, template.HTML(b.String())) // escaped by its template
		if strings.TrimSpace(b.String()) != "" {
			for _, a := range s.Links() {
				v.Contents = append(v.Contents, sections.Anchor{ID: v.ID(a.ID), Title: a.Title})
			}
		}
	}
	return nil
}

func crawlCards(c *sections.Crawl) []card {
	return []card{
		{Value: render.Int(c.Captures), Label: "captures"},
		{Value: render.Int(c.Hosts), Label: "hosts"},
		{Value: render.Share(sections.Ratio{N: c.UsableHosts, Of: c.Hosts}.Share()), Label: "of hosts have a usable robots.txt"},
		{Value: render.Share(c.WithErrors.Share()), Label: "of captures have an error", Bad: c.WithErrors.N > 0},
		{Value: render.Share(c.Crawlers.AnyAINamed.Share()), Label: "of usable robots.txt name an AI crawler"},
		{Value: render.Share(c.Crawlers.AnyAINamedDisallowed.Share()), Label: "shut out an AI crawler by name"},
		{Value: render.Share(c.Sizes.Oversize.Share()), Label: "of read files are over 500 KiB", Bad: c.Sizes.Oversize.N > 0},
		{Value: render.Share(c.SharedBodies.SharedHosts.Share()), Label: "of hosts serve a body other hosts serve too"},
	}
}

func outcomeClass(o string) string {
	if _, ok := sections.OutcomeMeaning[o]; ok {
		return "o-" + o
	}
	return "o-other"
}

func outcomeView(c *sections.Crawl) (*render.BarChart, []outcomeRow) {
	in := render.BarInput{Label: "captures", Note: render.Int(c.Captures)}
	var rows []outcomeRow
	for _, o := range c.Outcomes {
		if o.Captures.N == 0 {
			continue
		}
		cls := outcomeClass(o.Outcome)
		in.Values = append(in.Values, o.Captures.Share())
		in.Class = append(in.Class, cls)
		in.Title = append(in.Title, o.Outcome+": "+sections.FormatRatio(o.Captures))
		var st []string
		for _, s := range o.Statuses {
			st = append(st, render.Status(s.Status)+" × "+render.Int(s.Captures))
		}
		rows = append(rows, outcomeRow{OutcomeShare: o, Class: cls, Meaning: sections.OutcomeMeaning[o.Outcome], Statuses: strings.Join(st, ", ")})
	}
	return render.NewBarChart(1100, 70, 1, []render.BarInput{in}, nil, render.Share), rows
}

func newTrendsView(t *sections.Trends) *trendsView {
	v := &trendsView{Crawls: t.Crawls}
	for _, s := range t.Series {
		v.Rows = append(v.Rows, trendRow{Series: s, Spark: render.NewSparkline(s.Values), Up: s.Delta() > 0, Down: s.Delta() < 0})
	}
	return v
}

// siteView is what the site report template draws.
type siteView struct {
	*site.SiteReport
	Title      string
	Style      template.CSS
	Latest     *site.SiteCrawl
	Cards      []card
	Verdicts   []verdictGroup
	CrawlViews []*site.SiteCrawl // newest first
}

func writeSiteHTML(w io.Writer, r *site.SiteReport, title string) error {
	latest := r.Crawls[len(r.Crawls)-1]
	v := &siteView{SiteReport: r, Title: title, Style: style, Latest: latest, Verdicts: verdictGroups(latest)}
	for i := len(r.Crawls) - 1; i >= 0; i-- {
		v.CrawlViews = append(v.CrawlViews, r.Crawls[i])
	}
	v.Cards = siteCards(latest)
	return pages.ExecuteTemplate(w, "site.tmpl", v)
}

// siteCards are the site page's figures of the latest crawl, from its
// deciding capture: its answer, the engine's errors and warnings in the
// file (the diagnostics the listing shows at their lines), what it says
// to AI crawlers and its sitemaps.
func siteCards(latest *site.SiteCrawl) []card {
	c := &latest.Capture
	var ai, aiBlocked int64
	for _, cr := range latest.Crawlers {
		if cr.Kind == robots.CrawlerAI.String() {
			ai++
			if cr.Verdict == robots.AccessDisallowed.String() {
				aiBlocked++
			}
		}
	}
	errs, warns, sitemaps := int64(c.Errors), int64(c.Warnings), int64(len(latest.Sitemaps))
	return []card{
		{Value: render.Status(c.Status), Label: "answer in " + latest.Crawl + ": " + c.Outcome, Bad: c.Outcome == robots.OutcomeDisallowAll.String() || c.Outcome == robots.OutcomeNotRobots.String()},
		{Value: render.Int(errs), Label: render.Plural(errs, "error", "errors") + ": what Google ignores or misreads", Bad: errs > 0},
		{Value: render.Int(warns), Label: render.Plural(warns, "warning", "warnings") + ": probably not what was meant"},
		{Value: render.Int(aiBlocked) + " / " + render.Int(ai), Label: "AI crawlers fully disallowed"},
		{Value: render.Int(sitemaps), Label: render.Plural(sitemaps, "sitemap", "sitemaps") + " declared"},
	}
}

// lineClass marks a listing line by its most severe finding.
func lineClass(l site.ListingLine) string {
	best := ""
	for _, f := range l.Findings {
		if best == "" || schema.SeverityRank(f.Severity) < schema.SeverityRank(best) {
			best = f.Severity
		}
	}
	if best == "" {
		return ""
	}
	return "has-" + best
}
