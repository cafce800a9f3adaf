package schema_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robocensus/robocensus/schema"
)

// The fixture dataset: two crawl partitions of every table, with edge values
// (NULLs, empty lists, unicode, long text, extreme numbers). Every test that
// reads a dataset reads this one, through writeDataset.

const (
	crawlA = "CC-MAIN-2025-05"
	crawlB = "CC-MAIN-2025-08"
)

// crawlRows holds the rows of one crawl partition.
type crawlRows struct {
	captures    []schema.Capture
	diagnostics []schema.Diagnostic
	rules       []schema.Rule
	sitemaps    []schema.Sitemap
	agents      []schema.Agent
	inputs      []schema.Input
	bodies      []schema.Body
	directives  []schema.Directive
	preferences []schema.Preference
	hosts       []schema.Host
	readings    []schema.Reading
	templates   []schema.TemplateBlock
}

var (
	t0        = time.Date(2025, 1, 13, 4, 5, 6, 123456000, time.UTC) // microsecond precision
	longLine  = strings.Repeat("Disallow: /ünïcødé/", 20)            // 460 bytes with 2-byte runes
	longPath  = "/" + strings.Repeat("a", 16_662)                    // Google's line limit
	bigOffset = int64(math.MaxInt64)
)

// fixture returns the rows of both crawls. Capture IDs are unique across the
// dataset, as ingest makes them.
func fixture() map[string]crawlRows {
	return map[string]crawlRows{crawlA: fixtureA(), crawlB: fixtureB()}
}

