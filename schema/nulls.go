package schema

import (
	"reflect"
	"strings"
	"time"
)

// Optional columns and parquet-go's batch writer.
//
// An optional column writes the zero value of its field as NULL (see
// [Row]). parquet-go v0.32.0 finds the NULLs of a batch with a bitmap and
// writes each run of NULLs or values in one go; its scan for the end of a
// run of values that starts inside a 64-row word compares the rest of the
// word with (1<<y)-1 instead of "all ones" (column_buffer_write.go,
// writeRowsFuncOfOptional). When a run of exactly y values starts at bit
// y of a word and only NULLs follow in that word, those NULLs are written
// as values: "" instead of NULL. The inputs table hit it (issue 16: a
// failed input between two complete ones made the second error = '').
//
// [Writer.Write] therefore hands parquet-go each batch in pieces that never
// trigger that scan: safeBatch finds the first row where it would go wrong
// in any optional column, and the batch is split there, a run of values at
// the start of a piece being always handled right. The words are counted
// from the start of each piece only if parquet-go does not cut it: it
// cuts a batch where a row group is full and counts again from the cut,
// so no piece crosses the end of a row group either (the readings table
// of a 40,000-host ingest wrote 0 for 80 NULLs of line where one did,
// once in a few runs, as batches fell differently). Later parquet-go
// versions write zero values as values, not NULL, so upgrading would not
// help: the NULL contract is ours to keep.

// optionalFields returns the indexes of the optional fields of T.
func optionalFields[T Row]() []int {
	var out []int
	t := reflect.TypeFor[T]()
	for i := range t.NumField() {
		tag := t.Field(i).Tag.Get("parquet")
		if _, opts, _ := strings.Cut(tag, ","); strings.Contains(","+opts+",", ",optional,") {
			out = append(out, i)
		}
	}
	return out
}

var timeType = reflect.TypeFor[time.Time]()

// isNull reports whether parquet-go writes the addressable field value v as
// NULL (a pointer in an interface does not allocate).
func isNull(v reflect.Value) bool {
	if v.Type() == timeType {
		return v.Addr().Interface().(*time.Time).IsZero()
	}
	return v.IsZero()
}

// safeBatch returns how many rows from the start of rows can be written in
// one call without losing a NULL (at least 1 when rows is not empty).
func safeBatch[T Row](rows []T, fields []int) int {
	n := len(rows)
	if n <= 2 || len(fields) == 0 {
		return n
	}
	values := make([]bool, n)
	all := reflect.ValueOf(rows)
	for {
		first := n
		for _, f := range fields {
			for i := range rows[:n] {
				values[i] = !isNull(all.Index(i).Field(f))
			}
			first = min(first, firstMisread(values[:n]))
		}
		if first == n {
			return n
		}
		n = first // the prefix may misread earlier once cut: check again
	}
}

// firstMisread returns the start of the first run of values that
// parquet-go v0.32.0 would extend over the NULLs after it (see above), or
// len(values) when there is none.
func firstMisread(values []bool) int {
	for i := 1; i < len(values); i++ {
		y := i % 64
		if !values[i] || values[i-1] || y == 0 {
			continue
		}
		word := uint64(0) // the bits of rows i-y .. i-y+63
		for k := range 64 {
			if j := i - y + k; j < len(values) && values[j] {
				word |= 1 << k
			}
		}
		rest := word >> y
		end := min(i-y+64, len(values))
		if rest == 1<<y-1 && rest != ^uint64(0)>>y && i+y < end {
			return i
		}
	}
	return len(values)
}
