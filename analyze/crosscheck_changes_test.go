package analyze_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/analyze"
	"github.com/robocensus/robocensus/ingest"
	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/internal/testutil/datasets"
	"github.com/robocensus/robocensus/schema"
)

// changesNotebook lists the per-host changes between consecutive crawls
// in SQL; the check runs its statements.
const changesNotebook = "12_changes.sql"

var _ = sectionCheck("changes", checkChanges)

// checkChanges checks the changes section (analyze/section_changes.go)
// with the queries of notebooks/12_changes.sql: per crawl, the hosts
// against the previous crawl's, and per AI crawler the hosts that started
// or stopped disallowing it, counts and examples alike. A crawl without
// changes in the report (the first) has none in the notebook either.
func checkChanges(q *querier, c *analyze.Crawl, top int) {
	const hostsSQL, crawlersSQL = "SELECT o.crawl, o.previous, s.previous_hosts", "SELECT o.crawl, o.previous, g.agent"
	tables := []string{"CREATE OR REPLACE TABLE crawl_order", "CREATE OR REPLACE TABLE host_state",
		"CREATE OR REPLACE TABLE host_changes", "CREATE OR REPLACE TABLE verdict_changes"}
	stmts := notebookQueries(q, changesNotebook, append(tables, hostsSQL, crawlersSQL)...)
	run := append(vocabularyMacros(q.t), fmt.Sprintf("SET VARIABLE top = %d", top))
	for _, s := range tables {
		run = append(run, stmts[s])
	}
	for _, s := range run {
		if _, err := q.db.Exec(s); err != nil {
			q.t.Fatalf("%s: %v", s, err)
		}
	}
	ch := c.Changes
	if ch == nil {
		q.same("changes: none for a crawl without a previous one", `SELECT previous, hosts FROM (`+stmts[hostsSQL]+`) WHERE crawl = ?`, [][]string{row(nil, nil)})
		return
	}
	q.same("changes: hosts against the previous crawl's", `SELECT * EXCLUDE (crawl) FROM (`+stmts[hostsSQL]+`) WHERE crawl = ?`,
		[][]string{row(ch.Previous, ch.PreviousHosts, ch.Hosts, ch.Common, ch.Appeared.Hosts.N, ch.Appeared.Examples,
			ch.Disappeared.Hosts.N, ch.Disappeared.Examples, ch.Body.Hosts.N, ch.Body.Hosts.Of, ch.Body.Examples,
			ch.FetchClass.Hosts.N, ch.FetchClass.Hosts.Of, ch.FetchClass.Examples)})
	var want [][]string
	for _, cc := range ch.Crawlers {
		r := []any{ch.Previous, cc.Agent}
		for _, s := range []analyze.HostChange{cc.StartedDisallowing, cc.StoppedDisallowing, cc.StartedPartially, cc.StoppedPartially} {
			r = append(r, s.Hosts.N, s.Examples)
			if s.Hosts.Of != ch.Common {
				q.t.Errorf("changes: %s: a denominator %d, not the %d hosts of both crawls", cc.Agent, s.Hosts.Of, ch.Common)
			}
		}
		want = append(want, row(r...))
	}
	q.same("changes: hosts that started or stopped disallowing each AI crawler", `SELECT * EXCLUDE (crawl) FROM (`+stmts[crawlersSQL]+`) WHERE crawl = ?`, want)
	if ch.Appeared.Hosts.Of != ch.Hosts || ch.Disappeared.Hosts.Of != ch.PreviousHosts || ch.Hosts-ch.Appeared.Hosts.N != ch.Common {
		q.t.Errorf("changes: denominators %+v", ch)
	}
}

// The bodies of the synthetic crawls.
const (
	allowBody  = "User-agent: *\nAllow: /\n"
	gptBody    = "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n"
	claudeBody = "User-agent: ClaudeBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n"
	claudePart = "User-agent: ClaudeBot\nDisallow: /private\n\nUser-agent: *\nAllow: /\n"
	blockBody  = "User-agent: *\nDisallow: /\n"
)

// changesCrawls are two crawls whose changes are known (see
// TestChangesMatchDuckDB): by crawl, the fetches.
var changesCrawls = map[string][]archive.Fetch{
	"CC-MAIN-2025-05": {
		{URL: "https://same.example/robots.txt", Body: []byte(allowBody)},
		{URL: "https://block.example/robots.txt", Body: []byte(allowBody)},
		{URL: "https://unblock.example/robots.txt", Body: []byte(gptBody)},
		{URL: "https://partial.example/robots.txt", Body: []byte(claudeBody)},
		{URL: "https://class.example/robots.txt", Body: []byte(allowBody)},
		{URL: "https://gone.example/robots.txt", Body: []byte(allowBody)},
		{URL: "https://all.example/robots.txt", Body: []byte(allowBody)},
		{URL: "https://down.example/robots.txt", Body: []byte(allowBody)},
		{URL: "https://redirect.example/robots.txt", Status: 301, Location: "https://www.redirect.example/robots.txt"},
		{URL: "https://www.redirect.example/robots.txt", Body: []byte(allowBody)},
	},
	"CC-MAIN-2025-08": {
		{URL: "https://same.example/robots.txt", Body: []byte(allowBody)},
		{URL: "https://block.example/robots.txt", Body: []byte(gptBody)},
		{URL: "https://unblock.example/robots.txt", Body: []byte(allowBody)},
		{URL: "https://partial.example/robots.txt", Body: []byte(claudePart)},
		{URL: "https://class.example/robots.txt", Status: 404, Body: []byte(allowBody)}, // the same body, another class
		{URL: "https://new.example/robots.txt", Body: []byte(allowBody)},
		{URL: "https://all.example/robots.txt", Body: []byte(blockBody)},
		{URL: "https://down.example/robots.txt", Status: 503, Body: []byte("busy")},
		{URL: "https://redirect.example/robots.txt", Status: 301, Location: "https://www.redirect.example/robots.txt"},
		{URL: "https://www.redirect.example/robots.txt", Body: []byte(gptBody)},
	},
}

