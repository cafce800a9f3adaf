package engine

import (
	"context"
	"slices"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/robocensus/robocensus/analyze/internal/scan"
)

// sectionRun feeds the sections of one crawl: one accumulator per section
// and worker, added up when the passes end.
type sectionRun struct {
	secs   []*Section
	accs   [][]Accumulator     // by section, then worker; nil once finished
	tally  []int               // by section: its tally slot in the batches, -1 for none
	tallys int                 // the number of tally slots
	words  []int               // by tally slot: the words of a capture's tally
	chosen []func(*Marks) bool // by section: the hosts it chose (Chooser), nil for none
}

// batchTables are the tables the host batches' passes read: the sections
// that need them are fed from the first batch's passes.
var batchTables = []Table{CapturesTable, DiagnosticsTable, RulesTable, AgentsTable}

func newSectionRun(secs []*Section, p Params, workers int) *sectionRun {
	r := &sectionRun{}
	for _, s := range secs {
		if s.New == nil || s.When != nil && !s.When(p) {
			continue
		}
		accs := make([]Accumulator, workers)
		for w := range accs {
			if s.Shared && w > 0 {
				accs[w] = accs[0]
			} else {
				accs[w] = s.New(p)
			}
		}
		slot := -1
		if s.keepsTally() {
			slot, r.tallys = r.tallys, r.tallys+1
			r.words = append(r.words, max(s.TallyWords, 1))
		}
		r.secs, r.accs, r.tally, r.chosen = append(r.secs, s), append(r.accs, accs), append(r.tally, slot), append(r.chosen, nil)
	}
	return r
}

// columns returns the columns of a table the sections need.
func (r *sectionRun) columns(table Table) []string {
	var out []string
	for _, s := range r.secs {
		for _, n := range s.Needs {
			if n.Table == table {
				out = union(out, n.Columns)
			}
		}
	}
	return out
}

// wants reports whether a section not yet finished needs a table.
func (r *sectionRun) wants(table Table) bool {
	for i, s := range r.secs {
		if r.accs[i] != nil && s.needs(table) {
			return true
		}
	}
	return false
}

// tables returns the tables the sections need that are read once per
// crawl (not those of the batches' passes), in the order of their first
// need.
func (r *sectionRun) tables() []Table {
	var out []Table
	for _, s := range r.secs {
		for _, n := range s.Needs {
			if !slices.Contains(batchTables, n.Table) && !isPseudo(n.Table) && !slices.Contains(out, n.Table) {
				out = append(out, n.Table)
			}
		}
	}
	return out
}

