package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/analyze"
	"github.com/robocensus/robocensus/ingest"
	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/internal/testutil/datasets"
	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// customCrawlers is a crawler list of a made-up AI crawler that falls back
// on GPTBot's groups, and GPTBot.
var customCrawlers = []robots.Crawler{
	{Token: "ExampleAIBot", Kind: robots.CrawlerAI, Operator: "Example", Fallbacks: []string{"GPTBot"}},
	{Token: "GPTBot", Kind: robots.CrawlerAI, Operator: "OpenAI"},
}

// customCrawlersDataset ingests four robots.txt classified with
// customCrawlers, as each crawl of labels.
func customCrawlersDataset(t *testing.T, labels ...string) string {
	t.Helper()
	dir := t.TempDir()
	path := customCrawlersWARC(t)
	for _, label := range labels {
		ingestWith(t, dir, label, path, robots.CloneCrawlers(customCrawlers))
	}
	return dir
}

// ingestWith ingests the WARC file path as crawl label of dir, classified
// with crawlers.
func ingestWith(t *testing.T, dir, label, path string, crawlers []robots.Crawler) {
	t.Helper()
	cfg := ingest.Config{Dir: dir, Crawl: label, Crawlers: crawlers}
	if _, err := ingest.Run(context.Background(), cfg, []string{path}); err != nil {
		t.Fatal(err)
	}
}

// customCrawlersWARC writes the four robots.txt as a WARC file.
func customCrawlersWARC(t *testing.T) string {
	t.Helper()
	var fetches []archive.Fetch
	for _, hb := range [][2]string{
		{"a.example", "User-agent: GPTBot\nDisallow: /\n"},              // ExampleAIBot through its fallback
		{"b.example", "User-agent: ExampleAIBot\nDisallow: /private\n"}, // ExampleAIBot named, partially
		{"c.example", "User-agent: *\nDisallow: /\n"},                   // both through '*'
		{"d.example", "User-agent: Googlebot\nDisallow: /\n"},           // neither
	} {
		fetches = append(fetches, archive.Fetch{URL: "https://" + hb[0] + "/robots.txt", Body: []byte(hb[1])})
	}
	return datasets.WriteWARC(t, t.TempDir(), "custom", fetches)
}

