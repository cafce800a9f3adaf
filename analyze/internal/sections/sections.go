package sections

import (
	"context"

	"github.com/robocensus/robocensus/analyze/internal/engine"
	"github.com/robocensus/robocensus/analyze/internal/render"
	"github.com/robocensus/robocensus/analyze/internal/scan"
)

// A Section is one section of the crawl report, in the shape of a site
// [Check] or a go/analysis Analyzer: plain data that the driver runs. It
// says what it reads (Needs), how it counts (New returns an
// [Accumulator]), which of its figures are followed across crawls
// (Trends), and how it renders: Markdown, and the HTML template
// "section-NAME", its fragment in html/sections/NAME.tmpl, whose element
// ids are written {{$.ID "NAME"}} so that each crawl of the page has its
// own (crawlView.ID). The driver
// owns every pass over the dataset: a section opens no file and knows
// nothing of host batches or row groups.
type Section struct {
	Name     string // its HTML id and template suffix; lower case, no '-'
	Doc      string // what it shows, one sentence
	Title    string // its link in the HTML page's table of contents, to #Name
	Needs    []engine.Need
	New      func(p engine.Params) Accumulator
	Trends   []Trend
	Markdown func(m *render.Markdown, c *Crawl, top int)

	// View, when set, returns what the section's HTML fragment draws
	// besides the crawl's figures (its charts, rows made for display):
	// the fragment's dot has the crawl's figures and .View.
	View func(c *Crawl, p engine.Params) any

	// TrendOrder places the section's trends in the trends table: by
	// TrendOrder, then in report order. The sections of the first
	// reports have 0; crawlers, usage preferences and classic mistakes,
	// whose series came after theirs, have 1, so that the series keep
	// their order in the JSON report. A new section whose series should
	// follow all the older ones takes 2.
	TrendOrder int

	// MoreTrends, when set, lists further trends that depend on the
	// figures of the latest crawl (the crawlers most often named); they
	// follow Trends.
	MoreTrends func(latest *Crawl, p engine.Params) []Trend

	// Shared makes the driver call New once per crawl and give that one
	// accumulator to every worker at once: it must be safe for concurrent
	// use, and Merge is never called. For a section that joins tables it
	// is fed one after the other (the strata join the hosts table, read
	// before the batches' passes, with agents).
	Shared bool

	// Anchors, when set, are the section's links in the table of
	// contents instead of Title: for a fragment of several <section>
	// elements (the crawlers'), or whose id is not its Name.
	Anchors []Anchor

	// InHeader says the section has no fragment of its own: the page
	// draws its figures in its header line and cards (report.tmpl).
	InHeader bool

	// When, when set, says whether the section runs with these settings
	// (the strata need a ranked host list); a section that does not run
	// reads nothing and leaves its figures empty.
	When func(p engine.Params) bool
}

// An Anchor is a link of the HTML page's table of contents: the id of an
// element of a section's fragment, and its title.
type Anchor struct{ ID, Title string }

// anchors returns the section's links in the table of contents.
func (s *Section) Links() []Anchor {
	if s.Anchors != nil || s.Title == "" {
		return s.Anchors
	}
	return []Anchor{{s.Name, s.Title}}
}

// A Trend is one figure of a section followed across crawls: a share, or
// a count when Count is set.
type Trend struct {
	Name  string
	Ratio func(*Crawl) Ratio
	Count func(*Crawl) int64
}

// crawlSections are the sections of the crawl report, in the order the
// report shows them. Adding a section is one line here.
var CrawlSections = []*Section{
	overviewSection, outcomesSection, crawlersSection, preferencesSection, diagnosticsSection, sizesSection, rulesSection, typosSection,
	userAgentsSection, sitemapsSection, sharedBodiesSection, mistakesSection, readingsSection, worstSection, strataSection, changesSection, inputsSection,
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

// An Accumulator counts what one worker of the engine reads (see
// batchAcc), and writes the figures into the crawl's once the workers'
// counts are merged into it (Finish).
type Accumulator interface {
	engine.Accumulator
	Finish(out *Crawl)
}

// computeCrawl computes the figures of one crawl partition: the sections
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
	j := &engine.Section{Name: s.Name, Needs: s.Needs, Shared: s.Shared, When: s.When,
		Finish: func(acc engine.Accumulator) { acc.(Accumulator).Finish(out) }}
	if s.New != nil {
		j.New = func(p engine.Params) engine.Accumulator { return s.New(p) }
	}
	return j
}
