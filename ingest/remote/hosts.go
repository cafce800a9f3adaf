package remote

import (
	"context"
	"sync"

	"github.com/robocensus/robocensus/ingest/archive"
)

// Bounds of the requests in flight to one host (see WithHostRequests).
const (
	// DefaultHostRequests is the most requests in flight to one host at
	// once by default: with one GET per input, the inputs read at once
	// from one server.
	DefaultHostRequests = 16
	// MaxHostRequests is the largest cap accepted.
	MaxHostRequests = 1024
)

// A hostLimiter caps the requests in flight to each host: a request takes
// a slot of its host before it is sent and gives it back when its body is
// closed, or when it fails.
type hostLimiter struct {
	n     int
	mu    sync.Mutex
	slots map[string]chan struct{}
}

func newHostLimiter(n int) *hostLimiter {
	return &hostLimiter{n: n, slots: map[string]chan struct{}{}}
}

// defaultHosts is the cap shared by the transfers of every caller that
// sets none.
var defaultHosts = sync.OnceValue(func() *hostLimiter { return newHostLimiter(DefaultHostRequests) })

// acquire waits for a slot of host, or for ctx's end, and returns the
// function that gives the slot back (once, however often it is called).
func (h *hostLimiter) acquire(ctx context.Context, host string) (func(), error) {
	h.mu.Lock()
	slots := h.slots[host]
	if slots == nil {
		slots = make(chan struct{}, h.n)
		h.slots[host] = slots
	}
	h.mu.Unlock()
	select {
	case slots <- struct{}{}:
		return sync.OnceFunc(func() { <-slots }), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// WithHostRequests caps the requests in flight to one host at once
// (default DefaultHostRequests, 1 to MaxHostRequests), to be polite to a
// server that many readers share (Common Crawl's serves everyone
// together): a transfer holds a slot of its host from its request to the
// end of its body, and one that finds none free waits for one, a wait
// that no time-out counts. Each call makes a cap of its own: give the
// same Option to every call of a run (ExpandInputs, Open) so that they
// share it.
func WithHostRequests(n int) Option {
	var h *hostLimiter
	if n >= 1 && n <= MaxHostRequests {
		h = newHostLimiter(n)
	}
	return func(cfg *config) error {
		if h == nil {
			return errorf("%w: host requests %d not in [1, %d]", archive.ErrInvalidOption, n, MaxHostRequests)
		}
		cfg.hosts = h
		return nil
	}
}
