package engine

import (
	"context"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/robocensus/robocensus/analyze/internal/scan"
	"github.com/robocensus/robocensus/schema"
)

// Host batches: the captures of a crawl partition are split by a hash of
// url_host_name into batches processed one after the other, so that the
// state kept per capture is that of one batch, whatever the crawl's size.
// The package documentation ("Memory and speed") gives the memory model.

// DefaultBatchCaptures is the most captures a host batch holds when the
// number of batches is chosen from the row counts of the captures files'
// footers: a crawl partition of n captures is split into
// ceil(n / DefaultBatchCaptures) batches. Hash batches are not exactly even:
// a batch holds its share of the captures give or take a few standard
// deviations (√(n/P)), well under 1% at this size. [WithHostBatches] sets
// the number of batches instead.
const DefaultBatchCaptures = 1 << 20

// batchRound says why a batch is being indexed.
type batchRound uint8

const (
	roundMain  batchRound = iota // the figures of the batch's captures
	roundAgain                   // again, for the hosts the sections chose (ChosenTable)
)

// batch is what the passes keep of the captures of one host batch: the
// captures whose url_host_name hashes to it, and their hosts until the
// deciding captures are marked.
type batch struct {
	index, of int        // this batch, of how many
	round     batchRound // why it is indexed
	counting  bool       // the passes also count every row of the tables (the first batch)

	caps []capture
	ids  idTable // finds captures by ID hash

	hostIdx map[uint64]uint32 // host name hash -> index in hosts, until finishIndex
	hosts   []host
	keys    scan.CaptureKeys

	extra   map[uint32][]int // codes past maxBitCodes, by capture index (sorted)
	tallies [][]uint64       // by tally slot (sectionRun.tally), then capture index
	names   hostNames        // the hosts each capture decides for, when a section needs them (effective.go)
}

// The memory model of WithMemory, from measurements over 1 and 4.5 million
// captures (package documentation): the peak RSS of a report under a soft
// memory limit of BaseMemory + BytesPerCapture × captures of a batch.
const (
	BaseMemory      = 96 << 20  // buffers of the scans, counts, the runtime
	BytesPerCapture = 112       // what a batch keeps of a capture and its host, and the collector's room
	BytesPerBody    = 40        // a shared-bodies count, per row of the bodies table
	MinMemory       = 192 << 20 // the least WithMemory accepts
)

// batchesFor returns the number of host batches of a crawl of the given
// captures and bodies rows: of DefaultBatchCaptures each, or larger when
// memory bytes (see WithMemory; 0: none given) hold more.
//
//mutate:catch
func BatchesFor(captures, bodies, memory int64) int {
	per := int64(DefaultBatchCaptures)
	if memory > 0 {
		per = max(per, (memory-BaseMemory-BytesPerBody*bodies)/BytesPerCapture)
	}
	return int(max(1, (captures+per-1)/per))
}

// newBatch returns batch i of the crawl, with maps sized for its share of
// the crawl's captures.
func (s *crawlState) newBatch(i int, round batchRound) *batch {
	n := s.captures/int64(s.batches) + s.captures/int64(16*s.batches) + 64 // a share, and slack for uneven hashing
	return &batch{
		index: i, of: s.batches, round: round, counting: round == roundMain && i == 0,
		caps: make([]capture, 0, n), ids: newIDTable(n),
		hostIdx: make(map[uint64]uint32, n), hosts: make([]host, 0, n), tallies: make([][]uint64, s.secs.tallys),
	}
}

// owns reports whether a host (by the hash of its name) is in the batch.
//
//mutate:catch
func (hb *batch) owns(hostHash uint64) bool {
	return hostHash%uint64(hb.of) == uint64(hb.index)
}

// indexColumns are the columns of captures every batch reads; the
// counting batch also reads those the sections need.
var indexColumns = []string{
	"capture_id", "url_host_name", "fetch_time", "fetch_status", "payload_length",
	"content_digest", "outcome", "rule_count", "error_count", "warning_count",
}

