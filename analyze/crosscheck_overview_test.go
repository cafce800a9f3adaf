package analyze_test

import (
	"fmt"

	"github.com/robocensus/robocensus/analyze"
)

var _ = sectionCheck("overview", checkOverview)

// checkOverview checks the overview section (analyze/section_overview.go).
func checkOverview(q *querier, c *analyze.Crawl, _ int) {
	q.same("overview", `SELECT count(*), count(DISTINCT url_host_name), count(*) FILTER (`+readSQL+`),
		strftime(min(fetch_time), '%Y-%m-%dT%H:%M:%S'), strftime(max(fetch_time), '%Y-%m-%dT%H:%M:%S')
		FROM captures WHERE crawl = ?`,
		[][]string{row(c.Captures, c.Hosts, c.ReadCaptures, timeOrNull(c.FirstFetch), timeOrNull(c.LastFetch))})
	q.same("usable hosts", `SELECT count(*) FILTER (usable) FROM effective WHERE crawl = ?`, [][]string{row(c.UsableHosts)})
}

func timeOrNull(t interface{ Format(string) string }) string {
	if fmt.Sprint(t) == "<nil>" {
		return "NULL"
	}
	return t.Format("2006-01-02T15:04:05")
}
