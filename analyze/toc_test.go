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
// the order of the page. With ranks and two crawls, every section draws
// something: the strata and the changes are linked too.
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
		latest, _, _ := strings.Cut(page, `<details class="earlier">`)
		want := []string{"trends"}
		for _, m := range regexp.MustCompile(`<section id="([^"]+)">`).FindAllStringSubmatch(latest, -1) {
			if m[1] != "trends" {
				want = append(want, m[1])
			}
		}
		want = append(want, "definitions")
		if !slices.Equal(links, want) {
			t.Errorf("ranks %v: links %q, want the page's sections %q", opts != nil, links, want)
		}
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
