package robots

import "testing"

// BenchmarkParseReadings measures, in one run over the egonkm corpus, what
// the readings add to a parse: the plain parse without the line list
// (without-lines), the parse as Parse does it, keeping the line list
// (with-lines), and that parse followed by the python-legacy reading and
// its verdicts for the root for three crawlers (with-python-legacy), the
// work a census of one more parser adds per body, and the same for every
// reading other than Google's (with-all-readings). Compare them with
//
//	go test ./robots/ -run '^$' -bench ParseReadings -benchmem -cpu 1 -count 5
func BenchmarkParseReadings(b *testing.B) {
	bodies, total := egonkmBodies(b)
	parse := func(body []byte, keep bool) *File {
		return parseLines(Response{}, string(body[:min(len(body), MaxBytes)]), len(body), keep)
	}
	agents := [][]string{{"GPTBot"}, {"CCBot"}, {"Googlebot"}}
	for _, bench := range []struct {
		name string
		run  func(body []byte)
	}{
		{"without-lines", func(body []byte) { parse(body, false) }},
		{"with-lines", func(body []byte) { parse(body, true) }},
		{"with-python-legacy", func(body []byte) {
			r := parse(body, true).As(SemanticsPythonLegacy)
			for _, a := range agents {
				r.Match("/", a)
			}
		}},
		{"with-all-readings", func(body []byte) {
			f := parse(body, true)
			for _, s := range AllSemantics()[1:] {
				r := f.As(s)
				for _, a := range agents {
					r.Match("/", a)
				}
			}
		}},
	} {
		b.Run(bench.name, func(b *testing.B) {
			b.SetBytes(total)
			b.ReportAllocs()
			for b.Loop() {
				for _, body := range bodies {
					bench.run(body)
				}
			}
		})
	}
}
