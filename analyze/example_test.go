package analyze_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/robocensus/robocensus/analyze"
	"github.com/robocensus/robocensus/robots"
)

// The crawl report of a dataset of two crawls: figures per crawl, and how
// they moved. robocensus report writes it as HTML, Markdown or JSON.
func ExampleDataset_Report() {
	dir, cleanup := exampleDir()
	defer cleanup()
	d, err := analyze.Open(os.DirFS(dir))
	if err != nil {
		log.Fatal(err)
	}
	r, err := d.Report(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range r.Crawls {
		var gpt analyze.CrawlerShare
		for _, s := range c.Crawlers.Crawlers {
			if s.Agent == "GPTBot" {
				gpt = s
			}
		}
		fmt.Printf("%s: %d captures, %d hosts, %d usable; GPTBot named by %d, disallowed by %d of %d usable hosts\n",
			c.Crawl, c.Captures, c.Hosts, c.UsableHosts, gpt.Usable.Named, gpt.Usable.Disallowed, gpt.Usable.Hosts)
	}
	for _, s := range r.Trends.Series {
		if s.Name == "hosts" || s.Name == "GPTBot disallowed" {
			fmt.Printf("trend %s: %v\n", s.Name, s.Values)
		}
	}
	// Output:
	// CC-MAIN-2025-05: 2 captures, 2 hosts, 1 usable; GPTBot named by 0, disallowed by 0 of 1 usable hosts
	// CC-MAIN-2025-08: 5 captures, 5 hosts, 3 usable; GPTBot named by 1, disallowed by 1 of 3 usable hosts
	// trend hosts: [2 5]
	// trend GPTBot disallowed: [0 0.3333333333333333]
}

// A crawl's captures split into host batches: the report keeps the state
// of one batch's captures at a time and reads the tables once per batch,
// and its figures are the same for any number of batches.
func ExampleWithHostBatches() {
	dir, cleanup := exampleDir()
	defer cleanup()
	for _, batches := range []int{1, 4} {
		d, err := analyze.Open(os.DirFS(dir), analyze.WithHostBatches(batches))
		if err != nil {
			log.Fatal(err)
		}
		r, err := d.Report(context.Background())
		if err != nil {
			log.Fatal(err)
		}
		c := r.Crawls[1]
		fmt.Printf("%d batches: %d hosts, %d usable, %d sharing a body (%v)\n",
			batches, c.Hosts, c.UsableHosts, c.SharedBodies.SharedHosts.N, c.SharedBodies.Top[0].Sample)
	}
	// Output:
	// 1 batches: 5 hosts, 3 usable, 2 sharing a body ([farm-1.example farm-2.example])
	// 4 batches: 5 hosts, 3 usable, 2 sharing a body ([farm-1.example farm-2.example])
}

// The report on one host: its robots.txt with the findings at their lines,
// and the findings of the site checks.
func ExampleDataset_Site() {
	dir, cleanup := exampleDir()
	defer cleanup()
	d, err := analyze.Open(os.DirFS(dir))
	if err != nil {
		log.Fatal(err)
	}
	r, err := d.Site(context.Background(), "shop.example")
	if err != nil {
		log.Fatal(err)
	}
	latest := r.Crawls[len(r.Crawls)-1]
	for _, l := range latest.Listing.Lines {
		fmt.Printf("%2d|%s\n", l.Number, l.Text)
		for _, f := range l.Findings {
			fmt.Printf("   ^ %s [%s]\n", f.Severity, f.Code)
		}
	}
	for _, f := range r.Findings {
		fmt.Printf("%s %s: %s\n", f.Severity, f.Check, f.Message)
	}
	// Output:
	// 1|User-agent: *
	//  2|Disallow: /cart/
	//  3|Disalow: /tmp/
	//    ^ warning [typo-accepted]
	//  4|
	//  5|User-agent: GPTBot
	//  6|Disallow: /
	//  7|
	//  8|Sitemap: https://shop.example/sitemap.xml
	// warning syntax: probably not what was meant at line 3: typo-accepted
	// info ai-access: AI crawlers tracked: 2; named: 1; fully disallowed: 1 (1 by name); partly disallowed: 1
	// info changes: the file changed between CC-MAIN-2025-05 and CC-MAIN-2025-08 (sha1:a1 → sha1:b1)
	// info changes: crawler verdicts changed between CC-MAIN-2025-05 and CC-MAIN-2025-08: GPTBot partially-disallowed → disallowed
}

// A site check of one's own, in the shape of go/analysis: a name, a doc
// and a Run function over a Pass. This one flags sites whose home page
// Googlebot may not fetch, matching the URL with the robots engine.
func ExampleCheck() {
	homepage := &analyze.Check{
		Name: "homepage",
		Doc:  "whether Googlebot may fetch the home page",
		Run: func(pass *analyze.Pass) error {
			if pass.File != nil && !pass.File.Allowed("https://"+pass.Site.Host+"/", "Googlebot") {
				pass.Reportf(robots.Error, 0, "Googlebot may not fetch the home page")
			}
			return nil
		},
	}
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	var p partition
	p.site("c1", "closed.example", 200, "User-agent: *\nDisallow: /\n", fetched, "Googlebot")
	if err := p.write(dir, "CC-MAIN-2025-05"); err != nil {
		log.Fatal(err)
	}
	d, err := analyze.Open(os.DirFS(dir), analyze.WithChecks(homepage))
	if err != nil {
		log.Fatal(err)
	}
	r, err := d.Site(context.Background(), "closed.example")
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range r.Findings {
		fmt.Println(f.Check, f.Severity, f.Message)
	}
	// Output:
	// homepage error Googlebot may not fetch the home page
}

// The terminal summary robocensus demo prints.
func ExampleReport_WriteSummary() {
	dir, cleanup := exampleDir()
	defer cleanup()
	d, err := analyze.Open(os.DirFS(dir))
	if err != nil {
		log.Fatal(err)
	}
	r, err := d.Report(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	if err := r.WriteSummary(os.Stdout); err != nil {
		log.Fatal(err)
	}
	// Output:
	// crawl CC-MAIN-2025-08: 5 captures of 5 hosts, 60.0% (3 of 5) with a usable robots.txt
	// outcomes: rules 60.0% allow-all 20.0% disallow-all 20.0%
	// captures with an error: 20.0% (1 of 5); over 500 KiB: 0% (0 of 3)
	// most frequent problems:
	//   http-5xx                         error    20.0% (1 of 5)
	//   typo-accepted                    warning  20.0% (1 of 5)
	// AI crawlers: named by 33.3% of usable robots.txt, fully disallowed by name by 33.3%
	//   GPTBot                   named 33.3%  fully disallowed 33.3%
	// hosts with the most errors:
	//   busy.example                     1 error: http-5xx
}

// Formats by name, as robocensus report --format takes them.
func ExampleParseFormat() {
	for _, name := range []string{"html", "md", "json", "pdf"} {
		f, err := analyze.ParseFormat(name)
		fmt.Printf("%q %v\n", f, strings.TrimPrefix(fmt.Sprint(err), "analyze: "))
	}
	// Output:
	// "html" <nil>
	// "md" <nil>
	// "json" <nil>
	// "" unknown format "pdf" (want html, md or json)
}

// The crawl report as Markdown; HTML and JSON carry the same figures.
func ExampleReport_Write() {
	dir, cleanup := exampleDir()
	defer cleanup()
	d, err := analyze.Open(os.DirFS(dir))
	if err != nil {
		log.Fatal(err)
	}
	r, err := d.Report(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	var b strings.Builder
	if err := r.Write(&b, analyze.Markdown, "example"); err != nil {
		log.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	fmt.Println(strings.Join(lines[:15], "\n"))
	// Output:
	// # robots.txt census: `example`
	//
	// ## Crawl CC-MAIN-2025-08
	//
	// 5 captures of 5 hosts; 3 captures read by crawlers (2xx or no status); 3 hosts with a usable robots.txt; captures with an error: 20.0% (1 of 5).
	//
	// ### Outcomes
	//
	// | outcome | meaning | captures | share | HTTP status × captures |
	// |---|---|---:|---:|---|
	// | rules | 2xx with rules to obey | 3 | 60.0% | 200 × 3 |
	// | no-rules | 2xx, nothing to obey: everything allowed | 0 | 0% |  |
	// | not-robots | 2xx or no status, but HTML or other content: no rules | 0 | 0% |  |
	// | redirect | 3xx: the target decides | 0 | 0% |  |
	// | allow-all | 4xx (not 429): everything allowed | 1 | 20.0% | 404 × 1 |
}
