package main

import (
	"fmt"
	"strings"

	"github.com/robocensus/robocensus/analyze"
)

var _ = sectionCheck("sizes", checkSizes)

// checkSizes checks the sizes section (analyze/section_sizes.go).
func checkSizes(q *querier, c *analyze.Crawl, _ int) {
	s := c.Sizes
	var cases []string
	var want []string
	for _, b := range s.Buckets {
		cond := fmt.Sprintf("payload_length >= %d", b.Min)
		if b.Max >= 0 {
			cond += fmt.Sprintf(" AND payload_length <= %d", b.Max)
		}
		cases = append(cases, "count(*) FILTER ("+cond+")")
		want = append(want, fmt.Sprint(b.Captures.N))
	}
	q.same("size buckets", `SELECT `+strings.Join(cases, ", ")+` FROM captures WHERE crawl = ? AND `+readSQL, [][]string{want})
	q.same("size figures", `SELECT count(*), count(*) FILTER (oversize), count(*) FILTER (payload_length = 0),
		coalesce(quantile_disc(payload_length, 0.5), 0), coalesce(quantile_disc(payload_length, 0.9), 0),
		coalesce(quantile_disc(payload_length, 0.99), 0), coalesce(max(payload_length), 0), coalesce(sum(payload_length), 0)
		FROM captures WHERE crawl = ? AND `+readSQL,
		[][]string{row(s.Captures, s.Oversize.N, s.Empty.N, s.Median, s.P90, s.P99, s.Max, s.Bytes)})
}
