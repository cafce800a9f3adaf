package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/analyze"
	"github.com/robocensus/robocensus/internal/testutil"
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
	for _, s := range []string{stmts[ranksSQL], stmts[strataSQL]} {
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
	dir := demoDataset(t)
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
	ranks, err := readRanks(ranksFile)
	if err != nil {
		t.Fatal(err)
	}
	r := batchedReport(t, dir, analyze.WithRanks(ranks))
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
