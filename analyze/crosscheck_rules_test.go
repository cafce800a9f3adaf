package analyze_test

import "github.com/robocensus/robocensus/analyze"

var _ = sectionCheck("rules", checkRules)

// checkRules checks the rules section (analyze/section_rules.go).
func checkRules(q *querier, c *analyze.Crawl, _ int) {
	p := c.Patterns
	q.same("rules", `SELECT count(*), count(*) FILTER (directive = 'allow'), count(*) FILTER (directive = 'disallow'),
		count(*) FILTER (has_wildcard), count(*) FILTER (has_end_anchor), count(DISTINCT capture_id) FILTER (has_end_anchor)
		FROM rules WHERE crawl = ?`,
		[][]string{row(p.Rules, p.Allow, p.Disallow, p.WildcardRules.N, p.EndAnchorRules.N, p.EndAnchorCaptures.N)})
	q.same("captures with rules", `SELECT count(*) FILTER (rule_count > 0), count(*) FILTER (rule_count > 0 AND wildcard_rule_count > 0)
		FROM captures WHERE crawl = ?`, [][]string{row(p.WithRules, p.WildcardCaptures.N)})
}
