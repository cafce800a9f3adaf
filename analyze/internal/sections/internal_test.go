package sections

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
		if got := quantile(v, cum, q); got != want {
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
		got := sizeFigures(counts, 0)
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

func TestMarkdownTopCrawlers(t *testing.T) {
	c := &Crawl{Crawl: "c"}
	f := &c.Crawlers
	f.UsableHosts, f.AllHosts = 100, 120
	for i := range 150 {
		s := CrawlerShare{Agent: fmt.Sprintf("AIBot%03d", i), Kind: "ai"}
		s.Usable = HostVerdicts{Hosts: 100, Named: int64(i % 40), Disallowed: int64(i % 7)}
		s.All = HostVerdicts{Hosts: 120, Named: int64(i % 40)}
		f.Crawlers = append(f.Crawlers, s)
	}
	for i := range 20 {
		f.Crawlers = append(f.Crawlers, CrawlerShare{Agent: fmt.Sprintf("Search%02d", i), Kind: "search"})
	}
	for i := range 5 {
		f.Crawlers = append(f.Crawlers, CrawlerShare{Agent: fmt.Sprintf("Other%d", i), Kind: "other"})
	}
	v := newCrawlersView(c, 20)
	var want []string
	for _, s := range append(slices.Clone(v.AIShown), v.SearchRows...) {
		want = append(want, s.Agent)
	}
	var b strings.Builder
	m := &render.Markdown{W: bufio.NewWriter(&b)}
	mdCrawlers(m, c, 20)
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

func TestClipAndTypoKey(t *testing.T) {
	if got := engine.Clip("ab€cd", 4); got != "ab…" {
		t.Errorf("Clip: %q", got)
	}
	if got := typoKeyOf(`"User agent" is misspelled`); got != "user agent" {
		t.Errorf("TypoKeyOf: %q", got)
	}
}