// dropCrawlerList rewrites the agents files of dir without the crawler
// list in their footers, as a dataset written before the key.
func dropCrawlerList(t *testing.T, dir string) {
	t.Helper()
	db := testutil.DuckDB(t, dir)
	root := filepath.Join(dir, "agents")
	crawls, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range crawls {
		src := filepath.Join(root, c.Name())
		tmp := filepath.Join(t.TempDir(), "agents.parquet")
		q := `COPY (SELECT * EXCLUDE (crawl) FROM read_parquet('` + filepath.Join(src, "*.parquet") + `', hive_partitioning = true)) TO '` + tmp +
			`' (FORMAT parquet, KV_METADATA {'` + schema.VersionKey + `': '` + schema.Version + `', '` + schema.TableKey + `': 'agents'})`
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		files, _ := filepath.Glob(filepath.Join(src, "*.parquet"))
		for _, f := range files {
			if err := os.Remove(f); err != nil {
				t.Fatal(err)
			}
		}
		b, err := os.ReadFile(tmp)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, schema.PartName(0)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := testutil.Query(t, db, `SELECT count(*) FROM parquet_kv_metadata('`+filepath.Join(root, "*", "*.parquet")+`') WHERE decode(key) = '`+schema.CrawlersKey+`'`); got != "0" {
		t.Fatalf("%s footers still hold the crawler list", got)
	}
}

// crawlerRows lists the crawlers of a report's crawlers section:
// agent, kind, operator, and over usable hosts named, disallowed,
// partially, allowed.
func crawlerRows(c *analyze.Crawl) []string {
	var out []string
	for _, s := range c.Crawlers.Crawlers {
		u := s.Usable
		out = append(out, fmt.Sprintf("%s %s %q %d/%d %d %d %d", s.Agent, s.Kind, s.Operator, u.Named, u.Hosts, u.Disallowed, u.Partial, u.Allowed))
	}
	return out
}

// A dataset ingested with its own crawler list is reported against that
// list (issue 17): the made-up ExampleAIBot is an AI crawler with the
// verdicts it got, and the binary's other crawlers are not tracked. The
// site report says the same.
func TestCustomCrawlerListReported(t *testing.T) {
	dir := customCrawlersDataset(t, "CC-MAIN-2025-05")
	r := datasets.BatchedReport(t, dir)
	if len(r.Crawls) != 1 {
		t.Fatalf("%d crawls, want 1", len(r.Crawls))
	}
	c := r.Crawls[0]
	want := []string{
		`ExampleAIBot ai "Example" 1/4 2 1 1`, // named by b (partially); disallowed by a (fallback) and c ('*'); allowed by d
		`GPTBot ai "OpenAI" 1/4 2 0 2`,        // named and disallowed by a; disallowed by c; allowed by b and d
	}
	if got := crawlerRows(c); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("crawlers:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	f := c.Crawlers
	if f.AnyAINamed != (analyze.Ratio{N: 2, Of: 4}) || f.AnyAINamedDisallowed != (analyze.Ratio{N: 1, Of: 4}) || f.EveryAIDisallowed != (analyze.Ratio{N: 2, Of: 4}) {
		t.Errorf("AI figures: named %v, named and disallowed %v, every AI crawler disallowed %v; want 2/4, 1/4, 2/4",
			f.AnyAINamed, f.AnyAINamedDisallowed, f.EveryAIDisallowed)
	}

	d, err := analyze.Open(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	s, err := d.Site(context.Background(), "b.example")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, sc := range s.Crawls[0].Crawlers {
		got = append(got, fmt.Sprint(sc.Agent, " ", sc.Kind, " ", sc.Named, " ", sc.Verdict))
	}
	if want := "ExampleAIBot ai true partially-disallowed\nGPTBot ai false allowed"; strings.Join(got, "\n") != want {
		t.Errorf("site crawlers:\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}

	// Without the list in the footers (a dataset written before it), the
	// report uses the binary's list, as it did: ExampleAIBot is another
	// agent, and the binary's crawlers are listed.
	dropCrawlerList(t, dir)
	old := datasets.Report(t, dir).Crawls[0]
	kinds := map[string]string{}
	for _, s := range old.Crawlers.Crawlers {
		kinds[s.Agent] = s.Kind
	}
	if kinds["ExampleAIBot"] != "other" || kinds["GPTBot"] != "ai" || kinds["Googlebot"] != "search" || len(old.Crawlers.Crawlers) != len(robots.TrackedCrawlers())+1 {
		t.Errorf("without the list: ExampleAIBot %q, GPTBot %q, Googlebot %q, %d crawlers; want other, ai, search, %d",
			kinds["ExampleAIBot"], kinds["GPTBot"], kinds["Googlebot"], len(old.Crawlers.Crawlers), len(robots.TrackedCrawlers())+1)
	}
}

// A dataset classified with the binary's list reports the same whether
// its footers record the list or not.
func TestCrawlerListFallbackSameReport(t *testing.T) {
	dir := datasets.Demo(t)
	report := func() []byte {
		var b bytes.Buffer
		if err := datasets.Report(t, dir).Write(&b, analyze.JSON, dir); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	with := report()
	dropCrawlerList(t, dir)
	if without := report(); !bytes.Equal(with, without) {
		t.Errorf("the demo's report changes when its agents files do not record the crawler list")
	}
}

// The strata and the changes follow the AI crawlers of their fixed list
// that the crawls' list tracks: of customCrawlers, GPTBot alone; the
// changes, those that both crawls' lists track.
func TestCustomCrawlerListFollowed(t *testing.T) {
	dir := customCrawlersDataset(t, "CC-MAIN-2025-05", "CC-MAIN-2025-08")
	ingestWith(t, dir, "CC-MAIN-2025-13", customCrawlersWARC(t), []robots.Crawler{
		{Token: "GPTBot", Kind: robots.CrawlerAI}, {Token: "ClaudeBot", Kind: robots.CrawlerAI}})
	ranks, err := analyze.ReadRanks(strings.NewReader("1,a.example\n2,b.example\n3,c.example\n4,d.example\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := datasets.BatchedReport(t, dir, analyze.WithRanks(ranks))
	if len(r.Crawls) != 3 {
		t.Fatalf("%d crawls, want 3", len(r.Crawls))
	}
	for i, c := range r.Crawls {
		st := c.Strata
		if st == nil || len(st.Rows) == 0 {
			t.Fatalf("%s: no strata", c.Crawl)
		}
		// a.example and c.example disallow GPTBot everything, c.example
		// ClaudeBot.
		want := [][2]string{{"[GPTBot]", "4 [2] [0]"}, {"[GPTBot]", "4 [2] [0]"}, {"[GPTBot ClaudeBot]", "4 [2 1] [0 0]"}}[i]
		if fmt.Sprint(st.Crawlers) != want[0] {
			t.Errorf("%s: strata follow %v, want %s", c.Crawl, st.Crawlers, want[0])
		}
		if row := st.Rows[0]; fmt.Sprint(row.Robots, " ", row.Disallowed, " ", row.Partially) != want[1] {
			t.Errorf("%s: stratum %v: %d robots.txt, disallowed %v, partially %v; want %s", c.Crawl, row.Stratum, row.Robots, row.Disallowed, row.Partially, want[1])
		}
	}
	// ClaudeBot is not compared: the previous crawl did not track it.
	for i := 1; i < 3; i++ {
		ch := r.Crawls[i].Changes
		if ch == nil {
			t.Fatalf("no changes in crawl %d", i)
		}
		var got []string
		for _, cc := range ch.Crawlers {
			got = append(got, fmt.Sprint(cc.Agent, " ", cc.StartedDisallowing.Hosts, " ", cc.StoppedDisallowing.Hosts))
		}
		if want := "GPTBot {0 4} {0 4}"; strings.Join(got, ",") != want {
			t.Errorf("%s: changes follow %q, want %q", r.Crawls[i].Crawl, strings.Join(got, ","), want)
		}
	}
}
