package sections

import (
	"github.com/apache/arrow/go/v15/arrow"

	"github.com/robocensus/robocensus/analyze/internal/engine"
	"github.com/robocensus/robocensus/analyze/internal/render"
	"github.com/robocensus/robocensus/analyze/internal/scan"
)

// sitemapsSection counts the sitemaps declared: the read captures with a
// sitemap line, and the lines of the sitemaps table, valid or not.
var sitemapsSection = &Section{
	Name:  "sitemaps",
	Doc:   "the sitemaps declared: read captures with a sitemap line, sitemap lines and the valid ones",
	Title: "Sitemaps",
	Needs: []engine.Need{
		{Table: engine.CapturesTable, Columns: []string{"fetch_status", "sitemap_count"}},
		{Table: engine.SitemapsTable, Columns: []string{"valid"}},
	},
	New:      func(engine.Params) Accumulator { return &sitemapsAcc{} },
	Trends:   []Trend{{Name: "sitemap declared (of read captures)", Ratio: func(c *Crawl) Ratio { return c.Sitemaps.Captures }}},
	Markdown: mdSitemaps,
}

// sitemapsAcc is what one worker counts of the sitemaps.
type sitemapsAcc struct {
	Sitemaps
}

func (a *sitemapsAcc) Add(table engine.Table, rec arrow.Record) error {
	if table == engine.CapturesTable {
		return a.addCaptures(rec)
	}
	return a.addLines(rec)
}

// addCaptures counts the read captures, and those with a sitemap line.
//
//mutate:catch
func (a *sitemapsAcc) addCaptures(rec arrow.Record) error {
	cs := scan.Columns{Rec: rec}
	status, count := cs.I32("fetch_status"), cs.I32("sitemap_count")
	if cs.Err != nil {
		return cs.Err
	}
	for i := range int(rec.NumRows()) {
		if !engine.IsRead(status, i) {
			continue
		}
		a.Captures.Of++
		if count.Value(i) > 0 {
			a.Captures.N++
		}
	}
	return nil
}

// addLines counts the rows of sitemaps and the valid ones.
//
//mutate:catch
func (a *sitemapsAcc) addLines(rec arrow.Record) error {
	cs := scan.Columns{Rec: rec}
	valid := cs.Boolean("valid")
	if cs.Err != nil {
		return cs.Err
	}
	for i := range int(rec.NumRows()) {
		a.Lines++
		if valid.Value(i) {
			a.Valid.N++
		}
	}
	a.Valid.Of = a.Lines
	return nil
}

func (a *sitemapsAcc) Merge(other engine.Accumulator) {
	o := other.(*sitemapsAcc)
	a.Captures.N, a.Captures.Of = a.Captures.N+o.Captures.N, a.Captures.Of+o.Captures.Of
	a.Lines, a.Valid.N, a.Valid.Of = a.Lines+o.Lines, a.Valid.N+o.Valid.N, a.Valid.Of+o.Valid.Of
}

func (a *sitemapsAcc) Finish(out *Crawl) { out.Sitemaps = a.Sitemaps }

func mdSitemaps(m *render.Markdown, c *Crawl, _ int) {
	s := &c.Sitemaps
	m.Heading(3, "Sitemaps")
	m.Para("Read captures declaring a sitemap: %s; %s sitemap lines, valid: %s.", FormatRatio(s.Captures), render.Int(s.Lines), FormatRatio(s.Valid))
}
