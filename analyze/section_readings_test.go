package analyze_test

import (
	"fmt"
	"testing"

	"github.com/robocensus/robocensus/schema"
)

// TestReadingsSection checks "Where crawlers disagree"
// (section_readings.go) on a fixture counted by hand: the redirects
// partition (www.a.example answers for itself, a.example and d.example,
// b.example's redirect is unresolved, c.example answers for itself: 5
// hosts) with readings rows written by hand.
func TestReadingsSection(t *testing.T) {
	p, hosts := redirectsPartition()
	p.hosts = hosts
	reading := func(id, host, agent, sem string, root, groot, blocked, gblocked bool, class string) schema.Reading {
		return schema.Reading{CaptureID: id, URLHostName: host, Agent: agent, Semantics: sem, RootAllowed: root, GoogleRootAllowed: groot,
			Blocked: blocked, GoogleBlocked: gblocked, Path: "/", Class: class}
	}
	p.readings = []schema.Reading{
		// r1 decides for 3 hosts: python-legacy lets GPTBot in.
		reading("r1", "www.a.example", "GPTBot", "python-legacy", true, false, false, true, schema.ClassBlankLineEndsGroup),
		// c.example: Googlebot fully blocked for python-legacy only (root
		// disallowed for both); CCBot's root verdict changes for rfc9309.
		reading("r4", "c.example", "Googlebot", "python-legacy", false, false, true, false, schema.ClassAllowOrder),
		reading("r4", "c.example", "CCBot", "rfc9309", false, true, false, false, schema.ClassAgentMatching),
		// A parser and a class this version does not know count for
		// nothing.
		reading("r4", "c.example", "GPTBot", "future-parser", true, false, false, false, schema.ClassWildcards),
		reading("r4", "c.example", "GPTBot", "rfc9309", false, false, false, false, "future-class"),
	}
	for batches, c := range sectionCrawl(t, p) {
		d := c.Readings
		got := fmt.Sprintf("has %v, %d hosts;", d.HasReadings, d.Hosts)
		for _, r := range d.Readings {
			got += " " + r.Semantics + ":"
			for _, v := range r.Crawlers {
				got += fmt.Sprintf(" %s %d/%d %d/%d,", v.Crawlers, v.Root.N, v.Root.Of, v.Block.N, v.Block.Of)
			}
		}
		for _, k := range d.Classes {
			got += fmt.Sprintf(" %s %d/%d %s;", k.Class, k.Hosts.N, k.Hosts.Of, k.Example)
		}
		want := "has true, 5 hosts;" +
			" python-legacy: AI crawlers 3/5 3/5, search engines 0/5 1/5, GPTBot 3/5 3/5, CCBot 0/5 0/5, Googlebot 0/5 1/5," +
			" rfc9309: AI crawlers 1/5 0/5, search engines 0/5 0/5, GPTBot 0/5 0/5, CCBot 1/5 0/5, Googlebot 0/5 0/5," +
			// The fixture has no row of the two other parsers: the report
			// lists every parser of the binary, with no host changed.
			" python: AI crawlers 0/5 0/5, search engines 0/5 0/5, GPTBot 0/5 0/5, CCBot 0/5 0/5, Googlebot 0/5 0/5," +
			" crawler-commons: AI crawlers 0/5 0/5, search engines 0/5 0/5, GPTBot 0/5 0/5, CCBot 0/5 0/5, Googlebot 0/5 0/5," +
			" blank-line-ends-group 3/5 a.example; agent-matching 1/5 c.example; allow-order 1/5 c.example;"
		if got != want {
			t.Errorf("%d batches:\n got %s\nwant %s", batches, got, want)
		}
	}
}

// A crawl published before the readings table (no readings files) has no
// readings, and the report says so.
func TestReadingsSectionOlderDataset(t *testing.T) {
	var p partition
	p.site("o1", "old.example", 200, "User-agent: *\nDisallow: /\n", fetched)
	for batches, c := range sectionCrawl(t, &p) {
		if c.Readings.HasReadings || c.Readings.Hosts != 0 || c.Readings.Readings != nil {
			t.Errorf("%d batches: readings %+v, want none", batches, c.Readings)
		}
		reportsSay(t, c, "This crawl has no readings: it was published before the census of parsers")
	}
}
