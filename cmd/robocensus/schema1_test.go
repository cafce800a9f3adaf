package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/analyze"
	"github.com/robocensus/robocensus/ingest"
	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/internal/testutil/datasets"
	"github.com/robocensus/robocensus/schema"
)

// schema1Crawl copies the demo's crawl of dataset dir into a crawl written
// as schema 1.3 would have written it: the captures and bodies columns
// that 2.0 renamed under their 1.x names, without the columns 2.0 added,
// and footers saying 1.3. DuckDB writes the files.
func schema1Crawl(t *testing.T, dir, from, to string) {
	t.Helper()
	olderCrawl(t, dir, from, to, "1.3", func(table string) string {
		return testutil.Schema1Select(table, schema.RenamedColumns(table))
	})
}

// olderCrawl copies crawl from of dataset dir into crawl to as an older
// schema version wrote it: each table's rows selected with the select
// list selectOf gives (a DuckDB one over the current columns), footers
// saying version. DuckDB writes the files.
func olderCrawl(t *testing.T, dir, from, to, version string, selectOf func(table string) string) {
	t.Helper()
	db := testutil.DuckDB(t, dir)
	for _, table := range []string{"captures", "diagnostics", "rules", "sitemaps", "agents", "bodies", "inputs", "directives", "preferences", "hosts"} {
		src := schema.PartitionDir(dir, table, from)
		dst := schema.PartitionDir(dir, table, to)
		if err := os.MkdirAll(dst, 0o755); err != nil {
			t.Fatal(err)
		}
		q := `COPY (SELECT ` + selectOf(table) + ` FROM read_parquet('` + filepath.Join(src, "*.parquet") + `')) TO '` + filepath.Join(dst, schema.PartName(0)) +
			`' (FORMAT parquet, KV_METADATA {'` + schema.VersionKey + `': '` + version + `', '` + schema.TableKey + `': '` + table + `'})`
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// A dataset whose crawls were published by different major schema
// versions (the nightly job appends crawls): the report reads a 1.x crawl
// as it reads the same rows written as 2.0, and a rerun over the 1.x
// crawl refuses to keep its rows and asks for --fresh.
func TestSchema1Crawl(t *testing.T) {
	dir := datasets.Demo(t)
	const newer, older = "CC-MAIN-2025-05", "CC-MAIN-2024-51"
	schema1Crawl(t, dir, newer, older)
	db := testutil.DuckDB(t, dir)
	if got := testutil.Query(t, db, `SELECT count(*) FROM read_parquet('`+filepath.Join(schema.PartitionDir(dir, "captures", older), "*.parquet")+
		`') WHERE payload_digest IS NOT NULL`); got == "0" {
		t.Fatal("the older crawl has no payload_digest: the test proves nothing")
	}

	r := datasets.Report(t, dir)
	figures := map[string]string{}
	for _, c := range r.Crawls {
		label := c.Crawl
		if label == newer && (c.Changes == nil || c.Changes.Body.Hosts.N != 0 || c.Changes.Common != 35) {
			t.Errorf("the same rows in two versions changed between crawls: %+v", c.Changes)
		}
		if c.Readings.HasReadings != (label == newer) {
			t.Errorf("%s: has readings %v: only the 2.2 crawl has a readings table", label, c.Readings.HasReadings)
		}
		if c.Templates.HasTemplates != (label == newer) {
			t.Errorf("%s: has templates %v: only the 2.3 crawl has a templates table", label, c.Templates.HasTemplates)
		}
		c.Crawl, c.Changes = "", nil         // the changes compare the two
		c.Readings = analyze.Disagreements{} // schema 2.2: the older crawl has none
		c.Templates = analyze.Authorship{}   // schema 2.3: nor templates
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		figures[label] = string(b)
	}
	if len(figures) != 2 || figures[older] != figures[newer] {
		t.Errorf("the 1.3 crawl reads differently from the same rows as 2.0:\n1.3: %.600s\n2.0: %.600s", figures[older], figures[newer])
	}
	if !strings.Contains(figures[older], `"shared_bodies":1`) {
		t.Errorf("the 1.3 crawl's shared bodies (payload_digest) are not read: %.300s", figures[older])
	}

	d, err := analyze.Open(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	site, err := d.Site(context.Background(), "shop.example")
	if err != nil {
		t.Fatal(err)
	}
	if len(site.Crawls) != 2 || site.Crawls[0].Listing == nil || site.Crawls[1].Listing == nil {
		t.Errorf("the site report does not read both crawls' bodies: %d crawls", len(site.Crawls))
	}

	// A rerun with one more input keeps the rows of the inputs read to
	// their end: not those of a 1.x partition.
	more := filepath.Join(t.TempDir(), "more.warc.gz")
	if err := os.WriteFile(more, testutil.PerRecord(t, testutil.Robots200("more.example", "User-agent: *\nDisallow: /x\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	inputs := append(strings.Split(testutil.Query(t, db, `SELECT string_agg(input, '|') FROM inputs WHERE crawl = '`+older+`'`), "|"), more)
	_, err = ingest.Run(context.Background(), ingest.Config{Dir: dir, Crawl: older}, inputs)
	if !errors.Is(err, schema.ErrRenamedColumns) || !strings.Contains(err.Error(), "--fresh") {
		t.Errorf("a rerun over the 1.3 crawl: %v, want a refusal asking for --fresh", err)
	}
	if _, err := ingest.Run(context.Background(), ingest.Config{Dir: dir, Crawl: older, Fresh: true}, inputs); err != nil {
		t.Fatalf("--fresh over the 1.3 crawl: %v", err)
	}
	if got := testutil.Query(t, db, `SELECT count(*) FROM captures WHERE crawl = '`+older+`' AND url_protocol IS NOT NULL`); got == "0" {
		t.Errorf("after --fresh the crawl is not written as 2.0")
	}
}
