package analyze

import (
	"cmp"
	"slices"

	"github.com/robocensus/robocensus/robots"
)

// trendCrawlers is the most AI crawlers followed in the trends.
const trendCrawlers = 8

// trends returns how the main figures moved between crawls, or nil for a
// single crawl.
func trends(crawls []*Crawl, top int) *Trends {
	if len(crawls) < 2 {
		return nil
	}
	t := &Trends{}
	for _, c := range crawls {
		t.Crawls = append(t.Crawls, c.Crawl)
	}
	count := func(name string, f func(*Crawl) int64) {
		t.add(crawls, name, false, func(c *Crawl) float64 { return float64(f(c)) })
	}
	share := func(name string, f func(*Crawl) Ratio) {
		t.add(crawls, name, true, func(c *Crawl) float64 { return f(c).Share() })
	}
	count("captures", func(c *Crawl) int64 { return c.Captures })
	count("hosts", func(c *Crawl) int64 { return c.Hosts })
	share("hosts with a usable robots.txt", func(c *Crawl) Ratio { return Ratio{c.UsableHosts, c.Hosts} })
	for _, o := range knownOutcomes {
		share("outcome "+o, func(c *Crawl) Ratio { return outcomeRatio(c, o) })
	}
	share("captures with an error", func(c *Crawl) Ratio { return c.WithErrors })
	share("oversize (of read captures)", func(c *Crawl) Ratio { return c.Sizes.Oversize })
	share("empty (of read captures)", func(c *Crawl) Ratio { return c.Sizes.Empty })
	share("wildcard rules (of captures with rules)", func(c *Crawl) Ratio { return c.Patterns.WildcardCaptures })
	share("typo accepted", func(c *Crawl) Ratio { return c.Typos.Accepted.Captures })
	share("typo ignored", func(c *Crawl) Ratio { return c.Typos.Ignored.Captures })
	share("sitemap declared (of read captures)", func(c *Crawl) Ratio { return c.Sitemaps.Captures })
	share("hosts sharing their body", func(c *Crawl) Ratio { return c.Farms.SharedHosts })
	share("an AI crawler named", func(c *Crawl) Ratio { return c.Crawlers.AnyAINamed })
	share("an AI crawler named and disallowed", func(c *Crawl) Ratio { return c.Crawlers.AnyAINamedDisallowed })
	share("every AI crawler disallowed", func(c *Crawl) Ratio { return c.Crawlers.EveryAIDisallowed })
	for _, agent := range trendAgents(crawls[len(crawls)-1], min(top, trendCrawlers)) {
		share(agent+" named", func(c *Crawl) Ratio { v := crawlerUsable(c, agent); return Ratio{v.Named, v.Hosts} })
		share(agent+" disallowed", func(c *Crawl) Ratio { v := crawlerUsable(c, agent); return Ratio{v.Disallowed, v.Hosts} })
	}
	return t
}

func (t *Trends) add(crawls []*Crawl, name string, share bool, f func(*Crawl) float64) {
	s := Series{Name: name, Share: share}
	for _, c := range crawls {
		s.Values = append(s.Values, f(c))
	}
	t.Series = append(t.Series, s)
}

func outcomeRatio(c *Crawl, outcome string) Ratio {
	for _, o := range c.Outcomes {
		if o.Outcome == outcome {
			return o.Captures
		}
	}
	return Ratio{Of: c.Captures}
}

// crawlerUsable returns a crawler's figures over usable hosts.
func crawlerUsable(c *Crawl, agent string) HostVerdicts {
	for _, s := range c.Crawlers.Crawlers {
		if s.Agent == agent {
			return s.Usable
		}
	}
	return HostVerdicts{Hosts: c.Crawlers.UsableHosts}
}

// trendAgents returns the AI crawlers most often named in a crawl.
func trendAgents(c *Crawl, n int) []string {
	var ai []CrawlerShare
	for _, s := range c.Crawlers.Crawlers {
		if s.Kind == robots.CrawlerAI.String() && s.Usable.Named > 0 {
			ai = append(ai, s)
		}
	}
	slices.SortStableFunc(ai, func(a, b CrawlerShare) int { return cmp.Compare(b.Usable.Named, a.Usable.Named) })
	var out []string
	for _, s := range ai[:min(n, len(ai))] {
		out = append(out, s.Agent)
	}
	return out
}
