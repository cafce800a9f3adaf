package analyze_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/analyze"
	"github.com/robocensus/robocensus/schema"
)

// The site report lists the lines of the site's file that other parsers
// read differently, from the readings table: rows that differ only by
// crawler are one entry, with each parser's deciding line quoted from
// the listing; Markdown and HTML show them.
func TestSiteReadings(t *testing.T) {
	var p partition
	p.site("b1", "blank.example", 200, "User-agent: GPTBot\n\nDisallow: /\n", fetched, "GPTBot", "CCBot")
	row := func(agent, sem string, root, groot, blocked, gblocked bool, line, gline int32, class string) schema.Reading {
		return schema.Reading{CaptureID: "b1", URLHostName: "blank.example", Agent: agent, Semantics: sem, RootAllowed: root,
			GoogleRootAllowed: groot, Blocked: blocked, GoogleBlocked: gblocked, Line: line, GoogleLine: gline, Path: "/", Class: class}
	}
	p.readings = []schema.Reading{
		row("GPTBot", "python-legacy", true, false, false, true, 0, 3, schema.ClassBlankLineEndsGroup),
		row("GPTBot", "rfc9309", true, false, false, true, 0, 3, schema.ClassAgentMatching),
		row("CCBot", "rfc9309", true, false, false, true, 0, 3, schema.ClassAgentMatching),
	}
	dir := t.TempDir()
	if err := p.write(dir, "CC-MAIN-2025-05"); err != nil {
		t.Fatal(err)
	}
	d, err := analyze.Open(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	s, err := d.Site(context.Background(), "blank.example")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range s.Crawls[0].Readings {
		got = append(got, fmt.Sprintf("%s %s [%s] %q %d %q %d %q", r.Semantics, r.Class, r.Crawlers(), r.Change(), r.GoogleLine, r.GoogleLineText, r.Line, r.LineText))
	}
	want := []string{
		`python-legacy blank-line-ends-group [GPTBot] "/ disallowed → allowed; whole site blocked → not blocked" 3 "Disallow: /" 0 ""`,
		`rfc9309 agent-matching [CCBot, GPTBot] "/ disallowed → allowed; whole site blocked → not blocked" 3 "Disallow: /" 0 ""`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("readings:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, f := range []analyze.Format{analyze.Markdown, analyze.HTML} {
		var b bytes.Buffer
		if err := s.Write(&b, f, "t"); err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{"Where parsers disagree", "blank-line-ends-group", "CCBot, GPTBot", "Disallow: /", schema.ReadingParser("python-legacy")} {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s site report: no %q", f, w)
			}
		}
	}
}

// A crawl without readings files gives no readings, and no such part.
func TestSiteReadingsOlderDataset(t *testing.T) {
	var p partition
	p.site("o1", "old.example", 200, "User-agent: *\nDisallow: /\n", fetched)
	dir := t.TempDir()
	if err := p.write(dir, "CC-MAIN-2025-05"); err != nil {
		t.Fatal(err)
	}
	d, err := analyze.Open(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	s, err := d.Site(context.Background(), "old.example")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Crawls[0].Readings); n != 0 {
		t.Errorf("%d readings, want none", n)
	}
	var b bytes.Buffer
	if err := s.Write(&b, analyze.Markdown, "t"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "Where parsers disagree") {
		t.Error("the site report shows readings the dataset does not have")
	}
}
