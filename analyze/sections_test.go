package analyze_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robocensus/robocensus/analyze"
	"github.com/robocensus/robocensus/schema"
)

// The tests of the crawl report's sections, one per section, each on a
// small fixture whose figures are counted by hand; each runs with one
// and with three host batches, and one and four workers. A section's test
// may live in its own file, section_NAME_test.go (sitemaps, worst hosts,
// changes): a new section's does.

// sectionCrawl writes one crawl partition, a row group per row, and
// returns its figures with one host batch read by one worker, and with
// three read by four (whose counts the driver merges).
func sectionCrawl(t *testing.T, p *partition, opts ...analyze.Option) map[int]*analyze.Crawl {
	t.Helper()
	dir := t.TempDir()
	if err := p.write(dir, "CC-MAIN-2025-05", schema.WithRowGroupRows(1)); err != nil {
		t.Fatal(err)
	}
	out := map[int]*analyze.Crawl{}
	for batches, workers := range map[int]int{1: 1, 3: 4} {
		_, r := openReport(t, dir, append(opts, analyze.WithHostBatches(batches), analyze.WithWorkers(workers))...)
		out[batches] = r.Crawls[0]
	}
	return out
}

func TestOverviewSection(t *testing.T) {
	var p partition
	p.site("o1", "one.example", 200, "User-agent: *\nDisallow: /x\n", fetched)
	p.site("o2", "one.example", 200, "User-agent: *\nDisallow: /y\n", fetched.Add(-time.Hour)) // the same host, earliest
	p.site("o3", "gone.example", 404, "", fetched)                                             // not read, not usable
	p.site("o4", "file.example", 0, "User-agent: *\nDisallow: /z\n", fetched.Add(time.Hour))   // read, usable, latest
	p.site("o5", "page.example", 200, "<html><body>Hello</body></html>\n", fetched)            // read, not a robots.txt
	p.site("o6", "moved.example", 301, "", fetched)                                            // not read, not usable
	for batches, c := range sectionCrawl(t, &p) {
		got := fmt.Sprint(c.Captures, c.Hosts, c.ReadCaptures, c.UsableHosts, c.FirstFetch, c.LastFetch)
		first, last := fetched.Add(-time.Hour), fetched.Add(time.Hour)
		want := fmt.Sprint(6, 5, 4, 2, &first, &last)
		if got != want {
			t.Errorf("%d batches: overview %s, want %s", batches, got, want)
		}
	}
}

