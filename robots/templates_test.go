package robots

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
)

// The template fixtures are testdata/diag/template-*.txt: besides their
// findings ("want"), a "templates" section lists the blocks recognised,
// one "START-END name@version state" a line. Each body is a template's
// public text (sources in testdata/diag/TEMPLATES.md), or an edited or
// extended variant, or a near miss that must not be claimed.
func TestTemplateFixtures(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "diag", "template-*.txt"))
	if len(paths) < 20 {
		t.Fatalf("%d template fixtures, want at least 20", len(paths))
	}
	names := map[string]bool{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		a := testutil.ParseArchive(string(data))
		want, ok := a.Files["templates"]
		if !ok {
			t.Errorf("%s: no templates section", p)
			continue
		}
		var got strings.Builder
		for _, b := range ParseString(a.Files["robots.txt"]).Templates() {
			fmt.Fprintf(&got, "%d-%d %s %s\n", b.Start, b.End, b.Key(), b.State)
			names[b.Name] = true
		}
		if got.String() != want {
			t.Errorf("%s: templates\n%s\nwant\n%s", filepath.Base(p), got.String(), want)
		}
	}
	for _, tpl := range Templates() {
		if !names[tpl.Name] {
			t.Errorf("template %s has no fixture", tpl.Name)
		}
	}
}

// Every catalogue entry says where its facts come from and what
// identifies it; keys are unique.
func TestTemplateCatalogue(t *testing.T) {
	seen := map[string]bool{}
	for _, tpl := range Templates() {
		k := tpl.Key()
		if seen[k] {
			t.Errorf("%s: twice in the catalogue", k)
		}
		seen[k] = true
		if tpl.Name == "" || tpl.Version == "" || tpl.Title == "" || tpl.Source == "" {
			t.Errorf("%s: incomplete entry %+v", k, tpl)
		}
		if len(tpl.Markers) == 0 && tpl.Name != TemplateAIRobots {
			t.Errorf("%s: no markers", k)
		}
		if got, ok := LookupTemplate(k); !ok || got.Key() != k {
			t.Errorf("LookupTemplate(%q) = %v, %v", k, got.Key(), ok)
		}
	}
}

// Each release of the ai.robots.txt list, pasted as the project writes it,
// is recognised intact as the first release with its agents, and is
// outdated exactly when it lacks agents of the newest.
func TestAIRobotsReleases(t *testing.T) {
	rs := AIRobotsReleases()
	if len(rs) != 51 || rs[0].Tag != "v1" || rs[len(rs)-1].Tag != "v1.50" {
		t.Fatalf("%d releases, %s to %s; want 51, v1 to v1.50", len(rs), rs[0].Tag, rs[len(rs)-1].Tag)
	}
	if n := len(rs[0].Agents); n != 33 {
		t.Errorf("v1 has %d agents, want 33", n)
	}
	if n := len(rs[len(rs)-1].Agents); n != 164 {
		t.Errorf("v1.50 has %d agents, want 164", n)
	}
	for i, r := range rs {
		if i > 0 && r.Date < rs[i-1].Date {
			t.Errorf("%s (%s) is dated before %s (%s)", r.Tag, r.Date, rs[i-1].Tag, rs[i-1].Date)
		}
		first := i
		for first > 0 && slices.Equal(rs[first-1].Agents, r.Agents) {
			first--
		}
		var body strings.Builder
		for _, a := range r.Agents {
			body.WriteString("User-agent: " + a + "\n")
		}
		body.WriteString("Disallow: /\n")
		f := ParseString(body.String())
		bs := f.Templates()
		if len(bs) != 1 || bs[0].Version != rs[first].Tag || bs[0].State != TemplateIntact || bs[0].Similarity != 1 {
			t.Errorf("%s pasted: blocks %+v, want %s intact", r.Tag, bs, rs[first].Tag)
			continue
		}
		outdated := slices.ContainsFunc(f.Diagnostics, func(d Diagnostic) bool { return d.Code == TemplateListOutdated })
		if lacks := len(bs[0].Missing) > 0; outdated != lacks || lacks && i == len(rs)-1 {
			t.Errorf("%s: outdated %v with %d agents missing", r.Tag, outdated, len(bs[0].Missing))
		}
	}
}

