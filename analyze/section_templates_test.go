package analyze_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robocensus/robocensus/analyze"
	"github.com/robocensus/robocensus/ingest"
	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/internal/testutil/datasets"
	"github.com/robocensus/robocensus/schema"
)

// templateFixture returns the robots.txt of a template fixture of the
// robots package (robots/testdata/diag/NAME.txt, its "robots.txt" part):
// texts built from each template's public source.
func templateFixture(t *testing.T, name string) []byte {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(testutil.RepoRoot(), "robots", "testdata", "diag", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	body, ok := strings.CutPrefix(string(text), "-- robots.txt --\n")
	if !ok {
		t.Fatalf("%s: no robots.txt part", name)
	}
	if i := strings.Index(body, "\n-- "); i >= 0 {
		body = body[:i+1]
	}
	return []byte(body)
}

// templatesDataset writes a WARC of hosts serving template blocks and
// ingests it as crawl CC-MAIN-2025-05, fetched on 2025-01-13:
//
//	cf.example        Cloudflare's managed block (2025-09), its GPTBot block
//	                  cancelled by the site's own GPTBot group (Allow: /)
//	list.example      301 to www.list.example
//	www.list.example  the ai.robots.txt list of release v1.2 (2024-06-20)
//	sq.example        Squarespace's file with its AI group (Disallow: /)
//	sqa.example       Squarespace's file naming AI crawlers in its '*'
//	                  group, with the shared rules: no full block
//	wp.example        WordPress 5.5's virtual file; an earlier capture of
//	                  the host served WordPress 4.4's
//	own.example       the site's own GPTBot block, no template
func templatesDataset(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	at := time.Date(2025, 1, 13, 4, 5, 6, 0, time.UTC)
	fetches := []archive.Fetch{
		{URL: "https://cf.example/robots.txt", Time: at, Body: templateFixture(t, "template-block-cancelled")},
		{URL: "https://list.example/robots.txt", Time: at, Status: 301, ContentType: "text/html", Location: "https://www.list.example/robots.txt", Body: []byte("moved")},
		{URL: "https://www.list.example/robots.txt", Time: at, Body: templateFixture(t, "template-list-outdated")},
		{URL: "https://sq.example/robots.txt", Time: at, Body: templateFixture(t, "template-squarespace-ai-group")},
		{URL: "https://sqa.example/robots.txt", Time: at, Body: templateFixture(t, "template-squarespace-ai")},
		{URL: "https://wp.example/robots.txt", Time: at, Body: templateFixture(t, "template-wordpress-5.5")},
		{URL: "https://wp.example/robots.txt", Time: at.AddDate(0, -1, 0), Body: templateFixture(t, "template-wordpress-4.4")},
		{URL: "https://own.example/robots.txt", Time: at, Body: []byte("User-agent: GPTBot\nDisallow: /\n")},
	}
	var buf bytes.Buffer
	w, err := archive.NewWARCWriter(&buf, "templates.warc.gz")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fetches {
		if f.ContentType == "" {
			f.ContentType = "text/plain"
		}
		if err := w.WriteCapture(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	warc := filepath.Join(dir, "templates.warc.gz")
	if err := os.WriteFile(warc, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "dataset")
	if _, err := ingest.Run(context.Background(), ingest.Config{Dir: data, Crawl: "CC-MAIN-2025-05"}, []string{warc}); err != nil {
		t.Fatal(err)
	}
	return data
}

// TestTemplatesSection checks "Who wrote these files"
// (section_templates.go) on templatesDataset, counted by hand, with 1, 3
// and 7 host batches, and the same figures in DuckDB (its cross-check).
func TestTemplatesSection(t *testing.T) {
	dir := templatesDataset(t)
	r := datasets.BatchedReport(t, dir, analyze.WithTop(30))
	crossCheck(t, dir, r)
	tp := r.Crawls[0].Templates
	got := fmt.Sprintf("has %v, %d captures, %d hosts, with a template %d/%d;", tp.HasTemplates, tp.Captures, tp.Hosts, tp.WithTemplate.N, tp.WithTemplate.Of)
	for _, s := range tp.Templates {
		got += fmt.Sprintf(" %s@%s %s hosts %d captures %d;", s.Template, s.Version, s.Released, s.Hosts.N, s.Captures.N)
	}
	// Seven hosts (list.example counts with www.list.example, whose
	// capture decides for both), eight captures (wp.example's earlier one
	// with WordPress 4.4, which decides for no host).
	want := "has true, 8 captures, 7 hosts, with a template 6/7;" +
		" ai-robots-txt@v1.2 2024-06-20 hosts 2 captures 1;" +
		" cloudflare-managed@2025-09 2025-09-24 hosts 1 captures 1;" +
		" wordpress-core@5.5 2020-08-11 hosts 1 captures 1;" +
		" squarespace@ai-group  hosts 1 captures 1;" +
		" squarespace@ai-agents  hosts 1 captures 1;" +
		" wordpress-core@4.4 2015-12-08 hosts 0 captures 1;"
	if got != want {
		t.Errorf("templates:\n got %s\nwant %s", got, want)
	}
	// GPTBot: shut out by the list (2 hosts) and Squarespace's AI group
	// (1), templates alone, and by own.example's own group; Cloudflare's
	// block of it is cancelled on cf.example, and Squarespace's '*' group
	// naming it on sqa.example only keeps it out of some paths (the
	// egonkm set's 141 such hosts, README). CCBot: by Cloudflare's block,
	// the list and Squarespace's group, all templates; Amazonbot by
	// Cloudflare's block and the list.
	crawlers := map[string]string{}
	for _, c := range tp.Crawlers {
		crawlers[c.Crawler] = fmt.Sprintf("%d: template %d, site %d, both %d", c.Blocked, c.Template.N, c.Site.N, c.Both.N)
	}
	for name, want := range map[string]string{"GPTBot": "4: template 3, site 1, both 0", "CCBot": "4: template 4, site 0, both 0", "Amazonbot": "3: template 3, site 0, both 0"} {
		if crawlers[name] != want {
			t.Errorf("%s blocked %q, want %q", name, crawlers[name], want)
		}
	}
	got = fmt.Sprintf("cancelling %d/%d %v %v", tp.Cancelling.N, tp.Cancelling.Of, tp.Cancelled, tp.Examples)
	if want := "cancelling 1/7 [{GPTBot 1}] [cf.example]"; got != want {
		t.Errorf("cancelled blocks: %s, want %s", got, want)
	}
	// v1.2 was released on 2024-06-20: 207 days before 2025-01-13.
	l := tp.Lists
	got = fmt.Sprintf("lists %d/%d, dated %d, median %d days, over six months %d/%d, over a year %d/%d, %s..%s",
		l.Hosts.N, l.Hosts.Of, l.Dated, l.MedianDays, l.OverHalf.N, l.OverHalf.Of, l.OverYear.N, l.OverYear.Of, l.Oldest, l.Newest)
	if want := "lists 2/7, dated 2, median 207 days, over six months 2/2, over a year 0/2, 2024-06-20..2024-06-20"; got != want {
		t.Errorf("block lists: %s, want %s", got, want)
	}
	checkTemplateStrata(t, dir)
	for _, f := range []analyze.Format{analyze.Markdown, analyze.HTML} {
		var b bytes.Buffer
		if err := r.Write(&b, f, "t"); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"Who wrote these files", "ai-robots-txt@v1.2", "the median is 207 days old", "cf.example"} {
			if !strings.Contains(b.String(), want) {
				t.Errorf("%s report: no %q", f, want)
			}
		}
	}
}

// Each row of the templates table is a row group of its own
// (sectionCrawl), so that a capture's rows are split between records, and
// between workers with 3 host batches: a capture counts once per
// template version all the same, even with two blocks of one version.
func TestTemplatesSectionSplitRows(t *testing.T) {
	var p partition
	p.site("t1", "a.example", 200, "User-agent: *\nDisallow: /wp-admin/\n", fetched)
	p.site("t2", "b.example", 200, "User-agent: *\nDisallow:\n", fetched)
	p.site("t3", "a.example", 200, "User-agent: *\nDisallow: /x\n", fetched.Add(-time.Hour)) // decides for no host
	block := func(id, host, template, version string, start int32) schema.TemplateBlock {
		return schema.TemplateBlock{CaptureID: id, URLHostName: host, Template: template, Version: version,
			LineStart: start, LineEnd: start + 2, State: "intact", Similarity: 1}
	}
	p.templates = []schema.TemplateBlock{
		block("t1", "a.example", "yoast-seo", "marked", 1),
		block("t1", "a.example", "wordpress-core", "4.4", 4),
		block("t1", "a.example", "yoast-seo", "marked", 8),
		block("t1", "a.example", "future-cms", "1.0", 12), // not in the catalogue: counts for nothing
		block("t2", "b.example", "yoast-seo", "marked", 1),
		block("t3", "a.example", "wordpress-core", "5.5", 1),
	}
	for batches, c := range sectionCrawl(t, &p) {
		tp := c.Templates
		got := fmt.Sprintf("%d captures, %d hosts, %d with a template:", tp.Captures, tp.Hosts, tp.WithTemplate.N)
		for _, s := range tp.Templates {
			got += fmt.Sprintf(" %s@%s %d hosts %d captures;", s.Template, s.Version, s.Hosts.N, s.Captures.N)
		}
		want := "3 captures, 2 hosts, 2 with a template: yoast-seo@marked 2 hosts 2 captures; wordpress-core@4.4 1 hosts 1 captures; wordpress-core@5.5 0 hosts 1 captures;"
		if got != want {
			t.Errorf("%d batches:\n got %s\nwant %s", batches, got, want)
		}
	}
}

// A crawl published before the templates table (no templates files) has
// no figures of the section, and the report says so.
func TestTemplatesSectionOlderDataset(t *testing.T) {
	var p partition
	p.site("o1", "old.example", 200, "User-agent: *\nDisallow: /\n", fetched)
	for batches, c := range sectionCrawl(t, &p) {
		if c.Templates.HasTemplates || c.Templates.Hosts != 0 || c.Templates.Templates != nil {
			t.Errorf("%d batches: templates %+v, want none", batches, c.Templates)
		}
		reportsSay(t, c, "This crawl has no templates table: it was published before template recognition")
	}
}

// checkTemplateStrata checks the templates per rank stratum of
// templatesDataset with a ranked list of four hosts: cf.example,
// list.example (which redirects to www.list.example's list), own.example
// and a host the crawl lacks; the stratum of every ranked host has the
// three the crawl has, two with a template.
func checkTemplateStrata(t *testing.T, dir string) {
	t.Helper()
	ranks, err := analyze.ReadRanks(strings.NewReader("1,cf.example\n2,list.example\n3,own.example\n4,absent.example\n"))
	if err != nil {
		t.Fatal(err)
	}
	tp := datasets.BatchedReport(t, dir, analyze.WithRanks(ranks)).Crawls[0].Templates
	var got []string
	for _, s := range tp.Strata {
		row := fmt.Sprintf("%s: %d ranked, %d/%d with a template:", s.Stratum.Name, s.Ranked, s.WithTemplate.N, s.WithTemplate.Of)
		for i, n := range s.Hosts {
			row += fmt.Sprintf(" %s@%s %d", tp.Templates[i].Template, tp.Templates[i].Version, n)
		}
		got = append(got, row)
	}
	want := "all ranked: 3 ranked, 2/3 with a template: ai-robots-txt@v1.2 1 cloudflare-managed@2025-09 1 wordpress-core@5.5 0" +
		" squarespace@ai-group 0 squarespace@ai-agents 0 wordpress-core@4.4 0"
	if g := strings.Join(got, "; "); g != want {
		t.Errorf("strata:\n got %s\nwant %s", g, want)
	}
}
