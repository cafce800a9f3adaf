package analyze

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/robocensus/robocensus/robots"
)

// outcomeShares returns the outcome distribution: every known outcome in
// DESIGN.md order (zero counts included), then any other value found.
func (s *crawlState) outcomeShares() []OutcomeShare {
	out := make([]OutcomeShare, len(s.outcomes))
	for i, o := range s.outcomes {
		out[i] = OutcomeShare{Outcome: o, Captures: Ratio{Of: s.out.Captures}, Statuses: []StatusCount{}}
	}
	for k, n := range s.statuses {
		o := &out[k.outcome]
		o.Captures.N += n
		o.Statuses = append(o.Statuses, StatusCount{Status: k.status, Captures: n})
	}
	for i := range out {
		slices.SortFunc(out[i].Statuses, func(a, b StatusCount) int {
			return cmp.Or(cmp.Compare(b.Captures, a.Captures), cmp.Compare(a.Status, b.Status))
		})
	}
	return out
}

// sizeBounds are the upper bounds of the size buckets; the last bucket,
// over robots.MaxBytes, has none.
var sizeBounds = []struct {
	label string
	max   int64
}{
	{"0 B", 0}, {"1 B – 1 KiB", 1<<10 - 1}, {"1 – 4 KiB", 4<<10 - 1}, {"4 – 16 KiB", 16<<10 - 1},
	{"16 – 64 KiB", 64<<10 - 1}, {"64 – 256 KiB", 256<<10 - 1}, {"256 – 500 KiB", robots.MaxBytes},
	{"over 500 KiB", -1},
}

// sizeFigures sorts sizes and returns their distribution.
func sizeFigures(sizes []int64, oversize int64) Sizes {
	slices.Sort(sizes)
	n := int64(len(sizes))
	out := Sizes{Captures: n, Oversize: Ratio{oversize, n}, Empty: Ratio{Of: n}}
	lo := int64(0)
	for _, b := range sizeBounds {
		bucket := SizeBucket{Label: b.label, Min: lo, Max: b.max, Captures: Ratio{Of: n}}
		first, _ := slices.BinarySearch(sizes, lo)
		end := len(sizes)
		if b.max >= 0 {
			end, _ = slices.BinarySearch(sizes, b.max+1)
		}
		bucket.Captures.N = int64(end - first)
		out.Buckets = append(out.Buckets, bucket)
		lo = b.max + 1
	}
	out.Empty.N = out.Buckets[0].Captures.N
	if n > 0 {
		out.Median, out.P90, out.P99 = quantile(sizes, 0.5), quantile(sizes, 0.9), quantile(sizes, 0.99)
		out.Max = sizes[n-1]
	}
	for _, v := range sizes {
		out.Bytes += v
	}
	return out
}

// quantile returns the q-quantile of sorted values as DuckDB's
// quantile_disc does: the value at index ceil(n·q) - 1.
func quantile(sorted []int64, q float64) int64 {
	i := int(math.Ceil(float64(len(sorted))*q)) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// topNames returns the n names counted most often, then by name.
func topNames(counts map[string]int64, of int64, n int) []NameCount {
	out := make([]NameCount, 0, len(counts))
	for name, c := range counts {
		out = append(out, NameCount{Name: name, Captures: Ratio{c, of}})
	}
	slices.SortFunc(out, func(a, b NameCount) int {
		return cmp.Or(cmp.Compare(b.Captures.N, a.Captures.N), strings.Compare(a.Name, b.Name))
	})
	return out[:min(n, len(out))]
}

// codeTable numbers the diagnostic codes of a crawl: the catalogue's first,
// then the others (the reader's "ingest-" codes) as they are found. It is
// safe for concurrent use.
type codeTable struct {
	mu       sync.Mutex
	index    map[string]int
	names    []string
	severity []string
}

func newCodeTable() *codeTable {
	t := &codeTable{index: map[string]int{}}
	for _, c := range robots.Codes() {
		t.add(c.Name, c.Severity.String())
	}
	return t
}

func (t *codeTable) add(name, severity string) int {
	i := len(t.names)
	t.index[name] = i
	t.names = append(t.names, name)
	t.severity = append(t.severity, severity)
	return i
}

// lookup returns the number of a code, adding it if new; cache is the
// caller's own copy of known numbers.
func (t *codeTable) lookup(cache map[string]int, name, severity string) int {
	if i, ok := cache[name]; ok {
		return i
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	i, ok := t.index[name]
	if !ok {
		name = strings.Clone(name)
		i = t.add(name, strings.Clone(severity))
	}
	cache[name] = i
	return i
}

// catalogueCache returns a cache filled with the catalogue codes.
func (t *codeTable) catalogueCache() map[string]int {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := make(map[string]int, len(t.index))
	for k, v := range t.index {
		c[k] = v
	}
	return c
}

// severityRank orders severities: errors first.
func severityRank(s string) int {
	switch s {
	case "error":
		return 0
	case "warning":
		return 1
	case "info":
		return 2
	}
	return 3
}

// codeSummary returns the catalogue's one-line summary of a code.
func codeSummary(name string) string {
	if c, ok := robots.LookupCode(name); ok {
		return c.Info().Summary
	}
	if p, ok := strings.CutPrefix(name, "ingest-"); ok {
		return "the reader met a problem with the record: " + p
	}
	return ""
}
