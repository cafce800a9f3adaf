package sections

import (
	"cmp"
	"slices"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/robocensus/robocensus/analyze/internal/engine"
	"github.com/robocensus/robocensus/analyze/internal/render"
	"github.com/robocensus/robocensus/analyze/internal/scan"
)

// userAgentsSection ranks the user-agent values named by the captures,
// lower-cased and counted once per capture. It keeps a count per distinct
// value until the captures are read.
var userAgentsSection = &Section{
	Name:  "agents",
	Doc:   "the user agents most often named",
	Title: "User agents",
	Needs: []engine.Need{{Table: engine.CapturesTable, Columns: []string{"user_agents"}}},
	New:   func(p engine.Params) Accumulator { return &userAgentsAcc{top: p.Top, counts: map[string]int64{}} },
	View: func(c *Crawl, _ engine.Params) any {
		if ch := agentsChart(c.UserAgents); ch != nil {
			return ch
		}
		return nil
	},
	Markdown: func(m *render.Markdown, c *Crawl, _ int) { mdAgents(m, &c.UserAgents) },
}

// userAgentsAcc counts the captures naming each value.
type userAgentsAcc struct {
	top      int
	captures int64            // captures with a user-agent line
	counts   map[string]int64 // lower-cased value -> captures
	names    []string         // reused
}

// Add counts a record of captures.
func (a *userAgentsAcc) Add(_ engine.Table, rec arrow.Record) error {
	cs := scan.Columns{Rec: rec}
	agents := cs.List("user_agents")
	if cs.Err != nil {
		return cs.Err
	}
	for i := range int(rec.NumRows()) {
		a.names = scan.LowerValues(a.names[:0], agents, i)
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

func (a *userAgentsAcc) Merge(other engine.Accumulator) {
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

func mdAgents(m *render.Markdown, u *UserAgents) {
	m.Heading(3, "User agents most often named")
	m.Para("Of the %s captures with a user-agent line; %s distinct values (lower-cased).", render.Int(u.Captures), render.Int(u.Distinct))
	var rows [][]string
	for _, n := range u.Top {
		rows = append(rows, []string{render.Code(n.Name), render.Int(n.Captures.N), render.Share(n.Captures.Share())})
	}
	if len(rows) > 0 {
		m.Table([]string{"user agent", " captures", " share"}, rows)
	}
}

func agentsChart(u UserAgents) *render.BarChart {
	var rows []render.BarInput
	for _, n := range u.Top {
		rows = append(rows, render.BarInput{Label: engine.Clip(n.Name, 28), Note: render.Share(n.Captures.Share()), Values: []float64{n.Captures.Share()}, Class: []string{"c-bar"}, Title: []string{n.Name}})
	}
	if len(rows) == 0 {
		return nil
	}
	return render.NewBarChart(540, 200, 0, rows, nil, render.Share)
}
