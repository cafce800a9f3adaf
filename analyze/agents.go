package analyze

import (
	"context"
	"slices"

	"github.com/apache/arrow/go/v15/arrow"
)

// The agents pass: the agents table has a row per capture and tracked
// crawler (some 180 per capture). It is read once per shard, its string
// columns as dictionaries, so that a row costs a few indices: the first
// shard feeds every record to the sections that need "agents", and every
// shard feeds the runs of rows of its deciding captures to those that
// need "host agents".

// agentsPass feeds the agents of the shard's deciding captures.
func (s *crawlState) agentsPass(ctx context.Context, sh *shard) error {
	if !s.secs.wants(HostAgentsTable) && !(sh.counting && s.secs.wants("agents")) {
		return nil
	}
	columns := union([]string{"capture_id"}, s.secs.columns(HostAgentsTable))
	if sh.counting {
		columns = union(columns, s.secs.columns("agents"))
	}
	for k := range sh.tallies {
		sh.tallies[k] = make([]uint32, len(sh.caps))
	}
	feeds := make([]runFeed, s.d.workers())
	spec := scanSpec{table: "agents", crawl: s.label, columns: columns, dict: dictColumns(columns, "capture_id", "agent", "verdict")}
	return s.d.scan(ctx, spec, func(w int, rec arrow.Record) error {
		if sh.counting {
			if err := s.secs.add("agents", w, rec); err != nil {
				return err
			}
		}
		return s.feedHostAgents(sh, w, &feeds[w], rec)
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

// feedHostAgents feeds the runs of rows of the record that belong to a
// deciding capture of the shard.
func (s *crawlState) feedHostAgents(sh *shard, w int, f *runFeed, rec arrow.Record) error {
	if !s.secs.wants(HostAgentsTable) {
		return nil
	}
	cs := columnSet{rec: rec}
	ids := cs.dict("capture_id")
	if cs.err != nil {
		return cs.err
	}
	n := len(ids.idx)
	f.reset()
	for i := 0; i < n; { // one run of rows of a capture at a time
		j := i + 1
		for j < n && ids.idx[j] == ids.idx[i] {
			j++
		}
		if ci, ok := sh.lookup(s.hash, ids.value(i)); ok && sh.caps[ci].flags&capDeciding != 0 {
			f.add(ci, Marks{c: &sh.caps[ci], codes: s.codes, extra: sh.extra[ci]}, i, j)
		}
		i = j
	}
	runs := f.runs()
	if len(runs) == 0 {
		return nil
	}
	return s.secs.addHostAgents(w, rec, runs, func(slot, run int) *uint32 { return &sh.tallies[slot][f.cis[run]] })
}

// runFeed gathers the runs of rows of deciding captures of a record.
type runFeed struct {
	cis   []uint32
	marks []Marks
	spans [][2]int
	out   []AgentRun
}

func (f *runFeed) reset() { f.cis, f.marks, f.spans = f.cis[:0], f.marks[:0], f.spans[:0] }

func (f *runFeed) add(ci uint32, m Marks, from, to int) {
	f.cis, f.marks, f.spans = append(f.cis, ci), append(f.marks, m), append(f.spans, [2]int{from, to})
}

// runs returns the runs gathered, pointing into the feed.
func (f *runFeed) runs() []AgentRun {
	f.out = f.out[:0]
	for k, sp := range f.spans {
		f.out = append(f.out, AgentRun{From: sp[0], To: sp[1], Marks: &f.marks[k]})
	}
	return f.out
}
