package analyze

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"

	"github.com/robocensus/robocensus/robots"
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

// rankingPass reads the captures of the last shard again for the samples
// of the shared bodies listed, which need the host names the captures
// pass did not keep.
func (s *crawlState) rankingPass(ctx context.Context, sh *shard) error {
	if sh.index != sh.of-1 {
		return nil
	}
	spec := scanSpec{table: "captures", crawl: s.label, columns: []string{"capture_id", "url_host_name"}}
	return s.d.scan(ctx, spec, func(_ int, rec arrow.Record) error {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.sampleFarms(sh, rec)
	})
}

func (s *crawlState) sampleFarms(sh *shard, rec arrow.Record) error {
	cs := columnSet{rec: rec}
	ids, hosts := cs.str("capture_id"), cs.str("url_host_name")
	if cs.err != nil {
		return cs.err
	}
	for i := range int(rec.NumRows()) {
		ci, ok := sh.lookup(s.hash, ids.Value(i))
		if !ok || sh.caps[ci].flags&capDeciding == 0 {
			continue
		}
		if c := &sh.caps[ci]; c.flags&farmFlags == farmFlags {
			s.farms.addSample(c.digest, hosts.Value(i))
		}
	}
	return nil
}

// Bodies served by several hosts ("domain farms"): the hosts serving each
// payload digest are counted shard by shard, in a map of digest hashes.
// The bodies listed are chosen when the last shard's marks are done; their
// samples (the first host names) are collected in the last shard's
// ranking pass and, for the other shards, by indexing them again.

// farmFlags are the flags of a capture that counts for its body: the
// usable, non-empty deciding capture of its host.
const farmFlags = capDeciding | capUsable | capNonEmpty

// farmSample is the number of hosts shown for each shared body.
const farmSample = 5

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

// farmState follows the shared bodies over the shards.
type farmState struct {
	hosts map[uint64]int64 // digest hash -> hosts (until the bodies listed are chosen)
	top   []farmEntry      // the bodies listed
	want  map[uint64]int   // digest hash -> index in top
}

func newFarmState() *farmState { return &farmState{hosts: map[uint64]int64{}} }

// count counts a capture of a shard for its body.
func (f *farmState) count(c *capture) {
	if c.flags&farmFlags == farmFlags && c.digest != 0 {
		f.hosts[c.digest]++
	}
}

// chooseFarms counts the shared bodies and chooses those listed, once the
// hosts serving each are all counted: the first by hosts, then by digest.
// The digests themselves are read from the captures table, only for the
// bodies served by as many hosts as the last listed.
func (s *crawlState) chooseFarms(ctx context.Context, _ *shard) error {
	f := s.farms
	least := s.countShared()
	maps.DeleteFunc(f.hosts, func(_ uint64, n int64) bool { return n < least })
	list := topN[farmEntry]{n: s.d.cfg.top, less: farmBefore}
	spec := scanSpec{table: "captures", crawl: s.label, columns: []string{"content_digest"}}
	err := s.d.scan(ctx, spec, func(_ int, rec arrow.Record) error {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.offerFarms(&list, rec)
	})
	if err != nil {
		return err
	}
	f.hosts, f.top, f.want = nil, list.items, map[uint64]int{}
	for i, e := range f.top {
		f.want[e.hash] = i
	}
	return nil
}

// countShared counts the hosts serving a body and the shared bodies, and
// returns the fewest hosts a listed body can have.
func (s *crawlState) countShared() int64 {
	out := &s.out.Farms
	var shared []int64
	for _, n := range s.farms.hosts {
		out.Hosts += n
		if n >= 2 {
			shared = append(shared, n)
			out.SharedBodies++
			out.SharedHosts.N += n
		}
	}
	if top := s.d.cfg.top; len(shared) > top {
		slices.SortFunc(shared, func(a, b int64) int { return cmp.Compare(b, a) })
		return shared[top-1]
	}
	return 2
}

// offerFarms offers the candidate bodies of a record to the list, each
// once.
func (s *crawlState) offerFarms(list *topN[farmEntry], rec arrow.Record) error {
	digests, err := column[*array.String](rec, "content_digest")
	if err != nil {
		return err
	}
	for i := range digests.Len() {
		d := strOrEmpty(digests, i)
		h := s.hash.sum(d)
		n, ok := s.farms.hosts[h]
		if !ok || h == 0 {
			continue
		}
		delete(s.farms.hosts, h)
		if e := (farmEntry{hash: h, digest: d, hosts: n}); list.admits(&e) {
			e.digest = strings.Clone(d)
			list.add(e)
		}
	}
	return nil
}

// addSample counts a host serving a body, if listed: the sample keeps the
// first host names in order.
func (f *farmState) addSample(digest uint64, hostName string) {
	i, ok := f.want[digest]
	if !ok {
		return
	}
	e := &f.top[i]
	j, found := slices.BinarySearch(e.sample, hostName)
	if j < farmSample && !found {
		e.sample = slices.Insert(e.sample, j, strings.Clone(hostName))
		e.sample = e.sample[:min(len(e.sample), farmSample)]
	}
}

// farmSamples collects the samples of the listed bodies in the shards
// before the last (whose ranking pass did): it indexes each again, reading
// only the columns that decide the hosts' deciding captures, and the
// diagnostics only when a capture serving a listed body needs its codes to
// be known usable.
func (s *crawlState) farmSamples(ctx context.Context) error {
	if len(s.farms.top) == 0 {
		return nil
	}
	for i := range s.shards - 1 {
		sh := s.newShard(i, roundFarms)
		sh.want, sh.farmHosts = s.farms.want, map[uint32]string{}
		if err := s.capturesPass(ctx, sh); err != nil {
			return err
		}
		if s.needsCodes(sh) {
			if err := s.diagnosticsPass(ctx, sh); err != nil {
				return err
			}
		}
		s.markUsable(sh)
		for ci, hostName := range sh.farmHosts {
			if c := &sh.caps[ci]; c.flags&farmFlags == farmFlags {
				s.farms.addSample(c.digest, hostName)
			}
		}
	}
	return nil
}

// needsCodes reports whether a deciding capture serving a listed body is
// usable or not depending on its diagnostics: no status and no rules.
func (s *crawlState) needsCodes(sh *shard) bool {
	unknown := s.outcomeIdx(robots.OutcomeUnknown)
	for ci := range sh.farmHosts {
		c := &sh.caps[ci]
		if c.flags&(capDeciding|capNonEmpty|capNoRules) == capDeciding|capNonEmpty|capNoRules && c.outcome() == unknown {
			return true
		}
	}
	return false
}

// finishFarms fills the figures of the shared bodies.
func (s *crawlState) finishFarms() {
	f := &s.out.Farms
	f.SharedHosts.Of = f.Hosts
	f.Top = []Farm{}
	for _, e := range s.farms.top {
		f.Top = append(f.Top, Farm{Digest: e.digest, Hosts: e.hosts, Sample: e.sample, Head: []string{}})
	}
}
