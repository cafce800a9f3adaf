package sections

// The crawl report's sections in the order it shows them, how they are
// run over a crawl, and their trends across crawls.

import (
	"cmp"
	"context"
	"slices"

	"github.com/robocensus/robocensus/analyze/internal/engine"
	"github.com/robocensus/robocensus/analyze/internal/scan"
)

// CrawlSections are the sections of the crawl report, in the order the
// report shows them. Adding a section is one line here.
var CrawlSections = []*Section{
	overviewSection, outcomesSection, crawlersSection, preferencesSection, diagnosticsSection, sizesSection, rulesSection, typosSection,
	userAgentsSection, sitemapsSection, sharedBodiesSection, mistakesSection, readingsSection, templatesSection, worstSection, strataSection, changesSection, inputsSection,
}

// SectionNames returns the names of the sections of the crawl report, in
// the order the report shows them: what a test checks that each section
// has a counterpart of (robocensus's DuckDB cross-checks).
func SectionNames() []string {
	names := make([]string, len(CrawlSections))
	for i, s := range CrawlSections {
		names[i] = s.Name
	}
	return names
}

// Compute computes the figures of one crawl partition: the sections
// of the crawl report, run by the engine over captures captures split
// into batches host batches.
func Compute(ctx context.Context, d *scan.Dataset, label string, p engine.Params, captures int64, batches int) (*Crawl, error) {
	out := &Crawl{Crawl: label}
	jobs := make([]*engine.Section, len(CrawlSections))
	for i, s := range CrawlSections {
		jobs[i] = s.job(out)
	}
	if err := engine.Run(ctx, d, label, p, jobs, captures, batches); err != nil {
		return nil, err
	}
	return out, nil
}

// job returns what the engine runs of the section, its figures written
// into out.
func (s *Section) job(out *Crawl) *engine.Section {
	j := &engine.Section{Name: s.Name, Needs: s.Needs, Shared: s.Shared, When: s.When, TallyWords: s.TallyWords,
		Finish: func(acc engine.Accumulator) { acc.(Accumulator).Finish(out) }}
	if s.New != nil {
		j.New = func(p engine.Params) engine.Accumulator { return s.New(p) }
	}
	return j
}

// trends returns how the main figures moved between crawls, or nil for a
// single crawl.
func NewTrends(crawls []*Crawl, top int) *Trends {
	if len(crawls) < 2 {
		return nil
	}
	t := &Trends{}
	for _, c := range crawls {
		t.Crawls = append(t.Crawls, c.Crawl)
	}
	for _, s := range trendSections() {
		t.addSection(crawls, s, top)
	}
	return t
}

// trendSections returns the sections in the order of their trends: by
// TrendOrder, then in report order.
func trendSections() []*Section {
	secs := slices.Clone(CrawlSections)
	slices.SortStableFunc(secs, func(a, b *Section) int { return cmp.Compare(a.TrendOrder, b.TrendOrder) })
	return secs
}

// addSection adds the trends of a section.
func (t *Trends) addSection(crawls []*Crawl, s *Section, top int) {
	trends := s.Trends
	if s.MoreTrends != nil {
		trends = append(slices.Clip(trends), s.MoreTrends(crawls[len(crawls)-1], engine.Params{Top: top})...)
	}
	for _, tr := range trends {
		if tr.Count != nil {
			t.add(crawls, tr.Name, false, func(c *Crawl) float64 { return float64(tr.Count(c)) })
		} else {
			t.add(crawls, tr.Name, true, func(c *Crawl) float64 { return tr.Ratio(c).Share() })
		}
	}
}

func (t *Trends) add(crawls []*Crawl, name string, share bool, f func(*Crawl) float64) {
	s := Series{Name: name, Share: share}
	for _, c := range crawls {
		s.Values = append(s.Values, f(c))
	}
	t.Series = append(t.Series, s)
}
