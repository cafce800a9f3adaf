package sections

import (
	"slices"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/robocensus/robocensus/analyze/internal/engine"
	"github.com/robocensus/robocensus/analyze/internal/render"
	"github.com/robocensus/robocensus/analyze/internal/scan"
)

// worstSection ranks the hosts by the errors of their deciding capture,
// then its warnings, then by name.
var worstSection = &Section{
	Name:  "worst",
	Doc:   "the hosts with the most errors",
	Title: "Worst hosts",
	Needs: []engine.Need{{Table: engine.DecidingTable, Columns: []string{"error_count", "warning_count"}}},
	New: func(p engine.Params) Accumulator {
		return &worstAcc{list: topN[worstHost]{n: p.Top, less: worstBefore}}
	},
	Markdown: func(m *render.Markdown, c *Crawl, _ int) { mdWorst(m, c.WorstHosts) },
}

// worstAcc keeps the first hosts.
type worstAcc struct {
	list topN[worstHost]
}

// worstHost is a candidate of the worst hosts list.
type worstHost struct {
	host, id         string
	errors, warnings int32
	codes            []string // its codes of severity error, sorted
}

func worstBefore(a, b *worstHost) bool {
	if a.errors != b.errors {
		return a.errors > b.errors
	}
	if a.warnings != b.warnings {
		return a.warnings > b.warnings
	}
	return a.host < b.host
}

func (a *worstAcc) Add(engine.Table, arrow.Record) error { return nil }

// AddHosts offers the hosts with an error to the list.
func (a *worstAcc) AddHosts(rec arrow.Record, hosts []engine.CaptureRow) error {
	cs := scan.Columns{Rec: rec}
	ids, names, errs, warns := cs.Str("capture_id"), cs.Str("url_host_name"), cs.I32("error_count"), cs.I32("warning_count")
	if cs.Err != nil {
		return cs.Err
	}
	for _, h := range hosts {
		w := worstHost{host: names.Value(h.Row), id: ids.Value(h.Row), errors: errs.Value(h.Row), warnings: warns.Value(h.Row)}
		if w.errors == 0 || !a.list.admits(&w) {
			continue
		}
		w.host, w.id, w.codes = strings.Clone(w.host), strings.Clone(w.id), errorCodes(h.Marks)
		a.list.add(w)
	}
	return nil
}

// errorCodes returns the codes of severity error a capture has, sorted.
//
//mutate:catch
func errorCodes(m *engine.Marks) []string {
	out := []string{}
	for name, sev := range m.Codes() {
		if sev == "error" {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// Merge adds another worker's list: only the first accumulator is fed
// "deciding captures" (Need), so the others are empty.
//
//mutate:skip the others are empty: no test can see it go
func (a *worstAcc) Merge(other engine.Accumulator) {
	for _, w := range other.(*worstAcc).list.items {
		a.list.add(w)
	}
}

func (a *worstAcc) Finish(out *Crawl) {
	out.WorstHosts = []HostErrors{}
	for _, w := range a.list.items {
		out.WorstHosts = append(out.WorstHosts, HostErrors{Host: w.host, CaptureID: w.id, Errors: w.errors, Warnings: w.warnings, Codes: w.codes})
	}
}

func mdWorst(m *render.Markdown, hosts []HostErrors) {
	m.Heading(3, "Hosts with the most errors")
	var rows [][]string
	for _, h := range hosts {
		var codes []string
		for _, c := range h.Codes {
			codes = append(codes, render.Code(c))
		}
		rows = append(rows, []string{render.Code(h.Host), render.Int(int64(h.Errors)), render.Int(int64(h.Warnings)), strings.Join(codes, ", "), render.Code(h.CaptureID)})
	}
	if len(rows) == 0 {
		m.Para("No host has an error.")
		return
	}
	m.Table([]string{"host", " errors", " warnings", "error codes", "capture"}, rows)
}
