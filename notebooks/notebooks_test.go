// Package notebooks_test runs every query of every notebook (*.sql) with a
// real DuckDB against the dataset of robocensus demo: a query that fails or
// returns no row fails the test.
package notebooks_test

import (
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/schema"
)

// TestNotebooks runs every query of every notebook against the demo
// dataset, where each query must return rows, or, when
// ROBOCENSUS_NOTEBOOK_DATASET names a dataset folder, against that one,
// logging each query's rows (go test -v): how to run a notebook where the
// DuckDB command line is not installed, e.g.
//
//	ROBOCENSUS_NOTEBOOK_DATASET=DIR go test ./notebooks -run 'TestNotebooks/09' -v
//
// A user's dataset may legitimately give a query no row (a crawl without
// redirects, a tar of bodies without HTTP statuses): that is logged, not
// failed. The notebooks that need a file of their own (06's Common Crawl
// index, 11's ranked list) get stand-ins made from the dataset.
func TestNotebooks(t *testing.T) {
	dataset, mode := os.Getenv("ROBOCENSUS_NOTEBOOK_DATASET"), userDataset
	if dataset == "" {
		dataset, mode = demoDataset(t), everyQueryHasRows
	}
	runNotebooks(t, dataset, mode)
}

// TestNotebooksUserDataset runs every notebook over a dataset that is not
// the demo's, as ROBOCENSUS_NOTEBOOK_DATASET does: two crawls with labels
// of the user's own, one of them a tar of bodies (no HTTP status, so no
// redirects, 2xx hosts or Common Crawl columns) and one a WARC without
// redirects or preferences. Every statement must run without error.
func TestNotebooksUserDataset(t *testing.T) {
	dir := t.TempDir()
	tarPath := filepath.Join(dir, "bodies.tar.gz")
	if err := os.WriteFile(tarPath, testutil.BodiesTarGz(t), 0o644); err != nil {
		t.Fatal(err)
	}
	warcPath := filepath.Join(dir, "plain.warc")
	if err := os.WriteFile(warcPath, []byte(strings.Join(testutil.CCFile("a.example", "b.example"), "")), 0o644); err != nil {
		t.Fatal(err)
	}
	dataset := filepath.Join(dir, "dataset")
	robocensus(t, "ingest", "-o", dataset, "--crawl", "gov-2025", tarPath)
	robocensus(t, "ingest", "-o", dataset, "--crawl", "my.crawl_2", warcPath)
	runNotebooks(t, dataset, userDataset)
}

// notebookMode says whether a query without rows fails the test.
type notebookMode int

const (
	everyQueryHasRows notebookMode = iota // the demo: a query without rows proves nothing
	userDataset                           // a user's data: rows logged, no row is a fact
)

// runNotebooks runs every statement of every notebook against dataset.
func runNotebooks(t *testing.T, dataset string, mode notebookMode) {
	t.Helper()
	files, _ := filepath.Glob("*.sql")
	if len(files) < 8 {
		t.Fatalf("found %d notebooks, want 8", len(files))
	}
	ccIndex := ccIndexExcerpt(t, dataset)
	ranks := rankedList(t, dataset)
	for _, file := range files {
		t.Run(strings.TrimSuffix(file, ".sql"), func(t *testing.T) {
			text, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(text), "-- "+file+": ") || !strings.Contains(string(text), "duckdb -cmd") {
				t.Errorf("%s: the header comment must name the file, say what it shows and how to run it", file)
			}
			db := openDB(t)
			exec := func(q string) { mustExec(t, db, q) }
			exec("SET VARIABLE dataset = " + sqlString(dataset))
			exec("SET VARIABLE cc_index = " + sqlString(ccIndex))
			exec("SET VARIABLE ranks = " + sqlString(ranks))
			for i, stmt := range Statements(string(text)) {
				runStatement(t, db, i+1, stmt, mode)
			}
		})
	}
}

