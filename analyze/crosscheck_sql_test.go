package analyze_test

import "fmt"

// What the cross-checks of the sections (crosscheck_NAME_test.go) share.
// "read" captures are those with status 2xx or NULL.

const readSQL = `(fetch_status IS NULL OR fetch_status BETWEEN 200 AND 299)`

// sortRows sorts rows by their cells, as ORDER BY 1, 2, ... would for the
// values compared here.
func sortRows(rows [][]string) {
	less := func(a, b []string) bool {
		for i := range a {
			if a[i] != b[i] {
				if x, y, ok := numbers(a[i], b[i]); ok {
					return x < y
				}
				return a[i] < b[i]
			}
		}
		return false
	}
	for i := 1; i < len(rows); i++ {
		for j := i; j > 0 && less(rows[j], rows[j-1]); j-- {
			rows[j], rows[j-1] = rows[j-1], rows[j]
		}
	}
}

func numbers(a, b string) (int64, int64, bool) {
	var x, y int64
	_, e1 := fmt.Sscan(a, &x)
	_, e2 := fmt.Sscan(b, &y)
	return x, y, e1 == nil && e2 == nil && fmt.Sprint(x) == a && fmt.Sprint(y) == b
}
