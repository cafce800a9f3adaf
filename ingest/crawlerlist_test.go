package ingest_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/robocensus/robocensus/ingest"
	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// agentsCrawlerLists returns the crawler list in the footer of each
// agents file of dir.
func agentsCrawlerLists(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "agents", "*", "*.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		st, err := f.Stat()
		if err != nil {
			t.Fatal(err)
		}
		r, err := schema.NewArrowReader(f, st.Size(), schema.WithTable("agents"))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r.Metadata(schema.CrawlersKey))
		r.Close()
		f.Close()
	}
	return out
}

// The dataset records the crawler list its agents rows were classified
// with in the footer of every agents file, merged segments included: a
// custom Config.Crawlers, or the binary's list by default.
func TestRunRecordsCrawlerList(t *testing.T) {
	warc := testutil.Corpus(t, "warc", "aut-heritrix-2008", "example.warc.gz")
	data, err := os.ReadFile(warc)
	if err != nil {
		t.Fatal(err)
	}
	in := t.TempDir()
	var inputs []string
	for _, n := range []string{"a.warc.gz", "b.warc.gz"} {
		p := filepath.Join(in, n)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, p)
	}
	custom := []robots.Crawler{
		{Token: "ExampleAIBot", Kind: robots.CrawlerAI, Operator: "Example", Fallbacks: []string{"GPTBot"}},
		{Token: "GPTBot", Kind: robots.CrawlerAI, Operator: "OpenAI"},
	}
	for _, tc := range []struct {
		name     string
		crawlers []robots.Crawler
		want     []robots.Crawler
	}{
		{"custom", custom, custom},
		{"default", nil, robots.TrackedCrawlers()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			// One segment per input: the published part is their merge.
			cfg := ingest.Config{Dir: dir, Crawl: "test-1", Workers: 2, SegmentInputs: 1, Crawlers: tc.crawlers}
			if _, err := ingest.Run(context.Background(), cfg, inputs); err != nil {
				t.Fatal(err)
			}
			want, err := robots.MarshalCrawlers(tc.want)
			if err != nil {
				t.Fatal(err)
			}
			lists := agentsCrawlerLists(t, dir)
			if len(lists) == 0 {
				t.Fatal("no agents file")
			}
			for i, got := range lists {
				if got != want {
					t.Errorf("agents file %d records %.200q, want %.200q", i, got, want)
				}
			}
			db := testutil.DuckDB(t, dir)
			if got := testutil.Query(t, db, "SELECT count(DISTINCT agent) FROM agents"); got != strconv.Itoa(len(tc.want)) {
				t.Errorf("%s agents, want %d", got, len(tc.want))
			}
		})
	}
}
