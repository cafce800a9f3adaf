package engine

import (
	"context"
	"slices"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/robocensus/robocensus/analyze/internal/scan"
)

// The "host T" passes: the rows of a table keyed by capture_id (agents,
// directives, preferences) of each effective capture of the batch
// (effective.go), fed in runs of one capture. The agents table has a row per capture and tracked
// crawler (some 180 per capture). It is read once per batch, its string
// columns as dictionaries, so that a row costs a few indices: the first
// batch feeds every record to the sections that need "agents", and every
// batch feeds the runs of rows of its effective captures to those that
// need "host agents". The other "host T" tables are read once per batch
// each, after agents, for all the sections that need them.

// hostDictColumns are the string columns of the "host T" tables read as
// dictionaries when asked for: repeated values, looked at once per record.
var hostDictColumns = []string{"capture_id", "agent", "verdict", "key", "source", "category", "path", "semantics", "class", "template", "version"}

// makeTallies makes the batch's tallies, once its hosts are let go.
func (s *crawlState) makeTallies(_ context.Context, hb *batch) error {
	for k := range hb.tallies {
		hb.tallies[k] = make([]uint64, len(hb.caps)*s.secs.words[k])
	}
	return nil
}

// tallyOf returns the tally of capture ci of the batch in a slot: its
// words.
func (s *crawlState) tallyOf(hb *batch, slot int, ci uint32) []uint64 {
	n := s.secs.words[slot]
	at := int(ci) * n
	return hb.tallies[slot][at : at+n : at+n]
}

// agentsPass feeds the agents of the batch's effective captures, and in
// the first batch every row of agents.
func (s *crawlState) agentsPass(ctx context.Context, hb *batch) error {
	return s.hostRowsPass(ctx, hb, AgentsTable)
}

// hostTablesPass feeds the rows of the effective captures of the batch of
// each "host T" table but agents.
func (s *crawlState) hostTablesPass(ctx context.Context, hb *batch) error {
	for _, t := range s.secs.hostTables() {
		if t == AgentsTable {
			continue
		}
		if err := s.hostRowsPass(ctx, hb, t); err != nil {
			return err
		}
	}
	return nil
}

// hostRowsPass reads a table once for the batch: it feeds the runs of
// rows of the effective captures to the sections that need "host T", and
// in the counting batch every record to those that need the table
// itself when the batch's passes feed it (agents).
func (s *crawlState) hostRowsPass(ctx context.Context, hb *batch, table Table) error {
	pseudo := HostRowsTable(table)
	all := hb.counting && slices.Contains(batchTables, table) && s.secs.wants(table)
	if !s.secs.wants(pseudo) && !all {
		return nil
	}
	columns := union([]string{"capture_id"}, s.secs.columns(pseudo))
	if all {
		columns = union(columns, s.secs.columns(table))
	}
	feeds := make([]runFeed, s.d.Workers())
	spec := scan.Spec{Table: table.name, Crawl: s.label, Columns: columns, Dict: dictColumns(columns, hostDictColumns...)}
	return s.d.Scan(ctx, spec, func(w int, rec arrow.Record) error {
		if all {
			if err := s.secs.add(table, w, rec); err != nil {
				return err
			}
		}
		return s.feedHostRows(hb, table, w, &feeds[w], rec)
	})
}

// dictColumns returns the columns given that are read, as dictionaries.
func dictColumns(read []string, dict ...string) []string {
	var out []string
	for _, c := range dict {
		if slices.Contains(read, c) {
			out = append(out, c)
		}
	}
	return out
}

// feedHostRows feeds the runs of rows of the record that belong to an
// effective capture of the batch.
func (s *crawlState) feedHostRows(hb *batch, table Table, w int, f *runFeed, rec arrow.Record) error {
	if !s.secs.wants(HostRowsTable(table)) {
		return nil
	}
	cs := scan.Columns{Rec: rec}
	ids := cs.Dict("capture_id")
	if cs.Err != nil {
		return cs.Err
	}
	n := len(ids.Index)
	f.reset()
	for i := 0; i < n; { // one run of rows of a capture at a time
		j := i + 1
		for j < n && ids.Index[j] == ids.Index[i] {
			j++
		}
		if ci, ok := hb.lookup(s.hash, ids.Value(i)); ok && hb.caps[ci].weight > 0 {
			f.add(ci, Marks{c: &hb.caps[ci], codes: s.codes, extra: hb.extra[ci]}, i, j)
		}
		i = j
	}
	runs := f.runs()
	if len(runs) == 0 {
		return nil
	}
	return s.secs.addHostRows(table, w, rec, runs, func(slot, run int) []uint64 { return s.tallyOf(hb, slot, f.cis[run]) })
}

// runFeed gathers the runs of rows of deciding captures of a record.
type runFeed struct {
	cis   []uint32
	marks []Marks
	spans [][2]int
	out   []HostRun
}

func (f *runFeed) reset() { f.cis, f.marks, f.spans = f.cis[:0], f.marks[:0], f.spans[:0] }

func (f *runFeed) add(ci uint32, m Marks, from, to int) {
	f.cis, f.marks, f.spans = append(f.cis, ci), append(f.marks, m), append(f.spans, [2]int{from, to})
}

// runs returns the runs gathered, pointing into the feed.
func (f *runFeed) runs() []HostRun {
	f.out = f.out[:0]
	for k, sp := range f.spans {
		f.out = append(f.out, HostRun{From: sp[0], To: sp[1], Marks: &f.marks[k]})
	}
	return f.out
}
