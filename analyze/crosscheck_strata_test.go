package analyze_test

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/analyze"
	"github.com/robocensus/robocensus/ingest"
	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/internal/testutil/datasets"
	"github.com/robocensus/robocensus/schema"
)

// ranksNotebook computes the strata table in SQL; the check runs its
// statements.
const ranksNotebook = "11_ranks.sql"

var _ = sectionCheck("strata", checkStrata)

// checkStrata checks the strata section (analyze/section_strata.go)
// against notebooks/11_ranks.sql, the ranked list given in the DuckDB
// variable ranks. The section runs only with a ranked list (report
// --ranks): crossCheck's reports have none, and TestStrataMatchDuckDB
// checks the report of one.
func checkStrata(q *querier, c *analyze.Crawl, _ int) {
	st := c.Strata
	if st == nil {
		return
	}
	const ranksSQL, strataSQL, tableSQL, aiSQL = "CREATE OR REPLACE TABLE ranks", "CREATE OR REPLACE TABLE strata", "SELECT c.crawl, s.stratum", "SELECT h.crawl, s.stratum, g.agent"
	stmts := notebookQueries(q, ranksNotebook, ranksSQL, strataSQL, tableSQL, aiSQL)
	for _, s := range append(vocabularyMacros(q.t), stmts[ranksSQL], stmts[strataSQL]) {
		if _, err := q.db.Exec(s); err != nil {
			q.t.Fatalf("%s: %v", s, err)
		}
	}
	var want [][]string
	for _, sr := range st.Rows {
		cells := []any{sr.Stratum.Name, sr.Ranked, sr.NoCapture}
		for _, n := range sr.Hosts {
			cells = append(cells, n)
		}
		want = append(want, row(cells...))
	}
	q.same("strata: ranked hosts by fetch class", `SELECT * EXCLUDE (crawl) FROM (`+stmts[tableSQL]+`) WHERE crawl = ?`, want)
	want = nil
	var disallowed int64
	for _, sr := range st.Rows {
		for i, agent := range st.Crawlers {
			want = append(want, row(sr.Stratum.Name, agent, sr.Robots, sr.Disallowed[i], sr.Partially[i]))
			disallowed += sr.Disallowed[i]
		}
	}
	q.same("strata: what the ranked hosts' robots.txt say to AI crawlers", `SELECT * EXCLUDE (crawl) FROM (`+stmts[aiSQL]+`) WHERE crawl = ?`, want)
	if disallowed == 0 {
		q.t.Error("no ranked host disallows an AI crawler: the check proves nothing")
	}
}