// sqlString quotes s as an SQL string literal.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// runStatement runs one statement. On the demo dataset a query must
// return at least one row, unless it says "/* may be empty */" (a listing
// of what changed between crawls, which the cross-checks of analyze
// (analyze/crosscheck_changes_test.go) test on data with changes); on a
// user's dataset its rows, or that it had none, are logged.
const mayBeEmpty = "/* may be empty */"

func runStatement(t *testing.T, db *sql.DB, n int, stmt string, mode notebookMode) {
	t.Helper()
	head := strings.ToUpper(strings.Fields(stmt)[0])
	if head == "CREATE" || head == "SET" {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("statement %d: %v\n%s", n, err, stmt)
		}
		return
	}
	rows, err := db.Query(stmt)
	if err != nil {
		t.Fatalf("statement %d: %v\n%s", n, err, stmt)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	logRows := mode == userDataset
	seen := false
	for rows.Next() {
		if !logRows {
			seen = true
			break
		}
		if !seen {
			t.Logf("statement %d: %s", n, strings.Join(cols, " | "))
			seen = true
		}
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatalf("statement %d: %v", n, err)
		}
		cells := make([]string, len(vals))
		for i, v := range vals {
			cells[i] = fmt.Sprint(v)
		}
		t.Logf("statement %d: %s", n, strings.Join(cells, " | "))
	}
	if err := rows.Err(); err != nil {
		t.Errorf("statement %d: %v", n, err)
	}
	switch {
	case seen || strings.Contains(stmt, mayBeEmpty):
	case mode == userDataset:
		t.Logf("statement %d: no row", n)
	default:
		t.Errorf("statement %d returned no row:\n%s", n, stmt)
	}
}

// demoDataset runs robocensus demo, as a user would, and returns its
// dataset folder.
func demoDataset(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	robocensus(t, "demo", "-o", dir)
	return filepath.Join(dir, "dataset")
}

