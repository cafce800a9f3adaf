package analyze_test

import (
	"fmt"
	"strings"

	"github.com/robocensus/robocensus/analyze"
)

var _ = sectionCheck("worst", checkWorst)

// checkWorst checks the worst hosts section (analyze/section_worst.go).
func checkWorst(q *querier, c *analyze.Crawl, top int) {
	var want [][]string
	for _, h := range c.WorstHosts {
		want = append(want, row(h.Host, h.CaptureID, h.Errors, h.Warnings, "["+strings.Join(h.Codes, " ")+"]"))
	}
	q.same("worst hosts", fmt.Sprintf(`SELECT url_host_name, capture_id, error_count, warning_count,
		coalesce((SELECT list(DISTINCT code ORDER BY code) FROM diagnostics g WHERE g.crawl = d.crawl AND g.capture_id = d.capture_id AND severity = 'error'), [])
		FROM deciding d WHERE crawl = ? AND error_count > 0 ORDER BY error_count DESC, warning_count DESC, url_host_name LIMIT %d`, top), want)
}
