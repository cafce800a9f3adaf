package analyze_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/robocensus/robocensus/analyze"
	"github.com/robocensus/robocensus/robots"
)

func openReport(t *testing.T, dir string, opts ...analyze.Option) (*analyze.Dataset, *analyze.Report) {
	t.Helper()
	d, err := analyze.Open(os.DirFS(dir), opts...)
	if err != nil {
		t.Fatal(err)
	}
	r, err := d.Report(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return d, r
}

func TestErrors(t *testing.T) {
	if _, err := analyze.Open(os.DirFS(t.TempDir())); !errors.Is(err, analyze.ErrNoDataset) {
		t.Errorf("empty folder: %v", err)
	}
	for _, opt := range []analyze.Option{analyze.WithWorkers(0), analyze.WithTop(0), analyze.WithAllocator(nil), analyze.WithChecks(), analyze.WithChecks(&analyze.Check{Name: "x"})} {
		if _, err := analyze.Open(os.DirFS(t.TempDir()), opt); !errors.Is(err, analyze.ErrBadOption) {
			t.Errorf("bad option: %v", err)
		}
	}
	if _, err := analyze.ParseFormat("pdf"); !errors.Is(err, analyze.ErrBadFormat) {
		t.Errorf("format: %v", err)
	}
	dir := t.TempDir()
	if err := exampleDataset(dir); err != nil {
		t.Fatal(err)
	}
	d, _ := openReport(t, dir)
	if _, err := d.Site(context.Background(), "nowhere.example"); !errors.Is(err, analyze.ErrNoSite) {
		t.Errorf("unknown host: %v", err)
	}
	if got := d.Crawls(); len(got) != 2 || got[0] != "CC-MAIN-2025-05" {
		t.Errorf("crawls %v", got)
	}
}

// TestDecidingCapture checks which capture stands for a host: not a
// redirect, then the latest, then the smallest capture_id; NULL times last.
func TestDecidingCapture(t *testing.T) {
	dir := t.TempDir()
	var p partition
	p.site("r1", "a.example", 301, "", fetched.Add(time.Hour)) // a later redirect loses
	p.site("r2", "a.example", 200, "User-agent: *\nDisallow: /a/\n", fetched)
	p.site("t2", "b.example", 200, "User-agent: *\nDisallow: /b2/\n", fetched) // a tie: smallest ID
	p.site("t1", "b.example", 200, "User-agent: *\nDisallow: /b1/\n", fetched)
	p.site("n1", "c.example", 200, "User-agent: *\nDisallow: /c1/\n", time.Time{}) // NULL time loses
	p.site("n2", "c.example", 404, "", fetched)
	if err := p.write(dir, "X"); err != nil {
		t.Fatal(err)
	}
	d, r := openReport(t, dir)
	if c := r.Crawls[0]; c.Hosts != 3 || c.UsableHosts != 2 {
		t.Errorf("hosts %d, usable %d; want 3, 2", c.Hosts, c.UsableHosts)
	}
	for host, want := range map[string]string{"a.example": "r2", "b.example": "t1", "c.example": "n2"} {
		s, err := d.Site(context.Background(), host)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Crawls[0].Capture.CaptureID; got != want {
			t.Errorf("%s: deciding capture %s, want %s", host, got, want)
		}
	}
}

// TestUsable checks the captures without an HTTP status: judged by their
// content as a 2xx body is, in the crawl report and in the site checks.
// An HTML page without rules is not-robots, not usable, with no status as
// with 200; a rule or plain text makes a usable robots.txt. A crawl
// published before keeps outcome unknown for the page: usable.
func TestUsable(t *testing.T) {
	dir := t.TempDir()
	var p partition
	const page = "<html><body>Not found</body></html>\n"
	p.site("u1", "page.example", 0, page, fetched, "GPTBot")
	p.site("u2", "rules.example", 0, "User-agent: GPTBot\nDisallow: /\n", fetched, "GPTBot")
	p.site("u3", "empty.example", 0, "", fetched, "GPTBot")
	p.site("u4", "soft404.example", 200, page, fetched, "GPTBot")
	p.site("u5", "old.example", 0, page, fetched, "GPTBot")
	p.captures[len(p.captures)-1].Outcome = robots.OutcomeUnknown.String() // as older versions wrote it
	if err := p.write(dir, "X"); err != nil {
		t.Fatal(err)
	}
	d, r := openReport(t, dir)
	c := r.Crawls[0]
	if c.UsableHosts != 3 || c.Crawlers.AnyAINamed != (analyze.Ratio{N: 1, Of: 3}) {
		t.Errorf("usable %d, AI named %+v; want 3, 1 of 3", c.UsableHosts, c.Crawlers.AnyAINamed)
	}
	// The sitemaps check looks only at a usable robots.txt.
	for host, usable := range map[string]bool{"page.example": false, "soft404.example": false, "old.example": true, "empty.example": true} {
		s, err := d.Site(context.Background(), host)
		if err != nil {
			t.Fatal(err)
		}
		noSitemap := slices.ContainsFunc(s.Findings, func(f analyze.Finding) bool { return f.Check == "sitemaps" })
		if noSitemap != usable {
			t.Errorf("%s: the sitemaps check ran %v, want %v", host, noSitemap, usable)
		}
	}
}

// TestIssue27NotRobotsContent pins each code of the "not a robots.txt"
// rule one by one (issue 27 item 16): a capture without an HTTP status and
// without rules is not usable when its body is HTML, binary or starts with
// a UTF-16 byte order mark, and is usable when it is plain text. Each case
// is a crawl of one such host besides a usable one, so that a code dropped
// from the rule makes its host usable here.
func TestIssue27NotRobotsContent(t *testing.T) {
	f := func(name, body string, usable int64) {
		t.Helper()
		dir := t.TempDir()
		var p partition
		p.site("ok", "rules.example", 0, "User-agent: *\nDisallow: /private/\n", fetched)
		file := p.site("x", "x.example", 0, body, fetched)
		if file.Stats.Rules != 0 {
			t.Fatalf("%s: the body has %d rules; the case needs none", name, file.Stats.Rules)
		}
		if err := p.write(dir, "X"); err != nil {
			t.Fatal(err)
		}
		_, r := openReport(t, dir)
		if got := r.Crawls[0].UsableHosts; got != usable {
			t.Errorf("%s: %d usable hosts, want %d", name, got, usable)
		}
	}
	f("html-content", "<!DOCTYPE html><html><body>Not found</body></html>\n", 1)
	f("binary-content", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01", 1)
	f("bom-utf16", "\xff\xfeU\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00n\x00t\x00:\x00 \x00*\x00\n\x00", 1)
	f("plain text without rules", "# nothing to say\n", 2)
}

// TestArrowMemoryReleased checks that every Arrow buffer a report takes
// from its allocator is given back.
func TestArrowMemoryReleased(t *testing.T) {
	dir := t.TempDir()
	if err := exampleDataset(dir); err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	d, _ := openReport(t, dir, analyze.WithAllocator(mem))
	if _, err := d.Site(context.Background(), "shop.example"); err != nil {
		t.Fatal(err)
	}
	mem.AssertSize(t, 0)
}

// hostileDataset has a robots.txt made to break out of HTML and Markdown.
func hostileDataset(t *testing.T) string {
	dir := t.TempDir()
	var p partition
	p.site("h1", "evil.example", 200, "User-agent: <script>alert(1)</script>\nDisallow: /|x|`y`\n# </pre><img src=x onerror=alert(1)>\nSitemap: javascript:alert(1)\n", fetched, "GPTBot")
	if err := p.write(dir, "X"); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestHTMLEscapes(t *testing.T) {
	d, r := openReport(t, hostileDataset(t))
	s, err := d.Site(context.Background(), "evil.example")
	if err != nil {
		t.Fatal(err)
	}
	for name, write := range map[string]func(*bytes.Buffer) error{
		"report": func(b *bytes.Buffer) error { return r.Write(b, analyze.HTML, "<script>x</script>") },
		"site":   func(b *bytes.Buffer) error { return s.Write(b, analyze.HTML, "dataset") },
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"<script", "<img", "href=\"javascript"} {
			if strings.Contains(b.String(), bad) {
				t.Errorf("%s: HTML holds %q", name, bad)
			}
		}
		if name == "site" && !strings.Contains(b.String(), "&lt;script&gt;alert(1)&lt;/script&gt;") {
			t.Errorf("site: the user-agent line is not shown escaped")
		}
	}
}

// codeSpan matches a one-backtick code span of a Markdown line, and the
// character before it, which is not a backslash (an escaped backtick
// opens no span).
var codeSpan = regexp.MustCompile("(^|[^\\\\])`[^`]*`")

func TestMarkdownEscapes(t *testing.T) {
	d, r := openReport(t, hostileDataset(t))
	s, err := d.Site(context.Background(), "evil.example")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.Write(&b, analyze.Markdown, "x"); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(&b, analyze.Markdown, "x"); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(line, "|") && strings.Contains(codeSpan.ReplaceAllString(line, "$1"), "<script") {
			t.Errorf("raw HTML outside a code span: %s", line)
		}
		if strings.HasPrefix(line, "|") && strings.Contains(line, "/|x|") {
			t.Errorf("unescaped | breaks the table: %s", line)
		}
	}
	if !strings.Contains(b.String(), "    1  User-agent: <script>alert(1)</script>\n") {
		t.Errorf("the listing does not show the line as written:\n%s", b.String())
	}
}

func TestJSONCarriesTheFigures(t *testing.T) {
	dir := t.TempDir()
	if err := exampleDataset(dir); err != nil {
		t.Fatal(err)
	}
	_, r := openReport(t, dir)
	var b bytes.Buffer
	if err := r.Write(&b, analyze.JSON, "x"); err != nil {
		t.Fatal(err)
	}
	var back analyze.Report
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Crawls) != 2 || back.Crawls[1].Captures != r.Crawls[1].Captures ||
		back.Crawls[1].Crawlers.AnyAINamed != r.Crawls[1].Crawlers.AnyAINamed || len(back.Trends.Series) != len(r.Trends.Series) {
		t.Errorf("JSON round trip lost figures")
	}
	if !strings.Contains(b.String(), `"share": 0.6`) {
		t.Errorf("shares missing from JSON")
	}
}

