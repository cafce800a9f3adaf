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
		var all []worstHost
		for i := range 200 {
			all = append(all, worstHost{host: string(rune('a'+i%26)) + string(rune('a'+i/26)), errors: int32(rng.IntN(5)), warnings: int32(rng.IntN(3))})
		}
		top := topN[worstHost]{n: 1 + round%12, less: worstBefore}
		for _, w := range all {
			top.add(w)
		}
		slices.SortFunc(all, func(a, b worstHost) int {
			if worstBefore(&a, &b) {
				return -1
			}
			return 1
		})
		if !slices.EqualFunc(top.items, all[:top.n], func(a, b worstHost) bool {
			return a.host == b.host && a.errors == b.errors && a.warnings == b.warnings
		}) {
			t.Fatalf("round %d: top %v, want %v", round, top.items, all[:top.n])
		}
	}
}