func fixtureA() crawlRows {
	full := schema.Capture{
		CaptureID: "a-1", URL: "https://example.com:8443/robots.txt", URLHostName: "example.com",
		URLSurtKey: "com,example:8443)/robots.txt", URLHostTLD: "com", URLHostRegisteredDomain: "example.com",
		URLProtocol: "https", URLPort: 8443, ContentCharset: "utf-8", WARCSegment: "1736520000000.10",
		FetchTime: t0, FetchStatus: 200, ContentMimeType: "text/plain", ContentMimeDetected: "text/plain",
		PayloadLength: 120, PayloadLengthReal: ptr[int64](120), ContentDigest: "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ",
		WARCFilename: "crawl-data/CC-MAIN-2025-05/robotstxt/a.warc.gz", WARCRecordOffset: 1234, WARCRecordLength: 567,
		WARCRecordID: "<urn:uuid:6a0c3f4e-1c9e-4c7e-9f3a-0d7c1b2e3f40>", Outcome: "rules",
		LineCount: 6, GroupCount: 2, RuleCount: 3, AllowCount: 1, DisallowCount: 2, SitemapCount: 1,
		WildcardRuleCount: 1, ErrorCount: 1, WarningCount: 1, InfoCount: 1,
		UserAgents: []string{"*", "GPTBot"}, StarDisallowsAll: true, Input: "a.warc.gz",
	}
	bare := schema.Capture{ // every NULL-able column NULL, every number zero, no list items
		CaptureID: "a-2", URL: "robots.txt", URLHostName: "", WARCFilename: "bodies.tar",
		Outcome: "unknown", Input: "bodies.tar",
	}
	odd := schema.Capture{ // unicode, extremes, a redirect
		CaptureID: "a-3", URL: "http://bücher.example/robots.txt", URLHostName: "bücher.example",
		FetchTime: t0.Add(time.Hour), FetchStatus: 301, PayloadLength: 600_000, PayloadLengthReal: ptr[int64](math.MaxInt64), ContentTruncated: "length",
		Oversize: true, WARCFilename: "a.warc.gz", WARCRecordOffset: bigOffset, WARCRecordLength: bigOffset,
		FetchRedirect: "https://bücher.example/robots.txt?" + strings.Repeat("q", 2000), Outcome: "redirect",
		LineCount: math.MaxInt32, ErrorCount: math.MaxInt32,
		UserAgents: []string{"😀bot", "Ünïcødé", "", "*"}, Input: "a.warc.gz",
	}
	return crawlRows{
		captures: []schema.Capture{full, bare, odd},
		diagnostics: []schema.Diagnostic{
			{CaptureID: "a-1", URLHostName: "example.com", Line: 0, Code: "non-text-content-type", Severity: "warning", Message: "whole file"},
			{CaptureID: "a-1", URLHostName: "example.com", Line: 3, Code: "typo-accepted", Severity: "warning", Text: "Disalow: /x", Message: "disalow means disallow"},
			{CaptureID: "a-1", URLHostName: "example.com", Line: 4, Code: "line-too-long", Severity: "info", Text: schema.ClipText(longLine), Message: ""},
			{CaptureID: "a-3", URLHostName: "bücher.example", Line: 1, Code: "non-ascii-path", Severity: "info", Text: "Disallow: /größe", Message: "ü"},
		},
		rules: []schema.Rule{
			{CaptureID: "a-1", URLHostName: "example.com", GroupIndex: 0, UserAgents: []string{"*"}, Directive: "disallow", Pattern: "/", Line: 2},
			{CaptureID: "a-1", URLHostName: "example.com", GroupIndex: 1, UserAgents: []string{"GPTBot", "CCBot"}, Directive: "allow", Pattern: "/*.css$", Line: 5, HasWildcard: true, HasEndAnchor: true},
			{CaptureID: "a-1", URLHostName: "example.com", GroupIndex: 1, UserAgents: []string{"GPTBot", "CCBot"}, Directive: "disallow", Pattern: longPath, Line: 6},
			{CaptureID: "a-3", URLHostName: "bücher.example", GroupIndex: 0, UserAgents: nil, Directive: "disallow", Pattern: "/größe", Line: 1},
		},
		sitemaps: []schema.Sitemap{
			{CaptureID: "a-1", URLHostName: "example.com", URL: "https://example.com/sitemap.xml", Line: 7, Valid: true},
			{CaptureID: "a-1", URLHostName: "example.com", URL: "/relative.xml", Line: 8},
		},
		agents: []schema.Agent{
			{CaptureID: "a-1", URLHostName: "example.com", Agent: "GPTBot", Named: true, Verdict: "partially-disallowed", Via: "named"},
			{CaptureID: "a-1", URLHostName: "example.com", Agent: "Googlebot", Verdict: "disallowed", Via: "star"},
			{CaptureID: "a-3", URLHostName: "bücher.example", Agent: "Googlebot", Verdict: "allowed", Via: "none"},
		},
		inputs: []schema.Input{
			{Input: "a.warc.gz", Bytes: 1 << 40, Records: 9, Captures: 2, Skipped: 7, Started: t0, Finished: t0.Add(90 * time.Second)},
			{Input: "bodies.tar", Bytes: 10_240, Records: 1, Captures: 1, Error: "unexpected EOF", Started: t0, Finished: t0},
		},
		bodies: []schema.Body{
			{ContentDigest: "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ", Body: "User-agent: *\nDisallow: /ünïcødé/\n"},
			{ContentDigest: "sha1:EMPTY", Body: ""},
		},
		directives: []schema.Directive{
			{CaptureID: "a-1", URLHostName: "example.com", Line: 1, Key: "content-signal", Value: "search=yes, ai-train=no", Valid: true}, // file-wide: NULL group
			{CaptureID: "a-1", URLHostName: "example.com", Line: 5, GroupIndex: ptr[int32](0), UserAgents: []string{"*"}, Key: "crawl-delay", Value: "ten"},
			{CaptureID: "a-3", URLHostName: "bücher.example", Line: 2, GroupIndex: ptr[int32](1), UserAgents: []string{"GPTBot", "😀bot"}, Key: "license", Value: "https://bücher.example/license.xml", Valid: true},
		},
		preferences: []schema.Preference{
			{CaptureID: "a-1", URLHostName: "example.com", Line: 1, Source: "content-signal", Path: "/", Category: "search", Value: "yes", Allowed: ptr(true)},
			{CaptureID: "a-1", URLHostName: "example.com", Line: 1, Source: "content-signal", Path: "/", Category: "ai-train", Value: "no", Allowed: ptr(false)},
			{CaptureID: "a-3", URLHostName: "bücher.example", Line: 3, Source: "content-usage", UserAgents: []string{"GPTBot"}, Path: "/größe/", Category: "train-ai", Value: "maybe"}, // not understood: NULL
		},
		hosts: []schema.Host{
			{URLHostName: "example.com", URLHostRegisteredDomain: "example.com", CaptureID: "a-1", Captures: 2, RedirectResult: "none",
				EffectiveCaptureID: "a-1", EffectiveOutcome: "rules", FetchClass: "robots-with-rules"},
			{URLHostName: "bücher.example", URLHostRegisteredDomain: "bücher.example", CaptureID: "a-3", Captures: 1, RedirectHops: 1, RedirectResult: "not-captured",
				EffectiveOutcome: "redirect", FetchClass: "redirect-not-resolved"}, // effective_capture_id NULL
		},
		readings: []schema.Reading{
			{CaptureID: "a-1", URLHostName: "example.com", Agent: "GPTBot", Semantics: "python-legacy", RootAllowed: true, Line: 0,
				GoogleBlocked: true, GoogleLine: 3, Path: "/", Class: schema.ClassBlankLineEndsGroup}, // line NULL: no rule decided
			{CaptureID: "a-3", URLHostName: "bücher.example", Agent: "Googlebot", Semantics: "rfc9309", RootAllowed: true, Line: 0,
				GoogleBlocked: true, Path: "/", Class: schema.ClassStatus},
		},
		templates: []schema.TemplateBlock{
			{CaptureID: "a-1", URLHostName: "example.com", Template: "cloudflare-managed", Version: "2025-09", LineStart: 1, LineEnd: 30,
				State: "intact", Similarity: 1, Released: "2025-09"},
			{CaptureID: "a-1", URLHostName: "example.com", Template: "ai-robots-txt", Version: "v1.32", LineStart: 32, LineEnd: 80,
				State: "extended", SiteLines: 2, Similarity: 0.95, Missing: []string{"Claude-User", "Perplexity-User"}, Released: "2025-06-05"},
			{CaptureID: "a-3", URLHostName: "bücher.example", Template: "shopify", Version: "2021", LineStart: 1, LineEnd: 40,
				State: "edited", Similarity: 1}, // released NULL: undated
		},
	}
}

