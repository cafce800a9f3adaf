package analyze_test

import (
	"bytes"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robocensus/robocensus/analyze"
	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// partition is the rows of one crawl partition, written with the schema
// package's writers as ingest writes them, for fixtures counted by hand;
// the cross-checks (crosscheck_*_test.go) build datasets with ingest.
type partition struct {
	captures    []schema.Capture
	diagnostics []schema.Diagnostic
	rules       []schema.Rule
	sitemaps    []schema.Sitemap
	agents      []schema.Agent
	bodies      []schema.Body
	inputs      []schema.Input
	directives  []schema.Directive
	preferences []schema.Preference
	hosts       []schema.Host          // written by hand: ingest computes it at publication
	readings    []schema.Reading       // written by hand: none, as in a crawl published before schema 2.2
	templates   []schema.TemplateBlock // written by hand: none, as in a crawl published before schema 2.3
}

// write writes the partition's tables under dir, with the writer options
// given.
func (p *partition) write(dir, crawl string, opts ...schema.WriterOption) error {
	steps := []func() error{
		func() error { return writeTable(dir, crawl, p.captures, opts) },
		func() error { return writeTable(dir, crawl, p.diagnostics, opts) },
		func() error { return writeTable(dir, crawl, p.rules, opts) },
		func() error { return writeTable(dir, crawl, p.sitemaps, opts) },
		func() error { return writeTable(dir, crawl, p.agents, opts) },
		func() error { return writeTable(dir, crawl, p.bodies, opts) },
		func() error { return writeTable(dir, crawl, p.inputs, opts) },
		func() error { return writeTable(dir, crawl, p.directives, opts) },
		func() error { return writeTable(dir, crawl, p.preferences, opts) },
		func() error { return writeTable(dir, crawl, p.hosts, opts) },
		func() error { return writeTable(dir, crawl, p.readings, opts) },
		func() error { return writeTable(dir, crawl, p.templates, opts) },
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return err
		}
	}
	return nil
}

