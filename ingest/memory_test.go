package ingest

import (
	"strconv"
	"testing"
)

// An input remembers a bounded window of payload digests, not every one:
// after 100,000 distinct digests it holds maxBodyDigests of them, a recent
// digest is still known and the oldest ones are forgotten (their bodies
// would be stored again).
func TestIssue13DigestWindowBounded(t *testing.T) {
	const n = 100000
	w := newDigestWindow(maxBodyDigests)
	digest := func(i int) string { return "sha1:" + strconv.Itoa(i) }
	for i := range n {
		if !w.add(digest(i)) {
			t.Fatalf("digest %d not new", i)
		}
		if w.len() > maxBodyDigests || len(w.order) > maxBodyDigests {
			t.Fatalf("after %d digests the window holds %d (%d keys), bound %d", i+1, w.len(), len(w.order), maxBodyDigests)
		}
	}
	if w.len() != maxBodyDigests {
		t.Errorf("window holds %d, want %d", w.len(), maxBodyDigests)
	}
	if w.add(digest(n-1)) || w.add(digest(n-maxBodyDigests)) {
		t.Error("a digest of the window is taken as new")
	}
	if !w.add(digest(0)) || !w.add(digest(n-maxBodyDigests-1)) {
		t.Error("a digest that left the window is still known")
	}
}

// Under a memory bound that does not hold what was asked, the goroutines
// holding buffers and the batches in flight are sized from the bound, not
// from the workers asked for: -j 32 holds no more than -j 4 does.
func TestIssue13SizingFromMemoryLimit(t *testing.T) {
	const limit = 240 << 20
	if s := sizeFor(1, 1, limit); s != (sizing{workers: 1, readers: 1, queue: 2}) {
		t.Errorf("sizeFor(1, 1) = %+v, want as asked", s)
	}
	most := sizeFor(1<<20, 1<<20, limit)
	for _, n := range []int{4, 8, 32, 1000} {
		s := sizeFor(n, max(n, 8), limit)
		if s.workers != most.workers || s.need() > max(limit, sizing{1, 1, 2}.need()) || s.workers < 1 || s.readers < 1 || s.queue < 1 {
			t.Errorf("sizeFor(%d) = %+v, needs %d MiB; want %d workers within %d MiB", n, s, s.need()>>20, most.workers, limit>>20)
		}
	}
	if s := sizeFor(32, 32, 1<<20); s != (sizing{workers: 1, readers: 1, queue: 2}) {
		t.Errorf("sizeFor(32, 32) under 1 MiB = %+v, want one of each", s)
	}
	if s := sizeFor(32, 40, 0); s != (sizing{workers: 32, readers: 40, queue: 64}) {
		t.Errorf("sizeFor(32, 40) without a limit = %+v, want as asked", s)
	}
	// Lowered, workers and readers keep their proportion (remote inputs
	// have more readers than workers) and the bound holds them.
	if s := sizeFor(16, 64, 1<<30); s.workers >= 16 || s.readers != 4*s.workers || s.need() > 1<<30 {
		t.Errorf("sizeFor(16, 64) under 1 GiB = %+v, needs %d MiB", s, s.need()>>20)
	}
}

// The default memory bound follows the workers asked for (issue 28): on a
// machine, or in a cgroup, that has the memory, -j N runs N workers; where
// it has not, the bound is three quarters of what the process may use and
// the workers are lowered to what that holds; and the bound never starves
// a single worker. The former fixed 240 MiB ran 3 workers whatever -j said.
func TestIssue28DefaultMemoryFollowsWorkers(t *testing.T) {
	const GiB, MiB = int64(1) << 30, int64(1) << 20
	local := []string{"a.warc.gz", "b.warc.gz"}
	for _, tc := range []struct {
		cores       int
		available   int64 // 0: unknown
		wantWorkers int
	}{
		{2, 24 * GiB, 2},
		{2, 0, 2},
		{16, 125 * GiB, 16},
		{16, 8 * GiB, 16},  // a cgroup of 8 GiB holds 16 workers
		{16, 2 * GiB, 11},  // one of 2 GiB: 1.5 GiB of bound
		{16, 512 * MiB, 1}, // a small container
		{16, 0, 16},        // unknown memory (not Linux): as asked
		{64, 256 * GiB, 64},
		{64, 16 * GiB, 64},
		{64, 4 * GiB, 24},
		{64, 64 * MiB, 1}, // even a tiny cgroup gets one worker
	} {
		cfg := Config{Workers: tc.cores}
		bound := DefaultMemory(cfg, local, tc.available)
		s := sizeFor(tc.cores, tc.cores, bound)
		if s.workers != tc.wantWorkers {
			t.Errorf("%d cores, %d MiB: bound %d MiB runs %d workers, want %d", tc.cores, tc.available>>20, bound>>20, s.workers, tc.wantWorkers)
		}
		if share := tc.available / 4 * 3; tc.available > 0 && bound > share && s.workers > 1 {
			t.Errorf("%d cores, %d MiB: bound %d MiB over three quarters of the memory", tc.cores, tc.available>>20, bound>>20)
		}
		if s.need() > bound && s.workers > 1 {
			t.Errorf("%d cores, %d MiB: %+v needs %d MiB, over the bound %d MiB", tc.cores, tc.available>>20, s, s.need()>>20, bound>>20)
		}
		if s.workers == tc.cores && bound != MemoryNeed(cfg, local) {
			t.Errorf("%d cores, %d MiB: bound %d MiB, want the need %d MiB", tc.cores, tc.available>>20, bound>>20, MemoryNeed(cfg, local)>>20)
		}
	}
	// Remote inputs are read by more readers, and the need counts them.
	if local, remote := MemoryNeed(Config{Workers: 2}, local), MemoryNeed(Config{Workers: 2}, []string{"https://example.com/a.warc.gz"}); remote <= local {
		t.Errorf("need with remote inputs %d MiB, not more than with local ones %d MiB", remote>>20, local>>20)
	}
}
