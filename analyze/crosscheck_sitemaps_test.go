package analyze_test

import "github.com/robocensus/robocensus/analyze"

var _ = sectionCheck("sitemaps", checkSitemaps)

// checkSitemaps checks the sitemaps section (analyze/section_sitemaps.go).
func checkSitemaps(q *querier, c *analyze.Crawl, _ int) {
	s := c.Sitemaps
	q.same("sitemaps", `SELECT (SELECT count(*) FILTER (sitemap_count > 0) FROM captures WHERE crawl = ? AND `+readSQL+`),
		(SELECT count(*) FROM captures WHERE crawl = ? AND `+readSQL+`),
		count(*), count(*) FILTER (valid) FROM sitemaps WHERE crawl = ?`, [][]string{row(s.Captures.N, s.Captures.Of, s.Lines, s.Valid.N)})
}
