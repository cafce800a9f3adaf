package analyze_test

import (
	"fmt"

	"github.com/robocensus/robocensus/analyze"
)

var _ = sectionCheck("typos", checkTypos)

// checkTypos checks the typos section (analyze/section_typos.go).
func checkTypos(q *querier, c *analyze.Crawl, _ int) {
	t := c.Typos
	q.same("typos", `SELECT count(DISTINCT capture_id) FILTER (code = 'typo-accepted'), count(*) FILTER (code = 'typo-accepted'),
		count(DISTINCT capture_id) FILTER (code = 'typo-ignored'), count(*) FILTER (code = 'typo-ignored')
		FROM diagnostics WHERE crawl = ?`,
		[][]string{row(t.Accepted.Captures.N, t.Accepted.Lines, t.Ignored.Captures.N, t.Ignored.Lines)})
	var keys [][]string
	for _, k := range t.Keys {
		keys = append(keys, row(k.Key, k.Code, k.Lines))
	}
	q.same("typo keys", fmt.Sprintf(`SELECT lower(regexp_extract(message, '^"([^"]*)"', 1)) AS k, code, count(*) AS n
		FROM diagnostics WHERE crawl = ? AND code IN ('typo-accepted', 'typo-ignored')
		GROUP BY ALL ORDER BY n DESC, k, code LIMIT %d`, max(1, len(t.Keys))), keys)
}
