package analyze

import (
	"context"
	"iter"
	"math/bits"
	"slices"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
)

// The pseudo-tables of the sections (section.go): what the passes of a
// host shard marked on its captures, fed once its passes are done.

// marksFeed feeds the marks of every capture of the shard.
func (s *crawlState) marksFeed(_ context.Context, sh *shard) error {
	if !s.secs.wants(MarksTable) {
		return nil
	}
	var m Marks
	for i := range sh.caps {
		m = Marks{c: &sh.caps[i], codes: s.codes, extra: sh.extra[uint32(i)]}
		s.secs.addMarks(&m)
	}
	return nil
}

// hostsPass reads the captures again: it feeds each host of the shard
// once, as the row of its deciding capture with the columns the sections
// ask for, each capture that decides for hosts once redirects are
// followed ("effective captures", weighted), and every capture of the
// shard as its row ("marked captures").
func (s *crawlState) hostsPass(ctx context.Context, sh *shard) error {
	hosts, marked, effective := s.secs.wants(DecidingTable), s.secs.wants(MarkedCapturesTable), s.secs.wants(EffectiveTable)
	if !hosts && !marked && !effective {
		return nil
	}
	columns := union([]string{"capture_id", "url_host_name"}, s.secs.columns(DecidingTable))
	columns = union(columns, s.secs.columns(MarkedCapturesTable))
	columns = union(columns, s.secs.columns(EffectiveTable))
	var dict []string
	if slices.Contains(columns, "outcome") {
		dict = []string{"outcome"}
	}
	var f, all, eff hostFeed
	spec := scanSpec{table: "captures", crawl: s.label, columns: columns, dict: dict}
	return s.d.scan(ctx, spec, func(_ int, rec arrow.Record) error {
		s.mu.Lock()
		defer s.mu.Unlock()
		ids, err := column[*array.String](rec, "capture_id")
		if err != nil {
			return err
		}
		f.reset()
		all.reset()
		eff.reset()
		for i := range int(rec.NumRows()) {
			ci, ok := sh.lookup(s.hash, ids.Value(i))
			if !ok {
				continue
			}
			c := &sh.caps[ci]
			if marked {
				all.add(ci, i, Marks{c: c, codes: s.codes, extra: sh.extra[ci]})
			}
			if hosts && c.flags&capDeciding != 0 && c.flags&capFed == 0 {
				c.flags |= capFed
				f.add(ci, i, Marks{c: c, codes: s.codes, extra: sh.extra[ci]})
			}
			if effective && c.weight > 0 && c.flags&capFedEffective == 0 {
				c.flags |= capFedEffective
				eff.add(ci, i, Marks{c: c, codes: s.codes, extra: sh.extra[ci]})
			}
		}
		if rows := all.rows(); len(rows) > 0 {
			if err := s.secs.addMarkedCaptures(rec, rows); err != nil {
				return err
			}
		}
		for _, feed := range []struct {
			table string
			f     *hostFeed
		}{{DecidingTable, &f}, {EffectiveTable, &eff}} {
			rows := feed.f.rows()
			if len(rows) == 0 {
				continue
			}
			cis := feed.f.cis
			if err := s.secs.addHosts(feed.table, rec, rows, func(slot, h int) *uint64 { return &sh.tallies[slot][cis[h]] }); err != nil {
				return err
			}
		}
		return nil
	})
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

// codeNumbers yields the numbers of the codes of a capture: its bits,
// then extra (its codes past maxBitCodes), ascending.
func (c *capture) codeNumbers(extra []int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for word, set := range c.codes {
			for b := set; b != 0; b &= b - 1 {
				if !yield(word*64 + bits.TrailingZeros64(b)) {
					return
				}
			}
		}
		for _, ci := range extra {
			if !yield(ci) {
				return
			}
		}
	}
}
