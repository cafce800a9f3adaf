package analyze_test

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/analyze"
)

// The table of contents of the HTML page comes from the sections
// (Section.Title, Section.Anchors): every link leads to an element of
// the page, and every <section> the latest crawl draws has its link, in
// the order of the page, then each earlier crawl's. With ranks and two
// crawls, every section draws something: the strata and the changes are
// linked too. No id repeats: an earlier crawl's sections have ids of
// their own, which the contents at the top of its part of the page link.
func TestHTMLContents(t *testing.T) {
	dir, cleanup := exampleDir()
	defer cleanup()
	ranks, err := analyze.ReadRanks(strings.NewReader("1,shop.example\n2,busy.example\n3,farm-1.example\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, opts := range [][]analyze.Option{nil, {analyze.WithRanks(ranks)}} {
		_, r := openReport(t, dir, opts...)
		var b bytes.Buffer
		if err := r.Write(&b, analyze.HTML, "example"); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		nav, _, ok := strings.Cut(page[strings.Index(page, `<nav class="toc">`):], "</nav>")
		if !ok {
			t.Fatal("no table of contents")
		}
		var links []string
		for _, m := range regexp.MustCompile(`<a href="#([^"]+)">[^<]+</a>`).FindAllStringSubmatch(nav, -1) {
			links = append(links, m[1])
		}
		// The latest crawl's sections: the page up to the earlier crawls.
		latest, _, _ := strings.Cut(page, `<details class="earlier"`)
		want := []string{"trends"}
		for _, m := range regexp.MustCompile(`<section id="([^"]+)">`).FindAllStringSubmatch(latest, -1) {
			if m[1] != "trends" {
				want = append(want, m[1])
			}
		}
		want = append(want, "crawl-CC-MAIN-2025-05", "definitions")
		if !slices.Equal(links, want) {
			t.Errorf("ranks %v: links %q, want the page's sections %q", opts != nil, links, want)
		}
		checkUniqueIDs(t, page)
		checkEarlierContents(t, page)
		for _, id := range []string{"outcomes", "ai", "search", "changes", "inputs"} {
			if !slices.Contains(links, id) {
				t.Errorf("no link to #%s", id)
			}
		}
		if got := slices.Contains(links, "strata"); got != (opts != nil) {
			t.Errorf("ranks %v: link to #strata %v", opts != nil, got)
		}
		for _, id := range links {
			if !strings.Contains(page, `id="`+id+`"`) {
				t.Errorf("link to #%s: no such element", id)
			}
		}
	}
}

// checkUniqueIDs checks that no HTML id repeats on a page.
func checkUniqueIDs(t *testing.T, page string) {
	t.Helper()
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(` id="([^"]+)"`).FindAllStringSubmatch(page, -1) {
		if seen[m[1]] {
			t.Errorf("id %q repeats", m[1])
		}
		seen[m[1]] = true
	}
}

// checkEarlierContents checks the contents of each earlier crawl: a link
// to each of its sections, in the order of the page, with the crawl's
// label in their ids.
func checkEarlierContents(t *testing.T, page string) {
	t.Helper()
	parts := strings.Split(page, `<details class="earlier"`)[1:]
	if len(parts) == 0 {
		t.Fatal("no earlier crawl")
	}
	for _, part := range parts {
		part, _, _ = strings.Cut(part, `<footer id="definitions">`)
		label := regexp.MustCompile(`^ id="crawl-([^"]+)"`).FindStringSubmatch(part)
		nav, _, ok := strings.Cut(part[strings.Index(part, `<nav class="toc-crawl">`)+1:], "</nav>")
		if label == nil || !ok {
			t.Fatalf("earlier crawl without its id or contents: %.200s", part)
		}
		var links, sections []string
		for _, m := range regexp.MustCompile(`<a href="#([^"]+)">`).FindAllStringSubmatch(nav, -1) {
			links = append(links, m[1])
		}
		for _, m := range regexp.MustCompile(`<section id="([^"]+)">`).FindAllStringSubmatch(part, -1) {
			sections = append(sections, m[1])
			if !strings.HasSuffix(m[1], "-"+label[1]) {
				t.Errorf("crawl %s: section id %q", label[1], m[1])
			}
		}
		if len(sections) == 0 || !slices.Equal(links, sections) {
			t.Errorf("crawl %s: links %q, want its sections %q", label[1], links, sections)
		}
	}
}
