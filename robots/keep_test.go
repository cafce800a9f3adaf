package robots

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// keep's copy of the diagnostics (sortedDiagnostics) is the stable sort by
// line of the findings in the order addAt took them: findings on the whole
// file among them or after them, runs of findings out of line order at the
// end or in the middle, many on one line (Ref numbers them, so that a tie
// broken the wrong way shows).
func TestSortedDiagnosticsIsStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for range 5000 {
		p := parser{f: &File{}}
		line := 0
		for i := range rng.IntN(30) {
			switch rng.IntN(6) {
			case 0:
				p.addAt(0, Empty, span{})
			case 1:
				p.addAt(rng.IntN(line+1), Wildcard, span{}) // out of order, or a tie
			default:
				line += rng.IntN(3)
				p.addAt(line, Wildcard, span{})
			}
			p.f.Diagnostics[i].ref = uint32(i)
		}
		added := slices.Clone(p.f.Diagnostics)
		want := slices.Clone(added)
		slices.SortStableFunc(want, func(a, b Diagnostic) int { return a.Line - b.Line })
		got := p.sortedDiagnostics(p.f.Diagnostics)
		if !slices.Equal(got, want) || len(got) != cap(got) {
			t.Fatalf("added %v\ngot  %v (cap %d)\nwant %v", lineRefs(added), lineRefs(got), cap(got), lineRefs(want))
		}
	}
}

// lineRefs lists the diagnostics as line:ref.
func lineRefs(ds []Diagnostic) [][2]int {
	out := make([][2]int, len(ds))
	for i, d := range ds {
		out[i] = [2]int{d.Line, d.Ref()}
	}
	return out
}
