package analyze

import (
	"context"
	"errors"
	"iter"
	"slices"
	"sync/atomic"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/robocensus/robocensus/robots"
)

// Marked tables: what a section counts of the rows of a table by what the
// crawl passes found of their captures (read, usable, deciding, their
// diagnostic codes), without a set of every capture of the crawl.
//
// A Need with Marked set is read in every host shard, once the shard's
// passes are done: the driver looks up the capture_id of each row among
// the shard's captures and gives the section the row's [Mark]; rows of
// other shards' captures get the zero Mark. Every row of a marked table is
// thus seen once for its capture, in its capture's shard, and the
// section's state per capture lives only as long as the shard: a word of
// bits per capture of the shard (8 bytes) for a section whose accumulator
// implements [ShardAccumulator], which sets bits while the rows are read
// and counts the shard's captures by their bits when they are all read.
// The words are made after the shard's hosts are let go, so they do not
// raise the shard's peak (see "Memory and speed" in the package
// documentation). The price is time: each marked table is read again in
// every shard.

// A Mark is what the driver knows of the capture of a row of a marked
// table. The zero Mark stands for a capture of another shard (or an ID
// not in captures).
type Mark struct {
	c    *capture
	bits *uint64 // the section's word for the capture; nil without one
	run  *markRun
}

// InShard reports whether the row's capture is in the shard being read.
func (k Mark) InShard() bool { return k.c != nil }

// Read reports whether crawlers read the capture's body: status 2xx or
// none.
func (k Mark) Read() bool { return k.c != nil && k.c.flags&capRead != 0 }

// UsableHost reports whether the capture is its host's deciding capture
// and a usable robots.txt: it stands for one of [Crawl.UsableHosts].
func (k Mark) UsableHost() bool {
	return k.c != nil && k.c.flags&(capDeciding|capUsable) == capDeciding|capUsable
}

// Has reports whether the capture has a finding of the code.
func (k Mark) Has(code robots.Code) bool {
	if k.c == nil {
		return false
	}
	i := k.run.codeBit[code]
	return i >= 0 && k.c.codes[i/64]&(1<<(i%64)) != 0
}

// Set adds bits to the section's word for the capture. Workers share the
// captures, so it is atomic. It does nothing for the zero Mark, or for a
// section that is not a [ShardAccumulator].
func (k Mark) Set(b uint64) {
	if k.bits != nil {
		atomic.OrUint64(k.bits, b)
	}
}

// Bits returns the section's word for the capture.
func (k Mark) Bits() uint64 {
	if k.bits == nil {
		return 0
	}
	return atomic.LoadUint64(k.bits)
}

// A MarkedAccumulator is the accumulator of a section with Marked needs.
// AddMarked gets a record of a marked table and the Mark of each of its
// rows (marks[i] for row i; the slice is reused after the call). Add is
// never called for a marked table.
type MarkedAccumulator interface {
	Accumulator
	AddMarked(table string, rec arrow.Record, marks []Mark) error
}

// A ShardAccumulator also counts the captures of each host shard once its
// marked tables are read: Shard gets every capture of the shard, with the
// bits set for it. It is called on one of the section's accumulators, into
// which the others are merged.
type ShardAccumulator interface {
	MarkedAccumulator
	Shard(captures iter.Seq[Mark])
}

// errMarkedOnly is the error of Add on an accumulator that reads its
// tables marked.
var errMarkedOnly = errors.New("analyze: a marked section's table read unmarked")

// markRun is what the marks of one shard share.
type markRun struct {
	sh      *shard
	codeBit [256]int // by robots.Code: its bit in capture.codes, -1 when none
}

func (s *crawlState) newMarkRun(sh *shard) *markRun {
	run := &markRun{sh: sh}
	for i := range run.codeBit {
		run.codeBit[i] = -1
	}
	for _, ci := range robots.Codes() {
		if i, ok := s.codes.index[ci.Name]; ok && i < maxBitCodes {
			run.codeBit[ci.Code] = i
		}
	}
	return run
}

// markWorker is what one worker of a marked scan reuses.
type markWorker struct {
	caps  []int32 // by row: the capture's index in the shard, -1 when not in it
	marks []Mark
}

