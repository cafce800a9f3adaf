package sections

import (
	"github.com/robocensus/robocensus/analyze/internal/engine"
	"github.com/robocensus/robocensus/analyze/internal/render"
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

	// TallyWords is the number of words of the tally the section keeps
	// per host when it needs a "host T" table (engine.Section.TallyWords).
	TallyWords int
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

// An Accumulator counts what one worker of the engine reads (see
// engine.Accumulator), and writes the figures into the crawl's once the workers'
// counts are merged into it (Finish).
type Accumulator interface {
	engine.Accumulator
	Finish(out *Crawl)
}