func writeTable[T schema.Row](dir, crawl string, rows []T, opts []schema.WriterOption) error {
	if len(rows) == 0 {
		return nil
	}
	pdir := schema.PartitionDir(dir, schema.TableName[T](), crawl)
	if err := os.MkdirAll(pdir, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(pdir, schema.PartName(0)))
	if err != nil {
		return err
	}
	w := schema.NewWriter[T](f, opts...)
	if _, err := w.Write(rows); err != nil {
		f.Close()
		return err
	}
	if err := w.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// fetched is the fetch time of the fixtures' captures.
var fetched = time.Date(2025, 1, 13, 4, 5, 6, 0, time.UTC)

// site adds one capture of a robots.txt body, parsed by the engine, with
// its rows in every table as ingest makes them (agents for the crawlers
// given).
func (p *partition) site(id, host string, status int, body string, at time.Time, crawlers ...string) *robots.File {
	url := "https://" + host + "/robots.txt"
	f := robots.ParseResponseString(robots.Response{Status: status, ContentType: "text/plain", URL: url}, body)
	digest := "sha1:" + id
	p.captures = append(p.captures, schema.Capture{
		CaptureID: id, URL: url, URLHostName: host, FetchTime: at, FetchStatus: int32(status),
		ContentMimeType: "text/plain", PayloadLength: int64(len(body)), ContentDigest: digest,
		Oversize: f.Stats.Oversize, WARCFilename: "fixture.warc.gz", Outcome: f.Outcome().String(),
		LineCount: int32(f.Stats.Lines), GroupCount: int32(f.Stats.Groups), RuleCount: int32(f.Stats.Rules),
		AllowCount: int32(f.Stats.Allows), DisallowCount: int32(f.Stats.Disallows), SitemapCount: int32(f.Stats.Sitemaps),
		WildcardRuleCount: int32(f.Stats.WildcardRules), ErrorCount: int32(f.Stats.Errors), WarningCount: int32(f.Stats.Warnings),
		InfoCount: int32(f.Stats.Infos), UserAgents: append([]string{}, f.UserAgents()...), StarDisallowsAll: f.Stats.StarDisallowsAll,
		Input: "fixture.warc.gz",
	})
	for _, d := range f.Diagnostics {
		p.diagnostics = append(p.diagnostics, schema.Diagnostic{CaptureID: id, URLHostName: host, Line: int32(d.Line),
			Code: d.Code.String(), Severity: d.Severity().String(), Text: schema.ClipText(d.Text(f)), Message: d.Message(f)})
	}
	for gi, g := range f.Groups {
		var agents []string
		for _, a := range g.Agents(f) {
			agents = append(agents, a.Value(f))
		}
		for _, r := range g.Rules(f) {
			p.rules = append(p.rules, schema.Rule{CaptureID: id, URLHostName: host, GroupIndex: int32(gi), UserAgents: agents,
				Directive: r.Directive.String(), Pattern: r.Value(f), Line: int32(r.Line), HasWildcard: r.HasWildcard(), HasEndAnchor: r.HasEndAnchor()})
		}
	}
	for _, s := range f.Sitemaps {
		p.sitemaps = append(p.sitemaps, schema.Sitemap{CaptureID: id, URLHostName: host, URL: s.URL(f), Line: int32(s.Line), Valid: s.Valid})
	}
	p.addExtensions(id, host, f)
	for _, c := range crawlers {
		p.agents = append(p.agents, schema.Agent{CaptureID: id, URLHostName: host, Agent: c, Named: f.Names(c), Verdict: f.Access(c).String()})
	}
	if status == 0 || status >= 200 && status < 300 {
		p.bodies = append(p.bodies, schema.Body{ContentDigest: digest, Body: f.Text()})
	}
	return f
}

// addExtensions adds the directives and preferences rows of a file.
func (p *partition) addExtensions(id, host string, f *robots.File) {
	values := func(agents []robots.Agent) []string {
		var out []string
		for _, a := range agents {
			out = append(out, a.Value(f))
		}
		return out
	}
	for _, e := range f.Extensions {
		d := schema.Directive{CaptureID: id, URLHostName: host, Line: int32(e.Line), UserAgents: values(e.Agents(f)), Key: e.Key(f), Value: e.Value(f), Valid: e.Valid}
		if e.Group >= 0 {
			g := int32(e.Group)
			d.GroupIndex = &g
		}
		p.directives = append(p.directives, d)
	}
	for _, pr := range f.Preferences {
		row := schema.Preference{CaptureID: id, URLHostName: host, Line: int32(pr.Line), Source: pr.Source.String(),
			UserAgents: values(pr.Agents(f)), Path: pr.Path(f), Category: pr.Category(f), Value: pr.Value(f)}
		if allowed, known := pr.Allowed.Bool(); known {
			row.Allowed = &allowed
		}
		p.preferences = append(p.preferences, row)
	}
}

// shopBody is a robots.txt with a typo, an AI block and a sitemap.
const shopBody = `User-agent: *
Disallow: /cart/
Disalow: /tmp/

User-agent: GPTBot
Disallow: /

Sitemap: https://shop.example/sitemap.xml
`

// exampleDataset writes a small dataset of two crawls: shop.example
// (which starts blocking GPTBot in the second), a host answering 503, a
// 404, and two hosts serving the same file.
func exampleDataset(dir string) error {
	agents := []string{"Googlebot", "GPTBot", "CCBot"}
	var jan, feb partition
	jan.site("a1", "shop.example", 200, "User-agent: *\nDisallow: /cart/\n", fetched, agents...)
	jan.site("a2", "busy.example", 503, "", fetched, agents...)
	feb.site("b1", "shop.example", 200, shopBody, fetched.AddDate(0, 1, 0), agents...)
	feb.site("b2", "busy.example", 503, "", fetched.AddDate(0, 1, 0), agents...)
	feb.site("b3", "gone.example", 404, "", fetched.AddDate(0, 1, 0), agents...)
	feb.site("b4", "farm-1.example", 200, "User-agent: *\nDisallow: /private/\n", fetched.AddDate(0, 1, 0), agents...)
	feb.site("b5", "farm-2.example", 200, "User-agent: *\nDisallow: /private/\n", fetched.AddDate(0, 1, 0), agents...)
	feb.captures[3].ContentDigest, feb.captures[4].ContentDigest = "sha1:FARM", "sha1:FARM"
	feb.bodies[1].ContentDigest, feb.bodies[2].ContentDigest = "sha1:FARM", "sha1:FARM"
	if err := jan.write(dir, "CC-MAIN-2025-05"); err != nil {
		return err
	}
	return feb.write(dir, "CC-MAIN-2025-08")
}

// exampleDir writes the example dataset to a new temporary folder and
// returns it, with the function that removes it.
func exampleDir() (dir string, cleanup func()) {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	if err := exampleDataset(dir); err != nil {
		os.RemoveAll(dir)
		log.Fatal(err)
	}
	return dir, func() { os.RemoveAll(dir) }
}

// reportsSay fails t unless both the Markdown and the HTML report of
// crawl c contain sentence.
func reportsSay(t *testing.T, c *analyze.Crawl, sentence string) {
	t.Helper()
	r := &analyze.Report{Crawls: []*analyze.Crawl{c}}
	for _, f := range []analyze.Format{analyze.Markdown, analyze.HTML} {
		var b bytes.Buffer
		if err := r.Write(&b, f, "t"); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), sentence) {
			t.Errorf("%s report: no %q", f, sentence)
		}
	}
}
