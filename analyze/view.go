package analyze

// What both pages of the reports draw, HTML and Markdown alike: trend
// values and deltas, a site's crawlers grouped by verdict, its redirects.

import (
	"fmt"

	"github.com/robocensus/robocensus/analyze/internal/render"
	"github.com/robocensus/robocensus/analyze/internal/sections"
	"github.com/robocensus/robocensus/analyze/internal/site"
	"github.com/robocensus/robocensus/robots"
)

// fmtValue writes a trend value: a share or a count.
func fmtValue(s sections.Series, v float64) string {
	if s.Share {
		return render.Share(v)
	}
	return render.Int(int64(v))
}

// fmtDelta writes the change of a series from the first crawl to the last.
func fmtDelta(s sections.Series) string {
	if s.Share {
		return render.Points(s.Delta())
	}
	return fmt.Sprintf("%+d", int64(s.Delta()))
}

// verdictGroup lists the tracked crawlers with one verdict.
type verdictGroup struct {
	Verdict, Title string
	Crawlers       []site.SiteCrawler // all of them
	Named          []site.SiteCrawler // those a group names
	Star           []site.SiteCrawler // those the '*' group decides for
	Fold           bool               // too many Star to show open
}

// verdictTitles orders and names the verdict groups.
var verdictTitles = []struct{ verdict, title string }{
	{robots.AccessDisallowed.String(), "fully disallowed"},
	{robots.AccessPartial.String(), "partially disallowed"},
	{robots.AccessAllowed.String(), "allowed"},
}

func verdictGroups(sc *site.SiteCrawl) []verdictGroup {
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

// siteRedirects says in words what following the host's redirects gave.
func siteRedirects(h *site.SiteHost) string {
	switch h.RedirectResult {
	case "none":
		return "no redirect"
	case "resolved":
		to := "its own capture"
		if h.EffectiveURL != "" {
			to = h.EffectiveURL
		}
		return fmt.Sprintf("redirects resolved after %d %s to %s, outcome %s", h.RedirectHops, render.Plural(int64(h.RedirectHops), "hop", "hops"), to, h.EffectiveOutcome)
	}
	return fmt.Sprintf("redirects not resolved (%s after %d %s)", h.RedirectResult, h.RedirectHops, render.Plural(int64(h.RedirectHops), "hop", "hops"))
}

// foldStar is the number of crawlers following '*' shown without a fold.
const foldStar = 24
