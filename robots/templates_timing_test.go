package robots

import (
	"slices"
	"testing"
	"time"
)

// BenchmarkParseTemplates measures what template recognition costs the
// parse (issue 32 allows 1.1x): each op is one round that parses every
// body of the egonkm corpus with recognition ([Parse]) and again without
// it, in alternating order, and the benchmark reports the median round of
// each (with-ms, without-ms) and their ratio, x-without. Run it as
//
//	go test ./robots/ -run '^$' -bench ParseTemplates -benchtime 15x -cpu 1
//
// It skips without the shared corpus.
func BenchmarkParseTemplates(b *testing.B) {
	bodies, total := egonkmBodies(b)
	texts := make([]string, len(bodies))
	blocks := 0
	for i, body := range bodies {
		texts[i] = string(body[:min(len(body), MaxBytes)])
		blocks += len(Parse(body).Templates())
		if parseWithoutTemplates(texts[i]).Templates() != nil {
			b.Fatal("parseWithoutTemplates recognised a template")
		}
	}
	with := func() time.Duration {
		start := time.Now()
		for _, body := range bodies {
			Parse(body)
		}
		return time.Since(start)
	}
	without := func() time.Duration {
		start := time.Now()
		for i := range bodies {
			// The copy Parse makes of the body, made here too.
			parseWithoutTemplates(string([]byte(texts[i])))
		}
		return time.Since(start)
	}
	var ws, wos []time.Duration
	b.SetBytes(2 * total)
	round := 0
	for b.Loop() {
		if round%2 == 0 {
			ws, wos = append(ws, with()), append(wos, without())
		} else {
			wos, ws = append(wos, without()), append(ws, with())
		}
		round++
	}
	mw, mwo := median(ws), median(wos)
	b.ReportMetric(float64(mw)/1e6, "with-ms")
	b.ReportMetric(float64(mwo)/1e6, "without-ms")
	b.ReportMetric(float64(mw)/float64(mwo), "x-without")
	b.ReportMetric(float64(blocks), "blocks")
}

// median returns the median of ds.
func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
