package site

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/robocensus/robocensus/analyze/internal/scan"
	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// SiteReading is one way another parser reads the site's file
// differently from Google's parser (the readings table, schema 2.2): the
// tracked crawlers whose verdict for the root, or whose full block, it
// changes, the lines that decide for each parser, and the difference
// class that explains it. Rows that differ only by crawler are one
// SiteReading.
type SiteReading struct {
	Semantics string `json:"semantics"`
	Parser    string `json:"parser"` // with its version
	Class     string `json:"class"`
	ClassDoc  string `json:"class_doc"`
	Path      string `json:"path"` // where the verdicts differ
	// Line and GoogleLine are the deciding lines, 0 when no rule decided;
	// LineText and GoogleLineText their text when the listing has it.
	Line              int32    `json:"line"`
	LineText          string   `json:"line_text,omitempty"`
	GoogleLine        int32    `json:"google_line"`
	GoogleLineText    string   `json:"google_line_text,omitempty"`
	RootAllowed       bool     `json:"root_allowed"`
	GoogleRootAllowed bool     `json:"google_root_allowed"`
	Blocked           bool     `json:"blocked"`
	GoogleBlocked     bool     `json:"google_blocked"`
	Agents            []string `json:"agents"` // the crawlers, in byte order
}

// readingKey is what groups readings rows into one SiteReading.
type readingKey struct {
	sem, class, path               string
	line, gline                    int32
	root, groot, blocked, gblocked bool
}

// siteReadings reads the readings of the deciding capture (none in a
// dataset written before the readings table, schema 2.2), after the
// listing, whose lines it quotes.
func (d siteData) siteReadings(ctx context.Context, sc *SiteCrawl, _ string) error {
	cols := []string{"agent", "semantics", "class", "path", "line", "google_line", "root_allowed", "google_root_allowed", "blocked", "google_blocked"}
	byKey := map[readingKey]*SiteReading{}
	err := d.hostRows(ctx, "readings", sc, cols, []string{"agent", "semantics", "class", "path"}, func(cs *scan.Columns, i int) {
		k := readingKey{sem: cs.Dict("semantics").Value(i), class: cs.Dict("class").Value(i), path: cs.Dict("path").Value(i),
			line: cs.I32("line").Value(i), gline: cs.I32("google_line").Value(i),
			root: cs.Boolean("root_allowed").Value(i), groot: cs.Boolean("google_root_allowed").Value(i),
			blocked: cs.Boolean("blocked").Value(i), gblocked: cs.Boolean("google_blocked").Value(i)}
		r := byKey[k]
		if r == nil {
			k.sem, k.class, k.path = strings.Clone(k.sem), strings.Clone(k.class), strings.Clone(k.path)
			r = &SiteReading{Semantics: k.sem, Parser: schema.ReadingParser(k.sem), Class: k.class, ClassDoc: classDoc(k.class), Path: k.path,
				Line: k.line, GoogleLine: k.gline, RootAllowed: k.root, GoogleRootAllowed: k.groot, Blocked: k.blocked, GoogleBlocked: k.gblocked}
			byKey[k] = r
		}
		r.Agents = append(r.Agents, strings.Clone(cs.Dict("agent").Value(i)))
	})
	sc.Readings = []SiteReading{}
	for _, r := range byKey {
		slices.Sort(r.Agents)
		r.LineText, r.GoogleLineText = sc.lineText(r.Line), sc.lineText(r.GoogleLine)
		sc.Readings = append(sc.Readings, *r)
	}
	slices.SortFunc(sc.Readings, func(a, b SiteReading) int {
		return cmp.Or(cmp.Compare(min(a.Line, a.GoogleLine), min(b.Line, b.GoogleLine)), cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.GoogleLine, b.GoogleLine), strings.Compare(a.Semantics, b.Semantics), strings.Compare(a.Class, b.Class),
			cmp.Compare(len(b.Agents), len(a.Agents)), strings.Compare(a.Agents[0], b.Agents[0]))
	})
	return err
}

// classDoc returns what a difference class means, "" for a class this
// version does not know.
func classDoc(class string) string {
	for _, c := range schema.DifferenceClasses() {
		if c.Name == class {
			return c.Doc
		}
	}
	return ""
}

// lineText returns the text of line n of the listing, "" when it has none.
func (sc *SiteCrawl) lineText(n int32) string {
	if sc.Listing == nil || n <= 0 {
		return ""
	}
	for _, l := range sc.Listing.Lines {
		if int32(l.Number) == n {
			return l.Text
		}
	}
	return ""
}

// Crawlers names the crawlers of the reading: all of them up to five,
// else the first three and how many more.
func (r *SiteReading) Crawlers() string {
	if len(r.Agents) <= 5 {
		return strings.Join(r.Agents, ", ")
	}
	return strings.Join(r.Agents[:3], ", ") + " and " + strconv.Itoa(len(r.Agents)-3) + " more"
}

// Change says what the other parser changes, Google's verdict first:
// "/ disallowed → allowed; blocked → not blocked".
func (r *SiteReading) Change() string {
	allowed := map[bool]string{true: "allowed", false: "disallowed"}
	blocked := map[bool]string{true: "whole site blocked", false: "not blocked"}
	var parts []string
	if r.RootAllowed != r.GoogleRootAllowed {
		parts = append(parts, "/ "+allowed[r.GoogleRootAllowed]+" → "+allowed[r.RootAllowed])
	}
	if r.Blocked != r.GoogleBlocked {
		parts = append(parts, blocked[r.GoogleBlocked]+" → "+blocked[r.Blocked])
	}
	if r.Path != "/" {
		parts = append(parts, "at "+r.Path)
	}
	return strings.Join(parts, "; ")
}

// SiteDisagreement is a line of the site's file that another parser
// reads differently from Google's parser, found in the body itself
// (robots.File.Disagreements) for the tracked crawlers and the crawlers
// the file names, on the root and the paths its rules name: every such
// line, where the readings table holds only the differences that change
// a tracked crawler's root verdict or full block.
type SiteDisagreement struct {
	Line     int      `json:"line"` // 0: the whole file
	Text     string   `json:"text,omitempty"`
	Class    string   `json:"class"`
	ClassDoc string   `json:"class_doc"`
	Examples []string `json:"examples"` // one per parser that differs, in words
}

// siteDisagreements lists the lines of the deciding capture's body that
// other parsers read differently (none when the dataset keeps no body).
func (d siteData) siteDisagreements(_ context.Context, sc *SiteCrawl, _ string) error {
	if sc.Listing == nil {
		return nil
	}
	sc.Disagreements = disagreementLines(sc.text, int(sc.Capture.Status))
	return nil
}

// disagreementLines returns the lines of a robots.txt text, fetched with
// HTTP status (0: unknown), that other parsers read differently from
// Google's, in line order.
func disagreementLines(text string, status int) []SiteDisagreement {
	f := robots.ParseResponseString(robots.Response{Status: status}, text)
	var crawlers []string
	for _, c := range robots.TrackedCrawlers() {
		crawlers = append(crawlers, c.Token)
	}
	out := []SiteDisagreement{}
	for _, dis := range f.Disagreements(crawlers) {
		sd := SiteDisagreement{Line: dis.Line, Class: dis.Class.String(), ClassDoc: classDoc(dis.Class.String())}
		if dis.Line > 0 {
			sd.Text = dis.Diagnostic(f).Text(f)
		}
		for _, e := range dis.Examples {
			sd.Examples = append(sd.Examples, e.String())
		}
		out = append(out, sd)
	}
	return out
}
