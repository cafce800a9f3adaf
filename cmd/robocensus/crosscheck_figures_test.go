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
	q.same("usable hosts", `SELECT count(*) FILTER (usable) FROM effective WHERE crawl = ?`, [][]string{row(c.UsableHosts)})
}

func timeOrNull(t interface{ Format(string) string }) string {
	if fmt.Sprint(t) == "<nil>" {
		return "NULL"
	}
	return t.Format("2006-01-02T15:04:05")
}

func checkFarms(q *querier, c *analyze.Crawl, top int) {
	f := c.Farms
	const farmHosts = `SELECT content_digest, count(*) AS n, list(url_host_name ORDER BY url_host_name)[1:5] AS sample
		FROM deciding WHERE crawl = ? AND usable AND payload_length > 0 AND content_digest IS NOT NULL GROUP BY 1`
	q.same("farm totals", `SELECT (SELECT count(*) FROM deciding WHERE crawl = ? AND usable AND payload_length > 0 AND content_digest IS NOT NULL),
		count(*) FILTER (n >= 2), coalesce(sum(n) FILTER (n >= 2), 0) FROM (`+farmHosts+`)`,
		[][]string{row(f.Hosts, f.SharedBodies, f.SharedHosts.N)})
	var want [][]string
	for _, fm := range f.Top {
		want = append(want, row(fm.Digest, fm.Hosts, "["+strings.Join(fm.Sample, " ")+"]"))
	}
	q.same("farms", fmt.Sprintf(`SELECT content_digest, n, sample FROM (%s) WHERE n >= 2 ORDER BY n DESC, content_digest LIMIT %d`, farmHosts, top), want)
	for _, fm := range f.Top {
		if len(fm.Head) == 0 {
			q.t.Errorf("farm %s: no first lines", fm.Digest)
			continue
		}
		body := q.rows(`SELECT body FROM bodies WHERE crawl = ? AND content_digest = '` + fm.Digest + `' LIMIT 1`)
		if len(body) != 1 || !strings.Contains(body[0][0], strings.TrimSuffix(fm.Head[0], "…")) {
			q.t.Errorf("farm %s: first line %q not in its body", fm.Digest, fm.Head[0])
		}
	}
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
