package analyze_test

import (
	"fmt"

	"github.com/robocensus/robocensus/analyze"
)

var _ = sectionCheck("agents", checkAgentsNamed)

// checkAgentsNamed checks the user agents section (analyze/section_useragents.go).
func checkAgentsNamed(q *querier, c *analyze.Crawl, top int) {
	u := c.UserAgents
	q.same("user-agent totals", `SELECT count(*) FILTER (len(user_agents) > 0),
		(SELECT count(DISTINCT lower(ua)) FROM (SELECT unnest(user_agents) AS ua FROM captures WHERE crawl = ?))
		FROM captures WHERE crawl = ?`, [][]string{row(u.Captures, u.Distinct)})
	var want [][]string
	for _, n := range u.Top {
		want = append(want, row(n.Name, n.Captures.N))
	}
	q.same("user agents", fmt.Sprintf(`SELECT lower(ua) AS name, count(DISTINCT capture_id) AS n
		FROM (SELECT capture_id, unnest(user_agents) AS ua FROM captures WHERE crawl = ?)
		GROUP BY ALL ORDER BY n DESC, name LIMIT %d`, top), want)
}
