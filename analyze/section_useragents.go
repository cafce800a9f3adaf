package analyze

import (
	"cmp"
	"slices"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
)

// userAgentsSection ranks the user-agent values named by the captures,
// lower-cased and counted once per capture. It keeps a count per distinct
// value until the captures are read.
var userAgentsSection = &Section{
	Name:  "agents",
	Doc:   "the user agents most often named",
	Title: "User agents",
	Needs: []Need{{Table: CapturesTable, Columns: []string{"user_agents"}}},
	New:   func(p Params) Accumulator { return &userAgentsAcc{top: p.Top, counts: map[string]int64{}} },
	View: func(c *Crawl, _ Params) any {
		if ch := agentsChart(c.UserAgents); ch != nil {
			return ch
		}
		return nil
	},
	Markdown: func(m *mdWriter, c *Crawl, _ int) { mdAgents(m, &c.UserAgents) },
}

// userAgentsAcc counts the captures naming each value.
type userAgentsAcc struct {
	top      int
	captures int64            // captures with a user-agent line
	counts   map[string]int64 // lower-cased value -> captures
	names    []string         // reused
}

// Add counts a record of captures.
func (a *userAgentsAcc) Add(_ Table, rec arrow.Record) error {
	cs := columnSet{rec: rec}
	agents := cs.list("user_agents")
	if cs.err != nil {
		return cs.err
	}
	for i := range int(rec.NumRows()) {
		a.names = lowerValues(a.names[:0], agents, i)
		a.count(a.names)
	}
	return nil
}

// count counts the values of one capture, each once.
//
//mutate:catch
func (a *userAgentsAcc) count(names []string) {
	if len(names) == 0 {
		return
	}
	a.captures++
	for j, n := range names {
		if slices.Contains(names[:j], n) {
			continue
		}
		if _, ok := a.counts[n]; !ok {
			n = strings.Clone(n)
		}
		a.counts[n]++
	}
}

func (a *userAgentsAcc) Merge(other batchAcc) {
	o := other.(*userAgentsAcc)
	a.captures += o.captures
	for k, v := range o.counts {
		a.counts[k] += v
	}
}

//mutate:catch
func (a *userAgentsAcc) Finish(out *Crawl) {
	out.UserAgents = UserAgents{Captures: a.captures, Distinct: int64(len(a.counts)), Top: topNames(a.counts, a.captures, a.top)}
}

// topNames returns the n names counted most often, then by name.
func topNames(counts map[string]int64, of int64, n int) []NameCount {
	out := make([]NameCount, 0, len(counts))
	for name, c := range counts {
		out = append(out, NameCount{Name: name, Captures: Ratio{c, of}})
	}
	slices.SortFunc(out, func(a, b NameCount) int {
		return cmp.Or(cmp.Compare(b.Captures.N, a.Captures.N), strings.Compare(a.Name, b.Name))
	})
	return out[:min(n, len(out))]
}

func mdAgents(m *mdWriter, u *UserAgents) {
	m.heading(3, "User agents most often named")
	m.para("Of the %s captures with a user-agent line; %s distinct values (lower-cased).", fmtInt(u.Captures), fmtInt(u.Distinct))
	var rows [][]string
	for _, n := range u.Top {
		rows = append(rows, []string{code(n.Name), fmtInt(n.Captures.N), fmtShare(n.Captures.Share())})
	}
	if len(rows) > 0 {
		m.table([]string{"user agent", " captures", " share"}, rows)
	}
}

func agentsChart(u UserAgents) *barChart {
	var rows []barInput
	for _, n := range u.Top {
		rows = append(rows, barInput{label: clip(n.Name, 28), note: fmtShare(n.Captures.Share()), values: []float64{n.Captures.Share()}, class: []string{"c-bar"}, title: []string{n.Name}})
	}
	if len(rows) == 0 {
		return nil
	}
	return newBarChart(540, 200, 0, rows, nil, fmtShare)
}
