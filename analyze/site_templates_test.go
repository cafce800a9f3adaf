package analyze_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/analyze"
)

// The site report names the template blocks of the site's file, from its
// deciding capture's body: lines, template and version, state, a block
// list's release, similarity and missing agents, and the site's groups
// that cancel a block; in Markdown, HTML and JSON ("templates").
func TestSiteTemplates(t *testing.T) {
	d, err := analyze.Open(os.DirFS(templatesDataset(t)))
	if err != nil {
		t.Fatal(err)
	}
	for host, want := range map[string]string{
		"cf.example": "1-32 cloudflare-managed@2025-09 intact 2025-09-24 site lines [] list <nil>; cancelled at line 40: this group re-allows GPTBot, which the template block on line 1 shuts out",
		// An exact copy of release v1.2; how many agents of the newest
		// release it misses grows with the catalogue.
		"www.list.example": "1-24 ai-robots-txt@v1.2 intact 2024-06-20 site lines [] list similarity 1.00, missing ",
		"sq.example":       "1-21 squarespace@ai-group intact  site lines [] list <nil>",
		"sqa.example":      "1-21 squarespace@ai-agents intact  site lines [] list <nil>",
		"wp.example":       "1-3 wordpress-core@5.5 intact 2020-08-11 site lines [] list <nil>",
		"own.example":      "",
		"list.example":     "none: no body", // its deciding capture is the redirect
	} {
		s, err := d.Site(context.Background(), host)
		if err != nil {
			t.Fatal(err)
		}
		sc := s.Crawls[0]
		var got []string
		for _, b := range sc.Templates {
			line := fmt.Sprintf("%d-%d %s@%s %s %s site lines %v list ", b.Start, b.End, b.Template, b.Version, b.State, b.Released, b.SiteLines)
			if b.List == nil {
				line += "<nil>"
			} else {
				line += fmt.Sprintf("similarity %.2f, missing %d", b.List.Similarity, len(b.List.Missing))
			}
			for _, c := range b.Cancelled {
				line += fmt.Sprintf("; cancelled at line %d: %s", c.Line, c.Message)
			}
			got = append(got, line)
		}
		if sc.Templates == nil {
			got = []string{"none: no body"}
		}
		if g := strings.Join(got, "\n"); !strings.HasPrefix(g, want) || want == "" && g != "" {
			t.Errorf("%s: templates\n%s\nwant\n%s", host, g, want)
		}
	}
	s, err := d.Site(context.Background(), "cf.example")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []analyze.Format{analyze.Markdown, analyze.HTML} {
		var b bytes.Buffer
		if err := s.Write(&b, f, "t"); err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{"Who wrote this file", "cloudflare-managed@2025-09", "managed robots.txt", "line 40 cancels it", "re-allows GPTBot"} {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s site report: no %q", f, w)
			}
		}
	}
	var b bytes.Buffer
	if err := s.Write(&b, analyze.JSON, "t"); err != nil {
		t.Fatal(err)
	}
	var j struct {
		Crawls []struct {
			Templates []struct {
				Template  string `json:"template"`
				LineStart int    `json:"line_start"`
				Cancelled []struct {
					Line int `json:"line"`
				} `json:"cancelled"`
			} `json:"templates"`
		} `json:"crawls"`
	}
	if err := json.Unmarshal(b.Bytes(), &j); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(j.Crawls); got != "[{[{cloudflare-managed 1 [{40}]}]}]" {
		t.Errorf("JSON templates: %s", got)
	}
}
