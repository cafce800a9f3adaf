package sections

import (
	"cmp"
	"slices"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"

	"github.com/robocensus/robocensus/analyze/internal/engine"
	"github.com/robocensus/robocensus/analyze/internal/render"
	"github.com/robocensus/robocensus/analyze/internal/scan"
	"github.com/robocensus/robocensus/robots"
)

// crawlersSection is what the effective capture of each host (redirects
// followed, effective.go) says of each tracked crawler (the agents table),
// over the hosts with a usable robots.txt and over all hosts, and what
// usable hosts say of AI crawlers as a whole.
var crawlersSection = &Section{
	Name: "crawlers",
	Doc:  "what hosts say to each tracked AI and search crawler",

	Anchors: []Anchor{{"ai", "AI crawlers"}, {"search", "Search crawlers"}},

	Needs: []engine.Need{
		{Table: engine.AgentsTable, Columns: []string{"agent"}},
		{Table: engine.HostAgentsTable, Columns: []string{"agent", "named", "verdict"}},
		{Table: engine.EffectiveTable},
	},
	New:        func(p engine.Params) Accumulator { return newCrawlersAcc(p.CrawlerList()) },
	TrendOrder: 1, // after the shared bodies (Section.TrendOrder)
	Trends: []Trend{
		{Name: "an AI crawler named", Ratio: func(c *Crawl) Ratio { return c.Crawlers.AnyAINamed }},
		{Name: "an AI crawler named and disallowed", Ratio: func(c *Crawl) Ratio { return c.Crawlers.AnyAINamedDisallowed }},
		{Name: "every AI crawler disallowed", Ratio: func(c *Crawl) Ratio { return c.Crawlers.EveryAIDisallowed }},
	},
	MoreTrends: crawlerTrends,
	View:       func(c *Crawl, p engine.Params) any { return newCrawlersView(c, p.Top) },
	Markdown:   mdCrawlers,
}

// verdict numbers, as counted.
const (
	vAllowed = iota
	vPartial
	vDisallowed
)

// parseVerdict returns the number of an agents.verdict value, or -1.
func parseVerdict(v string) int {
	switch {
	case v == verdictNames[vAllowed]:
		return vAllowed
	case v == verdictNames[vDisallowed]:
		return vDisallowed
	case v == verdictNames[vPartial]:
		return vPartial
	}
	return -1
}

// verdictNames are the values of agents.verdict, by verdict number.
var verdictNames = [...]string{
	vAllowed: robots.AccessAllowed.String(), vPartial: robots.AccessPartial.String(), vDisallowed: robots.AccessDisallowed.String(),
}

// verdictCounts counts hosts for one crawler: [usable, all] ×
// {named, named and disallowed, allowed, partial, disallowed}.
type verdictCounts [2][5]int64

const (
	cNamed = iota
	cNamedDisallowed
	cVerdict // + vAllowed, vPartial, vDisallowed
)

// The tally of a host: the AI crawlers its deciding capture disallows
// fully, and whether it names one (and disallows it fully).
const (
	tallyBlocks          = 1<<24 - 1
	tallyAINamed         = 1 << 30
	tallyAINamedDisallow = 1 << 31
)

// crawlersAcc counts the verdicts of the hosts' deciding captures.
type crawlersAcc struct {
	list  *scan.CrawlerList         // the crawl's crawler list
	known []verdictCounts           // by index in list
	other map[string]*verdictCounts // agents not in list
	seen  []bool                    // known crawlers in the agents table

	usable, all                int64   // hosts
	aiNamed, aiNamedDisallowed int64   // usable hosts naming an AI crawler (and disallowing it)
	aiBlocks                   []int64 // usable hosts by the AI crawlers their deciding capture disallows fully

	agentOf   []agentSlot // by index in the record's agent dictionary
	verdictOf []int       // verdict number by index in the record's verdict dictionary
	used      []bool      // indices of the agent dictionary found in the record
}

