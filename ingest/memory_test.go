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

// Under a memory limit, the goroutines holding buffers and the batches in
// flight are sized from the limit, not from the workers asked for: -j 32
// holds no more than -j 4 does.
func TestIssue13SizingFromMemoryLimit(t *testing.T) {
	const limit = 240 << 20
	cost := func(s sizing) int64 {
		return memFixed + int64(s.workers)*memPerWorker + int64(s.readers)*memPerReader + int64(s.queue)*memPerQueued
	}
	small := sizeFor(2, 2, limit)
	if small != (sizing{workers: 2, readers: 2, queue: 4}) {
		t.Errorf("sizeFor(2, 2) = %+v, want as asked", small)
	}
	most := sizeFor(1<<20, 1<<20, limit)
	for _, n := range []int{4, 8, 32, 1000} {
		s := sizeFor(n, max(n, 8), limit)
		if s != most || cost(s) > limit || s.workers < 1 || s.readers < 1 || s.queue < 1 {
			t.Errorf("sizeFor(%d) = %+v, cost %d MiB; want %+v within %d MiB", n, s, cost(s)>>20, most, limit>>20)
		}
	}
	if s := sizeFor(32, 32, 1<<20); s != (sizing{workers: 1, readers: 1, queue: 1}) {
		t.Errorf("sizeFor(32, 32) under 1 MiB = %+v, want one of each", s)
	}
	if s := sizeFor(32, 40, 0); s != (sizing{workers: 32, readers: 40, queue: 64}) {
		t.Errorf("sizeFor(32, 40) without a limit = %+v, want as asked", s)
	}
}
