package engine

import (
	"bytes"
	"cmp"
	"context"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"

	"github.com/robocensus/robocensus/analyze/internal/scan"
)

// Effective captures: the per-host figures of the report (what robots.txt
// says to each crawler, the usage preferences, the hosts with a usable
// robots.txt) count each host by the capture whose answer decides for it
// once redirects are followed, as Google follows them: the hosts table's
// effective_capture_id, or its deciding capture when the chain is not
// resolved (then the redirect itself answers). A host that redirects to a
// robots.txt blocking GPTBot blocks GPTBot.
//
// The effective capture of a host may be a capture of another host (of
// another host batch): each capture is given a weight, the number of hosts
// it decides for, in the batch of its own host, and the sections count a
// capture as that many hosts. A capture that decides for no host weighs 0.
// Crawls written before the hosts table (schema 1.2 and older) have no
// redirects followed: each deciding capture weighs 1.

// weightsPass gives each capture of the batch its weight: the hosts table
// is read once per batch (two columns), and each host adds one to the
// capture that decides for it, when that capture is of the batch. When a
// section needs "effective hosts", the names of those hosts are kept too
// (hb.names), until the batch's passes end.
func (s *crawlState) weightsPass(ctx context.Context, hb *batch) error {
	if !s.hosts {
		for i := range hb.caps {
			if hb.caps[i].flags&capDeciding != 0 {
				hb.caps[i].weight = 1
			}
		}
		return nil
	}
	names := s.secs.wants(EffectiveHostsTable)
	columns := []string{"capture_id", "effective_capture_id"}
	if names {
		columns = append(columns, "url_host_name")
		// About one host per capture, of some 20 bytes: no doubling.
		hb.names.refs, hb.names.arena = make([]nameRef, 0, len(hb.caps)), make([]byte, 0, 24*len(hb.caps))
	}
	var mu sync.Mutex
	spec := scan.Spec{Table: "hosts", Crawl: s.label, Columns: columns}
	err := s.d.Scan(ctx, spec, func(_ int, rec arrow.Record) error {
		cs := scan.Columns{Rec: rec}
		deciding, effective := cs.Str("capture_id"), cs.Str("effective_capture_id")
		var hosts *array.String
		if names {
			hosts = cs.Str("url_host_name")
		}
		if cs.Err != nil {
			return cs.Err
		}
		var found [][2]uint32 // capture index, row: the names to keep
		for i := range deciding.Len() {
			id := deciding.Value(i)
			if effective.IsValid(i) && effective.Value(i) != "" {
				id = effective.Value(i)
			}
			ci, ok := hb.lookup(s.hash, id)
			if !ok {
				continue
			}
			atomic.AddUint32(&hb.caps[ci].weight, 1)
			if names {
				found = append(found, [2]uint32{ci, uint32(i)})
			}
		}
		if len(found) > 0 {
			mu.Lock()
			for _, f := range found {
				hb.names.add(f[0], hosts.Value(int(f[1])))
			}
			mu.Unlock()
		}
		return nil
	})
	hb.names.sort()
	return err
}

// hostNames are the names of the hosts the captures of a batch decide
// for, in one arena: 12 bytes and the name's bytes per host.
type hostNames struct {
	refs  []nameRef
	arena []byte
}

// nameRef is a host name in the arena, and the capture deciding for it.
type nameRef struct {
	ci, off, n uint32
}

func (h *hostNames) add(ci uint32, name string) {
	h.refs = append(h.refs, nameRef{ci: ci, off: uint32(len(h.arena)), n: uint32(len(name))})
	h.arena = append(h.arena, name...)
}

func (h *hostNames) name(r nameRef) []byte { return h.arena[r.off : r.off+r.n] }

// sort orders the names by capture, then in byte order.
func (h *hostNames) sort() {
	slices.SortFunc(h.refs, func(a, b nameRef) int { return cmp.Or(cmp.Compare(a.ci, b.ci), bytes.Compare(h.name(a), h.name(b))) })
}

// hostsOf returns the names of the hosts capture ci of the batch decides
// for: from the hosts table, or, in a crawl without one, its own host's.
func (s *crawlState) hostsOf(hb *batch, ci uint32, own string) []string {
	if !s.hosts {
		return []string{own}
	}
	refs := hb.names.refs
	i, _ := slices.BinarySearchFunc(refs, ci, func(r nameRef, ci uint32) int { return cmp.Compare(r.ci, ci) })
	var out []string
	for ; i < len(refs) && refs[i].ci == ci; i++ {
		out = append(out, string(hb.names.name(refs[i])))
	}
	return out
}
