package analyze

import (
	"cmp"
	"slices"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
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
	Needs: []Need{
		{Table: DiagnosticsTable, Columns: []string{"code", "severity"}},
		{Table: MarksTable},
		{Table: CapturesTable, Columns: []string{"error_count"}},
	},
	New:      func(Params) Accumulator { return newDiagnosticsAcc() },
	Trends:   []Trend{{Name: "captures with an error", Ratio: func(c *Crawl) Ratio { return c.WithErrors }}},
	View:     func(c *Crawl, _ Params) any { return diagGroups(c.Diagnostics) },
	Markdown: func(m *mdWriter, c *Crawl, _ int) { mdDiagnostics(m, c) },
}

// diagnosticsAcc counts the findings and the captures of each code.
type diagnosticsAcc struct {
	codes    *codeTable
	cache    map[string]int
	codeOf   []int   // code number by index in a record's code dictionary
	findings []int64 // by code number
	withCode []int64 // captures with a finding, by code number
	captures int64
	errors   int64 // captures with error_count > 0
}

func newDiagnosticsAcc() *diagnosticsAcc {
	t := newCodeTable()
	return &diagnosticsAcc{codes: t, cache: t.catalogueCache()}
}

// Add counts a record of diagnostics by code, or of captures with an
// error.
func (a *diagnosticsAcc) Add(table Table, rec arrow.Record) error {
	if table == CapturesTable {
		return a.addErrors(rec)
	}
	cs := columnSet{rec: rec}
	codes, sev := cs.dict("code"), cs.dict("severity")
	if cs.err != nil {
		return cs.err
	}
	a.codeOf = resetInts(a.codeOf, codes.vals.Len())
	for i, x := range codes.idx {
		ci := a.codeOf[x]
		if ci < 0 {
			ci = a.codes.lookup(a.cache, codes.vals.Value(int(x)), sev.value(i))
			a.codeOf[x] = ci
		}
		a.findings = growTo(a.findings, ci+1)
		a.findings[ci]++
	}
	return nil
}

// addErrors counts the captures of a record with an error.
//
//mutate:catch
func (a *diagnosticsAcc) addErrors(rec arrow.Record) error {
	errs, err := column[*array.Int32](rec, "error_count")
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
func (a *diagnosticsAcc) AddMarks(m *Marks) {
	a.captures++
	for name, sev := range m.Codes() {
		ci := a.codes.lookup(a.cache, name, sev)
		a.withCode = growTo(a.withCode, ci+1)
		a.withCode[ci]++
	}
}

func (a *diagnosticsAcc) Merge(other batchAcc) {
	o := other.(*diagnosticsAcc)
	n := len(o.codes.names)
	findings, withCode := growTo(o.findings, n), growTo(o.withCode, n)
	for oi, name := range o.codes.names {
		ci := a.codes.lookup(a.cache, name, o.codes.severity[oi])
		a.findings, a.withCode = growTo(a.findings, ci+1), growTo(a.withCode, ci+1)
		a.findings[ci] += findings[oi]
		a.withCode[ci] += withCode[oi]
	}
	a.captures += o.captures
	a.errors += o.errors
}

// Finish lists every code: errors first, then by captures and code.
func (a *diagnosticsAcc) Finish(out *Crawl) {
	n := len(a.codes.names)
	findings, withCode := growTo(a.findings, n), growTo(a.withCode, n)
	shares := make([]CodeShare, n)
	for i, name := range a.codes.names {
		shares[i] = CodeShare{
			Code: name, Severity: a.codes.severity[i], Summary: codeSummary(name),
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

func mdDiagnostics(m *mdWriter, c *Crawl) {
	m.heading(3, "Diagnostics")
	m.para("Share of all %s captures with at least one finding of each code.", fmtInt(c.Captures))
	var rows [][]string
	for _, d := range c.Diagnostics {
		rows = append(rows, []string{code(d.Code), d.Severity, fmtInt(d.Captures.N), fmtShare(d.Captures.Share()), fmtInt(d.Findings), md(d.Summary)})
	}
	m.table([]string{"code", "severity", " captures", " share", " findings", "when"}, rows)
}

// diagGroup is the codes of one severity, drawn in the HTML report.
type diagGroup struct {
	Severity string
	Title    string
	Found    []CodeShare
	Absent   []string
	Chart    *barChart
}

func diagGroups(codes []CodeShare) []diagGroup {
	var out []diagGroup
	for _, sev := range []string{"error", "warning", "info"} {
		g := diagGroup{Severity: sev}
		var rows []barInput
		for _, c := range codes {
			switch {
			case c.Severity != sev:
			case c.Captures.N == 0:
				g.Absent = append(g.Absent, c.Code)
			default:
				g.Found = append(g.Found, c)
				rows = append(rows, barInput{label: c.Code, note: fmtShare(c.Captures.Share()), values: []float64{c.Captures.Share()}, class: []string{"c-" + sev}})
			}
		}
		if len(rows) > 0 {
			g.Chart = newBarChart(540, 200, 0, rows, nil, fmtShare)
		}
		g.Title = fmtInt(int64(len(g.Found))) + plural(int64(len(g.Found)), " code found", " codes found")
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
