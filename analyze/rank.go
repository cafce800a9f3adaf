package analyze

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
)

// topN keeps the n first items of a stream in the order of less, in O(n)
// memory. Ties never happen when less is a total order on distinct items,
// so the result does not depend on the order of the stream.
type topN[T any] struct {
	n     int
	less  func(a, b *T) bool // a ranks before b
	items []T                // sorted, first first
}

// admits reports whether x would be kept.
func (t *topN[T]) admits(x *T) bool {
	return len(t.items) < t.n || t.less(x, &t.items[len(t.items)-1])
}

// add keeps x if it ranks among the first n, and returns the item it
// pushed out, if any.
func (t *topN[T]) add(x T) (evicted *T) {
	if !t.admits(&x) {
		return nil
	}
	i, _ := slices.BinarySearchFunc(t.items, &x, func(a T, b *T) int {
		if t.less(&a, b) {
			return -1
		}
		return 1
	})
	t.items = slices.Insert(t.items, i, x)
	if len(t.items) > t.n {
		last := t.items[t.n]
		t.items = t.items[:t.n]
		return &last
	}
	return nil
}

// worstHost is a candidate of the worst hosts list.
type worstHost struct {
	host, id         string
	errors, warnings int32
	capIdx           uint32
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

// farmEntry is a candidate of the domain farms list.
type farmEntry struct {
	hash   uint64
	digest string
	hosts  int64
	sample []string
}

func farmBefore(a, b *farmEntry) bool {
	if a.hosts != b.hosts {
		return a.hosts > b.hosts
	}
	return a.digest < b.digest
}

// farmSample is the number of hosts shown for each shared body.
const farmSample = 5

// rankings holds the ranked lists built by the second captures pass.
type rankings struct {
	worst topN[worstHost]
	farms topN[farmEntry]
	inTop map[uint64]int // farm digest hash -> 1 when in farms.items
}

// rankingPass reads the captures again to rank the deciding captures by
// errors and the shared bodies by hosts, which needs the host names and
// digests the first pass did not keep.
func (s *crawlState) rankingPass(ctx context.Context) error {
	top := s.d.cfg.top
	s.ranks = &rankings{
		worst: topN[worstHost]{n: top, less: worstBefore},
		farms: topN[farmEntry]{n: top, less: farmBefore},
		inTop: map[uint64]int{},
	}
	spec := scanSpec{table: "captures", crawl: s.label, columns: []string{"capture_id", "url_host_name", "payload_digest"}}
	err := s.d.scan(ctx, spec, func(_ int, rec arrow.Record) error {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.rankCaptures(rec)
	})
	if err != nil {
		return err
	}
	s.finishRankings()
	return nil
}

func (s *crawlState) rankCaptures(rec arrow.Record) error {
	cs := columnSet{rec: rec}
	ids, hosts, digests := cs.str("capture_id"), cs.str("url_host_name"), cs.str("payload_digest")
	if cs.err != nil {
		return cs.err
	}
	const farm = capDeciding | capUsable | capNonEmpty
	for i := range int(rec.NumRows()) {
		ci, ok := s.ids[s.hash.sum(ids.Value(i))]
		if !ok || s.caps[ci].flags&capDeciding == 0 {
			continue
		}
		c := &s.caps[ci]
		if c.errors > 0 {
			s.ranks.worst.add(worstHost{host: hosts.Value(i), id: ids.Value(i), errors: c.errors, warnings: c.warnings, capIdx: ci})
		}
		if n := s.farms[c.digest]; n > 0 && c.flags&farm == farm {
			s.rankFarm(c.digest, strOrEmpty(digests, i), n, hosts.Value(i))
		}
	}
	// Strings of kept items alias this record: copy them.
	for i := range s.ranks.worst.items {
		w := &s.ranks.worst.items[i]
		w.host, w.id = strings.Clone(w.host), strings.Clone(w.id)
	}
	for i := range s.ranks.farms.items {
		f := &s.ranks.farms.items[i]
		f.digest = strings.Clone(f.digest)
		for j := range f.sample {
			f.sample[j] = strings.Clone(f.sample[j])
		}
	}
	return nil
}

// rankFarm counts one host serving a shared body. A body enters the list
// at its first host or never: its rank does not change, and the list only
// gets harder to enter.
func (s *crawlState) rankFarm(hash uint64, digest string, hosts int64, hostName string) {
	r := s.ranks
	if r.inTop[hash] == 0 {
		if evicted := r.farms.add(farmEntry{hash: hash, digest: digest, hosts: hosts}); evicted != nil {
			delete(r.inTop, evicted.hash)
		}
		if !slices.ContainsFunc(r.farms.items, func(f farmEntry) bool { return f.hash == hash }) {
			return
		}
		r.inTop[hash] = 1
	}
	i := slices.IndexFunc(r.farms.items, func(f farmEntry) bool { return f.hash == hash })
	f := &r.farms.items[i]
	j, _ := slices.BinarySearch(f.sample, hostName)
	if j < farmSample {
		f.sample = slices.Insert(f.sample, j, hostName)
		f.sample = f.sample[:min(len(f.sample), farmSample)]
	}
}

// finishRankings turns the ranked candidates into figures.
func (s *crawlState) finishRankings() {
	s.out.WorstHosts = []HostErrors{}
	for _, w := range s.ranks.worst.items {
		s.out.WorstHosts = append(s.out.WorstHosts, HostErrors{
			Host: w.host, CaptureID: w.id, Errors: w.errors, Warnings: w.warnings,
			Codes: s.errorCodes(&s.caps[w.capIdx]),
		})
	}
	s.out.Farms.Top = []Farm{}
	for _, f := range s.ranks.farms.items {
		s.out.Farms.Top = append(s.out.Farms.Top, Farm{Digest: f.digest, Hosts: f.hosts, Sample: f.sample, Head: []string{}})
	}
	s.farms = nil
}

// errorCodes returns the codes of severity error a capture has, sorted.
func (s *crawlState) errorCodes(c *capture) []string {
	out := []string{}
	for i, name := range s.codes.names[:min(len(s.codes.names), maxBitCodes)] {
		if c.codes[i/64]&(1<<(i%64)) != 0 && s.codes.severity[i] == "error" {
			out = append(out, name)
		}
	}
	slices.SortFunc(out, strings.Compare)
	return out
}

// compareCounts orders by count, larger first, then by name.
func compareCounts(an, bn int64, a, b string) int {
	return cmp.Or(cmp.Compare(bn, an), strings.Compare(a, b))
}
