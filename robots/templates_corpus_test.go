package robots

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
)

// The templates of the shared corpus: how many bodies of each set carry
// each template and version (testdata/templates-corpus.golden; rewrite
// with -update and review the diff), and hand-checked bodies that must be
// claimed as they are, or not at all.

// TestTemplatesCorpus counts the bodies of each set that carry each
// template, version and state.
func TestTemplatesCorpus(t *testing.T) {
	var b strings.Builder
	for _, set := range loadCorpus(t) {
		counts := map[string]int{}
		files := 0
		for _, body := range set.bodies {
			bs := Parse(body.Data).Templates()
			if len(bs) > 0 {
				files++
			}
			seen := map[string]bool{}
			for _, blk := range bs {
				k := blk.Key() + " " + blk.State.String()
				if !seen[k] {
					seen[k] = true
					counts[k]++
				}
			}
		}
		fmt.Fprintf(&b, "set %s: %d files, %d with a template\n", set.name, len(set.bodies), files)
		keys := make([]string, 0, len(counts))
		for k := range counts {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(x, y string) int { return cmp.Or(counts[y]-counts[x], strings.Compare(x, y)) })
		for _, k := range keys {
			fmt.Fprintf(&b, "  %-45s %d\n", k, counts[k])
		}
	}
	golden(t, filepath.Join("testdata", "templates-corpus.golden"), b.String())
}

// templateSpotChecks are bodies of the corpus read by hand: what each
// must be claimed as ("" for a near miss that must not be claimed).
var templateSpotChecks = []struct {
	set, name string
	want      []string // "START-END name@version state"
}{
	// Marked blocks as Yoast writes them.
	{"egonkm-robots-txt/robots.tar.gz", "robots/2022.ifla.org", []string{"1-8 yoast-seo@marked intact"}},
	// Mediapartners-Google and GPTBot, but the * group is the site's: no
	// Blogger default, and GPTBot alone is no block list.
	{"egonkm-robots-txt/robots.tar.gz", "robots/007-proxy-finder.soft112.com", nil},
	// WordPress's virtual file with its sitemap line.
	{"egonkm-robots-txt/robots.tar.gz", "robots/100k.studio", []string{"1-3 wordpress-core@5.5 intact"}},
	// Shopify's default, with the shop's own groups after its own.
	{"egonkm-robots-txt/robots.tar.gz", "robots/808wallart.com", []string{"1-155 shopify@current intact"}},
	// Squarespace stacking AI crawlers with * over its rules.
	{"egonkm-robots-txt/robots.tar.gz", "robots/26tracks.com", []string{"1-44 squarespace@ai-agents intact"}},
	// Wix's own careers site ends in "# by wix.com": not the default's
	// first line.
	{"egonkm-robots-txt/robots.tar.gz", "robots/careers.wix.com", nil},
	// WPForms's URL form beside WordPress's file.
	{"nrjones8-gov-robots-archive/raw-bodies.tar.gz", "data/non_dotgov_gov_urls/germanytownship.org",
		[]string{"1-3 wordpress-core@5.5 intact", "5-10 wpforms@url intact"}},
	// Cloudflare's Content Signals Policy and managed block of July 2026,
	// with CloudflareBrowserRenderingCrawler.
	{"psj224535-academic-publishers", "Research_Square.txt", []string{"1-25 cloudflare-content-signals-policy@2026-07 intact", "27-60 cloudflare-managed@2026-07 intact"}},
	// ai.robots.txt v1.18's agents exactly, with Crawl-delay instead of
	// Disallow: /.
	{"nrjones8-gov-robots-archive/raw-bodies.tar.gz", "data/non_dotgov_gov_urls/smithsonianstore.com", []string{"17-56 ai-robots-txt@v1.18 edited"}},
	// v1 less eight agents, in v1's order (J = 25/33).
	{"egonkm-robots-txt/robots.tar.gz", "robots/chriscoyier.net", []string{"9-34 ai-robots-txt@v1 edited"}},
	// The site's own list of 14 AI crawlers (J = 0.64 with v1.4), and an
	// old Drupal default: no template.
	{"egonkm-robots-txt/robots.tar.gz", "robots/www.courrierinternational.com", nil},
	// Wix's default of 2019, its editor paths shut out.
	{"isi-project2-polish-robots/robotsfiles-unique.tar.gz", "RobotsFiles/ModlinTransport.pl", []string{"1-19 wix@editor-paths intact"}},
	// Blogger's default.
	{"egonkm-robots-txt/robots.tar.gz", "robots/ahardacttoswallow.blogspot.com", []string{"1-6 blogger@default intact"}},
}

func TestTemplateSpotChecks(t *testing.T) {
	sets := loadCorpus(t)
	for _, c := range templateSpotChecks {
		i := slices.IndexFunc(sets, func(s corpusSet) bool { return s.name == c.set })
		if i < 0 {
			t.Errorf("no set %s", c.set)
			continue
		}
		j := slices.IndexFunc(sets[i].bodies, func(b testutil.Body) bool { return b.Name == c.name })
		if j < 0 {
			t.Errorf("%s: no body %s", c.set, c.name)
			continue
		}
		var got []string
		for _, b := range Parse(sets[i].bodies[j].Data).Templates() {
			got = append(got, fmt.Sprintf("%d-%d %s %s", b.Start, b.End, b.Key(), b.State))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: templates %q, want %q", c.name, got, c.want)
		}
	}
}

// TestTemplatesAIRobotsCorpus writes, with -v, every ai.robots.txt claim of
// the corpus and every near miss (a group of at least ten agents with
// Disallow: / nearer than 0.3 to a release but not claimed), for reading
// by hand.
func TestTemplatesAIRobotsCorpus(t *testing.T) {
	if os.Getenv("ROBOCENSUS_TEMPLATE_REVIEW") == "" {
		t.Skip("set ROBOCENSUS_TEMPLATE_REVIEW=1 to list the ai.robots.txt claims and near misses of the corpus")
	}
	for _, set := range loadCorpus(t) {
		for _, body := range set.bodies {
			f := Parse(body.Data)
			for gi := range f.Groups {
				g := &f.Groups[gi]
				if len(g.Agents(f)) < minAIRobotsAgents || g.Global {
					continue
				}
				m := aiRobots.nearest(f, g.Agents(f))
				if m.jaccard < 0.3 {
					continue
				}
				claimed := slices.ContainsFunc(f.Templates(), func(b TemplateBlock) bool { return b.Start == g.Line })
				t.Logf("%s %s line %d: %d agents, nearest %s J=%.2f claimed=%v", set.name, body.Name, g.Line, len(g.Agents(f)), aiRobots.releases[m.release].Tag, m.jaccard, claimed)
			}
		}
	}
}