// A block list near a release is dated by the nearest, with the Jaccard
// index of the agent sets; a short list of well-known AI crawlers is no
// release.
func TestAIRobotsNearest(t *testing.T) {
	v129 := AIRobotsReleases()[29]
	if v129.Tag != "v1.29" {
		t.Fatalf("release 29 is %s", v129.Tag)
	}
	agents := slices.Clone(v129.Agents)
	agents = append(agents[:10], agents[15:]...) // five removed
	var body strings.Builder
	for _, a := range agents {
		body.WriteString("User-agent: " + a + "\n")
	}
	body.WriteString("Disallow: /\n")
	bs := ParseString(body.String()).Templates()
	if len(bs) != 1 {
		t.Fatalf("blocks %+v", bs)
	}
	b := bs[0]
	// 50 of v1.29's 55 agents: J = 50/55.
	if want := 50.0 / 55; b.State != TemplateEdited || b.Similarity != want || b.Version != "v1.29" {
		t.Errorf("got %s %s J=%v, want v1.29 edited J=%v", b.Version, b.State, b.Similarity, want)
	}
	short := "User-agent: GPTBot\nUser-agent: ChatGPT-User\nUser-agent: CCBot\nUser-agent: anthropic-ai\n" +
		"User-agent: Google-Extended\nUser-agent: ClaudeBot\nUser-agent: PerplexityBot\nUser-agent: Bytespider\n" +
		"User-agent: Amazonbot\nUser-agent: Applebot-Extended\nUser-agent: MyOwnBot\nDisallow: /\n"
	if bs := ParseString(short).Templates(); len(bs) != 0 {
		t.Errorf("a site's own list of 11 AI crawlers was claimed: %+v", bs)
	}
}

// Attribution: the template alone, the site alone, both, or a template's
// block that the site's lines cancel.
func TestAttribute(t *testing.T) {
	cf := "# BEGIN Cloudflare Managed content\nUser-agent: *\nContent-signal: search=yes, ai-train=no\nAllow: /\n\n" +
		"User-agent: GPTBot\nDisallow: /\n\nUser-agent: CCBot\nDisallow: /\n# END Cloudflare Managed Content\n"
	site := "User-agent: Bytespider\nDisallow: /\n\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: GPTBot\nAllow: /\n"
	f := ParseString(cf + site)
	crawlers := []Crawler{{Token: "GPTBot"}, {Token: "CCBot"}, {Token: "Bytespider"}, {Token: "Googlebot"}}
	got := f.Attribute(crawlers)
	want := []struct {
		access    Access
		source    VerdictSource
		cancelled bool
	}{
		{AccessAllowed, SourceNone, true},
		{AccessDisallowed, SourceBoth, false},
		{AccessDisallowed, SourceSite, false},
		{AccessAllowed, SourceNone, false},
	}
	for i, w := range want {
		g := got[i]
		if g.Access != w.access || g.Source != w.source || g.Cancelled != w.cancelled {
			t.Errorf("%s: %+v, want access %s source %s cancelled %v", g.Crawler, g, w.access, w.source, w.cancelled)
		}
	}
	if s := FileSource(got); s != SourceBoth {
		t.Errorf("FileSource = %s, want both (CCBot both, Bytespider the site's)", s)
	}
	if s := FileSource(got[2:]); s != SourceSite {
		t.Errorf("FileSource of Bytespider and Googlebot = %s, want site", s)
	}
	if s := FileSource(got[3:]); s != SourceNone {
		t.Errorf("FileSource of Googlebot = %s, want none", s)
	}
	// Without the site's CCBot group, CCBot's block is the template's.
	f = ParseString(cf + "User-agent: *\nDisallow: /private/\n")
	if a := f.Attribute([]Crawler{{Token: "CCBot"}})[0]; a.Source != SourceTemplate {
		t.Errorf("CCBot: %+v, want source template", a)
	}
	// A file without templates: every verdict is the site's.
	f = ParseString("User-agent: GPTBot\nDisallow: /\n")
	if a := f.Attribute([]Crawler{{Token: "GPTBot"}})[0]; a.Source != SourceSite {
		t.Errorf("no template: %+v, want source site", a)
	}
}