// robocensus runs the command with go run from the repository root.
func robocensus(t *testing.T, args ...string) {
	t.Helper()
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	cmd := exec.Command(goTool, append([]string{"run", "./cmd/robocensus"}, args...)...)
	cmd.Dir = testutil.RepoRoot()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("robocensus %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// ccIndexExcerpt writes a stand-in for a partition of Common Crawl's
// columnar index, of every crawl of the dataset: the index's columns (url_surtkey, url, the host parts,
// url_protocol, url_port, fetch_*, content_* with the digest without its
// "sha1:" prefix and no charset, warc_*, subset) for the demo's records,
// as the real index would list them. The real index cannot be fetched here.
func ccIndexExcerpt(t *testing.T, dataset string) string {
	t.Helper()
	dir := t.TempDir()
	db := openDB(t)
	mustExec(t, db, `COPY (SELECT url_surtkey, url, url_host_name, url_host_tld, url_host_registered_domain, url_protocol,
		url_port, fetch_time, fetch_status, fetch_redirect, replace(content_digest, 'sha1:', '') AS content_digest,
		content_mime_type, content_mime_detected, NULL::VARCHAR AS content_charset, content_truncated,
		warc_filename, warc_record_offset, warc_record_length, warc_segment, 'robotstxt' AS subset
		FROM read_parquet('`+dataset+`/captures/**/*.parquet', hive_partitioning = true, union_by_name = true)) TO '`+dir+`/part-00000.parquet' (FORMAT parquet)`)
	return filepath.Join(dir, "*.parquet")
}

// rankedList writes a ranked host list in Tranco's CSV form: the demo's
// hosts, in name order, after 1,200 hosts the crawl does not have.
func rankedList(t *testing.T, dataset string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "ranks.csv")
	db := openDB(t)
	mustExec(t, db, `COPY (SELECT row_number() OVER (ORDER BY h) AS rank, h FROM (
		SELECT 'absent-' || lpad(i::VARCHAR, 4, '0') || '.example' AS h FROM range(1200) t(i)
		UNION ALL SELECT DISTINCT 'zz' || url_host_name FROM read_parquet('`+dataset+`/captures/**/*.parquet')
		UNION ALL SELECT DISTINCT url_host_name FROM read_parquet('`+dataset+`/captures/**/*.parquet')))
		TO '`+p+`' (FORMAT csv, HEADER false)`)
	return p
}

func openDB(t *testing.T) *sql.DB {
	t.Helper()
	db := testutil.OpenDuckDB(t)
	db.SetMaxOpenConns(1) // variables and views live in one connection
	t.Cleanup(func() { db.Close() })
	return db
}

func mustExec(t *testing.T, db *sql.DB, q string) {
	t.Helper()
	if _, err := db.Exec(q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// TestBodiesView: two inputs serving the same bodies store each body twice
// in the bodies table; the notebooks' view keeps one row per crawl and
// digest, so that a join with captures gives one row per capture.
func TestBodiesView(t *testing.T) {
	demo := t.TempDir()
	robocensus(t, "demo", "-o", demo)
	warcs, _ := filepath.Glob(filepath.Join(demo, "sample", "crawl-data", "*", "segments", "*", "robotstxt", "*.warc.gz"))
	if len(warcs) != 1 {
		t.Fatalf("demo WARCs: %q", warcs)
	}
	data, err := os.ReadFile(warcs[0])
	if err != nil {
		t.Fatal(err)
	}
	second := strings.Replace(warcs[0], "00000", "00001", 1)
	if err := os.WriteFile(second, data, 0o644); err != nil {
		t.Fatal(err)
	}
	dataset := filepath.Join(t.TempDir(), "dataset")
	robocensus(t, "ingest", "-o", dataset, warcs[0], second)

	text, err := os.ReadFile("00_load.sql")
	if err != nil {
		t.Fatal(err)
	}
	db := openDB(t)
	mustExec(t, db, "SET VARIABLE dataset = '"+dataset+"'")
	for _, stmt := range Statements(string(text)) {
		if strings.HasPrefix(strings.ToUpper(strings.Fields(stmt)[0]), "CREATE") {
			mustExec(t, db, stmt)
		}
	}
	query := func(q string) int64 {
		t.Helper()
		var n int64
		if err := db.QueryRow(q).Scan(&n); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return n
	}
	stored := query("SELECT count(*) FROM read_parquet('" + dataset + "/bodies/**/*.parquet')")
	distinct := query("SELECT count(DISTINCT content_digest) FROM read_parquet('" + dataset + "/bodies/**/*.parquet')")
	if stored != 2*distinct || distinct == 0 {
		t.Fatalf("bodies table: %d rows of %d digests; want each stored twice", stored, distinct)
	}
	if got := query("SELECT count(*) FROM bodies"); got != distinct {
		t.Errorf("bodies view: %d rows, want %d", got, distinct)
	}
	joined := query("SELECT count(*) FROM captures JOIN bodies USING (crawl, content_digest)")
	want := query("SELECT count(*) FROM captures WHERE content_digest IN (SELECT content_digest FROM bodies)")
	if joined != want || want == 0 {
		t.Errorf("captures JOIN bodies: %d rows, want one per capture with a body (%d)", joined, want)
	}
}

// TestNotebooksMixedVersions: a dataset whose crawls were published by
// different schema versions (here an older crawl written as schema 1.x:
// agents without via, as 1.2, no hosts table, captures and bodies with the
// names 2.0 renamed and without the columns it added) still loads in every
// notebook: the views read by column name (union_by_name), a column a file
// lacks reading as NULL, and the captures and bodies views give the old
// crawl's values under the 2.0 names.
func TestNotebooksMixedVersions(t *testing.T) {
	dataset := demoDataset(t)
	db := openDB(t)
	for _, table := range []string{"captures", "diagnostics", "rules", "sitemaps", "agents", "bodies", "inputs", "directives", "preferences"} {
		src := filepath.Join(dataset, table, "crawl=CC-MAIN-2025-05")
		dst := filepath.Join(dataset, table, "crawl=CC-MAIN-2024-51")
		if err := os.MkdirAll(dst, 0o755); err != nil {
			t.Fatal(err)
		}
		sel := testutil.Schema1Select(table, schema.RenamedColumns(table))
		if table == "agents" {
			sel = "* EXCLUDE (via)" // as 1.2 wrote it
		}
		mustExec(t, db, `COPY (SELECT `+sel+` FROM read_parquet('`+src+`/*.parquet')) TO '`+dst+`/part-00000.parquet' (FORMAT parquet)`)
	}
	if got := mustQuery(t, db, `SELECT count(*) FROM read_parquet('`+dataset+`/agents/**/*.parquet', hive_partitioning = true, union_by_name = true) WHERE via IS NULL`); got == "0" {
		t.Fatal("the older crawl's agents have a via column: the test proves nothing")
	}
	if got := mustQuery(t, db, `SELECT count(*) FROM read_parquet('`+dataset+`/captures/crawl=CC-MAIN-2024-51/*.parquet') WHERE payload_digest IS NOT NULL AND redirect_location IS NULL`); got == "0" {
		t.Fatal("the older crawl's captures have no payload_digest: the test proves nothing")
	}
	// The views of 00_load give both crawls the same values under the
	// 2.0 names, and the older one NULL in the columns it lacks.
	text, err := os.ReadFile("00_load.sql")
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, db, "SET VARIABLE dataset = '"+dataset+"'")
	for _, stmt := range Statements(string(text)) {
		if strings.HasPrefix(strings.ToUpper(strings.Fields(stmt)[0]), "CREATE") {
			mustExec(t, db, stmt)
		}
	}
	for q, want := range map[string]string{
		`SELECT count(*) FROM captures o JOIN captures n USING (capture_id) WHERE o.crawl = 'CC-MAIN-2024-51' AND n.crawl = 'CC-MAIN-2025-05'
			AND o.content_digest IS NOT DISTINCT FROM n.content_digest AND o.content_truncated IS NOT DISTINCT FROM n.content_truncated
			AND o.fetch_redirect IS NOT DISTINCT FROM n.fetch_redirect`: mustQuery(t, db, `SELECT count(*) FROM captures WHERE crawl = 'CC-MAIN-2025-05'`),
		`SELECT count(*) FROM captures WHERE crawl = 'CC-MAIN-2024-51' AND (url_surtkey IS NOT NULL OR warc_segment IS NOT NULL OR payload_length_real IS NOT NULL)`: "0",
		`SELECT count(*) FROM captures WHERE crawl = 'CC-MAIN-2024-51' AND content_digest IS NOT NULL AND fetch_redirect IS NULL`: mustQuery(t, db,
			`SELECT count(*) FROM read_parquet('`+dataset+`/captures/crawl=CC-MAIN-2024-51/*.parquet') WHERE payload_digest IS NOT NULL AND redirect_location IS NULL`),
		`SELECT count(*) FROM bodies WHERE crawl = 'CC-MAIN-2024-51' AND content_digest IS NOT NULL`: mustQuery(t, db, `SELECT count(*) FROM bodies WHERE crawl = 'CC-MAIN-2025-05'`),
	} {
		if got := mustQuery(t, db, q); got != want {
			t.Errorf("%s\n got %s, want %s", q, got, want)
		}
	}
	ranks := rankedList(t, dataset)
	files, _ := filepath.Glob("*.sql")
	for _, file := range files {
		t.Run(strings.TrimSuffix(file, ".sql"), func(t *testing.T) {
			text, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			db := openDB(t)
			mustExec(t, db, "SET VARIABLE dataset = '"+dataset+"'")
			mustExec(t, db, "SET VARIABLE cc_index = '"+ccIndexExcerpt(t, dataset)+"'")
			mustExec(t, db, "SET VARIABLE ranks = '"+ranks+"'")
			for i, stmt := range Statements(string(text)) {
				runStatement(t, db, i+1, stmt, everyQueryHasRows)
			}
		})
	}
}

// mustQuery runs a query of one value and returns it formatted.
func mustQuery(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	var v any
	if err := db.QueryRow(q).Scan(&v); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return fmt.Sprint(v)
}
