package engine

import (
	"context"
	"slices"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"

	"github.com/robocensus/robocensus/analyze/internal/scan"
)

// The pseudo-tables of the sections (section.go): what the passes of a
// host batch marked on its captures, fed once its passes are done.

// marksFeed feeds the marks of every capture of the batch.
func (s *crawlState) marksFeed(_ context.Context, hb *batch) error {
	if !s.secs.wants(MarksTable) {
		return nil
	}
	var m Marks
	for i := range hb.caps {
		m = Marks{c: &hb.caps[i], codes: s.codes, extra: hb.extra[uint32(i)]}
		s.secs.addMarks(&m)
	}
	return nil
}

// hostsPass reads the captures again: it feeds each host of the batch
// once, as the row of its deciding capture with the columns the sections
// ask for, each capture that decides for hosts once redirects are
// followed ("effective captures", weighted; "effective hosts", named), and
// every capture of the batch as its row ("marked captures"). Once the
// sections have chosen hosts (from the last batch on), it also feeds
// those; in a batch indexed again, only those.
func (s *crawlState) hostsPass(ctx context.Context, hb *batch) error {
	first := hb.round == roundMain // not a batch indexed again
	hosts, marked, chosen := first && s.secs.wants(DecidingTable), first && s.secs.wants(MarkedCapturesTable), s.secs.choosing()
	named := first && s.secs.wants(EffectiveHostsTable)
	effective := named || first && s.secs.wants(EffectiveTable)
	if !hosts && !marked && !chosen && !effective {
		return nil
	}
	columns := []string{"capture_id", "url_host_name"}
	for _, feed := range []struct {
		table Table
		fed   bool
	}{{DecidingTable, hosts}, {MarkedCapturesTable, marked}, {ChosenTable, chosen}, {EffectiveTable, effective}, {EffectiveHostsTable, named}} {
		if feed.fed {
			columns = union(columns, s.secs.columns(feed.table))
		}
	}
	var dict []string
	if slices.Contains(columns, "outcome") {
		dict = []string{"outcome"}
	}
	var f, all, eff hostFeed
	spec := scan.Spec{Table: CapturesTable.name, Crawl: s.label, Columns: columns, Dict: dict}
	return s.d.Scan(ctx, spec, func(_ int, rec arrow.Record) error {
		s.mu.Lock()
		defer s.mu.Unlock()
		ids, err := scan.Column[*array.String](rec, "capture_id")
		if err != nil {
			return err
		}
		own, err := scan.Column[*array.String](rec, "url_host_name")
		if err != nil {
			return err
		}
		f.reset()
		all.reset()
		eff.reset()
		for i := range int(rec.NumRows()) {
			ci, ok := hb.lookup(s.hash, ids.Value(i))
			if !ok {
				continue
			}
			c := &hb.caps[ci]
			if marked {
				all.add(ci, i, Marks{c: c, codes: s.codes, extra: hb.extra[ci]})
			}
			if (hosts || chosen) && c.flags&capDeciding != 0 && c.flags&capFed == 0 {
				c.flags |= capFed
				f.add(ci, i, Marks{c: c, codes: s.codes, extra: hb.extra[ci]})
			}
			if effective && c.weight > 0 && c.flags&capFedEffective == 0 {
				c.flags |= capFedEffective
				m := Marks{c: c, codes: s.codes, extra: hb.extra[ci]}
				if named {
					m.hosts = s.hostsOf(hb, ci, own.Value(i))
				}
				eff.add(ci, i, m)
			}
		}
		if rows := all.rows(); len(rows) > 0 {
			if err := s.secs.addMarkedCaptures(rec, rows); err != nil {
				return err
			}
		}
		if rows := f.rows(); len(rows) > 0 {
			if chosen {
				if err := s.secs.addChosen(rec, rows); err != nil {
					return err
				}
			}
			if hosts {
				if err := s.secs.addHosts(DecidingTable, rec, rows, func(slot, h int) []uint64 { return s.tallyOf(hb, slot, f.cis[h]) }); err != nil {
					return err
				}
			}
		}
		if rows := eff.rows(); len(rows) > 0 {
			for _, table := range []Table{EffectiveTable, EffectiveHostsTable} {
				if err := s.secs.addHosts(table, rec, rows, func(slot, h int) []uint64 { return s.tallyOf(hb, slot, eff.cis[h]) }); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// choose asks the sections that rank hosts which they want fed again,
// once the last batch's marks are fed.
func (s *crawlState) choose(context.Context, *batch) error {
	s.secs.choose()
	return nil
}

// chosenHosts feeds the hosts the sections chose in the batches before the
// last (whose hosts pass fed its own): it indexes each again, reading only
// the columns that decide the hosts' deciding captures and whether they
// are usable.
func (s *crawlState) chosenHosts(ctx context.Context) error {
	if !s.secs.choosing() {
		return nil
	}
	for i := range s.batches - 1 {
		hb := s.newBatch(i, roundAgain)
		if err := s.capturesPass(ctx, hb); err != nil {
			return err
		}
		s.markUsable(hb)
		if err := s.hostsPass(ctx, hb); err != nil {
			return err
		}
	}
	return nil
}

// hostFeed gathers the hosts of a record.
type hostFeed struct {
	cis   []uint32
	marks []Marks
	at    []int
	out   []CaptureRow
}

func (f *hostFeed) reset() { f.cis, f.marks, f.at = f.cis[:0], f.marks[:0], f.at[:0] }

func (f *hostFeed) add(ci uint32, row int, m Marks) {
	f.cis, f.marks, f.at = append(f.cis, ci), append(f.marks, m), append(f.at, row)
}

// rows returns the hosts gathered, pointing into the feed.
func (f *hostFeed) rows() []CaptureRow {
	f.out = f.out[:0]
	for k, row := range f.at {
		f.out = append(f.out, CaptureRow{Row: row, Marks: &f.marks[k]})
	}
	return f.out
}
