package analyze_test

import "github.com/robocensus/robocensus/analyze"

var _ = sectionCheck("inputs", checkInputs)

// checkInputs checks the inputs section (analyze/section_inputs.go).
func checkInputs(q *querier, c *analyze.Crawl, _ int) {
	in := c.Inputs
	q.same("inputs", `SELECT count(*), count(error), coalesce(sum(bytes), 0), coalesce(sum(records), 0), coalesce(sum(captures), 0),
		coalesce(sum(skipped), 0), coalesce(sum(damage_events), 0) FROM inputs WHERE crawl = ?`,
		[][]string{row(in.Inputs, in.Failed, in.Bytes, in.Records, in.Captures, in.Skipped, in.Damage)})
}
