package analyze

import (
	"bufio"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/analyze/internal/engine"
	"github.com/robocensus/robocensus/analyze/internal/render"
	"github.com/robocensus/robocensus/analyze/internal/sections"
)

// TestQuantile checks quantile against DuckDB's quantile_disc on the cases
// its behaviour was read from: range(10), range(4), range(101).
func TestQuantile(t *testing.T) {
	f := func(n int, q float64, want int64) {
		t.Helper()
		v, cum := make([]int64, n), make([]int64, n)
		for i := range v {
			v[i], cum[i] = int64(i), int64(i+1)
		}
		if got := sections.Quantile(v, cum, q); got != want {
			t.Errorf("quantile(range(%d), %v) = %d, want %d", n, q, got, want)
		}
	}
	f(10, 0.5, 4)
	f(10, 0.9, 8)
	f(10, 0.99, 9)
	f(10, 0.25, 2)
	f(4, 0.5, 1)
	f(4, 0.9, 3)
	f(4, 0.25, 0)
	f(101, 0.5, 50)
	f(101, 0.9, 90)
	f(101, 0.99, 99)
	f(1, 0.99, 0)
}

func TestFormatting(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{render.Int(1234567), "1,234,567"}, {render.Int(-1000), "-1,000"}, {render.Int(12), "12"},
		{render.Share(0), "0%"}, {render.Share(0.0004), "<0.1%"}, {render.Share(0.6767), "67.7%"}, {render.Share(1), "100.0%"},
		{render.Share(9401.0 / 9403), ">99.9%"}, {render.Share(0.9994), "99.9%"}, {render.Share(0.9995), ">99.9%"}, {render.Share(0.0005), "0.1%"},
		{render.Bytes(512000), "500.0 KiB"}, {render.Bytes(80), "80 B"}, {render.Points(0.0123), "+1.2 pp"},
		{engine.Clip("ab€cd", 4), "ab…"}, {sections.TypoKeyOf(`"User agent" is misspelled`), "user agent"},
		{render.Code("a|b`c"), "``a\\|b`c``"}, {render.Escape("<b>|*x*"), `&lt;b&gt;\|\*x\*`},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// TestSizeFigures checks the size distribution computed from counts per
// distinct size against the sorted list of every size.
func TestSizeFigures(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 20 {
		counts := map[int64]int64{}
		var all []int64
		for range 1 + round*37 {
			v := []int64{0, rng.Int64N(2000), rng.Int64N(600 << 10)}[rng.IntN(3)]
			counts[v]++
			all = append(all, v)
		}
		slices.Sort(all)
		got := sections.SizeFigures(counts, 0)
		at := func(q float64) int64 { return all[max(0, int(math.Ceil(float64(len(all))*q))-1)] }
		var sum, empty int64
		for _, v := range all {
			sum += v
			if v == 0 {
				empty++
			}
		}
		var inBuckets int64
		for _, b := range got.Buckets {
			inBuckets += b.Captures.N
		}
		if got.Captures != int64(len(all)) || got.Median != at(0.5) || got.P90 != at(0.9) || got.P99 != at(0.99) ||
			got.Max != all[len(all)-1] || got.Bytes != sum || got.Empty.N != empty || inBuckets != int64(len(all)) {
			t.Errorf("round %d: %+v", round, got)
		}
	}
}

// TestBatchesFor checks the memory model of WithMemory on the sizes it was
// measured at and on a full Common Crawl partition.
func TestBatchesFor(t *testing.T) {
	const MiB, GiB = 1 << 20, 1 << 30
	for _, tc := range []struct {
		captures, bodies, memory int64
		want                     int
	}{
		{1_000_457, 150_000, 240 * MiB, 1},             // the default limit holds a million captures
		{4_510_056, 600_000, 240 * MiB, 4},             // 1.2M a batch
		{4_510_056, 5_000_000, 240 * MiB, 5},           // no room for the bodies' counts: DefaultBatchCaptures
		{4_510_056, 600_000, 1 * GiB, 1},               // measured: 41 s, 1.0 GiB peak
		{60_000_000, 0, 4 * GiB, 2},                    // 37M a batch
		{60_000_000, 60_000_000, 4 * GiB, 4},           // every host its own body: 2.4 GB of counts
		{75_000_000, 60_000_000, 4 * GiB, 5},           // the largest crawls
		{60_000_000, 60_000_000, engine.MinMemory, 58}, // too little memory: batches of DefaultBatchCaptures
		{0, 0, engine.MinMemory, 1},
	} {
		if got := engine.BatchesFor(tc.captures, tc.bodies, tc.memory); got != tc.want {
			t.Errorf("batchesFor(%d captures, %d bodies, %d MiB) = %d, want %d", tc.captures, tc.bodies, tc.memory/MiB, got, tc.want)
		}
	}
	for m := int64(engine.MinMemory); m < 8*GiB; m += 97 * MiB {
		if engine.BatchesFor(60_000_000, 1_000_000, m+97*MiB) > engine.BatchesFor(60_000_000, 1_000_000, m) {
			t.Fatalf("more memory, more batches at %d MiB", m/MiB)
		}
	}
}

func TestMarkdownTopCrawlers(t *testing.T) {
	c := &sections.Crawl{Crawl: "c"}
	f := &c.Crawlers
	f.UsableHosts, f.AllHosts = 100, 120
	for i := range 150 {
		s := sections.CrawlerShare{Agent: fmt.Sprintf("AIBot%03d", i), Kind: "ai"}
		s.Usable = sections.HostVerdicts{Hosts: 100, Named: int64(i % 40), Disallowed: int64(i % 7)}
		s.All = sections.HostVerdicts{Hosts: 120, Named: int64(i % 40)}
		f.Crawlers = append(f.Crawlers, s)
	}
	for i := range 20 {
		f.Crawlers = append(f.Crawlers, sections.CrawlerShare{Agent: fmt.Sprintf("Search%02d", i), Kind: "search"})
	}
	for i := range 5 {
		f.Crawlers = append(f.Crawlers, sections.CrawlerShare{Agent: fmt.Sprintf("Other%d", i), Kind: "other"})
	}
	v := sections.NewCrawlersView(c, DefaultTop)
	var want []string
	for _, s := range append(slices.Clone(v.AIShown), v.SearchRows...) {
		want = append(want, s.Agent)
	}
	var b strings.Builder
	m := &render.Markdown{W: bufio.NewWriter(&b)}
	sections.MdCrawlers(m, c, DefaultTop)
	m.Flush()
	var got []string
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(line, "| `") {
			got = append(got, strings.Trim(strings.Fields(line)[1], "`"))
		}
	}
	if len(v.AIShown) == 0 || !slices.Equal(got, want) {
		t.Errorf("markdown rows (%d)\n %v\nwant the HTML's (%d)\n %v", len(got), got, len(want), want)
	}
	if !strings.Contains(b.String(), "175 tracked crawlers") || !strings.Contains(b.String(), "--format json") {
		t.Errorf("no pointer to the full table in the JSON:\n%s", b.String())
	}
}
