package analyze

import (
	"context"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow/go/v15/arrow"

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

// agentsWorker is what one worker of the agents pass counts.
type agentsWorker struct {
	known []verdictCounts           // by index in robots.Crawlers
	other map[string]*verdictCounts // agents not in robots.Crawlers
	seen  []bool                    // known crawlers found in the table
}

// crawlerIndex maps the tokens of robots.Crawlers to their index.
var crawlerIndex = func() map[string]int {
	m := make(map[string]int, len(robots.Crawlers))
	for i, c := range robots.Crawlers {
		m[c.Token] = i
	}
	return m
}()

// agentsPass counts the verdicts of the deciding captures.
func (s *crawlState) agentsPass(ctx context.Context) error {
	workers := make([]*agentsWorker, s.d.workers())
	for i := range workers {
		workers[i] = &agentsWorker{
			known: make([]verdictCounts, len(robots.Crawlers)),
			other: map[string]*verdictCounts{}, seen: make([]bool, len(robots.Crawlers)),
		}
	}
	spec := scanSpec{table: "agents", crawl: s.label, columns: []string{"capture_id", "agent", "named", "verdict"}}
	err := s.d.scan(ctx, spec, func(w int, rec arrow.Record) error { return s.addAgents(workers[w], rec) })
	if err != nil {
		return err
	}
	s.finishAgents(workers)
	return nil
}

func (s *crawlState) addAgents(w *agentsWorker, rec arrow.Record) error {
	cs := columnSet{rec: rec}
	ids, agents, named, verdicts := cs.str("capture_id"), cs.str("agent"), cs.boolean("named"), cs.str("verdict")
	if cs.err != nil {
		return cs.err
	}
	next := 0 // rows usually come in the order of robots.Crawlers
	var cache idCache
	for i := range int(rec.NumRows()) {
		ci, ok := cache.lookup(s.hash, s.ids, ids.Value(i))
		if !ok || s.caps[ci].flags&capDeciding == 0 {
			continue
		}
		v := parseVerdict(verdicts.Value(i))
		if v < 0 {
			continue
		}
		c, isNamed, agent := &s.caps[ci], named.Value(i), agents.Value(i)
		k := next
		if k >= len(robots.Crawlers) || robots.Crawlers[k].Token != agent {
			if k, ok = crawlerIndex[agent]; !ok {
				w.countOther(agent, c.flags&capUsable != 0, isNamed, v)
				continue
			}
		}
		next = k + 1
		w.seen[k] = true
		w.known[k].add(c.flags&capUsable != 0, isNamed, v)
		if robots.Crawlers[k].Kind == robots.CrawlerAI {
			markAI(c, isNamed, v)
		}
	}
	return nil
}

// add counts one host.
func (vc *verdictCounts) add(usable, named bool, v int) {
	for d := range 2 {
		if d == 0 && !usable {
			continue
		}
		vc[d][cVerdict+v]++
		if named {
			vc[d][cNamed]++
			if v == vDisallowed {
				vc[d][cNamedDisallowed]++
			}
		}
	}
}

func (w *agentsWorker) countOther(agent string, usable, named bool, v int) {
	vc := w.other[agent]
	if vc == nil {
		vc = new(verdictCounts)
		w.other[strings.Clone(agent)] = vc
	}
	vc.add(usable, named, v)
}

// markAI records on a capture what it says of one AI crawler.
func markAI(c *capture, named bool, v int) {
	if v == vDisallowed {
		atomic.AddUint32(&c.aiBlocks, 1)
	}
	switch {
	case named && v == vDisallowed:
		atomic.OrUint32(&c.flags, capAINamed|capAINamedDisallowed)
	case named:
		atomic.OrUint32(&c.flags, capAINamed)
	}
}

// finishAgents sums the workers' counts into the crawler figures.
func (s *crawlState) finishAgents(workers []*agentsWorker) {
	f := &s.out.Crawlers
	f.UsableHosts, f.AllHosts = s.out.UsableHosts, s.out.Hosts
	known := make([]verdictCounts, len(robots.Crawlers))
	seen := make([]bool, len(robots.Crawlers))
	other := map[string]*verdictCounts{}
	for _, w := range workers {
		for k := range known {
			known[k].merge(&w.known[k])
			seen[k] = seen[k] || w.seen[k]
		}
		for a, vc := range w.other {
			if other[a] == nil {
				other[a] = new(verdictCounts)
			}
			other[a].merge(vc)
		}
	}
	f.Crawlers = []CrawlerShare{}
	aiSeen := 0
	for k, c := range robots.Crawlers {
		if c.Kind == robots.CrawlerAI && seen[k] {
			aiSeen++
		}
		f.Crawlers = append(f.Crawlers, known[k].share(c.Token, c.Kind.String(), c.Operator, f))
	}
	for _, a := range sortedKeys(other) {
		f.Crawlers = append(f.Crawlers, other[a].share(a, "other", "", f))
	}
	s.countAIHosts(aiSeen)
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

// countAIHosts counts the usable hosts by what they say of AI crawlers as
// a whole; aiSeen is the number of AI crawlers of the agents table.
func (s *crawlState) countAIHosts(aiSeen int) {
	f := &s.out.Crawlers
	f.AnyAINamed.Of, f.AnyAINamedDisallowed.Of, f.EveryAIDisallowed.Of = f.UsableHosts, f.UsableHosts, f.UsableHosts
	for i := range s.caps {
		c := &s.caps[i]
		if c.flags&(capDeciding|capUsable) != capDeciding|capUsable {
			continue
		}
		if c.flags&capAINamed != 0 {
			f.AnyAINamed.N++
		}
		if c.flags&capAINamedDisallowed != 0 {
			f.AnyAINamedDisallowed.N++
		}
		if aiSeen > 0 && int(c.aiBlocks) >= aiSeen {
			f.EveryAIDisallowed.N++
		}
	}
}
