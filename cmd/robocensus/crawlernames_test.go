package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/analyze"
	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/internal/testutil/datasets"
	"github.com/robocensus/robocensus/robots"
)

// cutNameSite is a site of TestCrawlerNamesOneRule: a robots.txt naming
// one tracked crawler by its name as the list spells it.
type cutNameSite struct {
	host, body string
	crawler    robots.Crawler // the crawler it names
	line       int            // the line of its user-agent line
}

// cutNameSites returns two sites per crawler: one whose group for the
// crawler disallows a part of the site while '*' disallows all, and one
// whose group for the crawler disallows all while '*' disallows a part.
func cutNameSites(crawlers []robots.Crawler) []cutNameSite {
	var sites []cutNameSite
	for i, c := range crawlers {
		sites = append(sites,
			cutNameSite{fmt.Sprintf("c%d-partial.example", i), "User-agent: *\nDisallow: /\n\nUser-agent: " + c.Token + "\nDisallow: /private\n", c, 4},
			cutNameSite{fmt.Sprintf("c%d-all.example", i), "User-agent: " + c.Token + "\nDisallow: /\n\nUser-agent: *\nDisallow: /private\n", c, 1})
	}
	return sites
}

// matchVerdict runs match for crawler name on the robots.txt file path and
// turns its answers for "/" and "/private/x" into an agents table verdict:
// the bodies of cutNameSites disallow all, a part (/private) or nothing.
func matchVerdict(t *testing.T, path, name string) string {
	t.Helper()
	code, out, errs := runCmd(t, "", "match", "--agent", name, path, "/", "/private/x")
	switch out {
	case "allowed\t/\nallowed\t/private/x\n":
		return "allowed"
	case "allowed\t/\ndisallowed\t/private/x\n":
		return "partially-disallowed"
	case "disallowed\t/\ndisallowed\t/private/x\n":
		return "disallowed"
	}
	t.Fatalf("match --agent %q %s: exit %d, stdout %q, stderr %q", name, path, code, out, errs)
	return ""
}

// lintFinding is one finding of lint --format json.
type lintFinding struct {
	Line    int    `json:"line"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// lintTruncated returns the message lint gives about the user-agent line
// at line of the file path: its user-agent-truncated finding.
func lintTruncated(t *testing.T, path string, line int) string {
	t.Helper()
	_, out, errs := runCmd(t, "", "lint", "--format", "json", path)
	var findings []lintFinding
	if err := json.Unmarshal([]byte(out), &findings); err != nil {
		t.Fatalf("lint %s: %v\nstdout %q, stderr %q", path, err, out, errs)
	}
	for _, f := range findings {
		if f.Line == line && f.Code == robots.UserAgentTruncated.String() {
			return f.Message
		}
	}
	t.Fatalf("lint %s: no %s finding on line %d: %+v", path, robots.UserAgentTruncated, line, findings)
	return ""
}

// Every tracked crawler whose name is not a product token ("Linguee Bot",
// "MistralAI-User/1.0") gets the same verdicts from match, lint, the
// agents table and the report (issue 27 item 6): one rule for crawler
// names, robots.ExtractAgentToken. Each site names one of them; every
// crawler of the set is asked about every site, so a crawler is named
// exactly where lint says Google reads its product token, as the
// "Ai2Bot-Dolma" crawler ("Ai") is on the site of "AI2Bot-DeepResearchEval"
// ("AI").
func TestCrawlerNamesOneRule(t *testing.T) {
	var crawlers []robots.Crawler
	for _, c := range robots.TrackedCrawlers() {
		if !robots.ValidAgent(c.Token) {
			crawlers = append(crawlers, c)
		}
	}
	if len(crawlers) == 0 {
		t.Skip("every tracked crawler's name is a product token: no name to reduce")
	}
	sites := cutNameSites(crawlers)
	files := t.TempDir()
	var fetches []archive.Fetch
	for _, s := range sites {
		fetches = append(fetches, archive.Fetch{URL: "https://" + s.host + "/robots.txt", Body: []byte(s.body)})
		path := filepath.Join(files, s.host+".txt")
		if err := os.WriteFile(path, []byte(s.body), 0o644); err != nil {
			t.Fatal(err)
		}
		// lint: Google reads the crawler's user-agent line as its product token.
		token := s.crawler.MatchToken()
		if msg := lintTruncated(t, path, s.line); !strings.Contains(msg, strconv.Quote(token)) {
			t.Errorf("%s: lint says %q of \"User-agent: %s\", which does not name its product token %q", s.host, msg, s.crawler.Token, token)
		}
	}
	dir := t.TempDir()
	ingestWith(t, dir, "CC-MAIN-2025-05", datasets.WriteWARC(t, t.TempDir(), "cut-names", fetches), nil)
	db := testutil.DuckDB(t, dir)
	d, err := analyze.Open(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}

	// want counts, per crawler, the sites naming it and its verdicts, as
	// the report's crawlers section counts them.
	want := map[string]*[4]int64{} // named, disallowed, partially, allowed
	for _, s := range sites {
		site, err := d.Site(context.Background(), s.host)
		if err != nil {
			t.Fatal(err)
		}
		reported := map[string]analyze.SiteCrawler{}
		for _, sc := range site.Crawls[0].Crawlers {
			reported[sc.Agent] = sc
		}
		path := filepath.Join(files, s.host+".txt")
		for _, c := range crawlers {
			named := strings.EqualFold(c.MatchToken(), s.crawler.MatchToken())
			verdict := matchVerdict(t, path, c.Token)
			table := testutil.Query(t, db, `SELECT CAST(named AS VARCHAR) || ' ' || verdict FROM agents WHERE url_host_name = ? AND agent = ?`, s.host, c.Token)
			if w := fmt.Sprint(named, " ", verdict); table != w {
				t.Errorf("%s, %q: agents table says %s; match and lint say %s", s.host, c.Token, table, w)
			}
			if r := reported[c.Token]; r.Named != named || r.Verdict != verdict {
				t.Errorf("%s, %q: the site report says named %v, %s; match and lint say %v, %s", s.host, c.Token, r.Named, r.Verdict, named, verdict)
			}
			n := want[c.Token]
			if n == nil {
				n = new([4]int64)
				want[c.Token] = n
			}
			if named {
				n[0]++
			}
			n[map[string]int{"disallowed": 1, "partially-disallowed": 2, "allowed": 3}[verdict]]++
		}
	}

	r := datasets.Report(t, dir)
	seen := 0
	for _, s := range r.Crawls[0].Crawlers.Crawlers {
		w, ok := want[s.Agent]
		if !ok {
			continue
		}
		seen++
		u := s.Usable
		if got := [4]int64{u.Named, u.Disallowed, u.Partial, u.Allowed}; got != *w || u.Hosts != int64(len(sites)) {
			t.Errorf("report, %q: named %d, disallowed %d, partially %d, allowed %d of %d hosts; match and lint say %d, %d, %d, %d of %d",
				s.Agent, got[0], got[1], got[2], got[3], u.Hosts, w[0], w[1], w[2], w[3], len(sites))
		}
	}
	if seen != len(want) {
		t.Errorf("the report's crawlers section has %d of the %d crawlers", seen, len(want))
	}
}
