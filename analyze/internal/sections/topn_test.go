package sections

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTopN checks that topN keeps the first n items whatever the order of
// the stream, as sorting all would.
func TestTopN(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 50 {
		var all []WorstHost
		for i := range 200 {
			all = append(all, WorstHost{Host: string(rune('a'+i%26)) + string(rune('a'+i/26)), Errors: int32(rng.IntN(5)), Warnings: int32(rng.IntN(3))})
		}
		top := topN[WorstHost]{n: 1 + round%12, less: WorstBefore}
		for _, w := range all {
			top.add(w)
		}
		slices.SortFunc(all, func(a, b WorstHost) int {
			if WorstBefore(&a, &b) {
				return -1
			}
			return 1
		})
		if !slices.EqualFunc(top.items, all[:top.n], func(a, b WorstHost) bool {
			return a.Host == b.Host && a.Errors == b.Errors && a.Warnings == b.Warnings
		}) {
			t.Fatalf("round %d: top %v, want %v", round, top.items, all[:top.n])
		}
	}
}
