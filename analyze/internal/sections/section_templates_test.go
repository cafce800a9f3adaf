package sections

import (
	"fmt"
	"slices"
	"testing"
)

// TestWeightedMedian checks the median of the block lists' ages against
// DuckDB's median (the middle value, or the two middle ones averaged),
// rounded half away from zero.
func TestWeightedMedian(t *testing.T) {
	f := func(ages map[int64]int64, want int64) {
		t.Helper()
		var days []int64
		var n int64
		for d, k := range ages {
			days, n = append(days, d), n+k
		}
		slices.Sort(days)
		if got := weightedMedian(days, ages, n); got != want {
			t.Errorf("weightedMedian(%v) = %d, want %d", ages, got, want)
		}
	}
	f(map[int64]int64{}, 0)
	f(map[int64]int64{207: 2}, 207)
	f(map[int64]int64{10: 1, 20: 1, 400: 1}, 20)
	f(map[int64]int64{10: 1, 21: 1}, 16)                  // 15.5
	f(map[int64]int64{10: 3, 21: 1}, 10)                  // 10, 10, 10, 21
	f(map[int64]int64{-19: 1, -18: 1}, -19)               // -18.5: a list captured before its release's tag
	f(map[int64]int64{5: 1, 100: 2, 300: 1, 900: 4}, 600) // 5 100 100 300 900 900 900 900
}

// TestKeepFirst checks the example hosts: the first in byte order, each
// once, at most templateExamples.
func TestKeepFirst(t *testing.T) {
	var ex []string
	for _, n := range []string{"f.example", "b.example", "a.example", "b.example", "e.example", "d.example", "c.example", "g.example"} {
		ex = keepFirst(ex, n)
	}
	if got, want := fmt.Sprint(ex), "[a.example b.example c.example d.example e.example]"; got != want {
		t.Errorf("examples %s, want %s", got, want)
	}
}

// TestHasTemplate checks that the cancel bit of a tally is not a
// template's.
func TestHasTemplate(t *testing.T) {
	tally := make([]uint64, templateTallyWords)
	if hasTemplate(tally) {
		t.Error("an empty tally has a template")
	}
	tally[cancelBit/64] |= 1 << (cancelBit % 64)
	if hasTemplate(tally) {
		t.Error("the cancel bit alone is a template")
	}
	last := len(templateCatalogue) - 1
	tally[last/64] |= 1 << (last % 64)
	if !hasTemplate(tally) {
		t.Error("the last catalogue entry's bit is no template")
	}
}
