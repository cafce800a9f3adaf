package analyze

import (
	"context"

	"github.com/robocensus/robocensus/analyze/internal/engine"
	"github.com/robocensus/robocensus/analyze/internal/sections"
	"github.com/robocensus/robocensus/analyze/internal/site"
)

// HostBatches returns the number of captures of a crawl, from the footers,
// and the number of host batches the crawl report splits them into: the
// forced one, or enough for each to hold at most DefaultBatchCaptures or
// what WithMemory allows.
func (d *Dataset) HostBatches(crawl string) (captures int64, batches int, err error) {
	n, err := d.r.Rows("captures", crawl)
	if err != nil || d.cfg.batches > 0 {
		return n, d.cfg.batches, err
	}
	var bodies int64
	if d.cfg.memory > 0 {
		if bodies, err = d.r.Rows("bodies", crawl); err != nil {
			return 0, 0, err
		}
	}
	return n, engine.BatchesFor(n, bodies, d.cfg.memory), nil
}

// crawlParams returns the settings of the sections of crawl i of the
// report, with the crawler list the crawl was classified with.
func (d *Dataset) crawlParams(i int, c *engine.Carry) (engine.Params, error) {
	p := engine.Params{Top: d.cfg.top, Ranks: d.cfg.ranks, Next: i+1 < len(d.r.Crawls()), Carry: c}
	if i > 0 {
		p.Previous = d.r.Crawls()[i-1]
	}
	label := d.r.Crawls()[i]
	p.HasTable = func(t engine.Table) bool {
		has, err := d.r.HasTable(t.String(), label)
		return has || err != nil // an unreadable folder fails the scan itself
	}
	var err error
	p.Crawlers, err = d.r.CrawlerList(d.r.Crawls()[i])
	return p, err
}

// Report computes the crawl report: the figures of every crawl partition,
// and their trends when there are several.
func (d *Dataset) Report(ctx context.Context) (*Report, error) {
	r := &Report{Top: d.cfg.top}
	cr := &engine.Carry{}
	defer cr.Close()
	for i, label := range d.r.Crawls() {
		p, err := d.crawlParams(i, cr)
		var c *sections.Crawl
		if err == nil {
			c, err = d.crawl(ctx, label, p)
		}
		if err == nil {
			err = cr.Failed()
		}
		if err != nil {
			return nil, err
		}
		r.Crawls = append(r.Crawls, c)
	}
	r.Trends = sections.NewTrends(r.Crawls, d.cfg.top)
	return r, nil
}

// crawl computes the figures of one crawl partition.
func (d *Dataset) crawl(ctx context.Context, label string, p engine.Params) (*sections.Crawl, error) {
	n, batches, err := d.HostBatches(label)
	if err != nil {
		return nil, err
	}
	return sections.Compute(ctx, d.r, label, p, n, batches)
}

// Site computes the report on one host (a url_host_name, compared in lower
// case) and runs the site checks on it. It fails with an error wrapping
// [ErrNoSite] when no crawl holds a capture of the host.
func (d *Dataset) Site(ctx context.Context, hostName string) (*SiteReport, error) {
	r, err := site.Build(ctx, d.r, hostName, d.cfg.checks)
	if err != nil {
		return nil, err
	}
	return &SiteReport{r}, nil
}

// SiteReport is the report on one host: its captures in every crawl, its
// robots.txt with each finding at its line, what it says to each tracked
// crawler, and the findings of the site checks (see [site.SiteReport]).
type SiteReport struct{ *site.SiteReport }

// Report is the crawl report: the figures of every crawl partition of a
// dataset and, when there are several, how the main ones moved. Every
// share carries its denominator (see [Ratio]); the package documentation
// defines each figure. The HTML, Markdown and JSON forms all carry these
// same figures.
type Report struct {
	// Crawls holds one entry per crawl partition, sorted by label.
	Crawls []*sections.Crawl `json:"crawls"`
	// Trends compares the crawls; nil when the dataset holds one.
	Trends *sections.Trends `json:"trends,omitempty"`
	// Top is the length of the ranked lists.
	Top int `json:"top"`
}
