package analyze

import (
	"github.com/apache/arrow/go/v15/arrow"
)

// A Section is one section of the crawl report, in the shape of a site
// [Check] or a go/analysis Analyzer: plain data that the driver runs. It
// says what it reads (Needs), how it counts (New returns an
// [Accumulator]), which of its figures are followed across crawls
// (Trends), and how it renders: Markdown, and the HTML template
// "section-NAME", its fragment in html/sections/NAME.tmpl. The driver
// owns every pass over the dataset: a section opens no file and knows
// nothing of host shards or row groups.
//
// Sections without Needs are still computed by the crawl passes
// (crawl.go, passes.go); they are listed for their rendering only.
type Section struct {
	Name     string // its HTML id and template suffix; lower case
	Doc      string // what it shows, one sentence
	Needs    []Need
	New      func(p Params) Accumulator
	Trends   []Trend
	Markdown func(m *mdWriter, c *Crawl, top int)
}

// Params are the report's settings a section may use.
type Params struct {
	Top int // the length of the ranked lists
}

// A Need is a table a section reads, and its columns.
//
// "captures" feeds every row of captures (one pass, shared with the
// shards). Any other table of the dataset (sitemaps, inputs, ...) is read
// once per crawl, every row. A table "hosts" (one row per crawl and host
// with its deciding capture) is meant to plug in here: a section that
// asks for it would get each host with its deciding capture's columns.
//
// A Need with Marked set is read differently: in every host shard, once
// the shard's passes are done, each row with the [Mark] of its capture
// (see markedPass in sectiondriver.go); its section's accumulators
// implement [MarkedAccumulator].
type Need struct {
	Table   string
	Columns []string
	Marked  bool
	Dict    []string // of a Marked need, the columns read as dictionaries
}

// An Accumulator counts what one worker of the driver reads. Add gets a
// record of one of the tables the section needs, with at least the
// columns it asked for; records must not be kept (copy what is kept).
// Merge adds another worker's counts into this one; Finish writes the
// figures into the crawl's.
type Accumulator interface {
	Add(table string, rec arrow.Record) error
	Merge(other Accumulator)
	Finish(out *Crawl)
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
var crawlSections = []*Section{
	outcomesSection, crawlersSection, preferencesSection, diagnosticsSection, sizesSection, rulesSection, typosSection,
	userAgentsSection, sitemapsSection, farmsSection, mistakesSection, worstSection, inputsSection,
}
