package sections

import (
	"github.com/apache/arrow/go/v15/arrow"

	"github.com/robocensus/robocensus/analyze/internal/engine"
	"github.com/robocensus/robocensus/analyze/internal/render"
	"github.com/robocensus/robocensus/analyze/internal/scan"
	"github.com/robocensus/robocensus/robots"
)

// rulesSection counts the rules, their wildcards and end anchors, and the
// captures with rules that use them.
var rulesSection = &Section{
	Name:  "rules",
	Doc:   "rules, wildcards and end anchors",
	Title: "Rules",
	Needs: []engine.Need{
		{Table: engine.CapturesTable, Columns: []string{"rule_count", "wildcard_rule_count"}},
		{Table: engine.RulesTable, Columns: []string{"directive", "has_wildcard", "has_end_anchor"}},
		{Table: engine.MarksTable},
	},
	New:      func(engine.Params) Accumulator { return &rulesAcc{} },
	Trends:   []Trend{{Name: "wildcard rules (of captures with rules)", Ratio: func(c *Crawl) Ratio { return c.Patterns.WildcardCaptures }}},
	Markdown: mdRules,
}

// rulesAcc counts rules and the captures using them.
type rulesAcc struct {
	Patterns
}

func (a *rulesAcc) Add(table engine.Table, rec arrow.Record) error {
	if table == engine.CapturesTable {
		return a.addCaptures(rec)
	}
	return a.addRules(rec)
}

// addCaptures counts the captures with rules, and with a wildcard rule.
//
//mutate:catch
func (a *rulesAcc) addCaptures(rec arrow.Record) error {
	cs := scan.Columns{Rec: rec}
	rules, wild := cs.I32("rule_count"), cs.I32("wildcard_rule_count")
	if cs.Err != nil {
		return cs.Err
	}
	for i := range int(rec.NumRows()) {
		if rules.Value(i) > 0 {
			a.WithRules++
			if wild.Value(i) > 0 {
				a.WildcardCaptures.N++
			}
		}
	}
	return nil
}

// addRules counts the rows of rules by directive, wildcard and end anchor.
//
//mutate:catch
func (a *rulesAcc) addRules(rec arrow.Record) error {
	cs := scan.Columns{Rec: rec}
	dir, wild, end := cs.Dict("directive"), cs.Boolean("has_wildcard"), cs.Boolean("has_end_anchor")
	if cs.Err != nil {
		return cs.Err
	}
	allow := dir.Find(robots.Allow.String())
	for i, x := range dir.Index {
		a.Rules++
		if x == allow {
			a.Allow++
		} else {
			a.Disallow++
		}
		if wild.Value(i) {
			a.WildcardRules.N++
		}
		if end.Value(i) {
			a.EndAnchorRules.N++
		}
	}
	return nil
}

// AddMarks counts the captures with rules and an end-anchored one.
func (a *rulesAcc) AddMarks(m *engine.Marks) {
	if m.EndAnchor() && m.HasRules() {
		a.EndAnchorCaptures.N++
	}
}

func (a *rulesAcc) Merge(other engine.Accumulator) {
	p, o := &a.Patterns, other.(*rulesAcc).Patterns
	p.WithRules, p.WildcardCaptures.N, p.EndAnchorCaptures.N = p.WithRules+o.WithRules, p.WildcardCaptures.N+o.WildcardCaptures.N, p.EndAnchorCaptures.N+o.EndAnchorCaptures.N
	p.Rules, p.Allow, p.Disallow = p.Rules+o.Rules, p.Allow+o.Allow, p.Disallow+o.Disallow
	p.WildcardRules.N, p.EndAnchorRules.N = p.WildcardRules.N+o.WildcardRules.N, p.EndAnchorRules.N+o.EndAnchorRules.N
}

func (a *rulesAcc) Finish(out *Crawl) {
	p := a.Patterns
	p.WildcardRules.Of, p.EndAnchorRules.Of = p.Rules, p.Rules
	p.WildcardCaptures.Of, p.EndAnchorCaptures.Of = p.WithRules, p.WithRules
	out.Patterns = p
}

func mdRules(m *render.Markdown, c *Crawl, _ int) {
	p := &c.Patterns
	m.Heading(3, "Rules, wildcards and end anchors")
	m.Para("%s rules (%s allow, %s disallow) in %s captures. Files with a `*` rule: %s; with a `$` rule: %s. Rules with a wildcard: %s; end-anchored: %s.",
		render.Int(p.Rules), render.Int(p.Allow), render.Int(p.Disallow), render.Int(p.WithRules), FormatRatio(p.WildcardCaptures), FormatRatio(p.EndAnchorCaptures),
		FormatRatio(p.WildcardRules), FormatRatio(p.EndAnchorRules))
}
