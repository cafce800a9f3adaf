package robots

import (
	"slices"
	"testing"
	"time"
)

// BenchmarkParseTemplates measures what template recognition costs the
// parse (issue 32 allows 1.1x). Each op is one round over every body of the
// egonkm corpus, cut in chunks of parseChunk bodies: each chunk is parsed
// with recognition ([Parse]) and without it, back to back in alternating
// order, so that the load of a shared machine falls on both alike. The
// benchmark reports the median round of each (with-ms, without-ms) and
// the median of the rounds' ratios, x-without. Run it as
//
//	go test ./robots/ -run '^$' -bench ParseTemplates -benchtime 15x -cpu 1
//
// It skips without the shared corpus.
func BenchmarkParseTemplates(b *testing.B) {
	bodies, total := egonkmBodies(b)
	blocks := 0
	for _, body := range bodies {
		blocks += len(Parse(body).Templates())
		if parseWithoutTemplates(string(body[:min(len(body), MaxBytes)])).Templates() != nil {
			b.Fatal("parseWithoutTemplates recognised a template")
		}
	}
	var ws, wos []time.Duration
	var ratios []float64
	b.SetBytes(2 * total)
	for b.Loop() {
		w, wo := templateRound(bodies, len(ws)%2 == 0)
		ws, wos, ratios = append(ws, w), append(wos, wo), append(ratios, float64(w)/float64(wo))
	}
	slices.Sort(ratios)
	b.ReportMetric(float64(median(ws))/1e6, "with-ms")
	b.ReportMetric(float64(median(wos))/1e6, "without-ms")
	b.ReportMetric(ratios[len(ratios)/2], "x-without")
	b.ReportMetric(float64(blocks), "blocks")
}

// parseChunk is how many bodies BenchmarkParseTemplates parses in one go
// with and without recognition: about 50 ms of parsing.
const parseChunk = 1000

// templateRound parses every body with recognition and without, a chunk
// at a time (with first when withFirst), and returns the time of each.
func templateRound(bodies [][]byte, withFirst bool) (with, without time.Duration) {
	for c := 0; c < len(bodies); c += parseChunk {
		chunk := bodies[c:min(c+parseChunk, len(bodies))]
		if withFirst {
			with += timeParses(chunk, true)
			without += timeParses(chunk, false)
		} else {
			without += timeParses(chunk, false)
			with += timeParses(chunk, true)
		}
		withFirst = !withFirst
	}
	return with, without
}

// timeParses times parsing bodies with recognition (Parse) or without it;
// both copy the body as Parse does.
func timeParses(bodies [][]byte, templates bool) time.Duration {
	start := time.Now()
	for _, body := range bodies {
		if templates {
			Parse(body)
		} else {
			parseWithoutTemplates(string(body[:min(len(body), MaxBytes)]))
		}
	}
	return time.Since(start)
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

// BenchmarkParseNoTemplates is BenchmarkParse without template
// recognition: the pair counts the instructions recognition costs
// (valgrind --tool=cachegrind on -test.benchtime 2x less 1x of each).
func BenchmarkParseNoTemplates(b *testing.B) {
	bodies, total := egonkmBodies(b)
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		for _, body := range bodies {
			parseWithoutTemplates(string(body[:min(len(body), MaxBytes)]))
		}
	}
}
