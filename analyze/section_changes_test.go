package analyze_test

import (
	"context"
	"crypto/sha1"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/analyze"
	"github.com/robocensus/robocensus/schema"
)

// changesSite adds a host to a partition: one capture whose payload
// digest is that of its body (so that an unchanged body keeps its digest
// from crawl to crawl; none when noDigest), with agents rows for GPTBot,
// ClaudeBot and CCBot, and its row of the hosts table with the fetch
// class given.
func changesSite(p *partition, id, host string, status int, body, class string, noDigest bool) {
	p.site(id, host, status, body, fetched, "GPTBot", "ClaudeBot", "CCBot")
	c := &p.captures[len(p.captures)-1]
	c.ContentDigest = fmt.Sprintf("sha1:%x", sha1.Sum([]byte(body)))
	if noDigest {
		c.ContentDigest = ""
	}
	if n := len(p.bodies); n > 0 && p.bodies[n-1].ContentDigest == "sha1:"+id {
		p.bodies[n-1].ContentDigest = c.ContentDigest
	}
	p.hosts = append(p.hosts, schema.Host{URLHostName: host, CaptureID: id, Captures: 1, RedirectResult: "none",
		EffectiveCaptureID: id, EffectiveOutcome: c.Outcome, FetchClass: class})
}

const (
	allowAll   = "User-agent: *\nDisallow:\n"
	blockAll   = "User-agent: *\nDisallow: /\n"
	withRules  = "robots-with-rules"
	noRules    = "robots-no-rules"
	changesOld = "CC-MAIN-2025-05"
	changesNew = "CC-MAIN-2025-08"
)

