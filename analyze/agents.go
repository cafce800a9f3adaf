package analyze

import (
	"context"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"

	"github.com/robocensus/robocensus/robots"
)

// The agents pass: what the deciding capture of each host says of each
// tracked crawler, over the hosts with a usable robots.txt and over all
// hosts.

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

// crawlerTotals is what the agents passes add up over the shards.
type crawlerTotals struct {
	known []verdictCounts           // by index in robots.Crawlers
	other map[string]*verdictCounts // agents not in robots.Crawlers
	seen  []bool                    // known crawlers in the agents table

	aiNamed, aiNamedDisallowed int64   // usable hosts naming an AI crawler (and disallowing it)
	aiBlocks                   []int64 // usable hosts by the AI crawlers their deciding capture disallows fully
}

func newCrawlerTotals() crawlerTotals {
	return crawlerTotals{
		known: make([]verdictCounts, len(robots.Crawlers)), other: map[string]*verdictCounts{},
		seen: make([]bool, len(robots.Crawlers)),
	}
}

// agentsWorker is what one worker of the agents pass counts.
type agentsWorker struct {
	crawlerTotals
	agentOf   []agentSlot // by index in the record's agent dictionary
	verdictOf []int       // verdict number by index in the record's verdict dictionary
	used      []bool      // indices of the agent dictionary found in the record
	feed      runFeed
}

// agentSlot is where the rows of one agent are counted: a known crawler,
// or another agent (counts created when first counted).
type agentSlot struct {
	known  int    // index in robots.Crawlers, -1 for another agent
	ai     bool   // an AI crawler
	name   string // aliases the record
	counts *verdictCounts
}

// crawlerIndex maps the tokens of robots.Crawlers to their index.
var crawlerIndex = func() map[string]int {
	m := make(map[string]int, len(robots.Crawlers))
	for i, c := range robots.Crawlers {
		m[c.Token] = i
	}
	return m
}()

// agentsPass counts the verdicts of the shard's deciding captures. The
// table has a row per capture and crawler (some 180 per capture): its
// string columns are read as dictionaries, so that a row costs a few
// indices.
func (s *crawlState) agentsPass(ctx context.Context, sh *shard) error {
	workers := make([]*agentsWorker, s.d.workers())
	for i := range workers {
		workers[i] = &agentsWorker{crawlerTotals: newCrawlerTotals()}
	}
	columns := union([]string{"capture_id", "agent", "named", "verdict"}, s.secs.columns(HostAgentsTable))
	if sh.counting {
		columns = union(columns, s.secs.columns("agents"))
	}
	spec := scanSpec{table: "agents", crawl: s.label, columns: columns, dict: []string{"capture_id", "agent", "verdict"}}
	for k := range sh.tallies {
		sh.tallies[k] = make([]uint32, len(sh.caps))
	}
	err := s.d.scan(ctx, spec, func(w int, rec arrow.Record) error {
		if sh.counting {
			if err := s.secs.add("agents", w, rec); err != nil {
				return err
			}
		}
		return s.addAgents(sh, w, workers[w], rec)
	})
	if err != nil {
		return err
	}
	for _, w := range workers {
		s.crawlers.merge(&w.crawlerTotals)
	}
	s.crawlers.countAIHosts(sh)
	return nil
}

func (s *crawlState) addAgents(sh *shard, wi int, w *agentsWorker, rec arrow.Record) error {
	cs := columnSet{rec: rec}
	ids, agents, verdicts, named := cs.dict("capture_id"), cs.dict("agent"), cs.dict("verdict"), cs.boolean("named")
	if cs.err != nil {
		return cs.err
	}
	w.prepare(agents, verdicts)
	if sh.counting {
		w.markSeen(agents)
	}
	n := len(ids.idx)
	w.feed.reset()
	for i := 0; i < n; { // one run of rows of a capture at a time
		j := i + 1
		for j < n && ids.idx[j] == ids.idx[i] {
			j++
		}
		if ci, ok := sh.lookup(s.hash, ids.value(i)); ok && sh.caps[ci].flags&capDeciding != 0 {
			w.countCapture(&sh.caps[ci], agents.idx[i:j], verdicts.idx[i:j], named, i)
			w.feed.add(ci, Marks{c: &sh.caps[ci], codes: s.codes, extra: sh.extra[ci]}, i, j)
		}
		i = j
	}
	if !s.secs.wants(HostAgentsTable) {
		return nil
	}
	runs := w.feed.runs()
	return s.secs.addHostAgents(wi, rec, runs, func(slot, run int) *uint32 { return &sh.tallies[slot][w.feed.cis[run]] })
}

// runFeed gathers the runs of rows of deciding captures of a record.
type runFeed struct {
	cis   []uint32
	marks []Marks
	spans [][2]int
	out   []AgentRun
}

func (f *runFeed) reset() { f.cis, f.marks, f.spans = f.cis[:0], f.marks[:0], f.spans[:0] }

func (f *runFeed) add(ci uint32, m Marks, from, to int) {
	f.cis, f.marks, f.spans = append(f.cis, ci), append(f.marks, m), append(f.spans, [2]int{from, to})
}

// runs returns the runs gathered, pointing into the feed.
func (f *runFeed) runs() []AgentRun {
	f.out = f.out[:0]
	for k, sp := range f.spans {
		f.out = append(f.out, AgentRun{From: sp[0], To: sp[1], Marks: &f.marks[k]})
	}
	return f.out
}

