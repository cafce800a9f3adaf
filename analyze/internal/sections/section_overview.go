package sections

import (
	"time"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/robocensus/robocensus/analyze/internal/engine"
	"github.com/robocensus/robocensus/analyze/internal/render"
	"github.com/robocensus/robocensus/analyze/internal/scan"
)

// overviewSection is the crawl at a glance: its captures and hosts, the
// captures crawlers read, the hosts with a usable robots.txt and when the
// captures were fetched. It has no fragment of its own: the page draws
// its figures in its header line and cards (report.tmpl), with the
// headline figures of other sections.
var overviewSection = &Section{
	Name: "overview",
	Doc:  "the captures and hosts of the crawl, the read captures, the usable hosts and the fetch times",
	Needs: []engine.Need{
		{Table: engine.CapturesTable, Columns: []string{"fetch_time", "fetch_status"}},
		{Table: engine.MarksTable},
	},
	New: func(engine.Params) Accumulator { return &overviewAcc{} },
	Trends: []Trend{
		{Name: "captures", Count: func(c *Crawl) int64 { return c.Captures }},
		{Name: "hosts", Count: func(c *Crawl) int64 { return c.Hosts }},
		{Name: "hosts with a usable robots.txt", Ratio: func(c *Crawl) Ratio { return Ratio{c.UsableHosts, c.Hosts} }},
	},
	Markdown: mdOverview,
	InHeader: true,
}

// overviewAcc counts the captures of a worker and, from the marks, the
// hosts.
type overviewAcc struct {
	captures, read, hosts, usable int64
	first, last                   int64 // µs, noTime when none yet
	seen                          bool  // a fetch_time was found
}

// Add counts a record of captures.
func (a *overviewAcc) Add(_ engine.Table, rec arrow.Record) error {
	cs := scan.Columns{Rec: rec}
	fetch, status := cs.Timestamp("fetch_time"), cs.I32("fetch_status")
	if cs.Err != nil {
		return cs.Err
	}
	for i := range int(rec.NumRows()) {
		a.captures++
		if engine.IsRead(status, i) {
			a.read++
		}
		a.addFetch(scan.Micros(fetch, i))
	}
	return nil
}

// addFetch widens the fetch times to t (noTime: none).
//
//mutate:catch
func (a *overviewAcc) addFetch(t int64) {
	if t == scan.NoTime {
		return
	}
	if !a.seen || t < a.first {
		a.first = t
	}
	if !a.seen || t > a.last {
		a.last = t
	}
	a.seen = true
}

// AddMarks counts a capture's host once, with its deciding capture, and
// the hosts with a usable robots.txt by their effective captures
// (redirects followed): a usable capture counts once for each host it
// decides for.
func (a *overviewAcc) AddMarks(m *engine.Marks) {
	if m.Deciding() {
		a.hosts++
	}
	if m.Usable() {
		a.usable += m.Weight()
	}
}

func (a *overviewAcc) Merge(other engine.Accumulator) {
	o := other.(*overviewAcc)
	a.captures, a.read, a.hosts, a.usable = a.captures+o.captures, a.read+o.read, a.hosts+o.hosts, a.usable+o.usable
	if o.seen {
		a.addFetch(o.first)
		a.addFetch(o.last)
	}
}

func (a *overviewAcc) Finish(out *Crawl) {
	out.Captures, out.ReadCaptures, out.Hosts, out.UsableHosts = a.captures, a.read, a.hosts, a.usable
	if a.seen {
		first, last := time.UnixMicro(a.first).UTC(), time.UnixMicro(a.last).UTC()
		out.FirstFetch, out.LastFetch = &first, &last
	}
}

func mdOverview(m *render.Markdown, c *Crawl, _ int) {
	m.Para("%s captures of %s hosts; %s captures read by crawlers (2xx or no status); %s hosts with a usable robots.txt; captures with an error: %s.",
		render.Int(c.Captures), render.Int(c.Hosts), render.Int(c.ReadCaptures), render.Int(c.UsableHosts), FormatRatio(c.WithErrors))
}
