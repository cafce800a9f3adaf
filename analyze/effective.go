package analyze

import (
	"context"
	"sync/atomic"

	"github.com/apache/arrow/go/v15/arrow"
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
// another host shard): each capture is given a weight, the number of hosts
// it decides for, in the shard of its own host, and the sections count a
// capture as that many hosts. A capture that decides for no host weighs 0.
// Crawls written before the hosts table (schema 1.2 and older) have no
// redirects followed: each deciding capture weighs 1.

// weightsPass gives each capture of the shard its weight: the hosts table
// is read once per shard (two columns), and each host adds one to the
// capture that decides for it, when that capture is of the shard.
func (s *crawlState) weightsPass(ctx context.Context, sh *shard) error {
	if !s.hosts {
		for i := range sh.caps {
			if sh.caps[i].flags&capDeciding != 0 {
				sh.caps[i].weight = 1
			}
		}
		return nil
	}
	spec := scanSpec{table: "hosts", crawl: s.label, columns: []string{"capture_id", "effective_capture_id"}}
	return s.d.scan(ctx, spec, func(_ int, rec arrow.Record) error {
		cs := columnSet{rec: rec}
		deciding, effective := cs.str("capture_id"), cs.str("effective_capture_id")
		if cs.err != nil {
			return cs.err
		}
		for i := range deciding.Len() {
			id := deciding.Value(i)
			if effective.IsValid(i) && effective.Value(i) != "" {
				id = effective.Value(i)
			}
			if ci, ok := sh.lookup(s.hash, id); ok {
				atomic.AddUint32(&sh.caps[ci].weight, 1)
			}
		}
		return nil
	})
}
