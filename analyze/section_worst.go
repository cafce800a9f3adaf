package analyze

import (
	"slices"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
)

// worstSection ranks the hosts by the errors of their deciding capture,
// then its warnings, then by name.
var worstSection = &Section{
	Name:     "worst",
	Doc:      "the hosts with the most errors",
	Title:    "Worst hosts",
	Needs:    []Need{{Table: DecidingTable, Columns: []string{"error_count", "warning_count"}}},
	New:      func(p Params) Accumulator { return &worstAcc{list: topN[worstHost]{n: p.Top, less: worstBefore}} },
	Markdown: func(m *mdWriter, c *Crawl, _ int) { mdWorst(m, c.WorstHosts) },
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

func (a *worstAcc) Add(Table, arrow.Record) error { return nil }

// AddHosts offers the hosts with an error to the list.
func (a *worstAcc) AddHosts(rec arrow.Record, hosts []CaptureRow) error {
	cs := columnSet{rec: rec}
	ids, names, errs, warns := cs.str("capture_id"), cs.str("url_host_name"), cs.i32("error_count"), cs.i32("warning_count")
	if cs.err != nil {
		return cs.err
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
func errorCodes(m *Marks) []string {
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
func (a *worstAcc) Merge(other batchAcc) {
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

func mdWorst(m *mdWriter, hosts []HostErrors) {
	m.heading(3, "Hosts with the most errors")
	var rows [][]string
	for _, h := range hosts {
		var codes []string
		for _, c := range h.Codes {
			codes = append(codes, code(c))
		}
		rows = append(rows, []string{code(h.Host), fmtInt(int64(h.Errors)), fmtInt(int64(h.Warnings)), strings.Join(codes, ", "), code(h.CaptureID)})
	}
	if len(rows) == 0 {
		m.para("No host has an error.")
		return
	}
	m.table([]string{"host", " errors", " warnings", "error codes", "capture"}, rows)
}