// agentSlot is where the rows of one agent are counted: a known crawler,
// or another agent (counts created when first counted).
type agentSlot struct {
	known  int    // index in the crawl's list, -1 for another agent
	ai     bool   // an AI crawler
	name   string // aliases the record
	counts *verdictCounts
}

// newCrawlersAcc counts the crawlers of list, and other agents apart.
func newCrawlersAcc(list *scan.CrawlerList) *crawlersAcc {
	return &crawlersAcc{
		list:  list,
		known: make([]verdictCounts, len(list.Crawlers)), other: map[string]*verdictCounts{},
		seen: make([]bool, len(list.Crawlers)),
	}
}

// Add marks the known crawlers that have a row in a record of agents.
func (a *crawlersAcc) Add(_ engine.Table, rec arrow.Record) error {
	cs := scan.Columns{Rec: rec}
	agents := cs.Dict("agent")
	if cs.Err != nil {
		return cs.Err
	}
	a.used = slices.Grow(a.used[:0], agents.Values.Len())[:agents.Values.Len()]
	clear(a.used)
	for _, x := range agents.Index {
		a.used[x] = true
	}
	for x, used := range a.used {
		if k, ok := a.list.Lookup(agents.Values.Value(x)); used && ok {
			a.seen[k] = true
		}
	}
	return nil
}

// AddHostRows counts the verdicts of runs of agents rows of effective
// captures, each as the hosts it decides for.
func (a *crawlersAcc) AddHostRows(_ engine.Table, rec arrow.Record, runs []engine.HostRun) error {
	cs := scan.Columns{Rec: rec}
	agents, verdicts, named := cs.Dict("agent"), cs.Dict("verdict"), cs.Boolean("named")
	if cs.Err != nil {
		return cs.Err
	}
	a.prepare(agents, verdicts)
	for _, r := range runs {
		a.countRun(r.Marks, agents.Index[r.From:r.To], verdicts.Index[r.From:r.To], named, r.From)
	}
	return nil
}

// prepare maps the dictionaries of a record to crawlers and verdicts.
func (a *crawlersAcc) prepare(agents, verdicts scan.DictColumn) {
	a.agentOf = a.agentOf[:0]
	for i := range agents.Values.Len() {
		slot := agentSlot{known: -1, name: agents.Values.Value(i)}
		if k, ok := a.list.Lookup(slot.name); ok {
			slot.known, slot.ai, slot.counts = k, a.list.Crawlers[k].Kind == robots.CrawlerAI, &a.known[k]
		}
		a.agentOf = append(a.agentOf, slot)
	}
	a.verdictOf = a.verdictOf[:0]
	for i := range verdicts.Values.Len() {
		a.verdictOf = append(a.verdictOf, parseVerdict(verdicts.Values.Value(i)))
	}
}

// countRun counts rows of an effective capture, as Weight hosts: agents and verdicts are
// indices in the record's dictionaries, and the first row is row first
// of the record. What the rows say of AI crawlers is added to the host's
// tally at the end, at once.
//
//mutate:catch
func (a *crawlersAcc) countRun(m *engine.Marks, agents, verdicts []int32, named *array.Boolean, first int) {
	usable, w := m.Usable(), m.Weight()
	var blocks, flags uint32
	for r, x := range agents {
		v := a.verdictOf[verdicts[r]]
		if v < 0 {
			continue
		}
		isNamed, slot := named.Value(first+r), &a.agentOf[x]
		if slot.counts == nil {
			slot.counts = a.otherCounts(slot.name)
		}
		slot.counts.add(usable, isNamed, v, w)
		if slot.ai {
			blocks, flags = markAI(blocks, flags, isNamed, v)
		}
	}
	if blocks > 0 {
		m.Tally().Add(uint64(blocks))
	}
	if flags != 0 {
		m.Tally().Or(uint64(flags))
	}
}

// otherCounts returns the counts of an agent not in the crawl's list.
func (a *crawlersAcc) otherCounts(agent string) *verdictCounts {
	vc := a.other[agent]
	if vc == nil {
		vc = new(verdictCounts)
		a.other[strings.Clone(agent)] = vc
	}
	return vc
}

