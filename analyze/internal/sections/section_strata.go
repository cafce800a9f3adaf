package sections

import (
	"fmt"
	"slices"
	"sync"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/robocensus/robocensus/analyze/internal/engine"
	"github.com/robocensus/robocensus/analyze/internal/render"
	"github.com/robocensus/robocensus/analyze/internal/scan"
	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// strataSection joins a ranked host list (report --ranks) with the
// dataset's hosts table: per top-k stratum, how many ranked hosts the
// crawl has no robots.txt capture of, and how many fall in each of Common
// Crawl's fetch classes, redirects followed. These are the columns of
// Common Crawl's robotstxt-status-counts-topk.csv, so a crawl of theirs
// can be compared with their published table. Then what the hosts'
// robots.txt, redirects followed (their effective capture), say to the AI
// crawlers of schema.FollowedAICrawlers the crawl's crawler list tracks.
//
// The hosts table is read before the agents rows come (the driver reads
// it before the batches' passes): the section keeps the effective capture
// of each ranked host, at most one entry per ranked host whatever the
// crawl's size, and counts the agents rows of those captures. Its workers
// share one accumulator (Shared).
var strataSection = &Section{
	Name: "strata",
	Doc:  "Common Crawl's fetch classes of the hosts of each rank stratum, redirects followed, and what their robots.txt say to AI crawlers",

	Title: "Ranked hosts",

	Needs: []engine.Need{
		{Table: engine.HostsTable, Columns: []string{"url_host_name", "fetch_class", "effective_capture_id"}},
		{Table: engine.AgentsTable, Columns: []string{"capture_id", "agent", "verdict"}},
	},
	New:      func(p engine.Params) Accumulator { return newStrataAcc(p.Ranks, p.CrawlerList()) },
	Shared:   true,
	Markdown: mdStrata,
	When:     func(p engine.Params) bool { return p.Ranks != nil },
}

// followedVerdicts maps the dictionaries of a record of agents to the
// followed AI crawlers: crawler[x] is the index in followed of the agent
// of dictionary index x (-1 for the others); full and partial
// are the dictionary indices of the verdicts "disallowed" and
// "partially-disallowed" (-1 when the record has none).
type followedVerdicts struct {
	crawler       []int
	full, partial int32
}

// Empty names in followed match no agent.
func newFollowedVerdicts(agents, verdicts scan.DictColumn, followed []string) followedVerdicts {
	fv := followedVerdicts{crawler: make([]int, agents.Values.Len()),
		full: verdicts.Find(robots.AccessDisallowed.String()), partial: verdicts.Find(robots.AccessPartial.String())}
	for i := range fv.crawler {
		fv.crawler[i] = -1
		if v := agents.Values.Value(i); v != "" {
			fv.crawler[i] = slices.Index(followed, v)
		}
	}
	return fv
}

// fetchClassColumns are the fetch classes in the order of Common Crawl's
// table, after "No robots.txt capture" (schema.FetchClassColumns).
var fetchClassColumns = schema.FetchClassColumns()

// Strata are the fetch classes of the ranked hosts, per stratum, and what
// their robots.txt say to AI crawlers.
type Strata struct {
	// Classes are the fetch classes, in the order of each stratum's
	// Hosts after its NoCapture.
	Classes []string `json:"classes"`
	// Crawlers are the AI crawlers of each stratum's Disallowed and
	// Partially.
	Crawlers []string     `json:"crawlers"`
	Rows     []StratumRow `json:"rows"`
}

// StratumRow is one stratum: its ranked hosts, those the crawl has no
// capture of, and the others by fetch class (Hosts[i] of Classes[i]).
// Robots counts those whose effective capture is a robots.txt (fetch
// class robots-with-rules or robots-no-rules); Disallowed[i] and
// Partially[i] those of them whose robots.txt disallow Crawlers[i]
// everything, or some paths.
type StratumRow struct {
	Stratum    scan.Stratum `json:"stratum"`
	Ranked     int64        `json:"ranked"`
	NoCapture  int64        `json:"no_capture"`
	Hosts      []int64      `json:"hosts"`
	Robots     int64        `json:"robots_txt"`
	Disallowed []int64      `json:"disallowed"`
	Partially  []int64      `json:"partially_disallowed"`
}

// strataAcc counts the strata; every worker shares it (Shared).
type strataAcc struct {
	ranks    *scan.Ranks
	strata   []scan.Stratum
	followed []string // the followed AI crawlers the crawl's list tracks

	mu        sync.Mutex
	counts    [][]int64          // by stratum, then fetch class
	effective map[string][]int32 // the effective capture of ranked robots.txt hosts, to their ranks
	verdicts  [][2][]int64       // by stratum: disallowed, partially, by crawler
}

func newStrataAcc(r *scan.Ranks, list *scan.CrawlerList) *strataAcc {
	followed := slices.DeleteFunc(list.FollowedAI(), func(n string) bool { return n == "" })
	a := &strataAcc{ranks: r, strata: r.Strata(), followed: followed, effective: map[string][]int32{}}
	a.counts = make([][]int64, len(a.strata))
	a.verdicts = make([][2][]int64, len(a.strata))
	for i := range a.counts {
		a.counts[i] = make([]int64, len(fetchClassColumns))
		a.verdicts[i] = [2][]int64{make([]int64, len(followed)), make([]int64, len(followed))}
	}
	return a
}

//mutate:catch
func (a *strataAcc) Add(table engine.Table, rec arrow.Record) error {
	if table == engine.AgentsTable {
		return a.addAgents(rec)
	}
	cs := scan.Columns{Rec: rec}
	hosts, classes, effective := cs.Str("url_host_name"), cs.Str("fetch_class"), cs.Str("effective_capture_id")
	if cs.Err != nil {
		return cs.Err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for i := range int(rec.NumRows()) {
		rank := a.ranks.Rank(hosts.Value(i))
		if rank == 0 {
			continue
		}
		class := classes.Value(i)
		k := slices.Index(fetchClassColumns, class)
		if k < 0 {
			continue // a class this version does not know
		}
		for s, st := range a.strata {
			if st.In(rank) {
				a.counts[s][k]++
			}
		}
		if schema.IsUsableFetchClass(class) && !effective.IsNull(i) {
			id := effective.Value(i) // several hosts may redirect to one capture
			a.effective[id] = append(a.effective[id], rank)
		}
	}
	return nil
}

// addAgents counts the verdicts of the effective captures of ranked hosts,
// once for each host whose capture it is.
func (a *strataAcc) addAgents(rec arrow.Record) error {
	cs := scan.Columns{Rec: rec}
	ids, agents, verdicts := cs.Dict("capture_id"), cs.Dict("agent"), cs.Dict("verdict")
	if cs.Err != nil {
		return cs.Err
	}
	fv := newFollowedVerdicts(agents, verdicts, a.followed)
	crawler, disallowed, partially := fv.crawler, fv.full, fv.partial
	a.mu.Lock()
	defer a.mu.Unlock()
	for i, x := range agents.Index {
		c := crawler[x]
		if c < 0 {
			continue
		}
		ranks, ok := a.effective[ids.Value(i)]
		if !ok {
			continue
		}
		v := -1
		switch verdicts.Index[i] {
		case disallowed:
			v = 0
		case partially:
			v = 1
		}
		if v < 0 {
			continue
		}
		for _, rank := range ranks {
			for s, st := range a.strata {
				if st.In(rank) {
					a.verdicts[s][v][c]++
				}
			}
		}
	}
	return nil
}

// usableHosts sums the counts, by fetchClassColumns, of the usable fetch
// classes (schema.UsableFetchClasses).
func usableHosts(counts []int64) int64 {
	var n int64
	for _, class := range schema.UsableFetchClasses() {
		n += counts[slices.Index(fetchClassColumns, class)]
	}
	return n
}

// Merge is never called: the workers share one accumulator.
func (a *strataAcc) Merge(engine.Accumulator) {}

func (a *strataAcc) Finish(out *Crawl) {
	st := &Strata{Classes: fetchClassColumns, Crawlers: a.followed}
	for s, stratum := range a.strata {
		row := StratumRow{Stratum: stratum, Ranked: a.ranks.Count(stratum), Hosts: a.counts[s],
			Robots: usableHosts(a.counts[s]), Disallowed: a.verdicts[s][0], Partially: a.verdicts[s][1]}
		var found int64
		for _, n := range row.Hosts {
			found += n
		}
		row.NoCapture = row.Ranked - found
		st.Rows = append(st.Rows, row)
	}
	out.Strata = st
}

func mdStrata(m *render.Markdown, c *Crawl, _ int) {
	st := c.Strata
	if st == nil {
		return
	}
	m.Heading(3, "Ranked hosts by fetch class")
	m.Para("Hosts of the ranked list in each top-k stratum: those with no robots.txt capture in the crawl, and the others by Common Crawl's fetch classes, redirects followed within the crawl (the hosts table).")
	head := append([]string{"stratum", "ranked", "no capture"}, st.Classes...)
	var rows [][]string
	for _, r := range st.Rows {
		row := []string{r.Stratum.Name, render.Int(r.Ranked), render.Int(r.NoCapture)}
		for _, n := range r.Hosts {
			row = append(row, render.Int(n))
		}
		rows = append(rows, row)
	}
	m.Table(head, rows)
	m.Para("What the robots.txt of the ranked hosts, redirects followed, say to AI crawlers: hosts disallowed everything (and some paths), of those whose answer is a robots.txt.")
	head = append([]string{"stratum", "robots.txt"}, st.Crawlers...)
	rows = nil
	for _, r := range st.Rows {
		row := []string{r.Stratum.Name, render.Int(r.Robots)}
		for c := range st.Crawlers {
			row = append(row, fmt.Sprintf("%s (%s)", FormatRatio(Ratio{N: r.Disallowed[c], Of: r.Robots}), render.Int(r.Partially[c])))
		}
		rows = append(rows, row)
	}
	m.Table(head, rows)
}
