package sections

import "slices"

// topN keeps the n first items of a stream in the order of less, in O(n)
// memory. Ties never happen when less is a total order on distinct items,
// so the result does not depend on the order of the stream.
type topN[T any] struct {
	n     int
	less  func(a, b *T) bool // a ranks before b
	items []T                // sorted, first first
}

// admits reports whether x would be kept.
func (t *topN[T]) admits(x *T) bool {
	return len(t.items) < t.n || t.less(x, &t.items[len(t.items)-1])
}

// add keeps x if it ranks among the first n, and returns the item it
// pushed out, if any.
func (t *topN[T]) add(x T) (evicted *T) {
	if !t.admits(&x) {
		return nil
	}
	i, _ := slices.BinarySearchFunc(t.items, &x, func(a T, b *T) int {
		if t.less(&a, b) {
			return -1
		}
		return 1
	})
	t.items = slices.Insert(t.items, i, x)
	if len(t.items) > t.n {
		last := t.items[t.n]
		t.items = t.items[:t.n]
		return &last
	}
	return nil
}
