package main

import (
	"fmt"
	"strings"

	"github.com/robocensus/robocensus/analyze"
)

// The SQL of each figure of the crawl report, next to the Go value it must
// equal. "read" captures are those with status 2xx or NULL.

const readSQL = `(fetch_status IS NULL OR fetch_status BETWEEN 200 AND 299)`

func checkOverview(q *querier, c *analyze.Crawl) {
	q.same("overview", `SELECT count(*), count(DISTINCT url_host_name), count(*) FILTER (`+readSQL+`),
		count(*) FILTER (error_count > 0), strftime(min(fetch_time), '%Y-%m-%dT%H:%M:%S'), strftime(max(fetch_time), '%Y-%m-%dT%H:%M:%S')
		FROM captures WHERE crawl = ?`,
		[][]string{row(c.Captures, c.Hosts, c.ReadCaptures, c.WithErrors.N, timeOrNull(c.FirstFetch), timeOrNull(c.LastFetch))})
	q.same("usable hosts", `SELECT count(*) FILTER (usable) FROM deciding WHERE crawl = ?`, [][]string{row(c.UsableHosts)})
}

func timeOrNull(t interface{ Format(string) string }) string {
	if fmt.Sprint(t) == "<nil>" {
		return "NULL"
	}
	return t.Format("2006-01-02T15:04:05")
}

func checkFarms(q *querier, c *analyze.Crawl, top int) {
	f := c.Farms
	const farmHosts = `SELECT payload_digest, count(*) AS n, list(url_host_name ORDER BY url_host_name)[1:5] AS sample
		FROM deciding WHERE crawl = ? AND usable AND payload_length > 0 AND payload_digest IS NOT NULL GROUP BY 1`
	q.same("farm totals", `SELECT (SELECT count(*) FROM deciding WHERE crawl = ? AND usable AND payload_length > 0 AND payload_digest IS NOT NULL),
		count(*) FILTER (n >= 2), coalesce(sum(n) FILTER (n >= 2), 0) FROM (`+farmHosts+`)`,
		[][]string{row(f.Hosts, f.SharedBodies, f.SharedHosts.N)})
	var want [][]string
	for _, fm := range f.Top {
		want = append(want, row(fm.Digest, fm.Hosts, "["+strings.Join(fm.Sample, " ")+"]"))
	}
	q.same("farms", fmt.Sprintf(`SELECT payload_digest, n, sample FROM (%s) WHERE n >= 2 ORDER BY n DESC, payload_digest LIMIT %d`, farmHosts, top), want)
	for _, fm := range f.Top {
		if len(fm.Head) == 0 {
			q.t.Errorf("farm %s: no first lines", fm.Digest)
			continue
		}
		body := q.rows(`SELECT body FROM bodies WHERE crawl = ? AND payload_digest = '` + fm.Digest + `' LIMIT 1`)
		if len(body) != 1 || !strings.Contains(body[0][0], strings.TrimSuffix(fm.Head[0], "…")) {
			q.t.Errorf("farm %s: first line %q not in its body", fm.Digest, fm.Head[0])
		}
	}
}

func checkCrawlers(q *querier, c *analyze.Crawl) {
	f := c.Crawlers
	q.same("crawler denominators", `SELECT count(*) FILTER (usable), count(*) FROM deciding WHERE crawl = ?`,
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
		FROM agents a JOIN deciding d USING (crawl, capture_id) WHERE a.crawl = ? GROUP BY agent ORDER BY agent`, want)
	q.same("AI hosts", `WITH per AS (
			SELECT d.capture_id, bool_or(named) AS any_named, bool_or(named AND verdict = 'disallowed') AS any_blocked,
				count(*) FILTER (verdict = 'disallowed') AS blocked
			FROM agents a JOIN deciding d USING (crawl, capture_id) WHERE a.crawl = ? AND usable AND agent IN (SELECT agent FROM ai)
			GROUP BY 1)
		SELECT count(*) FILTER (any_named), count(*) FILTER (any_blocked),
			count(*) FILTER (blocked >= (SELECT count(DISTINCT agent) FROM agents WHERE crawl = ? AND agent IN (SELECT agent FROM ai)))
		FROM per`,
		[][]string{row(f.AnyAINamed.N, f.AnyAINamedDisallowed.N, f.EveryAIDisallowed.N)})
}

// sortRows sorts rows by their cells, as ORDER BY 1, 2, ... would for the
// values compared here.
func sortRows(rows [][]string) {
	less := func(a, b []string) bool {
		for i := range a {
			if a[i] != b[i] {
				if x, y, ok := numbers(a[i], b[i]); ok {
					return x < y
				}
				return a[i] < b[i]
			}
		}
		return false
	}
	for i := 1; i < len(rows); i++ {
		for j := i; j > 0 && less(rows[j], rows[j-1]); j-- {
			rows[j], rows[j-1] = rows[j-1], rows[j]
		}
	}
}

func numbers(a, b string) (int64, int64, bool) {
	var x, y int64
	_, e1 := fmt.Sscan(a, &x)
	_, e2 := fmt.Sscan(b, &y)
	return x, y, e1 == nil && e2 == nil && fmt.Sprint(x) == a && fmt.Sprint(y) == b
}
