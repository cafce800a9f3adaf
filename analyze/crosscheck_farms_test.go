package analyze_test

import (
	"fmt"
	"strings"

	"github.com/robocensus/robocensus/analyze"
)

var _ = sectionCheck("farms", checkSharedBodies)

// checkSharedBodies checks the shared bodies section
// (analyze/section_farms.go): the hosts of each body, the bodies listed
// with their first hosts, and their first lines.
func checkSharedBodies(q *querier, c *analyze.Crawl, top int) {
	f := c.SharedBodies
	const bodyHosts = `SELECT content_digest, count(*) AS n, list(url_host_name ORDER BY url_host_name)[1:5] AS sample
		FROM deciding WHERE crawl = ? AND usable AND payload_length > 0 AND content_digest IS NOT NULL GROUP BY 1`
	q.same("shared bodies totals", `SELECT (SELECT count(*) FROM deciding WHERE crawl = ? AND usable AND payload_length > 0 AND content_digest IS NOT NULL),
		count(*) FILTER (n >= 2), coalesce(sum(n) FILTER (n >= 2), 0) FROM (`+bodyHosts+`)`,
		[][]string{row(f.Hosts, f.Bodies, f.SharedHosts.N)})
	var want [][]string
	for _, b := range f.Top {
		want = append(want, row(b.Digest, b.Hosts, "["+strings.Join(b.Sample, " ")+"]"))
	}
	q.same("shared bodies", fmt.Sprintf(`SELECT content_digest, n, sample FROM (%s) WHERE n >= 2 ORDER BY n DESC, content_digest LIMIT %d`, bodyHosts, top), want)
	for _, b := range f.Top {
		if len(b.Head) == 0 {
			q.t.Errorf("shared body %s: no first lines", b.Digest)
			continue
		}
		body := q.rows(`SELECT body FROM bodies WHERE crawl = ? AND content_digest = '` + b.Digest + `' LIMIT 1`)
		if len(body) != 1 || !strings.Contains(body[0][0], strings.TrimSuffix(b.Head[0], "…")) {
			q.t.Errorf("shared body %s: first line %q not in its body", b.Digest, b.Head[0])
		}
	}
}
