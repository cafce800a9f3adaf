package analyze

import (
	"slices"

	"github.com/apache/arrow/go/v15/arrow"
)

// strataSection joins a ranked host list (report --ranks) with the
// dataset's hosts table: per top-k stratum, how many ranked hosts the
// crawl has no robots.txt capture of, and how many fall in each of Common
// Crawl's fetch classes, redirects followed. These are the columns of
// Common Crawl's robotstxt-status-counts-topk.csv, so a crawl of theirs
// can be compared with their published table.
var strataSection = &Section{
	Name:     "strata",
	Doc:      "Common Crawl's fetch classes of the hosts of each rank stratum, redirects followed",
	Needs:    []Need{{Table: "hosts", Columns: []string{"url_host_name", "fetch_class"}}},
	New:      func(p Params) Accumulator { return newStrataAcc(p.Ranks) },
	Markdown: mdStrata,
	When:     func(p Params) bool { return p.Ranks != nil },
}

// fetchClassColumns are the fetch classes in the order of Common Crawl's
// table, after "No robots.txt capture".
var fetchClassColumns = []string{
	"http-forbidden", "http-defer-visits", "http-allow-all", "redirect-not-resolved",
	"not-robots", "robots-no-rules", "robots-with-rules",
}

// Strata are the fetch classes of the ranked hosts, per stratum.
type Strata struct {
	// Classes are the fetch classes, in the order of each stratum's
	// Hosts after its NoCapture.
	Classes []string     `json:"classes"`
	Rows    []StratumRow `json:"rows"`
}

// StratumRow is one stratum: its ranked hosts, those the crawl has no
// capture of, and the others by fetch class (Hosts[i] of Classes[i]).
type StratumRow struct {
	Stratum   Stratum `json:"stratum"`
	Ranked    int64   `json:"ranked"`
	NoCapture int64   `json:"no_capture"`
	Hosts     []int64 `json:"hosts"`
}

// strataAcc counts one worker's share of the hosts table.
type strataAcc struct {
	ranks  *Ranks
	strata []Stratum
	counts [][]int64 // by stratum, then fetch class
}

func newStrataAcc(r *Ranks) *strataAcc {
	a := &strataAcc{ranks: r, strata: r.Strata()}
	a.counts = make([][]int64, len(a.strata))
	for i := range a.counts {
		a.counts[i] = make([]int64, len(fetchClassColumns))
	}
	return a
}

func (a *strataAcc) Add(_ string, rec arrow.Record) error {
	cs := columnSet{rec: rec}
	hosts, classes := cs.str("url_host_name"), cs.str("fetch_class")
	if cs.err != nil {
		return cs.err
	}
	for i := range int(rec.NumRows()) {
		rank := a.ranks.Rank(hosts.Value(i))
		if rank == 0 {
			continue
		}
		k := slices.Index(fetchClassColumns, classes.Value(i))
		if k < 0 {
			continue // a class this version does not know
		}
		for s, st := range a.strata {
			if st.In(rank) {
				a.counts[s][k]++
			}
		}
	}
	return nil
}

func (a *strataAcc) Merge(other Accumulator) {
	o := other.(*strataAcc)
	for s := range a.counts {
		for k := range a.counts[s] {
			a.counts[s][k] += o.counts[s][k]
		}
	}
}

func (a *strataAcc) Finish(out *Crawl) {
	st := &Strata{Classes: fetchClassColumns}
	for s, stratum := range a.strata {
		row := StratumRow{Stratum: stratum, Ranked: a.ranks.Count(stratum), Hosts: a.counts[s]}
		var found int64
		for _, n := range row.Hosts {
			found += n
		}
		row.NoCapture = row.Ranked - found
		st.Rows = append(st.Rows, row)
	}
	out.Strata = st
}

func mdStrata(m *mdWriter, c *Crawl, _ int) {
	st := c.Strata
	if st == nil {
		return
	}
	m.heading(3, "Ranked hosts by fetch class")
	m.para("Hosts of the ranked list in each top-k stratum: those with no robots.txt capture in the crawl, and the others by Common Crawl's fetch classes, redirects followed within the crawl (the hosts table).")
	head := append([]string{"stratum", "ranked", "no capture"}, st.Classes...)
	var rows [][]string
	for _, r := range st.Rows {
		row := []string{r.Stratum.Name, fmtInt(r.Ranked), fmtInt(r.NoCapture)}
		for _, n := range r.Hosts {
			row = append(row, fmtInt(n))
		}
		rows = append(rows, row)
	}
	m.table(head, rows)
}
