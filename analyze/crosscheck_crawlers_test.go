package analyze_test

import "github.com/robocensus/robocensus/analyze"

var _ = sectionCheck("crawlers", checkCrawlers)

// checkCrawlers checks the crawlers section (analyze/section_crawlers.go):
// each host counted by its effective capture (setupSQL's effective table).
func checkCrawlers(q *querier, c *analyze.Crawl, _ int) {
	f := c.Crawlers
	q.same("crawler denominators", `SELECT count(*) FILTER (usable), count(*) FROM effective WHERE crawl = ?`,
		[][]string{row(f.UsableHosts, f.AllHosts)})
	var want [][]string
	for _, s := range f.Crawlers {
		u, a := s.Usable, s.All
		if a.Allowed+a.Partial+a.Disallowed == 0 {
			continue // not in this crawl's agents table
		}
		want = append(want, row(s.Agent, u.Named, u.NamedDisallowed, u.Disallowed, u.Partial, u.Allowed, a.Named, a.NamedDisallowed, a.Disallowed, a.Partial, a.Allowed))
	}
	sortRows(want)
	q.same("crawler verdicts", `SELECT agent,
		count(*) FILTER (usable AND named), count(*) FILTER (usable AND named AND verdict = 'disallowed'),
		count(*) FILTER (usable AND verdict = 'disallowed'), count(*) FILTER (usable AND verdict = 'partially-disallowed'),
		count(*) FILTER (usable AND verdict = 'allowed'),
		count(*) FILTER (named), count(*) FILTER (named AND verdict = 'disallowed'),
		count(*) FILTER (verdict = 'disallowed'), count(*) FILTER (verdict = 'partially-disallowed'), count(*) FILTER (verdict = 'allowed')
		FROM agents a JOIN effective d USING (crawl, capture_id) WHERE a.crawl = ? GROUP BY agent ORDER BY agent`, want)
	q.same("AI hosts", `WITH per AS (
			SELECT d.host, bool_or(named) AS any_named, bool_or(named AND verdict = 'disallowed') AS any_blocked,
				count(*) FILTER (verdict = 'disallowed') AS blocked
			FROM agents a JOIN effective d USING (crawl, capture_id) WHERE a.crawl = ? AND usable AND agent IN (SELECT agent FROM ai)
			GROUP BY 1)
		SELECT count(*) FILTER (any_named), count(*) FILTER (any_blocked),
			count(*) FILTER (blocked >= (SELECT count(DISTINCT agent) FROM agents WHERE crawl = ? AND agent IN (SELECT agent FROM ai)))
		FROM per`,
		[][]string{row(f.AnyAINamed.N, f.AnyAINamedDisallowed.N, f.EveryAIDisallowed.N)})
}