// prepare maps the dictionaries of a record to crawlers and verdicts.
func (w *agentsWorker) prepare(agents, verdicts dictColumn) {
	w.agentOf = w.agentOf[:0]
	for i := range agents.vals.Len() {
		slot := agentSlot{known: -1, name: agents.vals.Value(i)}
		if k, ok := crawlerIndex[slot.name]; ok {
			slot.known, slot.ai, slot.counts = k, robots.Crawlers[k].Kind == robots.CrawlerAI, &w.known[k]
		}
		w.agentOf = append(w.agentOf, slot)
	}
	w.verdictOf = w.verdictOf[:0]
	for i := range verdicts.vals.Len() {
		w.verdictOf = append(w.verdictOf, parseVerdict(verdicts.vals.Value(i)))
	}
}

// markSeen marks the known crawlers that have a row in the record.
func (w *agentsWorker) markSeen(agents dictColumn) {
	w.used = slices.Grow(w.used[:0], len(w.agentOf))[:len(w.agentOf)]
	clear(w.used)
	for _, x := range agents.idx {
		w.used[x] = true
	}
	for x, used := range w.used {
		if k := w.agentOf[x].known; used && k >= 0 {
			w.seen[k] = true
		}
	}
}

// countCapture counts rows of a deciding capture: agents and verdicts are
// indices in the record's dictionaries, and the first row is row first
// of the record. What the rows say of AI crawlers is added to the capture
// at the end, at once.
func (w *agentsWorker) countCapture(c *capture, agents, verdicts []int32, named *array.Boolean, first int) {
	usable := c.flags&capUsable != 0
	var blocks, flags uint32
	for r, x := range agents {
		v := w.verdictOf[verdicts[r]]
		if v < 0 {
			continue
		}
		isNamed, slot := named.Value(first+r), &w.agentOf[x]
		if slot.counts == nil {
			slot.counts = w.otherCounts(slot.name)
		}
		slot.counts.add(usable, isNamed, v)
		if slot.ai {
			blocks, flags = markAI(blocks, flags, isNamed, v)
		}
	}
	if blocks > 0 {
		atomic.AddUint32(&c.aiBlocks, blocks)
	}
	if flags != 0 {
		atomic.OrUint32(&c.flags, flags)
	}
}

// otherCounts returns the counts of an agent not in robots.Crawlers.
func (w *agentsWorker) otherCounts(agent string) *verdictCounts {
	vc := w.other[agent]
	if vc == nil {
		vc = new(verdictCounts)
		w.other[strings.Clone(agent)] = vc
	}
	return vc
}

// markAI adds what a capture says of one AI crawler to what its other
// rows said: the AI crawlers it disallows fully, and its AI flags.
func markAI(blocks, flags uint32, named bool, v int) (uint32, uint32) {
	if v == vDisallowed {
		blocks++
	}
	switch {
	case named && v == vDisallowed:
		flags |= capAINamed | capAINamedDisallowed
	case named:
		flags |= capAINamed
	}
	return blocks, flags
}

// add counts one host.
func (vc *verdictCounts) add(usable, named bool, v int) {
	countVerdict(&vc[1], named, v)
	if usable {
		countVerdict(&vc[0], named, v)
	}
}

func countVerdict(c *[5]int64, named bool, v int) {
	c[cVerdict+v]++
	if named {
		c[cNamed]++
		if v == vDisallowed {
			c[cNamedDisallowed]++
		}
	}
}

// merge adds a worker's counts.
func (t *crawlerTotals) merge(w *crawlerTotals) {
	for k := range t.known {
		t.known[k].merge(&w.known[k])
		t.seen[k] = t.seen[k] || w.seen[k]
	}
	for a, vc := range w.other {
		if t.other[a] == nil {
			t.other[a] = new(verdictCounts)
		}
		t.other[a].merge(vc)
	}
}

// countAIHosts counts the usable hosts of a shard by what they say of AI
// crawlers as a whole.
func (t *crawlerTotals) countAIHosts(sh *shard) {
	for i := range sh.caps {
		c := &sh.caps[i]
		if c.flags&(capDeciding|capUsable) != capDeciding|capUsable {
			continue
		}
		if c.flags&capAINamed != 0 {
			t.aiNamed++
		}
		if c.flags&capAINamedDisallowed != 0 {
			t.aiNamedDisallowed++
		}
		for int(c.aiBlocks) >= len(t.aiBlocks) {
			t.aiBlocks = append(t.aiBlocks, 0)
		}
		t.aiBlocks[c.aiBlocks]++
	}
}

// finishCrawlers fills the crawler figures.
func (s *crawlState) finishCrawlers() {
	t, f := &s.crawlers, &s.out.Crawlers
	f.UsableHosts, f.AllHosts = s.out.UsableHosts, s.out.Hosts
	f.Crawlers = []CrawlerShare{}
	aiSeen := 0
	for k, c := range robots.Crawlers {
		if c.Kind == robots.CrawlerAI && t.seen[k] {
			aiSeen++
		}
		f.Crawlers = append(f.Crawlers, t.known[k].share(c.Token, c.Kind.String(), c.Operator, f))
	}
	for _, a := range sortedKeys(t.other) {
		f.Crawlers = append(f.Crawlers, t.other[a].share(a, "other", "", f))
	}
	f.AnyAINamed = Ratio{t.aiNamed, f.UsableHosts}
	f.AnyAINamedDisallowed = Ratio{t.aiNamedDisallowed, f.UsableHosts}
	f.EveryAIDisallowed = Ratio{Of: f.UsableHosts}
	if aiSeen > 0 {
		for blocks, n := range t.aiBlocks {
			if blocks >= aiSeen {
				f.EveryAIDisallowed.N += n
			}
		}
	}
}

func (vc *verdictCounts) merge(o *verdictCounts) {
	for d := range vc {
		for i := range vc[d] {
			vc[d][i] += o[d][i]
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