func TestSharedBodiesSection(t *testing.T) {
	var p partition
	// serve adds a capture of a body under a digest of its own choosing.
	serve := func(id, host string, status int, body, digest string, at time.Time) {
		bodies := len(p.bodies)
		p.site(id, host, status, body, at)
		p.captures[len(p.captures)-1].ContentDigest = digest
		if len(p.bodies) > bodies {
			p.bodies[len(p.bodies)-1].ContentDigest = digest
		}
	}
	x, y, z := "User-agent: *\nDisallow: /x\n", "User-agent: *\nDisallow: /y\n", "User-agent: *\nDisallow: /z\n"
	for _, h := range []string{"x6", "x2", "x4", "x1", "x5", "x3"} {
		serve("c"+h, h+".example", 200, x, "sha1:X", fetched)
	}
	serve("cy2", "y2.example", 200, y, "sha1:Y", fetched)
	serve("cy1", "y1.example", 0, y, "sha1:Y", fetched)
	serve("cz1", "z1.example", 200, z, "sha1:Z", fetched) // tied with Y, after it by digest
	serve("cz2", "z2.example", 200, z, "sha1:Z", fetched)
	serve("cl", "lone.example", 200, "User-agent: *\nDisallow: /l\n", "sha1:L", fetched)              // counted, not shared
	serve("cold", "z3.example", 200, z, "sha1:Z", fetched.Add(-time.Hour))                            // not its host's deciding capture
	serve("cnew", "z3.example", 200, "User-agent: *\nDisallow: /3\n", "sha1:3", fetched)              // counted, not shared
	serve("cdown", "x7.example", 503, x, "sha1:X", fetched)                                           // not usable
	serve("chtml", "a-html.example", 200, "<html><body>Not found</body></html>\n", "sha1:X", fetched) // not-robots: not usable
	serve("ce1", "e1.example", 200, "", "sha1:E", fetched)                                            // empty
	serve("ce2", "e2.example", 200, "", "sha1:E", fetched)
	p.bodies = slices.DeleteFunc(p.bodies, func(b schema.Body) bool { return strings.HasPrefix(b.Body, "<html>") })
	for batches, c := range sectionCrawl(t, &p, analyze.WithTop(2)) {
		f := c.SharedBodies
		got := []string{fmt.Sprint(f.Hosts, " ", f.Bodies, " ", f.SharedHosts)}
		for _, b := range f.Top {
			got = append(got, fmt.Sprint(b.Digest, " ", b.Hosts, " ", b.Sample, " ", b.Lines, " ", b.Head))
		}
		want := []string{
			"12 3 {10 12}",
			"sha1:X 6 [x1.example x2.example x3.example x4.example x5.example] 2 [User-agent: * Disallow: /x]",
			"sha1:Y 2 [y1.example y2.example] 2 [User-agent: * Disallow: /y]",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%d batches: shared bodies\n%s\nwant\n%s", batches, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

func TestInputsSection(t *testing.T) {
	var p partition
	p.site("i1", "one.example", 200, "User-agent: *\nDisallow:\n", fetched)
	p.inputs = []schema.Input{
		{Input: "a.warc.gz", Bytes: 1000, Records: 7, Captures: 3, Skipped: 4, SkippedByReason: `{"request":4}`, DamageEvents: 1},
		{Input: "b.warc.gz", Bytes: 20, Records: 1, Captures: 1, SkippedByReason: "{}", Error: "unexpected EOF"},
	}
	for batches, c := range sectionCrawl(t, &p) {
		want := analyze.Inputs{Inputs: 2, Failed: 1, Bytes: 1020, Records: 8, Captures: 4, Skipped: 4, Damage: 1}
		if c.Inputs != want {
			t.Errorf("%d batches: inputs %+v, want %+v", batches, c.Inputs, want)
		}
	}
}

func TestSizesSection(t *testing.T) {
	var p partition
	p.site("z1", "empty.example", 200, "", fetched)
	p.site("z2", "small.example", 200, "Disallow: /\n", fetched)                                      // 12 bytes
	p.site("z3", "file.example", 0, "User-agent: *\n"+strings.Repeat("Disallow: /x\n", 150), fetched) // 1,964 bytes
	p.site("z4", "huge.example", 200, "User-agent: *\n"+strings.Repeat("#", 600<<10), fetched)
	p.site("z5", "gone.example", 404, "not found", fetched) // not read
	huge := int64(14 + 600<<10)
	for batches, c := range sectionCrawl(t, &p) {
		s := c.Sizes
		got := fmt.Sprint(s.Captures, s.Empty, s.Oversize, s.Median, s.P90, s.P99, s.Max, s.Bytes)
		want := fmt.Sprint(4, analyze.Ratio{N: 1, Of: 4}, analyze.Ratio{N: 1, Of: 4}, 12, huge, huge, huge, 12+1964+huge)
		if got != want {
			t.Errorf("%d batches: sizes %s, want %s", batches, got, want)
		}
		var buckets []int64
		for _, b := range s.Buckets {
			buckets = append(buckets, b.Captures.N)
		}
		if fmt.Sprint(buckets) != "[1 1 1 0 0 0 0 1]" {
			t.Errorf("%d batches: buckets %v", batches, buckets)
		}
	}
}

func TestUserAgentsSection(t *testing.T) {
	var p partition
	p.site("u1", "one.example", 200, "User-agent: GPTBot\nUser-agent: gptbot\nDisallow: /\n\nUser-agent: *\nDisallow:\n", fetched)
	p.site("u2", "two.example", 200, "User-agent: GPTBot\nDisallow: /x\n", fetched)
	p.site("u3", "three.example", 200, "Sitemap: https://three.example/s.xml\n", fetched) // names none
	for batches, c := range sectionCrawl(t, &p) {
		u := c.UserAgents
		got := fmt.Sprint(u.Captures, u.Distinct, u.Top)
		want := fmt.Sprint(2, 2, []analyze.NameCount{{Name: "gptbot", Captures: analyze.Ratio{N: 2, Of: 2}}, {Name: "*", Captures: analyze.Ratio{N: 1, Of: 2}}})
		if got != want {
			t.Errorf("%d batches: user agents %s, want %s", batches, got, want)
		}
	}
}

func TestOutcomesSection(t *testing.T) {
	var p partition
	p.site("o1", "one.example", 200, "User-agent: *\nDisallow: /x\n", fetched)
	p.site("o2", "two.example", 200, "User-agent: *\nDisallow: /y\n", fetched)
	p.site("o3", "gone.example", 404, "", fetched)
	p.site("o4", "down.example", 503, "", fetched)
	p.site("o5", "busy.example", 429, "", fetched)
	p.site("o6", "file.example", 0, "User-agent: *\nDisallow:\n", fetched)
	p.captures[5].Outcome = "from-the-future" // a value a later version may write
	for batches, c := range sectionCrawl(t, &p) {
		var got []string
		for _, o := range c.Outcomes {
			got = append(got, fmt.Sprint(o.Outcome, " ", o.Captures, " ", o.Statuses))
		}
		want := []string{
			"rules {2 6} [{200 2}]", "no-rules {0 6} []", "not-robots {0 6} []", "redirect {0 6} []", "allow-all {1 6} [{404 1}]",
			"disallow-all {2 6} [{429 1} {503 1}]", "unknown {0 6} []", "from-the-future {1 6} [{0 1}]",
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%d batches: outcomes\n%v, want\n%v", batches, got, want)
		}
	}
}

func TestPreferencesSection(t *testing.T) {
	var p partition
	gpt := "GPTBot"
	p.site("p0", "sig.example", 200, "Content-Signal: ai-train=yes\n", fetched.Add(-time.Hour), gpt) // not the deciding capture
	p.site("p1", "sig.example", 200, "User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n", fetched, gpt)
	p.site("p2", "usage.example", 200, "Content-Usage: train-ai=y\nLicense: https://usage.example/l.xml\nCrawl-delay: 5\nCrawl-delay: soon\n\nUser-agent: GPTBot\nDisallow: /\n", fetched, gpt)
	p.site("p3", "plain.example", 200, "User-agent: GPTBot\nDisallow: /\n", fetched, gpt)
	p.site("p4", "down.example", 503, "Content-Signal: ai-train=no\n", fetched, gpt)                                    // not usable
	p.site("p5", "acap.example", 0, "ACAP-crawler: *\nACAP-disallow-crawl: /x\nUser-agent: *\nDisallow: /y\n", fetched) // no agents rows
	p.site("p6", "case.example", 200, "Content-Signal: AI-Train=no, use=reference\nUser-agent: *\nDisallow:\n", fetched, gpt)
	for batches, c := range sectionCrawl(t, &p) {
		f := c.Preferences
		if f.UsableHosts != 5 || c.UsableHosts != 5 {
			t.Errorf("%d batches: usable hosts %d (report %d), want 5", batches, f.UsableHosts, c.UsableHosts)
		}
		var got []string
		for _, m := range f.Mechanisms {
			got = append(got, fmt.Sprint(m.Mechanism, " ", m.Hosts.N))
		}
		for _, v := range f.Values {
			got = append(got, fmt.Sprint(v.Source, " ", v.Category, " ", v.Yes.N, v.No.N, v.Other.N))
		}
		for _, s := range f.Blocking {
			got = append(got, fmt.Sprint(s.Stance, " ", s.Hosts, s.Allowed, s.Partial, s.Disallowed, s.NoVerdict))
		}
		for _, e := range f.Extensions {
			got = append(got, fmt.Sprint(e.Key, " ", e.Hosts.N, e.Lines, e.Valid.N))
		}
		want := []string{
			"content-signal 2", "content-usage 1", "license 1",
			"content-signal search 1 0 0", "content-signal ai-train 0 2 0", "content-signal use 0 0 1", "content-usage train-ai 1 0 0",
			"asks no AI training 2 2 0 0 0", "states other preferences 1 0 0 1 0", "states no preference 2 0 0 1 1",
			"content-signal 2 2 2", "crawl-delay 1 2 1", "content-usage 1 1 1", "license 1 1 1", "acap-* 1 2 2",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%d batches: preferences\n%s\nwant\n%s", batches, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

func TestMistakesSection(t *testing.T) {
	var p partition
	// Malformed (an error): m1 (path-not-absolute), m2, m4 and m5 (unparsable-line).
	p.site("m1", "reversed.example", 200, "User-agent: *\nDisallow: scooter\n", fetched)               // 1 and 10
	p.site("m2", "several.example", 200, "User-agent: *\nDisallow: /a/ /b/\nAllow: /c/\n", fetched)    // 2 and 9
	p.site("m3", "dos.example", 200, "User-agent: *\r\nDisallow: /x # no\r\n", fetched)                // 3 and 4
	p.site("m4", "page.example", 200, "<!DOCTYPE html><html><body>Not found</body></html>\n", fetched) // 6; unreadable
	p.site("m5", "prose.example", 0, "Nothing to see here.\n", fetched)                                // unreadable: no directive
	p.site("m6", "gone.example", 404, "<html><body>404</body></html>", fetched)                        // not read
	p.site("m7", "empty.example", 200, "", fetched)                                                    // read, nothing wrong
	for batches, c := range sectionCrawl(t, &p) {
		f := c.Mistakes
		got := []string{fmt.Sprint(f.ReadCaptures, " ", f.Malformed, " ", f.Unreadable, " ", f.Survey.MalformedOver)}
		for _, m := range f.Mistakes {
			got = append(got, fmt.Sprint(m.Number, " ", m.Measure, " ", m.Captures))
		}
		want := []string{
			"6 {4 6} {2 6} 0.05", "1 reversed-syntax {1 6}", "2 multiple-paths {1 6}", "3 crlf-line-endings {1 6}",
			"4 end-of-line-comment {1 6}", "5 leading-whitespace {0 6}", "6 html-content {1 6}", "7  {0 0}",
			"8 files-listed-one-by-one {0 6}", "9 allow_count > 0 {1 6}", "10 path-not-absolute {1 6}", "11 binary-content {0 6}",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%d batches: mistakes\n%s\nwant\n%s", batches, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

func TestRulesSection(t *testing.T) {
	var p partition
	p.site("r1", "one.example", 200, "User-agent: *\nDisallow: /*.pdf$\nAllow: /public\n", fetched) // a wildcard and end anchor in one rule
	p.site("r2", "two.example", 200, "User-agent: *\nDisallow: /a*\nDisallow: /b\n", fetched)
	p.site("r3", "three.example", 0, "User-agent: *\nDisallow: /x$\n", fetched)
	p.site("r4", "none.example", 200, "Sitemap: https://none.example/s.xml\n", fetched) // no rules
	for batches, c := range sectionCrawl(t, &p) {
		want := analyze.Patterns{
			WithRules: 3, Rules: 5, Allow: 1, Disallow: 4,
			WildcardRules: analyze.Ratio{N: 2, Of: 5}, EndAnchorRules: analyze.Ratio{N: 2, Of: 5},
			WildcardCaptures: analyze.Ratio{N: 2, Of: 3}, EndAnchorCaptures: analyze.Ratio{N: 2, Of: 3},
		}
		if c.Patterns != want {
			t.Errorf("%d batches: rules %+v, want %+v", batches, c.Patterns, want)
		}
	}
}

func TestDiagnosticsSection(t *testing.T) {
	var p partition
	p.site("d1", "one.example", 200, "User-agent: *\nDisallo: /a\nDisallo: /b\nfoo bar\n", fetched)
	p.site("d2", "two.example", 200, "User-agent: *\nDisallo: /c\n", fetched)
	p.site("d3", "three.example", 200, "User-agent: *\nDisallow: /x\n", fetched)
	p.diagnostics = append(p.diagnostics, schema.Diagnostic{CaptureID: "d3", URLHostName: "three.example", Code: "from-the-future", Severity: "warning", Message: "later"})
	p.diagnostics = append(p.diagnostics, schema.Diagnostic{CaptureID: "d3", URLHostName: "three.example", Code: "from-the-future", Severity: "warning", Message: "again"})
	want := map[string]string{}
	for _, d := range p.diagnostics {
		want[d.Code] = "" // every code found, counted below
	}
	for batches, c := range sectionCrawl(t, &p) {
		got := map[string]string{}
		for _, d := range c.Diagnostics {
			if d.Captures.Of != 3 {
				t.Errorf("%d batches: %s of %d captures", batches, d.Code, d.Captures.Of)
			}
			if d.Findings > 0 {
				got[d.Code] = fmt.Sprint(d.Severity, " ", d.Captures.N, " ", d.Findings)
			}
		}
		if c.WithErrors != (analyze.Ratio{N: 2, Of: 3}) {
			t.Errorf("%d batches: captures with an error %+v, want 2 of 3", batches, c.WithErrors)
		}
		if got["typo-ignored"] != "error 2 3" || got["from-the-future"] != "warning 1 2" || len(got) != len(want) {
			t.Errorf("%d batches: diagnostics %v", batches, got)
		}
		if len(c.Diagnostics) < 40 || c.Diagnostics[0].Severity != "error" {
			t.Errorf("%d batches: %d codes listed, first %+v: want every catalogue code, errors first", batches, len(c.Diagnostics), c.Diagnostics[0])
		}
	}
}

func TestTyposSection(t *testing.T) {
	var p partition
	p.site("t1", "one.example", 200, "User-agent: *\nDisallo: /a\nDISALLO: /b\nuseragent: x\nDisallow: /y\n", fetched)
	p.site("t2", "two.example", 200, "User-agent: *\nDisallo: /c\n", fetched)
	p.site("t3", "three.example", 200, "User-agent: *\nDisallow: /x\n", fetched)
	for batches, c := range sectionCrawl(t, &p) {
		ty := c.Typos
		got := fmt.Sprint(ty.Accepted, ty.Ignored, ty.Keys)
		want := fmt.Sprint(analyze.TypoShare{Captures: analyze.Ratio{N: 1, Of: 3}, Lines: 1}, analyze.TypoShare{Captures: analyze.Ratio{N: 2, Of: 3}, Lines: 3},
			[]analyze.TypoKey{{Key: "disallo", Code: "typo-ignored", Lines: 3}, {Key: "useragent", Code: "typo-accepted", Lines: 1}})
		if got != want {
			t.Errorf("%d batches: typos\n%s, want\n%s", batches, got, want)
		}
	}
}

func TestCrawlersSection(t *testing.T) {
	var p partition
	agents := []string{"GPTBot", "CCBot", "Googlebot"}
	p.site("k1", "one.example", 200, "User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n", fetched, agents...)
	p.site("k2", "two.example", 200, "User-agent: GPTBot\nDisallow: /private\n", fetched, agents...)
	p.site("k3", "two.example", 200, "User-agent: *\nDisallow: /\n", fetched.Add(-time.Hour), agents...) // older: does not decide
	p.site("k4", "three.example", 200, "User-agent: *\nDisallow: /\n", fetched, agents...)
	p.site("k5", "down.example", 503, "", fetched, agents...) // not usable
	for batches, c := range sectionCrawl(t, &p) {
		f := c.Crawlers
		got := []string{fmt.Sprint(f.UsableHosts, f.AllHosts, f.AnyAINamed, f.AnyAINamedDisallowed, f.EveryAIDisallowed)}
		for _, s := range f.Crawlers {
			if slices.Contains(agents, s.Agent) {
				got = append(got, fmt.Sprint(s.Agent, s.Kind, s.Usable, s.All))
			}
		}
		v := func(hosts, named, namedDis, dis, partial, allowed int64) analyze.HostVerdicts {
			return analyze.HostVerdicts{Hosts: hosts, Named: named, NamedDisallowed: namedDis, Disallowed: dis, Partial: partial, Allowed: allowed}
		}
		r := func(n, of int64) analyze.Ratio { return analyze.Ratio{N: n, Of: of} }
		want := []string{
			fmt.Sprint(3, 4, r(2, 3), r(1, 3), r(2, 3)),
			fmt.Sprint("GPTBot", "ai", v(3, 2, 1, 2, 1, 0), v(4, 2, 1, 3, 1, 0)),
			fmt.Sprint("CCBot", "ai", v(3, 1, 1, 2, 0, 1), v(4, 1, 1, 3, 0, 1)),
			fmt.Sprint("Googlebot", "search", v(3, 0, 0, 1, 0, 2), v(4, 0, 0, 2, 0, 2)),
		}
		slices.Sort(got[1:])
		slices.Sort(want[1:])
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%d batches: crawlers\n%v, want\n%v", batches, got, want)
		}
	}
}

// The per-host figures follow redirects (analyze/effective.go): a host
// whose robots.txt redirects to a file that blocks GPTBot blocks GPTBot,
// whichever host batch the target falls in; a chain that is not resolved
// leaves the redirect itself deciding. Without a hosts table (datasets of
// schema 1.2 and older) each host counts by its own deciding capture.
func TestCrawlersFollowRedirects(t *testing.T) {
	p, hosts := redirectsPartition()
	for _, tc := range []struct {
		name  string
		hosts []schema.Host
		want  string // usable hosts, all hosts; GPTBot's {hosts named named&disallowed disallowed partial allowed} over usable hosts, and over all
	}{
		// www.a, a and d (both redirect to www.a) name and block GPTBot;
		// c disallows /tmp/ to all; b's redirect leads nowhere: allowed.
		{"redirects followed", hosts, "4 5 {4 3 3 3 1 0} {5 3 3 3 1 1}"},
		// Only www.a blocks it; a, b and d are redirects: allowed.
		{"no hosts table", nil, "2 5 {2 1 1 1 1 0} {5 1 1 1 1 3}"},
	} {
		p.hosts = tc.hosts
		for batches, c := range sectionCrawl(t, p) {
			got := fmt.Sprint(c.UsableHosts, c.Crawlers.AllHosts)
			for _, s := range c.Crawlers.Crawlers {
				if s.Agent == "GPTBot" {
					got += fmt.Sprintf(" {%d %d %d %d %d %d} {%d %d %d %d %d %d}", s.Usable.Hosts, s.Usable.Named, s.Usable.NamedDisallowed,
						s.Usable.Disallowed, s.Usable.Partial, s.Usable.Allowed, s.All.Hosts, s.All.Named, s.All.NamedDisallowed,
						s.All.Disallowed, s.All.Partial, s.All.Allowed)
				}
			}
			if got != tc.want {
				t.Errorf("%s, %d batches: %s, want %s", tc.name, batches, got, tc.want)
			}
		}
	}
}

// redirectsPartition is a crawl where a.example and d.example redirect to
// www.a.example, whose robots.txt blocks GPTBot, b.example redirects to a
// capture the crawl does not have, and c.example answers for itself; and
// its hosts table, as ingest writes it.
func redirectsPartition() (*partition, []schema.Host) {
	var p partition
	agents := []string{"GPTBot"}
	p.site("r1", "www.a.example", 200, "User-agent: GPTBot\nDisallow: /\n", fetched, agents...)
	p.site("r2", "a.example", 301, "", fetched, agents...)
	p.site("r3", "b.example", 301, "", fetched, agents...)
	p.site("r4", "c.example", 200, "User-agent: *\nDisallow: /tmp/\n", fetched, agents...)
	p.site("r5", "d.example", 301, "", fetched, agents...)
	host := func(name, id, result, effective, outcome string) schema.Host {
		return schema.Host{URLHostName: name, CaptureID: id, Captures: 1, RedirectResult: result,
			EffectiveCaptureID: effective, EffectiveOutcome: outcome, FetchClass: "robots-with-rules"}
	}
	return &p, []schema.Host{
		host("www.a.example", "r1", "none", "r1", "rules"),
		host("a.example", "r2", "resolved", "r1", "rules"),
		host("b.example", "r3", "not-captured", "", "redirect"),
		host("c.example", "r4", "none", "r4", "rules"),
		host("d.example", "r5", "resolved", "r1", "rules"),
	}
}

// The site report gives the verdicts of where the host's redirects lead.
func TestSiteFollowsRedirects(t *testing.T) {
	p, hosts := redirectsPartition()
	p.hosts = hosts
	dir := t.TempDir()
	if err := p.write(dir, "CC-MAIN-2025-05"); err != nil {
		t.Fatal(err)
	}
	d, err := analyze.Open(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	for host, want := range map[string]string{
		"a.example":     "GPTBot disallowed from https://www.a.example/robots.txt",
		"b.example":     "GPTBot allowed from ",
		"www.a.example": "GPTBot disallowed from ",
	} {
		s, err := d.Site(context.Background(), host)
		if err != nil {
			t.Fatal(err)
		}
		sc := s.Crawls[0]
		var got []string
		for _, c := range sc.Crawlers {
			got = append(got, c.Agent+" "+c.Verdict)
		}
		if g := strings.Join(got, ", ") + " from " + sc.CrawlersFrom; g != want {
			t.Errorf("%s: %s, want %s", host, g, want)
		}
	}
}

// TestTrendsOrder pins the order of the trends series, which the
// sections' TrendOrder and report order give: the JSON report's
// consumers read them in this order.
func TestTrendsOrder(t *testing.T) {
	dir, cleanup := exampleDir()
	defer cleanup()
	_, r := openReport(t, dir)
	var got []string
	for _, s := range r.Trends.Series {
		if !strings.HasSuffix(s.Name, " named") && !strings.HasSuffix(s.Name, " disallowed") || strings.HasPrefix(s.Name, "an AI") {
			got = append(got, s.Name) // not the crawlers most often named, which depend on the data
		}
	}
	want := []string{
		"captures", "hosts", "hosts with a usable robots.txt", "outcome rules", "outcome no-rules", "outcome not-robots",
		"outcome redirect", "outcome allow-all", "outcome disallow-all", "outcome unknown", "captures with an error",
		"oversize (of read captures)", "empty (of read captures)", "wildcard rules (of captures with rules)", "typo accepted",
		"typo ignored", "sitemap declared (of read captures)", "hosts sharing their body", "an AI crawler named",
		"an AI crawler named and disallowed", "content-signal stated (of usable hosts)",
		"content-usage stated (of usable hosts)", "license stated (of usable hosts)", "asks no AI training (of usable hosts)",
		"malformed (of read captures)", "unreadable (of read captures)", "hosts with a template",
		"hosts whose own lines cancel a template's block", "hosts with a pasted ai.robots.txt list",
		"ai.robots.txt lists over a year old", "median age of ai.robots.txt lists (days)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("trends\n%q\nwant\n%q", got, want)
	}
}
