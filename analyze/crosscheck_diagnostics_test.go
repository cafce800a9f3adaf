package analyze_test

import "github.com/robocensus/robocensus/analyze"

var _ = sectionCheck("diagnostics", checkDiagnostics)

// checkDiagnostics checks the diagnostics section
// (analyze/section_diagnostics.go), and the captures with an error it
// counts.
func checkDiagnostics(q *querier, c *analyze.Crawl, _ int) {
	var want [][]string
	for _, d := range c.Diagnostics {
		if d.Findings > 0 || d.Captures.N > 0 {
			want = append(want, row(d.Code, d.Severity, d.Findings, d.Captures.N))
		}
		if d.Captures.Of != c.Captures {
			q.t.Errorf("code %s: denominator %d", d.Code, d.Captures.Of)
		}
	}
	sortRows(want)
	q.same("diagnostics", `SELECT code, severity, count(*), count(DISTINCT capture_id) FROM diagnostics WHERE crawl = ?
		GROUP BY ALL ORDER BY 1`, want)
	q.same("captures with an error", `SELECT count(*) FILTER (error_count > 0), count(*) FROM captures WHERE crawl = ?`,
		[][]string{row(c.WithErrors.N, c.WithErrors.Of)})
}