// FuzzTemplates: on any input, the blocks lie inside the file, in line
// order, with a known state and a catalogue entry; attribution never
// panics and agrees with CrawlerAccess.
func FuzzTemplates(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "diag", "template-*.txt"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(testutil.ParseArchive(string(data)).Files["robots.txt"])
	}
	crawlers := []Crawler{{Token: "GPTBot"}, {Token: "CCBot"}, {Token: "Googlebot"}}
	f.Fuzz(func(t *testing.T, body string) {
		file := ParseString(body)
		prev := 0
		for _, b := range file.Templates() {
			if b.Start < 1 || b.End < b.Start || b.End > max(file.Stats.Lines, 1) || b.Start < prev {
				t.Fatalf("block %s lines %d-%d in a file of %d lines (previous start %d)", b.Key(), b.Start, b.End, file.Stats.Lines, prev)
			}
			prev = b.Start
			if b.State < TemplateIntact || b.State > TemplateMarked {
				t.Fatalf("block %s: state %d", b.Key(), b.State)
			}
			if _, ok := LookupTemplate(b.Key()); !ok {
				t.Fatalf("block %s: no catalogue entry", b.Key())
			}
		}
		for i, a := range file.Attribute(crawlers) {
			want, _ := file.CrawlerAccess(crawlers[i])
			if a.Access != want || (a.Source != SourceNone) != (want == AccessDisallowed) {
				t.Fatalf("%s: %+v, CrawlerAccess %s", crawlers[i].Token, a, want)
			}
		}
	})
}

// The site's own rules inside a template's group are the site's, read
// with the group's user-agent lines: the Disallow: / a site wrote into
// WordPress's group shuts everyone out by itself, and WordPress's longer
// Allow makes the whole file partial.
func TestAttributeSiteLinesInTemplateGroup(t *testing.T) {
	f := ParseString("User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\nDisallow: /\n")
	bs := f.Templates()
	if len(bs) != 1 || bs[0].State != TemplateExtended || !slices.Equal(bs[0].SiteLines, []int{4}) {
		t.Fatalf("blocks %+v, want wordpress-core extended with site line 4", bs)
	}
	if a := f.Attribute([]Crawler{{Token: "GPTBot"}})[0]; a.Site != AccessDisallowed || a.Template != AccessPartial || a.Access != AccessPartial {
		t.Errorf("GPTBot: %+v, want site disallowed, template and file partial", a)
	}
	// Agents a site adds to a pasted list are its own.
	var body strings.Builder
	body.WriteString("User-agent: MyOwnBot\n")
	for _, a := range AIRobotsReleases()[10].Agents {
		body.WriteString("User-agent: " + a + "\n")
	}
	body.WriteString("Disallow: /\n")
	f = ParseString(body.String())
	if bs := f.Templates(); len(bs) != 1 || !slices.Equal(bs[0].SiteLines, []int{1}) {
		t.Fatalf("blocks %+v, want one with site line 1", bs)
	}
	// MyOwnBot is shut out by the site's name on the template's rule:
	// both; GPTBot by the template alone.
	as := f.Attribute([]Crawler{{Token: "MyOwnBot"}, {Token: "GPTBot"}})
	if as[0].Source != SourceBoth || as[1].Source != SourceTemplate {
		t.Errorf("MyOwnBot %s, GPTBot %s; want both, template", as[0].Source, as[1].Source)
	}
}
