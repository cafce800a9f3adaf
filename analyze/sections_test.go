package analyze_test

import (
	"testing"

	"github.com/robocensus/robocensus/analyze"
	"github.com/robocensus/robocensus/schema"
)

// The tests of the crawl report's sections, one per section, each on a
// small fixture whose figures are counted by hand; each runs with one
// and with three host shards.

// sectionCrawl writes one crawl partition and returns its figures with
// each number of host shards.
func sectionCrawl(t *testing.T, p *partition) map[int]*analyze.Crawl {
	t.Helper()
	dir := t.TempDir()
	if err := p.write(dir, "CC-MAIN-2025-05"); err != nil {
		t.Fatal(err)
	}
	out := map[int]*analyze.Crawl{}
	for _, shards := range []int{1, 3} {
		_, r := openReport(t, dir, analyze.WithHostShards(shards))
		out[shards] = r.Crawls[0]
	}
	return out
}

func TestSitemapsSection(t *testing.T) {
	var p partition
	p.site("s1", "one.example", 200, "User-agent: *\nDisallow:\nSitemap: https://one.example/a.xml\nSitemap: https://one.example/b.xml\n", fetched)
	p.site("s2", "two.example", 0, "Sitemap: /relative.xml\n", fetched)
	p.site("s3", "three.example", 200, "User-agent: *\nDisallow: /x\n", fetched)
	p.site("s4", "down.example", 503, "Sitemap: https://down.example/s.xml\n", fetched) // not read: no sitemap rows
	for shards, c := range sectionCrawl(t, &p) {
		want := analyze.Sitemaps{Captures: analyze.Ratio{N: 2, Of: 3}, Lines: 3, Valid: analyze.Ratio{N: 2, Of: 3}}
		if c.Sitemaps != want {
			t.Errorf("%d shards: sitemaps %+v, want %+v", shards, c.Sitemaps, want)
		}
	}
}

func TestInputsSection(t *testing.T) {
	var p partition
	p.site("i1", "one.example", 200, "User-agent: *\nDisallow:\n", fetched)
	p.inputs = []schema.Input{
		{Input: "a.warc.gz", Bytes: 1000, Records: 7, Captures: 3, Skipped: 4, SkippedByReason: `{"request":4}`, DamageEvents: 1},
		{Input: "b.warc.gz", Bytes: 20, Records: 1, Captures: 1, SkippedByReason: "{}", Error: "unexpected EOF"},
	}
	for shards, c := range sectionCrawl(t, &p) {
		want := analyze.Inputs{Inputs: 2, Failed: 1, Bytes: 1020, Records: 8, Captures: 4, Skipped: 4, Damage: 1}
		if c.Inputs != want {
			t.Errorf("%d shards: inputs %+v, want %+v", shards, c.Inputs, want)
		}
	}
}
