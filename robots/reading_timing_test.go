package robots

import "testing"

// BenchmarkParseReadings measures, in one run over the egonkm corpus, what
// the readings add to a parse: the plain parse without the line list
// (without-lines), the parse as Parse does it, keeping the line list
// (with-lines), that parse followed by one reading and its verdicts for the
// root for four crawlers (with-python-legacy, with-rfc9309, with-python,
// with-crawler-commons), the work a census of one more parser adds per
// body, and the same for every reading other than Google's
// (with-all-readings). Besides the wall time it reports cpu-ms/op, the
// process's CPU time (GC included) an op, steadier on a shared machine.
// Compare them with
//
//	go test ./robots/ -run '^$' -bench ParseReadings -benchmem -cpu 1 -count 5
func BenchmarkParseReadings(b *testing.B) {
	bodies, total := egonkmBodies(b)
	parse := func(body []byte, keep bool) *File {
		return parseLines(Response{}, string(body[:min(len(body), MaxBytes)]), len(body), keep)
	}
	agents := [][]string{{"GPTBot"}, {"CCBot"}, {"Googlebot"}, {"ClaudeBot"}}
	reading := func(ss ...Semantics) func(body []byte) {
		return func(body []byte) {
			f := parse(body, true)
			for _, s := range ss {
				r := f.As(s)
				for _, a := range agents {
					r.Match("/", a)
				}
			}
		}
	}
	benches := []struct {
		name string
		run  func(body []byte)
	}{
		{"without-lines", func(body []byte) { parse(body, false) }},
		{"with-lines", func(body []byte) { parse(body, true) }},
	}
	for _, s := range AllSemantics()[1:] {
		benches = append(benches, struct {
			name string
			run  func(body []byte)
		}{"with-" + s.String(), reading(s)})
	}
	benches = append(benches, struct {
		name string
		run  func(body []byte)
	}{"with-all-readings", reading(AllSemantics()[1:]...)})
	for _, bench := range benches {
		b.Run(bench.name, func(b *testing.B) {
			b.SetBytes(total)
			b.ReportAllocs()
			cpu := processCPU()
			for b.Loop() {
				for _, body := range bodies {
					bench.run(body)
				}
			}
			if cpu > 0 {
				b.ReportMetric(float64(processCPU()-cpu)/1e6/float64(b.N), "cpu-ms/op")
			}
		})
	}
}