// markAI adds what a capture says of one AI crawler to what its other
// rows said: the AI crawlers it disallows fully, and its AI flags.
//
//mutate:catch
func markAI(blocks, flags uint32, named bool, v int) (uint32, uint32) {
	if v == vDisallowed {
		blocks++
	}
	switch {
	case named && v == vDisallowed:
		flags |= tallyAINamed | tallyAINamedDisallow
	case named:
		flags |= tallyAINamed
	}
	return blocks, flags
}

// add counts w hosts of one verdict.
func (vc *verdictCounts) add(usable, named bool, v int, w int64) {
	countVerdict(&vc[1], named, v, w)
	if usable {
		countVerdict(&vc[0], named, v, w)
	}
}

func countVerdict(c *[5]int64, named bool, v int, w int64) {
	c[cVerdict+v] += w
	if named {
		c[cNamed] += w
		if v == vDisallowed {
			c[cNamedDisallowed] += w
		}
	}
}

// AddHosts counts the hosts, and the usable ones by what their tally says
// of AI crawlers: an effective capture counts as the hosts it decides for.
func (a *crawlersAcc) AddHosts(_ arrow.Record, hosts []engine.CaptureRow) error {
	for _, h := range hosts {
		w := h.Marks.Weight()
		a.all += w
		if !h.Marks.Usable() {
			continue
		}
		a.usable += w
		t := h.Marks.Tally().Load()
		if t&tallyAINamed != 0 {
			a.aiNamed += w
		}
		if t&tallyAINamedDisallow != 0 {
			a.aiNamedDisallowed += w
		}
		blocks := int(t & tallyBlocks)
		for blocks >= len(a.aiBlocks) {
			a.aiBlocks = append(a.aiBlocks, 0)
		}
		a.aiBlocks[blocks] += w
	}
	return nil
}

// Merge adds another worker's counts.
func (a *crawlersAcc) Merge(other engine.Accumulator) {
	o := other.(*crawlersAcc)
	for k := range a.known {
		a.known[k].merge(&o.known[k])
		a.seen[k] = a.seen[k] || o.seen[k]
	}
	for name, vc := range o.other {
		if a.other[name] == nil {
			a.other[name] = new(verdictCounts)
		}
		a.other[name].merge(vc)
	}
	a.usable, a.all = a.usable+o.usable, a.all+o.all
	a.aiNamed, a.aiNamedDisallowed = a.aiNamed+o.aiNamed, a.aiNamedDisallowed+o.aiNamedDisallowed
	for b, n := range o.aiBlocks {
		for b >= len(a.aiBlocks) {
			a.aiBlocks = append(a.aiBlocks, 0)
		}
		a.aiBlocks[b] += n
	}
}

func (vc *verdictCounts) merge(o *verdictCounts) {
	for d := range vc {
		for i := range vc[d] {
			vc[d][i] += o[d][i]
		}
	}
}

// Finish fills the crawler figures.
func (a *crawlersAcc) Finish(out *Crawl) {
	f := &out.Crawlers
	f.UsableHosts, f.AllHosts = a.usable, a.all
	f.Crawlers = []CrawlerShare{}
	aiSeen := 0
	for k, c := range a.list.Crawlers {
		if c.Kind == robots.CrawlerAI && a.seen[k] {
			aiSeen++
		}
		f.Crawlers = append(f.Crawlers, a.known[k].share(c.Token, c.Kind.String(), c.Operator, f))
	}
	for _, name := range engine.SortedKeys(a.other) {
		f.Crawlers = append(f.Crawlers, a.other[name].share(name, "other", "", f))
	}
	f.AnyAINamed = Ratio{a.aiNamed, f.UsableHosts}
	f.AnyAINamedDisallowed = Ratio{a.aiNamedDisallowed, f.UsableHosts}
	f.EveryAIDisallowed = Ratio{Of: f.UsableHosts}
	if aiSeen > 0 {
		for blocks, n := range a.aiBlocks {
			if blocks >= aiSeen {
				f.EveryAIDisallowed.N += n
			}
		}
	}
}

