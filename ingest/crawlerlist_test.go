package ingest_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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

// twoInputs copies a WARC file of the corpus (38 robots.txt captures) to
// two inputs.
func twoInputs(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(testutil.Corpus(t, "warc", "aut-heritrix-2008", "example.warc.gz"))
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
	return inputs
}

// The dataset records the crawler list its agents rows were classified
// with in the footer of every agents file, merged segments included: a
// custom Config.Crawlers, or the binary's list by default.
func TestRunRecordsCrawlerList(t *testing.T) {
	inputs := twoInputs(t)
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

// A rerun that keeps published rows refuses those classified with another
// crawler list, rather than copying them under the run's tokens.
func TestRerunRefusesAnotherCrawlerList(t *testing.T) {
	inputs := twoInputs(t)
	a, b := inputs[0], inputs[1]
	list := func(tokens ...string) []robots.Crawler {
		var out []robots.Crawler
		for _, tok := range tokens {
			out = append(out, robots.Crawler{Token: tok, Kind: robots.CrawlerAI})
		}
		return out
	}
	run := func(dir string, crawlers []robots.Crawler, inputs ...string) error {
		_, err := ingest.Run(context.Background(), ingest.Config{Dir: dir, Crawl: "test-1", Workers: 2, Crawlers: crawlers}, inputs)
		return err
	}
	for _, tc := range []struct {
		name  string
		again []robots.Crawler
		fails bool
	}{
		{"same list", list("ExampleAIBot", "GPTBot"), false},
		{"another list", list("ExampleAIBot", "ClaudeBot"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := run(dir, list("ExampleAIBot", "GPTBot"), a); err != nil {
				t.Fatal(err)
			}
			err := run(dir, tc.again, a, b)
			if got := err != nil && strings.Contains(err.Error(), "another crawler list"); got != tc.fails {
				t.Fatalf("rerun: %v; want a refusal: %v", err, tc.fails)
			}
		})
	}
}

// A crawler list its report could not read back is refused before the
// run writes anything.
func TestRunRefusesBadCrawlerList(t *testing.T) {
	dir := t.TempDir()
	bad := []robots.Crawler{{Token: "GPTBot", Kind: robots.CrawlerAI}, {Token: "GPTBot", Kind: robots.CrawlerSearch}}
	_, err := ingest.Run(context.Background(), ingest.Config{Dir: dir, Crawl: "test-1", Crawlers: bad}, twoInputs(t)[:1])
	if err == nil || !strings.Contains(err.Error(), "repeated token") {
		t.Fatalf("Run with a repeated token: %v", err)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "agents", "*", "*.parquet")); len(files) > 0 {
		t.Errorf("agents files written: %q", files)
	}
}
