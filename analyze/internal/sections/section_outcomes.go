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

// outcomesSection is the outcome of every capture and the HTTP statuses
// behind each: every known outcome in DESIGN.md order (zero counts
// included), then any other value found.
var outcomesSection = &Section{
	Name:  "outcomes",
	Doc:   "the outcome of each capture and its HTTP statuses",
	Title: "Outcomes",
	Needs: []engine.Need{{Table: engine.CapturesTable, Columns: []string{"outcome", "fetch_status"}}},
	New: func(engine.Params) Accumulator {
		return &outcomesAcc{outcomes: slices.Clone(engine.KnownOutcomes), counts: map[outcomeStatus]int64{}}
	},
	Trends:   outcomeTrends(),
	Markdown: func(m *render.Markdown, c *Crawl, _ int) { mdOutcomes(m, c) },
}

// outcomeStatus is an outcome (its index in outcomesAcc.outcomes) and a
// fetch_status (0 for NULL).
type outcomeStatus struct {
	outcome int
	status  int32
}

// outcomesAcc counts the captures by outcome and status.
type outcomesAcc struct {
	outcomes []string // known outcomes, then others as found
	counts   map[outcomeStatus]int64
	captures int64
	index    []int // outcome index by index in a record's dictionary
}

// Add counts a record of captures.
func (a *outcomesAcc) Add(_ engine.Table, rec arrow.Record) error {
	cs := scan.Columns{Rec: rec}
	outcome, status := cs.Dict("outcome"), cs.I32("fetch_status")
	if cs.Err != nil {
		return cs.Err
	}
	a.index = a.index[:0]
	for i := range outcome.Values.Len() {
		a.index = append(a.index, a.intern(outcome.Values.Value(i)))
	}
	for i, x := range outcome.Index {
		k := outcomeStatus{outcome: a.index[x]}
		if !status.IsNull(i) {
			k.status = status.Value(i)
		}
		a.counts[k]++
	}
	a.captures += int64(len(outcome.Index))
	return nil
}

// intern returns the index of an outcome, adding it if new.
func (a *outcomesAcc) intern(o string) int {
	if i := slices.Index(a.outcomes, o); i >= 0 {
		return i
	}
	a.outcomes = append(a.outcomes, strings.Clone(o))
	return len(a.outcomes) - 1
}

func (a *outcomesAcc) Merge(other engine.Accumulator) {
	o := other.(*outcomesAcc)
	for k, n := range o.counts {
		a.counts[outcomeStatus{a.intern(o.outcomes[k.outcome]), k.status}] += n
	}
	a.captures += o.captures
}

func (a *outcomesAcc) Finish(out *Crawl) {
	shares := make([]OutcomeShare, len(a.outcomes))
	for i, o := range a.outcomes {
		shares[i] = OutcomeShare{Outcome: o, Captures: Ratio{Of: a.captures}, Statuses: []StatusCount{}}
	}
	for k, n := range a.counts {
		o := &shares[k.outcome]
		o.Captures.N += n
		o.Statuses = append(o.Statuses, StatusCount{Status: k.status, Captures: n})
	}
	for i := range shares {
		slices.SortFunc(shares[i].Statuses, func(a, b StatusCount) int {
			return cmp.Or(cmp.Compare(b.Captures, a.Captures), cmp.Compare(a.Status, b.Status))
		})
	}
	out.Outcomes = shares
}

// outcomeTrends follows the share of each known outcome.
func outcomeTrends() []Trend {
	var out []Trend
	for _, o := range engine.KnownOutcomes {
		out = append(out, Trend{Name: "outcome " + o, Ratio: func(c *Crawl) Ratio { return outcomeRatio(c, o) }})
	}
	return out
}

func outcomeRatio(c *Crawl, outcome string) Ratio {
	for _, o := range c.Outcomes {
		if o.Outcome == outcome {
			return o.Captures
		}
	}
	return Ratio{Of: c.Captures}
}

func mdOutcomes(m *render.Markdown, c *Crawl) {
	m.Heading(3, "Outcomes")
	var rows [][]string
	for _, o := range c.Outcomes {
		var st []string
		for _, s := range o.Statuses {
			st = append(st, render.Status(s.Status)+" × "+render.Int(s.Captures))
		}
		rows = append(rows, []string{render.Escape(o.Outcome), render.Escape(OutcomeMeaning[o.Outcome]), render.Int(o.Captures.N), render.Share(o.Captures.Share()), strings.Join(st, ", ")})
	}
	m.Table([]string{"outcome", "meaning", " captures", " share", "HTTP status × captures"}, rows)
}

// outcomeMeaning explains each outcome in a few words (DESIGN.md).
var OutcomeMeaning = map[string]string{
	"rules":        "2xx with rules to obey",
	"no-rules":     "2xx, nothing to obey: everything allowed",
	"not-robots":   "2xx or no status, but HTML or other content: no rules",
	"redirect":     "3xx: the target decides",
	"allow-all":    "4xx (not 429): everything allowed",
	"disallow-all": "5xx or 429: everything disallowed",
	"unknown":      "no HTTP status (tar entries, files), a robots.txt",
}
