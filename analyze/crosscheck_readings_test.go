package analyze_test

import (
	"strings"

	"github.com/robocensus/robocensus/analyze"
	"github.com/robocensus/robocensus/robots"
)

var _ = sectionCheck("readings", checkReadings)

// checkReadings checks "Where crawlers disagree" (section_readings.go)
// over the hosts' effective captures (setupSQL's effective table:
// redirects followed), as notebooks/13_readings.sql counts them.
func checkReadings(q *querier, c *analyze.Crawl, _ int) {
	d := c.Readings
	if !d.HasReadings {
		q.t.Errorf("readings: the crawl has a readings table, the report says it has none")
		return
	}
	q.same("readings: hosts", `SELECT count(*) FROM effective WHERE crawl = ?`, [][]string{row(d.Hosts)})
	var want [][]string
	for _, r := range d.Readings {
		for _, v := range r.Crawlers {
			want = append(want, row(r.Semantics, v.Crawlers, v.Root.N, v.Block.N))
		}
	}
	q.same("readings: hosts whose verdicts change", `WITH subjects(ord, name) AS (VALUES (1, 'AI crawlers'), (2, 'search engines'), (3, 'GPTBot'), (4, 'CCBot'), (5, 'Googlebot')),
		members(name, agent) AS (SELECT 'AI crawlers', agent FROM ai UNION ALL SELECT 'search engines', unnest(`+searchTokensSQL()+`)
			UNION ALL SELECT name, name FROM subjects WHERE ord > 2),
		sems(ord, semantics) AS (SELECT * FROM (VALUES `+readingNamesSQL()+`)),
		r AS (SELECT r.*, e.host FROM readings r JOIN effective e USING (crawl, capture_id) WHERE r.crawl = ?)
		SELECT sems.semantics, subjects.name,
			count(DISTINCT r.host) FILTER (r.root_allowed <> r.google_root_allowed),
			count(DISTINCT r.host) FILTER (r.blocked <> r.google_blocked)
		FROM sems CROSS JOIN subjects JOIN members ON members.name = subjects.name
		LEFT JOIN r ON r.semantics = sems.semantics AND r.agent = members.agent
		GROUP BY sems.ord, sems.semantics, subjects.ord, subjects.name ORDER BY sems.ord, subjects.ord`, want)
	want = nil
	for _, k := range d.Classes {
		want = append(want, row(k.Class, k.Hosts.N, k.Example))
	}
	q.same("readings: classes", `SELECT r.class, count(DISTINCT e.host) AS hosts, min(e.host)
		FROM readings r JOIN effective e USING (crawl, capture_id) JOIN difference_classes() d ON d.class = r.class
		WHERE r.crawl = ? GROUP BY r.class, d.ord ORDER BY hosts DESC, d.ord`, want)
}

// searchTokensSQL is the tracked search engines' tokens as a DuckDB list.
func searchTokensSQL() string {
	var tokens []string
	for _, c := range robots.TrackedCrawlers() {
		if c.Kind == robots.CrawlerSearch {
			tokens = append(tokens, "'"+strings.ReplaceAll(c.Token, "'", "''")+"'")
		}
	}
	return "[" + strings.Join(tokens, ", ") + "]"
}

// readingNamesSQL is the readings other than Google's as VALUES rows
// (ord, semantics).
func readingNamesSQL() string {
	var rows []string
	for i, s := range robots.AllSemantics()[1:] {
		rows = append(rows, "("+string(rune('1'+i))+", '"+s.String()+"')")
	}
	return strings.Join(rows, ", ")
}