// ingestChangesCrawls writes the synthetic crawls as WARC files and ingests
// each as its crawl.
func ingestChangesCrawls(t *testing.T) string {
	t.Helper()
	in, dir := t.TempDir(), t.TempDir()
	for label, fetches := range changesCrawls {
		path := datasets.WriteWARC(t, in, label, fetches)
		if _, err := ingest.Run(context.Background(), ingest.Config{Dir: dir, Crawl: label}, []string{path}); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestChangesMatchDuckDB checks the changes section on the synthetic
// crawls against notebooks/12_changes.sql and against the changes made:
// of the nine hosts of both crawls, seven robots.txt changed (class.example's
// did not: a 404 of the same bytes), two fetch classes (class.example to
// allow-all, down.example, now 503, to defer visits); redirect.example
// redirects in both crawls to www.redirect.example, whose file now blocks
// GPTBot: redirects followed, both changed and started blocking it.
func TestChangesMatchDuckDB(t *testing.T) {
	dir := ingestChangesCrawls(t)
	r := datasets.BatchedReport(t, dir, analyze.WithTop(3))
	if len(r.Crawls) != 2 || r.Crawls[0].Changes != nil || r.Crawls[1].Changes == nil {
		t.Fatalf("want two crawls, changes in the second only")
	}
	db := testutil.DuckDB(t, dir)
	for _, c := range r.Crawls {
		checkChanges(&querier{t: t, db: db, crawl: c.Crawl}, c, r.Top)
	}
	ch := r.Crawls[1].Changes
	got := []string{fmt.Sprint(ch.Previous, " ", ch.PreviousHosts, " ", ch.Hosts, " ", ch.Common), fmt.Sprint(ch.Appeared), fmt.Sprint(ch.Disappeared),
		fmt.Sprint(ch.Body), fmt.Sprint(ch.FetchClass)}
	for _, cc := range ch.Crawlers {
		got = append(got, fmt.Sprint(cc.Agent, " ", cc.StartedDisallowing, cc.StoppedDisallowing, cc.StartedPartially, cc.StoppedPartially))
	}
	both := []string{"all.example", "down.example"}
	want := []string{
		"CC-MAIN-2025-05 10 10 9", "{{1 10} [new.example]}", "{{1 10} [gone.example]}",
		"{{7 9} [all.example block.example down.example]}", "{{2 9} [class.example down.example]}",
		"GPTBot {{5 9} [all.example block.example down.example]} {{1 9} [unblock.example]} {{0 9} []} {{0 9} []}",
		"ClaudeBot {{2 9} [all.example down.example]} {{1 9} [partial.example]} {{1 9} [partial.example]} {{0 9} []}",
	}
	for _, agent := range schema.FollowedAICrawlers()[2:] {
		want = append(want, fmt.Sprintf("%s {{2 9} %v} {{0 9} []} {{0 9} []} {{0 9} []}", agent, both))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("changes:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The notebook's per-host listing: every host that changed, and how.
	const listSQL = "SELECT /* may be empty */ h.crawl, h.previous, h.host"
	q := &querier{t: t, db: db, crawl: "CC-MAIN-2025-08"}
	list := notebookQueries(q, changesNotebook, listSQL)[listSQL]
	q.same("changes: the per-host listing", `SELECT host, appeared, disappeared, robots_txt_changed, previous_fetch_class <> fetch_class, verdicts FROM (`+list+`) WHERE crawl = ?`,
		[][]string{
			row("all.example", false, false, true, false, allBlocked("allowed")),
			row("block.example", false, false, true, false, "GPTBot: allowed -> disallowed"),
			row("class.example", false, false, false, true, nil),
			row("down.example", false, false, true, true, allBlocked("allowed")),
			row("gone.example", false, true, false, nil, nil),
			row("new.example", true, false, false, nil, nil),
			row("partial.example", false, false, true, false, "ClaudeBot: disallowed -> partially-disallowed"),
			row("redirect.example", false, false, true, false, "GPTBot: allowed -> disallowed"),
			row("unblock.example", false, false, true, false, "GPTBot: disallowed -> allowed"),
			row("www.redirect.example", false, false, true, false, "GPTBot: allowed -> disallowed"),
		})
}

// The site report's change check uses the same definitions: the file and
// the verdicts of where redirect.example's redirects lead changed.
func TestChangesSiteCheckFollowsRedirects(t *testing.T) {
	d, err := analyze.Open(os.DirFS(ingestChangesCrawls(t)))
	if err != nil {
		t.Fatal(err)
	}
	s, err := d.Site(context.Background(), "redirect.example")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range s.Findings {
		if f.Check == "changes" {
			got = append(got, f.Message)
		}
	}
	msg := strings.Join(got, "\n")
	if !strings.Contains(msg, "the file changed between CC-MAIN-2025-05 and CC-MAIN-2025-08") || !strings.Contains(msg, "GPTBot allowed → disallowed") {
		t.Errorf("redirect.example's changes:\n%s", msg)
	}
}

// allBlocked is the listing's verdict changes of a host that now
// disallows every followed AI crawler.
func allBlocked(before string) string {
	var out []string
	for _, agent := range schema.FollowedAICrawlers() {
		out = append(out, agent+": "+before+" -> disallowed")
	}
	return strings.Join(out, ", ")
}
