package ingest

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/internal/sample"
	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/robots"
)

// The demo's sample corpus, ingested as robocensus demo does: DuckDB reads
// each template block of its captures back from the templates table, with
// its lines, state, similarity, missing agents and release date.
func TestRunTemplatesDemo(t *testing.T) {
	path, err := sample.WriteWARC(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := ingestPaths(t, sample.Crawl, path)
	f(`SELECT string_agg(url_host_name || ' ' || template || '@' || version || ' ' || line_start || '-' || line_end || ' ' || state || ' ' ||
		site_lines || ' ' || similarity || ' ' || len(missing) || ' ' || coalesce(released, '-'), '; ' ORDER BY url_host_name, line_start) FROM templates`,
		"blog.example wordpress-core@5.5 1-3 intact 0 1.0 0 2020-08-11")
}

// A slice of the shared corpus (the US government bodies, 9,438 files
// with WordPress, Yoast, WPForms, Squarespace and pasted ai.robots.txt
// blocks): the templates table holds, per template, version and state,
// the captures the parser finds them in, block for block, and the block
// lists' similarity, missing agents and release dates.
func TestRunTemplatesOnCorpus(t *testing.T) {
	path := testutil.Corpus(t, "robots", "nrjones8-gov-robots-archive", "raw-bodies.tar.gz")
	f := ingestPaths(t, "gov", path)
	f(`SELECT string_agg(k || ' ' || n, '; ' ORDER BY n DESC, k) FROM (
		SELECT template || '@' || version || ' ' || state k, count(*) n FROM templates GROUP BY ALL)`, parsedTemplates(t, path))
	f(`SELECT count(*) FROM templates t LEFT JOIN captures c USING (capture_id) WHERE c.capture_id IS NULL OR t.url_host_name <> c.url_host_name`, "0")
	f(`SELECT string_agg(version || ' ' || state || ' ' || printf('%.3f', similarity) || ' ' || len(missing) || ' ' || released, '; ' ORDER BY version)
		FROM templates WHERE template = 'ai-robots-txt'`, aiRobotsBlocks(t, path))
	f(`SELECT count(*) FROM templates WHERE template <> 'ai-robots-txt' AND (similarity <> 1 OR len(missing) > 0)`, "0")
}

// parsedTemplates counts the template blocks the parser finds in the
// bodies of a tar, by template, version and state, as the test's query
// spells them.
func parsedTemplates(t *testing.T, path string) string {
	counts := map[string]int{}
	for _, b := range testutil.TarBodies(t, path) {
		for _, blk := range robots.ParseResponse(robots.Response{}, b.Data).Templates() {
			counts[blk.Key()+" "+blk.State.String()]++
		}
	}
	if len(counts) < 5 {
		t.Fatalf("only %d kinds of template blocks in %s: the comparison proves little", len(counts), path)
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y string) int { return cmp.Or(counts[y]-counts[x], strings.Compare(x, y)) })
	for i, k := range keys {
		keys[i] = fmt.Sprintf("%s %d", k, counts[k])
	}
	return strings.Join(keys, "; ")
}

// aiRobotsBlocks lists the pasted ai.robots.txt blocks of a tar's bodies
// as the test's query spells them.
func aiRobotsBlocks(t *testing.T, path string) string {
	var out []string
	for _, b := range testutil.TarBodies(t, path) {
		for _, blk := range robots.ParseResponse(robots.Response{}, b.Data).Templates() {
			if blk.Name == robots.TemplateAIRobots {
				out = append(out, fmt.Sprintf("%s %s %.3f %d %s", blk.Version, blk.State, blk.Similarity, len(blk.Missing), blk.Template().Date))
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("no ai.robots.txt block in %s", path)
	}
	slices.Sort(out)
	return strings.Join(out, "; ")
}

// fixtureBody returns the robots.txt of one of the engine's template
// fixtures (robots/testdata/diag), built from the template's public text.
func fixtureBody(t *testing.T, name string) string {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(testutil.RepoRoot(), "robots", "testdata", "diag", name))
	if err != nil {
		t.Fatal(err)
	}
	body, ok := testutil.ParseArchive(string(text)).Files["robots.txt"]
	if !ok {
		t.Fatalf("%s: no robots.txt section", name)
	}
	return body
}

// agents.source says whose lines shut each crawler out, and
// agents.cancelled where the site's own group undoes a template's block:
// Cloudflare's managed block alone (template), the same with a site group
// re-allowing GPTBot (cancelled: GPTBot allowed, source none) or
// disallowing it again (both), and a file without a template (site).
func TestRunAgentsSource(t *testing.T) {
	cloudflare := fixtureBody(t, "template-cloudflare-managed-2025-07.txt")
	f := ingestRecords(t, "sources",
		robots200("managed.example", cloudflare),
		robots200("cancel.example", fixtureBody(t, "template-block-cancelled.txt")),
		robots200("both.example", cloudflare+"\nUser-agent: GPTBot\nDisallow: /\n"),
		robots200("own.example", "User-agent: GPTBot\nDisallow: /\n"),
	)
	f(`SELECT string_agg(url_host_name || ' ' || verdict || ' ' || source || ' ' || cancelled, '; ' ORDER BY url_host_name) FROM agents WHERE agent = 'GPTBot'`,
		"both.example disallowed both false; cancel.example allowed none true; managed.example disallowed template false; own.example disallowed site false")
	// Every crawler Cloudflare's block names is the template's there, and
	// only those; the cancelled rows are GPTBot's alone.
	f(`SELECT string_agg(agent, ' ' ORDER BY agent) FROM agents WHERE url_host_name = 'managed.example' AND source = 'template'`,
		"Amazonbot Applebot-Extended Bytespider CCBot ClaudeBot GPTBot Google-Extended Meta-ExternalAgent")
	f(`SELECT count(*) FROM agents WHERE cancelled AND agent <> 'GPTBot'`, "0")
	f(`SELECT count(*) FROM agents WHERE (source = 'none') <> (verdict <> 'disallowed')`, "0")
}
