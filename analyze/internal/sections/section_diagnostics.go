package sections

import (
	"cmp"
	"slices"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/robocensus/robocensus/analyze/internal/engine"
	"github.com/robocensus/robocensus/analyze/internal/render"
	"github.com/robocensus/robocensus/analyze/internal/scan"
	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// diagnosticsSection is the prevalence of every diagnostic code: the
// captures with a finding of it, of all captures, and its rows. Every
// catalogue code is listed, found or not, and every other code found (the
// reader's, or a later version's). With them, the captures with an error
// (error_count > 0), of all captures, which the overview shows.
var diagnosticsSection = &Section{
	Name:  "diagnostics",
	Doc:   "the prevalence of every diagnostic code",
	Title: "Diagnostics",
	Needs: []engine.Need{
		{Table: engine.DiagnosticsTable, Columns: []string{"code", "severity"}},
		{Table: engine.MarksTable},
		{Table: engine.CapturesTable, Columns: []string{"error_count"}},
	},
	New:      func(engine.Params) Accumulator { return newDiagnosticsAcc() },
	Trends:   []Trend{{Name: "captures with an error", Ratio: func(c *Crawl) Ratio { return c.WithErrors }}},
	View:     func(c *Crawl, _ engine.Params) any { return diagGroups(c.Diagnostics) },
	Markdown: func(m *render.Markdown, c *Crawl, _ int) { mdDiagnostics(m, c) },
}

// diagnosticsAcc counts the findings and the captures of each code.
type diagnosticsAcc struct {
	codes    *engine.CodeTable
	cache    map[string]int
	codeOf   []int   // code number by index in a record's code dictionary
	findings []int64 // by code number
	withCode []int64 // captures with a finding, by code number
	captures int64
	errors   int64 // captures with error_count > 0
}

func newDiagnosticsAcc() *diagnosticsAcc {
	t := engine.NewCodeTable()
	return &diagnosticsAcc{codes: t, cache: t.CatalogueCache()}
}

// Add counts a record of diagnostics by code, or of captures with an
// error.
func (a *diagnosticsAcc) Add(table engine.Table, rec arrow.Record) error {
	if table == engine.CapturesTable {
		return a.addErrors(rec)
	}
	cs := scan.Columns{Rec: rec}
	codes, sev := cs.Dict("code"), cs.Dict("severity")
	if cs.Err != nil {
		return cs.Err
	}
	a.codeOf = engine.ResetInts(a.codeOf, codes.Values.Len())
	for i, x := range codes.Index {
		ci := a.codeOf[x]
		if ci < 0 {
			ci = a.codes.Lookup(a.cache, codes.Values.Value(int(x)), sev.Value(i))
			a.codeOf[x] = ci
		}
		a.findings = engine.GrowTo(a.findings, ci+1)
		a.findings[ci]++
	}
	return nil
}

// addErrors counts the captures of a record with an error.
//
//mutate:catch
func (a *diagnosticsAcc) addErrors(rec arrow.Record) error {
	errs, err := scan.Column[*array.Int32](rec, "error_count")
	if err != nil {
		return err
	}
	for i := range errs.Len() {
		if errs.Value(i) > 0 {
			a.errors++
		}
	}
	return nil
}

// AddMarks counts a capture, and its codes.
func (a *diagnosticsAcc) AddMarks(m *engine.Marks) {
	a.captures++
	for name, sev := range m.Codes() {
		ci := a.codes.Lookup(a.cache, name, sev)
		a.withCode = engine.GrowTo(a.withCode, ci+1)
		a.withCode[ci]++
	}
}

func (a *diagnosticsAcc) Merge(other engine.Accumulator) {
	o := other.(*diagnosticsAcc)
	n := len(o.codes.Names)
	findings, withCode := engine.GrowTo(o.findings, n), engine.GrowTo(o.withCode, n)
	for oi, name := range o.codes.Names {
		ci := a.codes.Lookup(a.cache, name, o.codes.Severity[oi])
		a.findings, a.withCode = engine.GrowTo(a.findings, ci+1), engine.GrowTo(a.withCode, ci+1)
		a.findings[ci] += findings[oi]
		a.withCode[ci] += withCode[oi]
	}
	a.captures += o.captures
	a.errors += o.errors
}

// Finish lists every code: errors first, then by captures and code.
func (a *diagnosticsAcc) Finish(out *Crawl) {
	n := len(a.codes.Names)
	findings, withCode := engine.GrowTo(a.findings, n), engine.GrowTo(a.withCode, n)
	shares := make([]CodeShare, n)
	for i, name := range a.codes.Names {
		shares[i] = CodeShare{
			Code: name, Severity: a.codes.Severity[i], Summary: codeSummary(name),
			Captures: Ratio{withCode[i], a.captures}, Findings: findings[i],
		}
	}
	slices.SortFunc(shares, func(a, b CodeShare) int {
		return cmp.Or(cmp.Compare(schema.SeverityRank(a.Severity), schema.SeverityRank(b.Severity)),
			cmp.Compare(b.Captures.N, a.Captures.N), strings.Compare(a.Code, b.Code))
	})
	out.Diagnostics = shares
	out.WithErrors = Ratio{a.errors, a.captures}
}

func mdDiagnostics(m *render.Markdown, c *Crawl) {
	m.Heading(3, "Diagnostics")
	m.Para("Share of all %s captures with at least one finding of each code.", render.Int(c.Captures))
	var rows [][]string
	for _, d := range c.Diagnostics {
		rows = append(rows, []string{render.Code(d.Code), d.Severity, render.Int(d.Captures.N), render.Share(d.Captures.Share()), render.Int(d.Findings), render.Escape(d.Summary)})
	}
	m.Table([]string{"code", "severity", " captures", " share", " findings", "when"}, rows)
}

// diagGroup is the codes of one severity, drawn in the HTML report.
type diagGroup struct {
	Severity string
	Title    string
	Found    []CodeShare
	Absent   []string
	Chart    *render.BarChart
}

func diagGroups(codes []CodeShare) []diagGroup {
	var out []diagGroup
	for _, sev := range []string{"error", "warning", "info"} {
		g := diagGroup{Severity: sev}
		var rows []render.BarInput
		for _, c := range codes {
			switch {
			case c.Severity != sev:
			case c.Captures.N == 0:
				g.Absent = append(g.Absent, c.Code)
			default:
				g.Found = append(g.Found, c)
				rows = append(rows, render.BarInput{Label: c.Code, Note: render.Share(c.Captures.Share()), Values: []float64{c.Captures.Share()}, Class: []string{"c-" + sev}})
			}
		}
		if len(rows) > 0 {
			g.Chart = render.NewBarChart(540, 200, 0, rows, nil, render.Share)
		}
		g.Title = render.Int(int64(len(g.Found))) + render.Plural(int64(len(g.Found)), " code found", " codes found")
		out = append(out, g)
	}
	return out
}

// codeSummary returns the catalogue's one-line summary of a code.
func codeSummary(name string) string {
	if c, ok := robots.LookupCode(name); ok {
		return c.Info().Summary
	}
	return ""
}