func ptr[T any](v T) *T { return &v }

func fixtureB() crawlRows {
	return crawlRows{
		captures: []schema.Capture{{
			CaptureID: "b-1", URL: "https://example.org/robots.txt", URLHostName: "example.org",
			FetchTime: t0.AddDate(0, 1, 0), FetchStatus: 503, PayloadLengthReal: ptr[int64](0), WARCFilename: "b.warc.gz", Outcome: "disallow-all",
			ErrorCount: 1, UserAgents: []string{}, Input: "b.warc.gz",
		}},
		diagnostics: []schema.Diagnostic{{CaptureID: "b-1", URLHostName: "example.org", Code: "http-5xx", Severity: "error"}},
		agents:      []schema.Agent{{CaptureID: "b-1", URLHostName: "example.org", Agent: "GPTBot", Verdict: "disallowed", Via: "star"}},
		inputs:      []schema.Input{{Input: "b.warc.gz", Bytes: 99, Records: 1, Captures: 1, Started: t0, Finished: t0}},
		// no rules, sitemaps or bodies: those partitions hold a file with no rows
	}
}

// writeDataset writes the fixture under dir in the dataset layout,
// DIR/<table>/crawl=<label>/part-00000.parquet, and returns the fixture.
func writeDataset(t testing.TB, dir string) map[string]crawlRows {
	t.Helper()
	data := fixture()
	for crawl, rows := range data {
		writePart(t, dir, crawl, rows.captures)
		writePart(t, dir, crawl, rows.diagnostics)
		writePart(t, dir, crawl, rows.rules)
		writePart(t, dir, crawl, rows.sitemaps)
		writePart(t, dir, crawl, rows.agents)
		writePart(t, dir, crawl, rows.inputs)
		writePart(t, dir, crawl, rows.bodies)
		writePart(t, dir, crawl, rows.directives)
		writePart(t, dir, crawl, rows.preferences)
		writePart(t, dir, crawl, rows.hosts)
		writePart(t, dir, crawl, rows.readings)
		writePart(t, dir, crawl, rows.templates)
	}
	return data
}

// writePart writes rows as part 0 of a partition, small row groups so that
// the files have several.
func writePart[T schema.Row](t testing.TB, dir, crawl string, rows []T) string {
	t.Helper()
	part := filepath.Join(schema.PartitionDir(dir, schema.TableName[T](), crawl), schema.PartName(0))
	if err := os.MkdirAll(filepath.Dir(part), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(part)
	if err != nil {
		t.Fatal(err)
	}
	w := schema.NewWriter[T](f, schema.WithRowGroupRows(2), schema.WithMetadata("robocensus.crawl", crawl))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return part
}

// syntheticCaptures returns n plausible capture rows, for benchmarks and
// size tests: distinct IDs and hosts, a few outcomes and agent lists.
func syntheticCaptures(n int) []schema.Capture {
	outcomes := []string{"rules", "rules", "rules", "no-rules", "allow-all", "not-robots", "redirect"}
	agentLists := [][]string{{"*"}, {"*", "GPTBot"}, {"Googlebot", "Bingbot", "*"}, {}}
	rows := make([]schema.Capture, n)
	for i := range rows {
		host := fmt.Sprintf("host-%07d.example", i)
		rows[i] = schema.Capture{
			CaptureID: fmt.Sprintf("%016x", uint64(i)*0x9E3779B97F4A7C15), URL: "https://" + host + "/robots.txt",
			URLHostName: host, FetchTime: t0.Add(time.Duration(i) * time.Second), FetchStatus: 200,
			ContentMimeType: "text/plain", ContentMimeDetected: "text/plain", PayloadLength: int64(100 + i%5000),
			ContentDigest: fmt.Sprintf("sha1:%032X", i), WARCFilename: fmt.Sprintf("part-%03d.warc.gz", i/10_000),
			WARCRecordOffset: int64(i) * 1500, WARCRecordLength: 1500, Outcome: outcomes[i%len(outcomes)],
			LineCount: int32(i % 80), GroupCount: int32(i % 5), RuleCount: int32(i % 30), DisallowCount: int32(i % 25),
			UserAgents: agentLists[i%len(agentLists)], Input: "input.warc.gz",
		}
	}
	return rows
}
