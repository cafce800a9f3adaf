package analyze_test

import (
	"testing"

	"github.com/robocensus/robocensus/analyze"
)

// TestSitemapsSection checks the sitemaps section (section_sitemaps.go)
// on a fixture counted by hand.
func TestSitemapsSection(t *testing.T) {
	var p partition
	p.site("s1", "one.example", 200, "User-agent: *\nDisallow:\nSitemap: https://one.example/a.xml\nSitemap: https://one.example/b.xml\n", fetched)
	p.site("s2", "two.example", 0, "Sitemap: /relative.xml\n", fetched)
	p.site("s3", "three.example", 200, "User-agent: *\nDisallow: /x\n", fetched)
	p.site("s4", "down.example", 503, "Sitemap: https://down.example/s.xml\n", fetched) // not read: no sitemap rows
	for batches, c := range sectionCrawl(t, &p) {
		want := analyze.Sitemaps{Captures: analyze.Ratio{N: 2, Of: 3}, Lines: 3, Valid: analyze.Ratio{N: 2, Of: 3}}
		if c.Sitemaps != want {
			t.Errorf("%d batches: sitemaps %+v, want %+v", batches, c.Sitemaps, want)
		}
	}
}
