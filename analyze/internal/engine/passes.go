package engine

import (
	"context"
	"maps"
	"slices"
	"sync/atomic"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/robocensus/robocensus/analyze/internal/scan"
	"github.com/robocensus/robocensus/robots"
)

// The passes over diagnostics and rules, once per batch: each worker
// marks the batch's captures (atomically). In the first batch, they feed
// every record to the sections that need the table. capture_id and the
// other repetitive string columns are read as dictionaries: a value is
// looked at once per record, not once per row.

// diagWorker is what one worker of a diagnostics pass keeps.
type diagWorker struct {
	cache  map[string]int
	codeOf []int                  // code number by index in the record's code dictionary, -1 until known
	extra  map[[2]uint64]struct{} // {code, capture index} for codes past maxBitCodes
}

// diagnosticsPass marks which captures of the batch have a finding of
// each code.
func (s *crawlState) diagnosticsPass(ctx context.Context, hb *batch) error {
	columns := []string{"capture_id", "code", "severity"}
	if hb.counting {
		columns = union(columns, s.secs.columns(DiagnosticsTable))
	}
	workers := make([]*diagWorker, s.d.Workers())
	for i := range workers {
		workers[i] = &diagWorker{cache: s.codes.CatalogueCache(), extra: map[[2]uint64]struct{}{}}
	}
	spec := scan.Spec{Table: "diagnostics", Crawl: s.label, Columns: columns, Dict: []string{"capture_id", "code", "severity"}}
	err := s.d.Scan(ctx, spec, func(w int, rec arrow.Record) error {
		if hb.counting {
			if err := s.secs.add(DiagnosticsTable, w, rec); err != nil {
				return err
			}
		}
		return s.addDiagnostics(hb, workers[w], rec)
	})
	if err != nil {
		return err
	}
	if hb.round == roundMain {
		s.finishDiagnostics(hb, workers)
	}
	return nil
}

func (s *crawlState) addDiagnostics(hb *batch, w *diagWorker, rec arrow.Record) error {
	cs := scan.Columns{Rec: rec}
	ids, codes, sev := cs.Dict("capture_id"), cs.Dict("code"), cs.Dict("severity")
	if cs.Err != nil {
		return cs.Err
	}
	w.codeOf = ResetInts(w.codeOf, codes.Values.Len())
	var l idLookup
	for i := range int(rec.NumRows()) {
		ci := w.code(s.codes, codes, sev, i)
		capIdx, ok := l.lookup(hb, s.hash, ids, i)
		switch {
		case !ok:
		case ci < maxBitCodes:
			atomic.OrUint64(&hb.caps[capIdx].codes[ci/64], 1<<(ci%64))
		default:
			w.extra[[2]uint64{uint64(ci), uint64(capIdx)}] = struct{}{}
		}
	}
	return nil
}

// code returns the number of the code of row i.
func (w *diagWorker) code(t *CodeTable, codes, sev scan.DictColumn, i int) int {
	x := codes.Index[i]
	if ci := w.codeOf[x]; ci >= 0 {
		return ci
	}
	ci := t.Lookup(w.cache, codes.Values.Value(int(x)), sev.Value(i))
	w.codeOf[x] = ci
	return ci
}

// resetInts returns a slice of n values -1, reusing s.
func ResetInts(s []int, n int) []int {
	s = slices.Grow(s[:0], n)[:n]
	for i := range s {
		s[i] = -1
	}
	return s
}

// finishDiagnostics gathers the workers' codes past maxBitCodes by capture.
func (s *crawlState) finishDiagnostics(hb *batch, workers []*diagWorker) {
	hb.extra = map[uint32][]int{}
	for _, w := range workers {
		for k := range w.extra {
			if !slices.Contains(hb.extra[uint32(k[1])], int(k[0])) {
				hb.extra[uint32(k[1])] = append(hb.extra[uint32(k[1])], int(k[0]))
			}
		}
	}
	for _, codes := range hb.extra {
		slices.Sort(codes)
	}
}

// growTo returns s with at least n values, the new ones 0.
func GrowTo(s []int64, n int) []int64 {
	for len(s) < n {
		s = append(s, 0)
	}
	return s
}

// rulesPass marks the batch's captures with an end-anchored rule; in the
// counting batch, it feeds the rules to the sections.
func (s *crawlState) rulesPass(ctx context.Context, hb *batch) error {
	columns := []string{"capture_id", "has_end_anchor"}
	if hb.counting {
		columns = union(columns, s.secs.columns(RulesTable))
	}
	dict := []string{"capture_id"}
	if slices.Contains(columns, "directive") {
		dict = append(dict, "directive")
	}
	spec := scan.Spec{Table: "rules", Crawl: s.label, Columns: columns, Dict: dict}
	return s.d.Scan(ctx, spec, func(w int, rec arrow.Record) error {
		if hb.counting {
			if err := s.secs.add(RulesTable, w, rec); err != nil {
				return err
			}
		}
		return s.markEndAnchors(hb, rec)
	})
}

// markEndAnchors marks the captures of a record of rules with an
// end-anchored rule.
func (s *crawlState) markEndAnchors(hb *batch, rec arrow.Record) error {
	cs := scan.Columns{Rec: rec}
	ids, end := cs.Dict("capture_id"), cs.Boolean("has_end_anchor")
	if cs.Err != nil {
		return cs.Err
	}
	var l idLookup
	for i := range int(rec.NumRows()) {
		if !end.Value(i) {
			continue
		}
		if ci, ok := l.lookup(hb, s.hash, ids, i); ok {
			atomic.OrUint32(&hb.caps[ci].flags, capEndAnchor)
		}
	}
	return nil
}

// finishMarks decides which captures of the batch are usable robots.txt
// files.
func (s *crawlState) finishMarks(_ context.Context, hb *batch) error {
	s.markUsable(hb)
	return nil
}

// markUsable marks the captures of the batch that are usable robots.txt
// files: those whose outcome is (robots.Outcome.Usable).
func (s *crawlState) markUsable(hb *batch) {
	usable := make([]bool, len(s.outcomes))
	for i, name := range s.outcomes {
		o, ok := robots.ParseOutcome(name)
		usable[i] = ok && o.Usable()
	}
	for i := range hb.caps {
		c := &hb.caps[i]
		if o := int(c.outcome()); o < len(usable) && usable[o] {
			c.flags |= capUsable
		}
	}
}

func (s *crawlState) outcomeIdx(o robots.Outcome) uint8 {
	return uint8(slices.Index(s.outcomes, o.String()))
}

// clip cuts s to at most n bytes at a rune boundary, marking the cut.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 { // do not split a UTF-8 sequence
		cut--
	}
	return s[:cut] + "…"
}

// sortedKeys returns the keys of m, sorted.
func SortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