// capturesPass reads the captures table: it indexes the captures of the
// batch's hosts and marks each host's deciding capture, and in the counting
// batch feeds every record to the sections that need captures. Files are decoded in
// parallel; records are added one at a time.
func (s *crawlState) capturesPass(ctx context.Context, hb *batch) error {
	columns := indexColumns
	if hb.counting {
		columns = union(indexColumns, s.secs.columns(CapturesTable))
	}
	spec := scan.Spec{Table: "captures", Crawl: s.label, Columns: columns, Dict: []string{"outcome"}}
	err := s.d.Scan(ctx, spec, func(w int, rec arrow.Record) error {
		if hb.counting {
			if err := s.secs.add(CapturesTable, w, rec); err != nil {
				return err
			}
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.addCaptures(hb, rec)
	})
	if err != nil {
		return err
	}
	hb.finishIndex()
	if hb.counting {
		s.secs.finish(CapturesTable) // what the captures table gives by itself
	}
	return nil
}

// addCaptures adds one record of the captures table.
func (s *crawlState) addCaptures(hb *batch, rec arrow.Record) error {
	cols, err := s.newCaptureCols(rec)
	if err != nil {
		return err
	}
	for i := range int(rec.NumRows()) {
		r := cols.row(i)
		flags := captureFlags(r.status, r.length, r.rules, s.outcomes[r.outcome])
		if hh := s.hash.Sum(r.host); hb.owns(hh) {
			c := capture{id: s.hash.Sum(r.id), digest: s.hash.Sum(r.digest), errors: r.errors, warnings: r.warnings}
			c.flags = flags | uint32(r.outcome)<<outcomeShift
			hb.add(hh, &r, c)
		}
	}
	return nil
}

// add indexes a capture and its host, and keeps the host's deciding
// capture: the first in the order of [host.decidesAfter].
//
//mutate:catch
func (hb *batch) add(hostHash uint64, r *captureRow, c capture) {
	ci := uint32(len(hb.caps))
	hb.caps = append(hb.caps, c)
	hb.ids.insert(hb.caps, ci)
	redirect := c.flags&capRedirect != 0
	hi, ok := hb.hostIdx[hostHash]
	if !ok {
		hb.hostIdx[hostHash] = uint32(len(hb.hosts))
		hb.hosts = append(hb.hosts, host{best: ci, fetch: r.fetch, redirect: redirect, id: hb.keys.Key(r.id)})
		return
	}
	if h := &hb.hosts[hi]; h.decidesAfter(redirect, r.fetch, r.id, &hb.keys) {
		*h = host{best: ci, fetch: r.fetch, redirect: redirect, id: hb.keys.Key(r.id)}
	}
}

// decidesAfter reports whether a capture of the host comes before its
// deciding capture so far, in the order of [schema.DecidesBefore] (a NULL
// fetch_time is noTime, below every real time).
//
//mutate:catch
func (h *host) decidesAfter(redirect bool, fetch int64, id string, keys *scan.CaptureKeys) bool {
	a := schema.DecidingKey{Redirect: redirect, Fetched: fetch, ID: id}
	b := schema.DecidingKey{Redirect: h.redirect, Fetched: h.fetch}
	if a.Redirect == b.Redirect && a.Fetched == b.Fetched {
		b.ID = keys.ID(h.id) // the stored capture's ID string is made only when the order needs it
	}
	return schema.DecidesBefore(a, b)
}

// finishIndex marks the deciding captures and drops the hosts: from here
// on, the flags say which captures decide.
func (hb *batch) finishIndex() {
	for _, h := range hb.hosts {
		hb.caps[h.best].flags |= capDeciding
	}
	hb.hosts, hb.hostIdx, hb.keys = nil, nil, scan.CaptureKeys{}
}

// lookup returns the index in the batch of a capture, by its ID: false
// for captures of other batches (and IDs not in captures).
func (hb *batch) lookup(h scan.Hasher, id string) (uint32, bool) {
	return hb.ids.find(hb.caps, h.Sum(id))
}

// idTable finds the captures of a batch by the hash of their ID, which
// each capture holds: an open-addressing table of capture indices (linear
// probing), 4 bytes a slot, at most 3/4 full: 5.3 to 10.7 bytes a capture,
// half what a map of hashes to indices takes.
type idTable struct {
	slots []uint32 // capture index + 1; 0: empty
	used  int
}

// newIDTable returns a table for n captures.
func newIDTable(n int64) idTable {
	size := 1024
	for int64(size)*3/4 < n {
		size *= 2
	}
	return idTable{slots: make([]uint32, size)}
}

// insert adds capture ci of caps. It replaces a capture with the same ID
// hash, as a map would.
func (t *idTable) insert(caps []capture, ci uint32) {
	if (t.used+1)*4 > len(t.slots)*3 {
		old := t.slots
		t.slots = make([]uint32, 2*len(old))
		for _, slot := range old {
			if slot != 0 {
				t.put(caps, slot-1)
			}
		}
	}
	if t.put(caps, ci) {
		t.used++
	}
}

// put stores ci in the slot of its hash, and reports whether the slot was
// empty.
func (t *idTable) put(caps []capture, ci uint32) bool {
	mask, h := uint64(len(t.slots)-1), caps[ci].id
	for i := h & mask; ; i = (i + 1) & mask {
		switch slot := t.slots[i]; {
		case slot == 0:
			t.slots[i] = ci + 1
			return true
		case caps[slot-1].id == h:
			t.slots[i] = ci + 1
			return false
		}
	}
}

// find returns the index of the capture whose ID hashes to h.
//
//mutate:catch
func (t *idTable) find(caps []capture, h uint64) (uint32, bool) {
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		slot := t.slots[i]
		if slot == 0 {
			return 0, false
		}
		if caps[slot-1].id == h {
			return slot - 1, true
		}
	}
}

// idLookup looks up the captures of a capture_id column read as a
// dictionary, remembering the last index: the rows of one capture come
// together, so most rows cost one comparison. Reset it for each record.
type idLookup struct {
	last int32
	ci   uint32
	ok   bool
	used bool
}

//mutate:catch
func (l *idLookup) lookup(hb *batch, h scan.Hasher, ids scan.DictColumn, row int) (uint32, bool) {
	if x := ids.Index[row]; !l.used || x != l.last {
		l.last, l.used = x, true
		l.ci, l.ok = hb.lookup(h, ids.Values.Value(int(x)))
	}
	return l.ci, l.ok
}