// TestStrataMatchDuckDB checks the strata section (analyze/section_strata.go,
// report --ranks) against notebooks/11_ranks.sql over the demo dataset and
// a ranked list of its hosts among 1,200 hosts it does not have, some
// ranked twice and in both column orders.
func TestStrataMatchDuckDB(t *testing.T) {
	dir := datasets.Demo(t)
	db := testutil.DuckDB(t, dir)
	var hosts []string
	rs, err := db.Query("SELECT DISTINCT url_host_name FROM captures ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	for rs.Next() {
		var h string
		rs.Scan(&h)
		hosts = append(hosts, h)
	}
	rs.Close()
	var b strings.Builder
	b.WriteString("rank,domain\n")
	for i := range 1200 {
		fmt.Fprintf(&b, "%d,absent-%04d.example\n", 2*i+1, i)
		if i < len(hosts) {
			if i%2 == 0 {
				fmt.Fprintf(&b, "%d,%s\n", 2*i+2, hosts[i])
			} else {
				fmt.Fprintf(&b, "%s\t%d\n", strings.ToUpper(hosts[i]), 2*i+2)
			}
		}
	}
	fmt.Fprintf(&b, "5000,%s\n", hosts[0]) // listed twice: the best rank counts
	ranksFile := filepath.Join(t.TempDir(), "ranks.csv")
	if err := os.WriteFile(ranksFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ranks, err := analyze.ReadRanks(strings.NewReader(b.String())) // as report --ranks FILE reads it
	if err != nil {
		t.Fatal(err)
	}
	r := datasets.BatchedReport(t, dir, analyze.WithRanks(ranks))
	st := r.Crawls[0].Strata
	if st == nil || len(st.Rows) != 2 {
		t.Fatalf("strata %+v, want the 1k stratum and every ranked host", st)
	}
	q := &querier{t: t, db: db, crawl: r.Crawls[0].Crawl}
	if _, err := db.Exec("SET VARIABLE ranks = '" + ranksFile + "'"); err != nil {
		t.Fatal(err)
	}
	checkStrata(q, r.Crawls[0], r.Top)
	// Facts of the list, so that agreement is not vacuous: the demo's 35
	// hosts are ranked among 1,235, 2 to 70, all in the top 1k.
	if st.Rows[0].Ranked != 500+int64(len(hosts)) || st.Rows[1].Ranked != 1200+int64(len(hosts)) || st.Rows[0].NoCapture != 500 {
		t.Errorf("strata rows %+v", st.Rows)
	}
}

// TestStatuslessBodiesUsable ingests a tar of bodies, which have no HTTP
// status, and checks that the captures' outcomes, the hosts table's fetch
// classes, which the strata count, and the report's usable hosts judge
// them alike, by their content as a 2xx body is judged: a robots.txt, an
// HTML page with a rule, plain text and an empty body are usable (with
// rules or without); an HTML page and a binary body without rules are
// not-robots, not usable.
func TestStatuslessBodiesUsable(t *testing.T) {
	bodies := map[string]string{
		"rules.example":      testutil.RobotsBody,
		"html-rules.example": "<html><body><pre>\nUser-agent: *\nDisallow: /\n</pre></body></html>\n",
		"empty.example":      "",
		"text.example":       "# nothing to obey here\n",
		"page.example":       "<!DOCTYPE html><html><body>Not found</body></html>\n",
		"bin.example":        "\x00\x01\x02\x03\xff\xfe binary \x00\x00",
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	var ranked strings.Builder
	for i, host := range slices.Sorted(maps.Keys(bodies)) {
		body := bodies[host]
		if err := tw.WriteHeader(&tar.Header{Name: "robots/" + host, Size: int64(len(body)), Mode: 0o644, ModTime: testutil.TarTime, Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
		fmt.Fprintf(&ranked, "%d,%s\n", i+1, host)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	input := filepath.Join(t.TempDir(), "bodies.tar")
	if err := os.WriteFile(input, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := ingest.Run(context.Background(), ingest.Config{Dir: dir, Crawl: "tar"}, []string{input}); err != nil {
		t.Fatal(err)
	}
	db := testutil.DuckDB(t, dir)
	const wantHosts = "bin.example not-robots not-robots, empty.example unknown robots-no-rules, html-rules.example unknown robots-with-rules, " +
		"page.example not-robots not-robots, rules.example unknown robots-with-rules, text.example unknown robots-no-rules"
	if got := testutil.Query(t, db, `SELECT string_agg(h.url_host_name || ' ' || c.outcome || ' ' || h.fetch_class, ', ' ORDER BY h.url_host_name)
		FROM hosts h JOIN captures c ON c.capture_id = h.capture_id`); got != wantHosts {
		t.Errorf("hosts, outcomes and fetch classes:\n%s\nwant\n%s", got, wantHosts)
	}
	ranks, err := analyze.ReadRanks(strings.NewReader(ranked.String()))
	if err != nil {
		t.Fatal(err)
	}
	c := datasets.Report(t, dir, analyze.WithRanks(ranks)).Crawls[0]
	all := c.Strata.Rows[len(c.Strata.Rows)-1] // every ranked host
	classes := map[string]int64{}
	for i, class := range c.Strata.Classes {
		if all.Hosts[i] > 0 {
			classes[class] = all.Hosts[i]
		}
	}
	want := map[string]int64{schema.FetchRobotsWithRules: 2, schema.FetchRobotsNoRules: 2, schema.FetchNotRobots: 2}
	if c.Hosts != 6 || c.UsableHosts != 4 || all.Robots != 4 || !maps.Equal(classes, want) {
		t.Errorf("hosts %d, usable %d, ranked robots.txt %d, fetch classes %v; want 6, 4, 4, %v", c.Hosts, c.UsableHosts, all.Robots, classes, want)
	}
}
