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
	cut := make([][]byte, len(bodies))
	blocks := 0
	for i, body := range bodies {
		cut[i] = body[:min(len(body), MaxBytes)]
		blocks += len(Parse(body).Templates())
		if parseWithoutTemplates(string(cut[i])).Templates() != nil {
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
		for _, body := range cut {
			// The copy Parse makes of the body, made here too.
			parseWithoutTemplates(string(body))
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

// BenchmarkAttribute measures File.Attribute for the AI crawlers of the
// tracked list over the parsed bodies of the egonkm corpus (the parse not
// timed): one op attributes every body; files without a template block
// cost no parse, the others two (their template lines and their own);
// templated-ms/op is the part of an op spent on those.
func BenchmarkAttribute(b *testing.B) {
	bodies, _ := egonkmBodies(b)
	var ai []Crawler
	for _, c := range TrackedCrawlers() {
		if c.Kind == CrawlerAI {
			ai = append(ai, c)
		}
	}
	files := make([]*File, len(bodies))
	templated := 0
	for i, body := range bodies {
		files[i] = Parse(body)
		if len(files[i].Templates()) > 0 {
			templated++
		}
	}
	b.ReportAllocs()
	var inTemplated time.Duration
	for b.Loop() {
		for _, f := range files {
			if len(f.Templates()) == 0 {
				f.Attribute(ai)
				continue
			}
			start := time.Now()
			f.Attribute(ai)
			inTemplated += time.Since(start)
		}
	}
	b.ReportMetric(float64(inTemplated.Milliseconds())/float64(b.N), "templated-ms/op")
	b.ReportMetric(float64(templated), "templated-files")
	b.ReportMetric(float64(len(ai)), "crawlers")
}
