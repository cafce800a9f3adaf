package robots

import (
	"math"
	"testing"
)

// An Explainer that reads a file only up to the lines a difference asks
// (and reads further for later differences) explains every difference as
// one that read the whole file: on every 10th body of each set of the
// shared corpus, for pairs of rule lines of the file (and no line) asked
// from the first line to the last and back, one Explainer reused from
// file to file.
func TestExplainerReadsEnoughLines(t *testing.T) {
	var partial Explainer
	files, compared := 0, 0
	for _, set := range loadCorpus(t) {
		for i := 0; i < len(set.bodies); i += 10 {
			f := ParseResponse(Response{}, set.bodies[i].Data)
			lines := []int{0}
			for _, r := range f.Rules[:min(len(f.Rules), 12)] {
				lines = append(lines, r.Line)
			}
			if len(f.Rules) > 12 {
				lines = append(lines, f.Rules[len(f.Rules)-1].Line)
			}
			files++
			var whole Explainer
			whole.read(f, math.MaxInt)
			for _, order := range []int{1, -1} {
				for k := range lines {
					gl := lines[k]
					if order < 0 {
						gl = lines[len(lines)-1-k]
					}
					for _, rl := range lines {
						compared++
						if got, want := partial.Explain(f, gl, rl), whole.Explain(f, gl, rl); got != want {
							t.Fatalf("%s/%s: lines %d and %d: %+v, reading the whole file %+v", set.name, set.bodies[i].Name, gl, rl, got, want)
						}
					}
				}
			}
		}
	}
	t.Logf("%d files, %d differences explained", files, compared)
}