// markedPass reads the marked tables of the sections for one shard, and
// lets each ShardAccumulator count the shard's captures.
func (s *crawlState) markedPass(ctx context.Context, sh *shard) error {
	r := s.secs
	tables := r.markedTables()
	if len(tables) == 0 {
		return nil
	}
	run := s.newMarkRun(sh)
	bits := make([][]uint64, len(r.secs))
	for i, accs := range r.accs {
		if accs == nil || !r.secs[i].marked() {
			continue
		}
		if _, ok := accs[0].(ShardAccumulator); ok {
			bits[i] = make([]uint64, len(sh.caps))
		}
	}
	workers := make([]markWorker, s.d.workers())
	for _, t := range tables {
		columns, dict := r.markedColumns(t)
		spec := scanSpec{table: t, crawl: s.label, columns: columns, dict: dict}
		err := s.d.scan(ctx, spec, func(w int, rec arrow.Record) error {
			return r.addMarked(t, s, run, bits, &workers[w], w, rec)
		})
		if err != nil {
			return err
		}
	}
	for i, b := range bits {
		if b != nil {
			r.accs[i][0].(ShardAccumulator).Shard(run.captures(b))
		}
	}
	return nil
}

// addMarked finds the capture of each row of a record of a marked table,
// and gives the record to the sections that read the table marked.
func (r *sectionRun) addMarked(table string, s *crawlState, run *markRun, bits [][]uint64, mw *markWorker, w int, rec arrow.Record) error {
	if err := mw.find(table, s, run.sh, rec); err != nil {
		return err
	}
	for i, sec := range r.secs {
		if !sec.needsMarked(table) {
			continue
		}
		mw.marks = mw.marks[:0]
		for _, ci := range mw.caps {
			var k Mark
			if ci >= 0 {
				k = Mark{c: &run.sh.caps[ci], run: run}
				if bits[i] != nil {
					k.bits = &bits[i][ci]
				}
			}
			mw.marks = append(mw.marks, k)
		}
		acc, ok := r.accs[i][w].(MarkedAccumulator)
		if !ok {
			return errors.New("analyze: section " + sec.Name + " reads a marked table but its accumulator is not a MarkedAccumulator")
		}
		if err := acc.AddMarked(table, rec, mw.marks); err != nil {
			return err
		}
	}
	return nil
}

// find looks up the capture of each row of a record in the shard.
func (mw *markWorker) find(table string, s *crawlState, sh *shard, rec arrow.Record) error {
	mw.caps = mw.caps[:0]
	cs := columnSet{rec: rec}
	if table == "captures" { // one row per capture: IDs are not repeated
		ids := cs.str("capture_id")
		if cs.err != nil {
			return cs.err
		}
		for i := range ids.Len() {
			mw.caps = append(mw.caps, capIndex(sh.lookup(s.hash, ids.Value(i))))
		}
		return nil
	}
	ids := cs.dict("capture_id")
	if cs.err != nil {
		return cs.err
	}
	var l idLookup
	for i := range ids.idx {
		mw.caps = append(mw.caps, capIndex(l.lookup(sh, s.hash, ids, i)))
	}
	return nil
}

func capIndex(ci uint32, ok bool) int32 {
	if !ok {
		return -1
	}
	return int32(ci)
}

// captures returns every capture of the shard with its word of bits.
func (run *markRun) captures(bits []uint64) iter.Seq[Mark] {
	return func(yield func(Mark) bool) {
		for i := range run.sh.caps {
			if !yield(Mark{c: &run.sh.caps[i], bits: &bits[i], run: run}) {
				return
			}
		}
	}
}

// markedTables returns the tables the sections read marked, in the order
// of their first need.
func (r *sectionRun) markedTables() []string {
	var out []string
	for _, s := range r.secs {
		for _, n := range s.Needs {
			if n.Marked && !slices.Contains(out, n.Table) {
				out = append(out, n.Table)
			}
		}
	}
	return out
}

// markedColumns returns the columns of a table the sections read marked,
// capture_id first, and those read as dictionaries.
func (r *sectionRun) markedColumns(table string) (columns, dict []string) {
	columns = []string{"capture_id"}
	if table != "captures" {
		dict = []string{"capture_id"}
	}
	for _, s := range r.secs {
		for _, n := range s.Needs {
			if n.Marked && n.Table == table {
				columns, dict = union(columns, n.Columns), union(dict, n.Dict)
			}
		}
	}
	return columns, dict
}

// marked reports whether the section reads a table marked.
func (s *Section) marked() bool {
	return slices.ContainsFunc(s.Needs, func(n Need) bool { return n.Marked })
}

func (s *Section) needsMarked(table string) bool {
	return slices.ContainsFunc(s.Needs, func(n Need) bool { return n.Table == table && n.Marked })
}