// share returns the figures of one crawler.
func (vc *verdictCounts) share(agent, kind, operator string, f *CrawlerFigures) CrawlerShare {
	hv := func(d int, hosts int64) HostVerdicts {
		c := vc[d]
		return HostVerdicts{
			Hosts: hosts, Named: c[cNamed], NamedDisallowed: c[cNamedDisallowed],
			Allowed: c[cVerdict+vAllowed], Partial: c[cVerdict+vPartial], Disallowed: c[cVerdict+vDisallowed],
		}
	}
	return CrawlerShare{Agent: agent, Kind: kind, Operator: operator, Usable: hv(0, f.UsableHosts), All: hv(1, f.AllHosts)}
}

// trendCrawlers is the most AI crawlers followed in the trends.
const trendCrawlers = 8

// crawlerTrends follows the AI crawlers most often named in the latest
// crawl: the share of usable hosts naming each, and disallowing it.
func crawlerTrends(latest *Crawl, p engine.Params) []Trend {
	var out []Trend
	for _, agent := range TrendAgents(latest, min(p.Top, trendCrawlers)) {
		out = append(out,
			Trend{Name: agent + " named", Ratio: func(c *Crawl) Ratio { v := CrawlerUsable(c, agent); return Ratio{v.Named, v.Hosts} }},
			Trend{Name: agent + " disallowed", Ratio: func(c *Crawl) Ratio { v := CrawlerUsable(c, agent); return Ratio{v.Disallowed, v.Hosts} }})
	}
	return out
}

// crawlerUsable returns a crawler's figures over usable hosts.
func CrawlerUsable(c *Crawl, agent string) HostVerdicts {
	for _, s := range c.Crawlers.Crawlers {
		if s.Agent == agent {
			return s.Usable
		}
	}
	return HostVerdicts{Hosts: c.Crawlers.UsableHosts}
}

