package engine

import "testing"

// TestBatchesFor checks the memory model of WithMemory on the sizes it was
// measured at and on a full Common Crawl partition.
func TestBatchesFor(t *testing.T) {
	const MiB, GiB = 1 << 20, 1 << 30
	for _, tc := range []struct {
		captures, bodies, memory int64
		want                     int
	}{
		{1_000_457, 150_000, 240 * MiB, 1},      // the default limit holds a million captures
		{4_510_056, 600_000, 240 * MiB, 4},      // 1.2M a batch
		{4_510_056, 5_000_000, 240 * MiB, 5},    // no room for the bodies' counts: DefaultBatchCaptures
		{4_510_056, 600_000, 1 * GiB, 1},        // measured: 41 s, 1.0 GiB peak
		{60_000_000, 0, 4 * GiB, 2},             // 37M a batch
		{60_000_000, 60_000_000, 4 * GiB, 4},    // every host its own body: 2.4 GB of counts
		{75_000_000, 60_000_000, 4 * GiB, 5},    // the largest crawls
		{60_000_000, 60_000_000, MinMemory, 58}, // too little memory: batches of DefaultBatchCaptures
		{0, 0, MinMemory, 1},
	} {
		if got := BatchesFor(tc.captures, tc.bodies, tc.memory); got != tc.want {
			t.Errorf("batchesFor(%d captures, %d bodies, %d MiB) = %d, want %d", tc.captures, tc.bodies, tc.memory/MiB, got, tc.want)
		}
	}
	for m := int64(MinMemory); m < 8*GiB; m += 97 * MiB {
		if BatchesFor(60_000_000, 1_000_000, m+97*MiB) > BatchesFor(60_000_000, 1_000_000, m) {
			t.Fatalf("more memory, more batches at %d MiB", m/MiB)
		}
	}
}
