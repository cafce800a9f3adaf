package analyze_test

import (
	"fmt"
	"strings"

	"github.com/robocensus/robocensus/analyze"
)

var _ = sectionCheck("sizes", checkSizes)

// sizeSQL is a capture's real size, as the sizes section takes it: the
// bytes stored are at most the 1 MiB cap (issue 27 item 7), and crawls
// published before schema 2.1 have no payload_length_real.
const sizeSQL = "coalesce(payload_length_real, payload_length)"

// checkSizes checks the sizes section (analyze/section_sizes.go).
func checkSizes(q *querier, c *analyze.Crawl, _ int) {
	s := c.Sizes
	var cases []string
	var want []string
	for _, b := range s.Buckets {
		cond := fmt.Sprintf(sizeSQL+" >= %d", b.Min)
		if b.Max >= 0 {
			cond += fmt.Sprintf(" AND "+sizeSQL+" <= %d", b.Max)
		}
		cases = append(cases, "count(*) FILTER ("+cond+")")
		want = append(want, fmt.Sprint(b.Captures.N))
	}
	q.same("size buckets", `SELECT `+strings.Join(cases, ", ")+` FROM captures WHERE crawl = ? AND `+readSQL, [][]string{want})
	q.same("size figures", `SELECT count(*), count(*) FILTER (oversize), count(*) FILTER (size = 0),
		coalesce(quantile_disc(size, 0.5), 0), coalesce(quantile_disc(size, 0.9), 0),
		coalesce(quantile_disc(size, 0.99), 0), coalesce(max(size), 0), coalesce(sum(size), 0)
		FROM (SELECT *, `+sizeSQL+` AS size FROM captures WHERE crawl = ? AND `+readSQL+`)`,
		[][]string{row(s.Captures, s.Oversize.N, s.Empty.N, s.Median, s.P90, s.P99, s.Max, s.Bytes)})
}
