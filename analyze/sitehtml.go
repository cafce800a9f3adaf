package analyze

import (
	"html/template"
	"io"

	"github.com/robocensus/robocensus/robots"
)

// siteView is what the site report template draws.
type siteView struct {
	*SiteReport
	Title      string
	Style      template.CSS
	Latest     *SiteCrawl
	Cards      []card
	Verdicts   []verdictGroup
	CrawlViews []*SiteCrawl // newest first
}

// verdictGroup lists the tracked crawlers with one verdict.
type verdictGroup struct {
	Verdict, Title string
	Crawlers       []SiteCrawler // all of them
	Named          []SiteCrawler // those a group names
	Star           []SiteCrawler // those the '*' group decides for
	Fold           bool          // too many Star to show open
}

// foldStar is the number of crawlers following '*' shown without a fold.
const foldStar = 24

func writeSiteHTML(w io.Writer, r *SiteReport, title string) error {
	latest := r.Crawls[len(r.Crawls)-1]
	v := &siteView{SiteReport: r, Title: title, Style: style, Latest: latest, Verdicts: verdictGroups(latest)}
	for i := len(r.Crawls) - 1; i >= 0; i-- {
		v.CrawlViews = append(v.CrawlViews, r.Crawls[i])
	}
	v.Cards = siteCards(r, latest)
	return pages.ExecuteTemplate(w, "site.tmpl", v)
}

// verdictTitles orders and names the verdict groups.
var verdictTitles = []struct{ verdict, title string }{
	{robots.AccessDisallowed.String(), "fully disallowed"},
	{robots.AccessPartial.String(), "partially disallowed"},
	{robots.AccessAllowed.String(), "allowed"},
}

func verdictGroups(sc *SiteCrawl) []verdictGroup {
	var out []verdictGroup
	for _, vt := range verdictTitles {
		g := verdictGroup{Verdict: vt.verdict, Title: vt.title}
		for _, c := range sc.Crawlers {
			if c.Verdict != vt.verdict {
				continue
			}
			g.Crawlers = append(g.Crawlers, c)
			if c.Named {
				g.Named = append(g.Named, c)
			} else {
				g.Star = append(g.Star, c)
			}
		}
		g.Fold = len(g.Star) > foldStar
		if len(g.Crawlers) > 0 {
			out = append(out, g)
		}
	}
	return out
}

func siteCards(r *SiteReport, latest *SiteCrawl) []card {
	var errs, warns int64
	for _, f := range r.Findings {
		switch f.Severity {
		case "error":
			errs++
		case "warning":
			warns++
		}
	}
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
	return []card{
		{Value: status(c.Status), Label: "answer in " + latest.Crawl + ": " + c.Outcome, Bad: c.Outcome == robots.OutcomeDisallowAll.String() || c.Outcome == robots.OutcomeNotRobots.String()},
		{Value: fmtInt(errs), Label: "errors found by the checks", Bad: errs > 0},
		{Value: fmtInt(warns), Label: "warnings"},
		{Value: fmtInt(int64(c.Errors)), Label: "lines or facts Google ignores or misreads", Bad: c.Errors > 0},
		{Value: fmtInt(aiBlocked) + " / " + fmtInt(ai), Label: "AI crawlers fully disallowed"},
		{Value: fmtInt(int64(len(latest.Sitemaps))), Label: "sitemaps declared"},
	}
}

// lineClass marks a listing line by its most severe finding.
func lineClass(l ListingLine) string {
	best := ""
	for _, f := range l.Findings {
		if best == "" || severityRank(f.Severity) < severityRank(best) {
			best = f.Severity
		}
	}
	if best == "" {
		return ""
	}
	return "has-" + best
}