// hostTables returns the tables T of the "host T" needs, in the order of
// their first need.
func (r *sectionRun) hostTables() []Table {
	var out []Table
	for _, s := range r.secs {
		for _, n := range s.Needs {
			if t, ok := hostRowsOf(n.Table); ok && !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// add feeds a record of a table to the sections that need it.
func (r *sectionRun) add(table Table, w int, rec arrow.Record) error {
	for i, s := range r.secs {
		if r.accs[i] == nil || !s.needs(table) {
			continue
		}
		if err := r.accs[i][w].Add(table, rec); err != nil {
			return err
		}
	}
	return nil
}

// addMarks feeds the marks of a capture.
//
//mutate:catch
func (r *sectionRun) addMarks(m *Marks) {
	for i, s := range r.secs {
		if r.accs[i] != nil && s.needs(MarksTable) {
			r.accs[i][0].(MarksAdder).AddMarks(m)
		}
	}
}

// addMarkedCaptures feeds rows of captures with their marks.
func (r *sectionRun) addMarkedCaptures(rec arrow.Record, rows []CaptureRow) error {
	for i, s := range r.secs {
		if r.accs[i] == nil || !s.needs(MarkedCapturesTable) {
			continue
		}
		if err := r.accs[i][0].(MarkedCapturesAdder).AddMarkedCaptures(rec, rows); err != nil {
			return err
		}
	}
	return nil
}

// addHosts feeds hosts (of DecidingTable, EffectiveTable or
// EffectiveHostsTable) to the sections that need them; tally gives each
// host row's tally in a slot.
//
//mutate:catch
func (r *sectionRun) addHosts(table Table, rec arrow.Record, hosts []CaptureRow, tally func(slot, host int) []uint64) error {
	for i, s := range r.secs {
		if r.accs[i] == nil || !s.needs(table) {
			continue
		}
		if slot := r.tally[i]; slot >= 0 {
			for h := range hosts {
				hosts[h].Marks.tally = tally(slot, h)
			}
		}
		if err := r.accs[i][0].(HostsAdder).AddHosts(rec, hosts); err != nil {
			return err
		}
	}
	return nil
}

// choose merges the accumulators of the sections that need "chosen
// hosts" and asks each which hosts it wants.
//
//mutate:catch
func (r *sectionRun) choose() {
	for i, s := range r.secs {
		if r.accs[i] != nil && s.needs(ChosenTable) {
			r.merge(i)
			r.chosen[i] = r.accs[i][0].(Chooser).Choose()
		}
	}
}

// choosing reports whether a section chose hosts to be fed again.
func (r *sectionRun) choosing() bool {
	return slices.ContainsFunc(r.chosen, func(f func(*Marks) bool) bool { return f != nil })
}

// addChosen feeds each section that chose hosts those of a record of
// deciding captures it accepts.
func (r *sectionRun) addChosen(rec arrow.Record, hosts []CaptureRow) error {
	var rows []CaptureRow
	for i, chose := range r.chosen {
		if chose == nil {
			continue
		}
		rows = rows[:0]
		for _, h := range hosts {
			if chose(h.Marks) {
				rows = append(rows, h)
			}
		}
		if len(rows) == 0 {
			continue
		}
		if err := r.accs[i][0].(Chooser).AddChosen(rec, rows); err != nil {
			return err
		}
	}
	return nil
}

// readBodies gives the sections that show bodies their texts.
func (r *sectionRun) readBodies(ctx context.Context, d *scan.Dataset, crawl string) error {
	for i := range r.secs {
		if r.accs[i] == nil {
			continue
		}
		b, ok := r.accs[i][0].(BodyReader)
		if !ok {
			continue
		}
		r.merge(i)
		texts, err := d.FindBodies(ctx, crawl, b.Digests())
		if err != nil {
			return err
		}
		b.Bodies(texts)
	}
	return nil
}

// addHostRows feeds the rows of a table of deciding captures; tally
// gives each run's tally in a slot.
func (r *sectionRun) addHostRows(table Table, w int, rec arrow.Record, runs []HostRun, tally func(slot, run int) []uint64) error {
	pseudo := HostRowsTable(table)
	for i, s := range r.secs {
		if r.accs[i] == nil || !s.needs(pseudo) {
			continue
		}
		for j := range runs {
			runs[j].Marks.tally = tally(r.tally[i], j)
		}
		if err := r.accs[i][w].(HostRowsAdder).AddHostRows(table, rec, runs); err != nil {
			return err
		}
	}
	return nil
}

// merge adds the workers' accumulators of section i into the first.
//
//mutate:catch
func (r *sectionRun) merge(i int) {
	accs := r.accs[i]
	for _, a := range accs[1:] {
		if a != accs[0] { // a Shared section's workers share one
			accs[0].Merge(a)
		}
	}
	r.accs[i] = accs[:1]
}

// scanTables reads once each table the sections need that the batches'
// passes do not read.
func (r *sectionRun) scanTables(ctx context.Context, d *scan.Dataset, crawl string) error {
	for _, t := range r.tables() {
		spec := scan.Spec{Table: t.name, Crawl: crawl, Columns: r.columns(t)}
		if err := d.Scan(ctx, spec, func(w int, rec arrow.Record) error { return r.add(t, w, rec) }); err != nil {
			return err
		}
	}
	return nil
}

// finish merges the workers' accumulators and finishes the sections that
// need only the tables given (all when none is given), and lets their
// state go.
//
//mutate:catch
func (r *sectionRun) finish(tables ...Table) {
	for i, s := range r.secs {
		if r.accs[i] == nil || len(tables) > 0 && !s.needsOnly(tables) {
			continue
		}
		r.merge(i)
		s.Finish(r.accs[i][0])
		r.accs[i] = nil
	}
}

// union returns a followed by the values of b not in a.
//
//mutate:catch
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, v := range b {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// needsOnly reports whether the section reads only the tables given.
func (s *Section) needsOnly(tables []Table) bool {
	return !slices.ContainsFunc(s.Needs, func(n Need) bool { return !slices.Contains(tables, n.Table) })
}

// keepsTally reports whether the section keeps a tally per host: it
// needs a "host T" table.
func (s *Section) keepsTally() bool {
	return slices.ContainsFunc(s.Needs, func(n Need) bool {
		_, host := hostRowsOf(n.Table)
		return host
	})
}

//mutate:catch
func (s *Section) needs(table Table) bool {
	return slices.ContainsFunc(s.Needs, func(n Need) bool { return n.Table == table })
}