// cityBody has three errors (a URL as a path, two paths, a path without
// '/') and one warning (a second '*' group).
const cityBody = "User-agent: *\nDisallow: http://city.example/a\nDisallow: /b /c\nDisallow: d\nUser-agent: *\nDisallow: /e\n"

// TestSitePageFigures checks the site page's header and cards: the counts
// are the engine's errors and warnings in the file, not the number of
// findings the checks made of them, with singular and plural right; the
// header names the deciding capture as such, not as the latest, when a
// redirect of the host was fetched after it.
func TestSitePageFigures(t *testing.T) {
	dir := t.TempDir()
	var p partition
	f := p.site("c1", "city.example", 200, cityBody, fetched, "GPTBot")
	p.site("c2", "city.example", 301, "", fetched.Add(time.Hour), "GPTBot")
	if f.Stats.Errors != 3 || f.Stats.Warnings != 1 {
		t.Fatalf("the fixture has %d errors and %d warnings, want 3 and 1", f.Stats.Errors, f.Stats.Warnings)
	}
	if err := p.write(dir, "CC-MAIN-2025-05"); err != nil {
		t.Fatal(err)
	}
	d, err := analyze.Open(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	s, err := d.Site(context.Background(), "city.example")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := s.Write(&b, analyze.HTML, "fixture"); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	var cards []string
	for _, m := range regexp.MustCompile(`<div class="v">([^<]*)</div><div class="k">([^<]*)</div>`).FindAllStringSubmatch(page, -1) {
		cards = append(cards, m[1]+" "+m[2])
	}
	want := []string{"200 answer in CC-MAIN-2025-05: rules", "3 errors: what Google ignores or misreads",
		"1 warning: probably not what was meant", "0 / 1 AI crawlers fully disallowed", "0 sitemaps declared"}
	if !slices.Equal(cards, want) {
		t.Errorf("cards %q, want %q", cards, want)
	}
	header := regexp.MustCompile(`(?s)<header.*?<p>(.*?)</p>`).FindStringSubmatch(page)
	if header == nil {
		t.Fatal("no header")
	}
	if got, w := regexp.MustCompile(`<[^>]+>`).ReplaceAllString(header[1], ""), "fixture · 2 captures in 1 crawl · latest crawl CC-MAIN-2025-05, deciding capture: 200, rules"; got != w {
		t.Errorf("header %q, want %q", got, w)
	}
}