// changesDataset writes two crawls whose changes are known: see
// TestChangesSection. A third, CC-MAIN-2025-13, repeats the first.
func changesDataset(t *testing.T) string {
	t.Helper()
	var a, b partition
	changesSite(&a, "a1", "same.example", 200, "User-agent: *\nDisallow: /tmp\n", withRules, false)
	changesSite(&b, "b1", "same.example", 200, "User-agent: *\nDisallow: /tmp\n", withRules, false)
	changesSite(&a, "a2", "block.example", 200, allowAll, noRules, false)
	changesSite(&b, "b2", "block.example", 200, "User-agent: GPTBot\nDisallow: /\n", withRules, false)
	changesSite(&a, "a3", "unblock.example", 200, "User-agent: GPTBot\nDisallow: /\n", withRules, false)
	changesSite(&b, "b3", "unblock.example", 200, allowAll, noRules, false)
	changesSite(&a, "a4", "partial.example", 200, "User-agent: ClaudeBot\nDisallow: /\n", withRules, false)
	changesSite(&b, "b4", "partial.example", 200, "User-agent: ClaudeBot\nDisallow: /private\n", withRules, false)
	changesSite(&a, "a5", "class.example", 200, allowAll, noRules, false)
	changesSite(&b, "b5", "class.example", 404, allowAll, "http-allow-all", false) // same body, another class
	changesSite(&a, "a6", "gone.example", 200, allowAll, noRules, false)
	changesSite(&b, "b6", "new.example", 200, allowAll, noRules, false)
	changesSite(&a, "a7", "nodigest.example", 200, "User-agent: CCBot\nDisallow: /\n", withRules, false)
	changesSite(&b, "b7", "nodigest.example", 200, allowAll, noRules, true)
	changesSite(&a, "a8", "also-block.example", 200, allowAll, noRules, false)
	changesSite(&b, "b8", "also-block.example", 200, blockAll, withRules, false)
	dir := t.TempDir()
	for crawl, p := range map[string]*partition{changesOld: &a, changesNew: &b, "CC-MAIN-2025-13": &a} {
		if err := p.write(dir, crawl, schema.WithRowGroupRows(1)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestChangesSection checks the changes between two crawls of eight
// hosts each, counted by hand: seven hosts in both, one appeared and one
// gone; of the seven, the bodies of four changed (of six with a digest
// in both crawls), the fetch classes of five; GPTBot disallowed by two
// more hosts and one fewer, ClaudeBot by one more and one fewer (which
// now disallows it some paths), CCBot by one more and one fewer.
func TestChangesSection(t *testing.T) {
	dir := changesDataset(t)
	want := strings.Join([]string{
		"hosts 8 of 8, common 7",
		"appeared {1 8} [new.example]",
		"disappeared {1 8} [gone.example]",
		"body {4 6} [also-block.example block.example partial.example unblock.example]",
		"class {5 7} [also-block.example block.example class.example nodigest.example unblock.example]",
		"GPTBot {2 7} [also-block.example block.example] {1 7} [unblock.example] {0 7} [] {0 7} []",
		"ClaudeBot {1 7} [also-block.example] {1 7} [partial.example] {1 7} [partial.example] {0 7} []",
		"CCBot {1 7} [also-block.example] {1 7} [nodigest.example] {0 7} [] {0 7} []",
		"Google-Extended {0 7} [] {0 7} [] {0 7} [] {0 7} []",
	}, "\n")
	for batches, workers := range map[int]int{1: 1, 3: 4} {
		_, r := openReport(t, dir, analyze.WithHostBatches(batches), analyze.WithWorkers(workers), analyze.WithCrawls(changesOld, changesNew))
		if len(r.Crawls) != 2 || r.Crawls[0].Changes != nil {
			t.Fatalf("%d batches: want two crawls, the first without changes", batches)
		}
		ch := r.Crawls[1].Changes
		if ch == nil || ch.Previous != changesOld {
			t.Fatalf("%d batches: changes %+v, want some since %s", batches, ch, changesOld)
		}
		if got := changesSummary(ch, 4); got != want {
			t.Errorf("%d batches: changes\n%s\nwant\n%s", batches, got, want)
		}
	}
	// The third crawl repeats the first: against it, nothing changed
	// but what came back; with the second left out, the third is
	// compared with the first.
	_, r := openReport(t, dir, analyze.WithTop(1))
	if ch := r.Crawls[2].Changes; ch.Previous != changesNew || fmt.Sprint(ch.Appeared, ch.Disappeared, ch.Body.Hosts) != "{{1 8} [gone.example]} {{1 8} [new.example]} {4 6}" {
		t.Errorf("third crawl against the second: %+v", ch)
	}
	_, r = openReport(t, dir, analyze.WithCrawls("CC-MAIN-2025-13", changesOld))
	if ch := r.Crawls[1].Changes; ch.Previous != changesOld || ch.Common != 8 || ch.Appeared.Hosts.N+ch.Disappeared.Hosts.N+ch.Body.Hosts.N+ch.FetchClass.Hosts.N != 0 {
		t.Errorf("third crawl against the first: %+v", ch)
	}
	_, r = openReport(t, dir, analyze.WithCrawls(changesNew))
	if r.Crawls[0].Changes != nil {
		t.Errorf("a report of one crawl has changes")
	}
}

// changesSummary writes the figures of the first crawlers of a Changes.
func changesSummary(ch *analyze.Changes, crawlers int) string {
	lines := []string{
		fmt.Sprintf("hosts %d of %d, common %d", ch.Hosts, ch.PreviousHosts, ch.Common),
		fmt.Sprint("appeared ", ch.Appeared.Hosts, " ", ch.Appeared.Examples),
		fmt.Sprint("disappeared ", ch.Disappeared.Hosts, " ", ch.Disappeared.Examples),
		fmt.Sprint("body ", ch.Body.Hosts, " ", ch.Body.Examples),
		fmt.Sprint("class ", ch.FetchClass.Hosts, " ", ch.FetchClass.Examples),
	}
	for _, c := range ch.Crawlers[:crawlers] {
		line := c.Agent
		for _, s := range []analyze.HostChange{c.StartedDisallowing, c.StoppedDisallowing, c.StartedPartially, c.StoppedPartially} {
			line += fmt.Sprint(" ", s.Hosts, " ", s.Examples)
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// TestChangesRendering checks that the Markdown and HTML reports show
// the changes, with their examples, and the JSON carries them.
func TestChangesRendering(t *testing.T) {
	_, r := openReport(t, changesDataset(t), analyze.WithCrawls(changesOld, changesNew))
	for _, f := range []analyze.Format{analyze.Markdown, analyze.HTML, analyze.JSON} {
		var b strings.Builder
		if err := r.Write(&b, f, "changes"); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, s := range []string{"also-block.example", "gone.example", "nodigest.example"} {
			if !strings.Contains(out, s) {
				t.Errorf("%v: %q missing", f, s)
			}
		}
		if f != analyze.JSON && !strings.Contains(out, "Since the previous crawl") {
			t.Errorf("%v: no changes section", f)
		}
	}
}

// TestChangesFailure: when the section cannot write its per-host state
// (no temporary folder), the report fails and says why, rather than
// leaving the changes out.
func TestChangesFailure(t *testing.T) {
	dir := changesDataset(t)
	missing := filepath.Join(t.TempDir(), "missing")
	for _, v := range []string{"TMPDIR", "TMP", "TEMP"} {
		t.Setenv(v, missing)
	}
	d, err := analyze.Open(os.DirFS(dir), analyze.WithCrawls(changesOld, changesNew))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Report(context.Background()); err == nil || !strings.Contains(err.Error(), "changes since the previous crawl") {
		t.Errorf("report without a temporary folder: %v, want the changes' error", err)
	}
}