// trendAgents returns the AI crawlers most often named in a crawl.
func TrendAgents(c *Crawl, n int) []string {
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

// aiChartRows is the number of AI crawlers drawn in the chart.
const aiChartRows = 16

// crawlersView is what the HTML fragment of the section draws.
type crawlersView struct {
	AIChart    *render.BarChart
	AIRows     []CrawlerShare // AI crawlers named or blocked anywhere, ranked
	AIShown    []CrawlerShare // the first of AIRows, drawn in the chart
	AIQuiet    int            // AI crawlers no host names or blocks
	SearchRows []CrawlerShare
	OtherRows  []CrawlerShare
}

// newCrawlersView ranks the tracked crawlers and draws the AI chart.
func newCrawlersView(c *Crawl, top int) *crawlersView {
	r := rankCrawlers(c.Crawlers.Crawlers, top)
	v := &crawlersView{AIRows: r.ai, AIShown: r.aiShown, AIQuiet: r.aiQuiet, SearchRows: r.search, OtherRows: r.other}
	if len(r.aiShown) > 0 {
		v.AIChart = aiChart(r.aiShown)
	}
	return v
}

// crawlerRanking sorts the tracked crawlers of a crawl for display.
type crawlerRanking struct {
	ai      []CrawlerShare // AI crawlers named or blocked anywhere, most named first
	aiShown []CrawlerShare // the first of ai, the ones the reports show
	aiQuiet int            // AI crawlers no host names or blocks
	search  []CrawlerShare // search crawlers, in catalogue order
	other   []CrawlerShare // agents of the dataset not in the catalogue
}

// rankCrawlers ranks the tracked crawlers; the HTML and Markdown reports
// show the same ones.
func rankCrawlers(crawlers []CrawlerShare, top int) crawlerRanking {
	var r crawlerRanking
	for _, s := range crawlers {
		switch {
		case s.Kind == robots.CrawlerSearch.String():
			r.search = append(r.search, s)
		case s.Kind != robots.CrawlerAI.String():
			r.other = append(r.other, s)
		case s.Usable.Named+s.All.Named+s.All.Disallowed+s.All.Partial == 0:
			r.aiQuiet++
		default:
			r.ai = append(r.ai, s)
		}
	}
	slices.SortStableFunc(r.ai, func(a, b CrawlerShare) int {
		return cmp.Or(cmp.Compare(b.Usable.Named, a.Usable.Named), cmp.Compare(b.Usable.Disallowed, a.Usable.Disallowed))
	})
	r.aiShown = r.ai[:min(len(r.ai), max(aiChartRows, top))]
	if i := slices.IndexFunc(r.aiShown, func(s CrawlerShare) bool { return s.Usable.Named == 0 }); i >= 3 {
		r.aiShown = r.aiShown[:i] // the crawlers some host names, when there are a few
	}
	return r
}

// aiChart draws one stacked bar per crawler over the usable hosts, with a
// tick at the share that names it.
func aiChart(crawlers []CrawlerShare) *render.BarChart {
	var rows []render.BarInput
	for _, s := range crawlers {
		u := s.Usable
		named := Share(u.Named, u.Hosts)
		rows = append(rows, render.BarInput{
			Label: s.Agent, Note: "named " + render.Share(named),
			Values: []float64{Share(u.Disallowed, u.Hosts), Share(u.Partial, u.Hosts), Share(u.Allowed, u.Hosts)},
			Class:  []string{"c-disallowed", "c-partial", "c-allowed"},
			Title: []string{"fully disallowed: " + FormatRatio(Ratio{u.Disallowed, u.Hosts}),
				"partially disallowed: " + FormatRatio(Ratio{u.Partial, u.Hosts}), "allowed: " + FormatRatio(Ratio{u.Allowed, u.Hosts})},
			Marker: &named,
		})
	}
	return render.NewBarChart(1100, 190, 1, rows, []float64{0, 0.25, 0.5, 0.75, 1}, render.Share)
}

// mdCrawlers lists the crawlers the HTML report shows: the top AI crawlers
// in its order, then the search crawlers. The JSON has them all.
func mdCrawlers(m *render.Markdown, c *Crawl, top int) {
	f := &c.Crawlers
	m.Heading(3, "Tracked crawlers")
	m.Para("Over the %s hosts with a usable robots.txt, redirects followed (and, in the last two columns, all %s hosts). An AI crawler is named by %s, fully disallowed by name by %s; every AI crawler is disallowed by %s.",
		render.Int(f.UsableHosts), render.Int(f.AllHosts), FormatRatio(f.AnyAINamed), FormatRatio(f.AnyAINamedDisallowed), FormatRatio(f.EveryAIDisallowed))
	r := rankCrawlers(f.Crawlers, top)
	if len(r.aiShown) > 0 {
		m.Para("AI crawlers, the %d most named:", len(r.aiShown))
		mdCrawlerTable(m, r.aiShown)
	}
	if len(r.search) > 0 {
		m.Para("Search crawlers:")
		mdCrawlerTable(m, r.search)
	}
	m.Para("The full table of all %d tracked crawlers (%d AI crawlers not listed here, %d other agents) is in the JSON report: `robocensus report --format json`, `crawls[].crawlers.crawlers`.",
		len(f.Crawlers), len(r.ai)-len(r.aiShown)+r.aiQuiet, len(r.other))
}

func mdCrawlerTable(m *render.Markdown, crawlers []CrawlerShare) {
	var rows [][]string
	for _, s := range crawlers {
		u, a := s.Usable, s.All
		rows = append(rows, []string{render.Code(s.Agent), render.Escape(s.Kind), render.Share(Share(u.Named, u.Hosts)), render.Share(Share(u.NamedDisallowed, u.Hosts)),
			render.Share(Share(u.Disallowed, u.Hosts)), render.Share(Share(u.Partial, u.Hosts)), render.Share(Share(u.Allowed, u.Hosts)),
			render.Share(Share(a.Named, a.Hosts)), render.Share(Share(a.Disallowed, a.Hosts))})
	}
	m.Table([]string{"crawler", "kind", " named", " named & fully disallowed", " fully disallowed", " partially", " allowed", " named (all hosts)", " fully disallowed (all hosts)"}, rows)
}
