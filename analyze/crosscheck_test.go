package analyze_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/analyze"
	"github.com/robocensus/robocensus/ingest"
	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/internal/testutil/datasets"
	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// Every figure of the crawl report, computed in Go by analyze from the
// Arrow batches, is computed again here in DuckDB SQL over the same
// Parquet files, and the two must agree exactly. The datasets are real:
// the demo's (internal/sample, ingested as robocensus demo does), and one
// ingested from the shared corpus (a Heritrix WARC and a tar of
// government sites' bodies, as two crawls). The reports checked split the
// captures into 3 host batches, and must be the same with 1 and 7
// (datasets.BatchedReport). These tests use analyze's exported API only,
// as cmd/robocensus does.

// corpusDataset ingests inputs of the shared corpus, each list as a crawl.
func corpusDataset(t *testing.T, crawls map[string][]string) string {
	t.Helper()
	dir := t.TempDir()
	for label, inputs := range crawls {
		if _, err := ingest.Run(context.Background(), ingest.Config{Dir: dir, Crawl: label}, inputs); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestReportMatchesDuckDBDemo(t *testing.T) {
	dir := datasets.Demo(t)
	r := datasets.BatchedReport(t, dir)
	if len(r.Crawls) != 1 || r.Trends != nil {
		t.Fatalf("want one crawl and no trends, got %d crawls", len(r.Crawls))
	}
	crossCheck(t, dir, r)
	c := r.Crawls[0]
	// Facts of the sample corpus itself, so that agreement is not vacuous.
	if c.Captures != 36 || c.Hosts != 35 || c.Sizes.Oversize.N != 1 || c.SharedBodies.Bodies != 1 || len(c.WorstHosts) == 0 {
		t.Errorf("demo figures changed: captures %d hosts %d oversize %d shared %d worst %d", c.Captures, c.Hosts, c.Sizes.Oversize.N, c.SharedBodies.Bodies, len(c.WorstHosts))
	}
}

func TestReportMatchesDuckDBCorpus(t *testing.T) {
	warc := testutil.Corpus(t, "warc", "aut-heritrix-2008", "example.warc.gz")
	bodies := testutil.Corpus(t, "robots", "nrjones8-gov-robots-archive", "raw-bodies.tar.gz")
	dir := corpusDataset(t, map[string][]string{"2008-heritrix": {warc}, "2025-gov": {bodies}})
	r := datasets.BatchedReport(t, dir, analyze.WithTop(15), analyze.WithWorkers(3))
	if len(r.Crawls) != 2 || r.Trends == nil || len(r.Trends.Crawls) != 2 {
		t.Fatalf("want two crawls and trends")
	}
	crossCheck(t, dir, r)
	// Facts of the corpus, so that agreement is not vacuous. The gov
	// bodies have no HTTP status and are judged by their content: every
	// host has a usable robots.txt but two, whose bodies are not a
	// robots.txt (an HTML error page, binary bytes). Five hosts of the
	// Heritrix crawl answered 404.
	heritrix, gov := r.Crawls[0], r.Crawls[1]
	if gov.Captures <= gov.Hosts || gov.SharedBodies.Bodies == 0 || gov.Crawlers.AnyAINamed.N == 0 || len(gov.WorstHosts) != 15 || gov.UsableHosts != gov.Hosts-2 || heritrix.UsableHosts != heritrix.Hosts-5 {
		t.Errorf("corpus figures changed: captures %d hosts %d usable %d shared %d AI named %d worst %d; Heritrix: hosts %d usable %d",
			gov.Captures, gov.Hosts, gov.UsableHosts, gov.SharedBodies.Bodies, gov.Crawlers.AnyAINamed.N, len(gov.WorstHosts), heritrix.Hosts, heritrix.UsableHosts)
	}
	const notUsable = "2008-heritrix deadlists.com http-allow-all, 2008-heritrix hideout.com.br http-allow-all, 2008-heritrix i.creativecommons.org http-allow-all, " +
		"2008-heritrix tsunami.archive.org http-allow-all, 2008-heritrix www.hideout.com.br http-allow-all, " +
		"2025-gov ccthita-nsn.gov not-robots, 2025-gov city-sheridan-wy.com not-robots"
	if got := testutil.Query(t, testutil.DuckDB(t, dir), `SELECT string_agg(crawl || ' ' || url_host_name || ' ' || fetch_class, ', ' ORDER BY crawl, url_host_name)
		FROM hosts WHERE NOT list_contains(`+schema.SQLStrings(schema.UsableFetchClasses())+`, fetch_class)`); got != notUsable {
		t.Errorf("the hosts without a usable robots.txt:\n%s\nwant\n%s", got, notUsable)
	}
	for _, s := range r.Trends.Series {
		if s.Name == "captures" && (s.Values[0] != float64(r.Crawls[0].Captures) || s.Values[1] != float64(r.Crawls[1].Captures)) {
			t.Errorf("trend %s = %v", s.Name, s.Values)
		}
	}
}

// sectionChecks are the DuckDB checks of the crawl report's sections
// (analyze/section_*.go) by section name. Each registers itself in its
// own file, crosscheck_NAME_test.go:
//
//	var _ = sectionCheck("NAME", checkNAME)
//
// TestEverySectionCrossChecked fails when a section has none.
var sectionChecks = map[string]func(q *querier, c *analyze.Crawl, top int){}

// sectionCheck registers the DuckDB check of the section name. It
// returns a value so that a file registers its check in a package-level
// declaration.
func sectionCheck(name string, check func(q *querier, c *analyze.Crawl, top int)) bool {
	if _, ok := sectionChecks[name]; ok {
		panic("two cross-checks of section " + name)
	}
	sectionChecks[name] = check
	return true
}

// TestEverySectionCrossChecked checks that every section of the crawl
// report has its DuckDB check registered, and that every check is of a
// section.
func TestEverySectionCrossChecked(t *testing.T) {
	names := analyze.SectionNames()
	if len(names) < 10 {
		t.Fatalf("sections %q: want them all", names)
	}
	for _, name := range names {
		if sectionChecks[name] == nil {
			t.Errorf("section %s has no cross-check: register one in crosscheck_%s_test.go", name, name)
		}
	}
	for name := range sectionChecks {
		if !slices.Contains(names, name) {
			t.Errorf("cross-check of %q: no such section (analyze.SectionNames)", name)
		}
	}
}

// crossCheck compares every figure of every crawl with DuckDB, section
// by section in report order.
func crossCheck(t *testing.T, dir string, r *analyze.Report) {
	db := testutil.DuckDB(t, dir)
	setupSQL(t, db)
	for _, c := range r.Crawls {
		t.Run(c.Crawl, func(t *testing.T) {
			q := &querier{t: t, db: db, crawl: c.Crawl}
			for _, name := range analyze.SectionNames() {
				if check := sectionChecks[name]; check != nil {
					check(q, c, r.Top)
				}
			}
		})
	}
}

// usableSQL says that a capture is a usable robots.txt, as the package
// documentation of analyze does: a robots.txt served with 2xx, or a body
// with no HTTP status that is one (a body with no status that is not, an
// HTML page without rules, is not-robots).
const usableSQL = `outcome IN ('rules', 'no-rules', 'unknown')`

// setupSQL defines the notebooks' macros, the deciding capture of each
// host, its effective capture (redirects followed) and the usable
// robots.txt as the package documentation of analyze does.
func setupSQL(t *testing.T, db *sql.DB) {
	var ai []string
	for _, c := range robots.TrackedCrawlers() {
		if c.Kind == robots.CrawlerAI {
			ai = append(ai, "('"+strings.ReplaceAll(c.Token, "'", "''")+"')")
		}
	}
	stmts := []string{
		`CREATE TEMP TABLE ai(agent VARCHAR)`,
		`INSERT INTO ai VALUES ` + strings.Join(ai, ","),
		`CREATE TEMP TABLE deciding AS SELECT * EXCLUDE (rn) FROM (
			SELECT c.*, row_number() OVER (PARTITION BY crawl, url_host_name
				ORDER BY ` + schema.DecidingOrderSQL + `) AS rn
			FROM captures c) WHERE rn = 1`,
		`ALTER TABLE deciding ADD COLUMN usable BOOLEAN`,
		`UPDATE deciding SET usable = ` + usableSQL,
		// One row per host (the dataset's hosts table): the capture that
		// decides for it once redirects are followed, the end of its
		// chain, or its deciding capture when the chain is unresolved.
		`CREATE TEMP TABLE effective AS SELECT h.url_host_name AS host, c.*
			FROM hosts h JOIN captures c ON c.crawl = h.crawl AND c.capture_id = coalesce(h.effective_capture_id, h.capture_id)`,
		`ALTER TABLE effective ADD COLUMN usable BOOLEAN`,
		`UPDATE effective SET usable = ` + usableSQL,
	}
	for _, s := range append(vocabularyMacros(t), stmts...) {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// vocabularyMacros returns the statements of notebooks/vocabulary.sql,
// the macros of package schema's vocabularies that the notebooks' queries
// use (deciding_captures, ...).
func vocabularyMacros(t *testing.T) []string {
	text, err := os.ReadFile(filepath.Join(testutil.RepoRoot(), "notebooks", "vocabulary.sql"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, stmt := range strings.Split(stripComments(string(text)), ";") {
		if stmt = strings.TrimSpace(stmt); stmt != "" {
			out = append(out, stmt)
		}
	}
	return out
}

// querier runs queries of one crawl; "?" in them is the crawl label.
type querier struct {
	t     *testing.T
	db    *sql.DB
	crawl string
}

// rows returns the rows of a query, each value formatted with fmt.Sprint
// (NULL as "NULL").
func (q *querier) rows(query string) [][]string {
	q.t.Helper()
	n := strings.Count(query, "?")
	args := make([]any, n)
	for i := range args {
		args[i] = q.crawl
	}
	rs, err := q.db.Query(query, args...)
	if err != nil {
		q.t.Fatalf("%s: %v", query, err)
	}
	defer rs.Close()
	cols, _ := rs.Columns()
	var out [][]string
	for rs.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			q.t.Fatal(err)
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = sqlString(v)
		}
		out = append(out, row)
	}
	if err := rs.Err(); err != nil {
		q.t.Fatal(err)
	}
	return out
}

func sqlString(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case []any:
		var parts []string
		for _, e := range x {
			parts = append(parts, sqlString(e))
		}
		return "[" + strings.Join(parts, " ") + "]"
	}
	return fmt.Sprint(v)
}

// same compares the rows of a query with the rows analyze gives.
func (q *querier) same(name, query string, want [][]string) {
	q.t.Helper()
	got := q.rows(query)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		q.t.Errorf("%s:\nDuckDB:  %v\nanalyze: %v\nquery: %s", name, got, want, query)
	}
}

// row formats values as one row.
func row(vals ...any) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = sqlString(v)
	}
	return out
}
