package analyze_test

import "github.com/robocensus/robocensus/analyze"

var _ = sectionCheck("outcomes", checkOutcomes)

// checkOutcomes checks the outcomes section (analyze/section_outcomes.go).
func checkOutcomes(q *querier, c *analyze.Crawl, _ int) {
	var want [][]string
	for _, o := range c.Outcomes {
		for _, s := range o.Statuses {
			want = append(want, row(o.Outcome, s.Status, s.Captures))
		}
		if o.Captures.Of != c.Captures {
			q.t.Errorf("outcome %s: denominator %d", o.Outcome, o.Captures.Of)
		}
	}
	sortRows(want)
	q.same("outcomes by status", `SELECT outcome, coalesce(fetch_status, 0), count(*) FROM captures WHERE crawl = ?
		GROUP BY ALL ORDER BY 1, 2`, want)
}
