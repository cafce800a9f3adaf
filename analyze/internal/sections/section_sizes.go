package sections

import (
	"maps"
	"math"
	"slices"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/robocensus/robocensus/analyze/internal/engine"
	"github.com/robocensus/robocensus/analyze/internal/render"
	"github.com/robocensus/robocensus/analyze/internal/scan"
	"github.com/robocensus/robocensus/robots"
)

// sizesSection is the distribution of the real payload sizes over the
// read captures (payload_length_real, not the bytes stored: robocensus
// stores at most 1 MiB of a body): buckets, quantiles, empty and oversize
// files. It keeps a count per distinct size until the captures are read.
var sizesSection = &Section{
	Name:  "sizes",
	Doc:   "the sizes of the read captures and the 500 KiB limit",
	Title: "Sizes",
	Needs: []engine.Need{{Table: engine.CapturesTable, Columns: []string{"fetch_status", "payload_length", "payload_length_real", "oversize"}}},
	New:   func(engine.Params) Accumulator { return &sizesAcc{counts: map[int64]int64{}} },
	View:  func(c *Crawl, _ engine.Params) any { return sizeChart(c.Sizes) },
	Trends: []Trend{
		{Name: "oversize (of read captures)", Ratio: func(c *Crawl) Ratio { return c.Sizes.Oversize }},
		{Name: "empty (of read captures)", Ratio: func(c *Crawl) Ratio { return c.Sizes.Empty }},
	},
	Markdown: func(m *render.Markdown, c *Crawl, _ int) { mdSizes(m, &c.Sizes) },
}

// sizesAcc counts the read captures by size.
type sizesAcc struct {
	counts   map[int64]int64 // real payload size -> read captures
	oversize int64
}

// Add counts a record of captures.
func (a *sizesAcc) Add(_ engine.Table, rec arrow.Record) error {
	cs := scan.Columns{Rec: rec}
	status, oversize := cs.I32("fetch_status"), cs.Boolean("oversize")
	stored, real := cs.I64("payload_length"), cs.I64("payload_length_real")
	if cs.Err != nil {
		return cs.Err
	}
	for i := range int(rec.NumRows()) {
		if !engine.IsRead(status, i) {
			continue
		}
		a.counts[scan.RealLength(real, stored, i)]++
		if oversize.Value(i) {
			a.oversize++
		}
	}
	return nil
}

func (a *sizesAcc) Merge(other engine.Accumulator) {
	o := other.(*sizesAcc)
	for k, v := range o.counts {
		a.counts[k] += v
	}
	a.oversize += o.oversize
}

func (a *sizesAcc) Finish(out *Crawl) { out.Sizes = sizeFigures(a.counts, a.oversize) }

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

// sizeFigures returns the distribution of the sizes counted: captures by
// real payload size.
func sizeFigures(counts map[int64]int64, oversize int64) Sizes {
	sizes := slices.Sorted(maps.Keys(counts))
	cum := make([]int64, len(sizes)) // captures of a size up to sizes[i]
	var n, bytes int64
	for i, v := range sizes {
		n += counts[v]
		cum[i] = n
		bytes += v * counts[v]
	}
	out := Sizes{Captures: n, Oversize: Ratio{oversize, n}, Empty: Ratio{Of: n}, Bytes: bytes, Buckets: sizeBuckets(sizes, cum)}
	out.Empty.N = out.Buckets[0].Captures.N
	if n > 0 {
		out.Median, out.P90, out.P99 = quantile(sizes, cum, 0.5), quantile(sizes, cum, 0.9), quantile(sizes, cum, 0.99)
		out.Max = sizes[len(sizes)-1]
	}
	return out
}

// sizeBuckets counts the captures in each size bucket; sorted and cum are
// as quantile takes them.
//
//mutate:catch
func sizeBuckets(sorted, cum []int64) []SizeBucket {
	var n int64
	if len(cum) > 0 {
		n = cum[len(cum)-1]
	}
	below := func(x int64) int64 { // captures of a size under x
		i, _ := slices.BinarySearch(sorted, x)
		if i == 0 {
			return 0
		}
		return cum[i-1]
	}
	var out []SizeBucket
	lo := int64(0)
	for _, b := range sizeBounds {
		bucket := SizeBucket{Label: b.label, Min: lo, Max: b.max, Captures: Ratio{Of: n}}
		end := n
		if b.max >= 0 {
			end = below(b.max + 1)
		}
		bucket.Captures.N = end - below(lo)
		out = append(out, bucket)
		lo = b.max + 1
	}
	return out
}

// quantile returns the q-quantile of counted values as DuckDB's
// quantile_disc does: the value at index ceil(n·q) - 1 of the n values
// sorted. sorted holds the distinct values, cum[i] the number of values up
// to sorted[i].
func quantile(sorted, cum []int64, q float64) int64 {
	n := cum[len(cum)-1]
	i := max(0, min(int64(math.Ceil(float64(n)*q))-1, n-1))
	j, _ := slices.BinarySearch(cum, i+1) // the first value with more than i values up to it
	return sorted[j]
}
func mdSizes(m *render.Markdown, s *Sizes) {
	m.Heading(3, "Sizes")
	m.Para("Sizes of the %s read captures (each file's real size, not the bytes stored): median %s, 90th percentile %s, 99th %s, largest %s. Over 500 KiB (Google ignores the rest): %s. Empty: %s.",
		render.Int(s.Captures), render.Bytes(s.Median), render.Bytes(s.P90), render.Bytes(s.P99), render.Bytes(s.Max), FormatRatio(s.Oversize), FormatRatio(s.Empty))
	var rows [][]string
	for _, b := range s.Buckets {
		rows = append(rows, []string{b.Label, render.Int(b.Captures.N), render.Share(b.Captures.Share())})
	}
	m.Table([]string{"size", " captures", " share"}, rows)
}
func sizeChart(s Sizes) *render.ColumnChart {
	var labels, notes, classes []string
	var values []float64
	markAt := -1
	for i, b := range s.Buckets {
		labels = append(labels, b.Label)
		notes = append(notes, render.Share(b.Captures.Share()))
		values = append(values, float64(b.Captures.N))
		cls := "col"
		if b.Max < 0 {
			cls, markAt = "col over", i
		} else if b.Min == 0 && b.Max == 0 {
			cls = "col zero"
		}
		classes = append(classes, cls)
	}
	return render.NewColumnChart(1100, 230, labels, notes, values, classes, markAt, "500 KiB: Google stops reading")
}
