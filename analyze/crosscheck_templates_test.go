package analyze_test

import (
	"fmt"
	"strings"

	"github.com/robocensus/robocensus/analyze"
	"github.com/robocensus/robocensus/robots"
)

var _ = sectionCheck("templates", checkTemplates)

// checkTemplates checks "Who wrote these files" (section_templates.go)
// over the hosts' effective captures (setupSQL's effective table:
// redirects followed), as notebooks/14_templates.sql counts them: the
// templates table joined with the binary's catalogue, agents.source and
// agents.cancelled.
func checkTemplates(q *querier, c *analyze.Crawl, top int) {
	t := c.Templates
	if !t.HasTemplates {
		q.t.Errorf("templates: the crawl has a templates table, the report says it has none")
		return
	}
	q.same("templates: hosts and captures", `SELECT (SELECT count(*) FROM effective WHERE crawl = ?), (SELECT count(*) FROM captures WHERE crawl = ?),
		(SELECT count(DISTINCT e.host) FROM effective e JOIN templates t USING (crawl, capture_id) JOIN (`+catalogueSQL()+`) k USING (template, version) WHERE e.crawl = ?)`,
		[][]string{row(t.Hosts, t.Captures, t.WithTemplate.N)})
	var want [][]string
	for _, s := range t.Templates {
		want = append(want, row(s.Template, s.Version, s.Hosts.N, s.Captures.N))
	}
	q.same("templates: hosts and captures by template and version", `WITH k AS (`+catalogueSQL()+`),
		t AS (SELECT t.* FROM templates t JOIN k USING (template, version) WHERE t.crawl = ?)
		SELECT k.template, k.version,
			(SELECT count(DISTINCT e.host) FROM t JOIN effective e USING (crawl, capture_id) WHERE t.template = k.template AND t.version = k.version) AS hosts,
			(SELECT count(DISTINCT t.capture_id) FROM t WHERE t.template = k.template AND t.version = k.version) AS captures
		FROM k WHERE captures > 0 OR hosts > 0 ORDER BY hosts DESC, captures DESC, k.ord`, want)
	want = nil
	for _, s := range t.Crawlers {
		want = append(want, row(s.Crawler, s.Blocked, s.Template.N, s.Site.N, s.Both.N))
	}
	q.same("templates: whose lines shut the AI crawlers out", `SELECT a.agent, count(*) AS blocked,
			count(*) FILTER (a.source = 'template'), count(*) FILTER (a.source = 'site'), count(*) FILTER (a.source = 'both')
		FROM agents a JOIN effective e USING (crawl, capture_id) JOIN ai USING (agent)
		WHERE a.crawl = ? AND a.verdict = 'disallowed'
		GROUP BY a.agent ORDER BY blocked DESC, a.agent LIMIT `+fmt.Sprint(top), want)
	want = [][]string{row(t.Cancelling.N, strings.Join(t.Examples, " "))}
	q.same("templates: hosts cancelling a template's block", `WITH c AS (SELECT DISTINCT e.host FROM agents a JOIN effective e USING (crawl, capture_id) WHERE a.crawl = ? AND a.cancelled)
		SELECT (SELECT count(*) FROM c), coalesce((SELECT string_agg(host, ' ' ORDER BY host) FROM (SELECT host FROM c ORDER BY host LIMIT 5)), '')`, want)
	want = nil
	for _, n := range t.Cancelled {
		want = append(want, row(n.Name, n.Hosts))
	}
	q.same("templates: crawlers let in", `SELECT a.agent, count(*) AS hosts FROM agents a JOIN effective e USING (crawl, capture_id)
		WHERE a.crawl = ? AND a.cancelled GROUP BY a.agent ORDER BY hosts DESC, a.agent`, want)
	l := t.Lists
	q.same("templates: ages of the ai.robots.txt lists", `WITH lists AS (
			SELECT DISTINCT e.host, t.version, t.released, date_diff('day', t.released::DATE, c.fetch_time::DATE) AS age
			FROM templates t JOIN (`+catalogueSQL()+`) k USING (template, version) JOIN effective e USING (crawl, capture_id) JOIN captures c USING (crawl, capture_id)
			WHERE t.crawl = ? AND t.template = 'ai-robots-txt')
		SELECT count(DISTINCT host), count(age), coalesce(round(median(age))::BIGINT, 0),
			count(*) FILTER (age > 182), count(*) FILTER (age > 365), coalesce(min(released), ''), coalesce(max(released), '') FROM lists`,
		[][]string{row(l.Hosts.N, l.Dated, l.MedianDays, l.OverHalf.N, l.OverYear.N, l.Oldest, l.Newest)})
}

// catalogueSQL is robots.Templates as a query of rows (ord, template,
// version), in the catalogue's order.
func catalogueSQL() string {
	var rows []string
	for i, t := range robots.Templates() {
		rows = append(rows, fmt.Sprintf("(%d, '%s', '%s')", i, strings.ReplaceAll(t.Name, "'", "''"), strings.ReplaceAll(t.Version, "'", "''")))
	}
	return "SELECT * FROM (VALUES " + strings.Join(rows, ", ") + ") AS k(ord, template, version)"
}
