package ingest

import (
	"testing"

	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/robots"
)

// Every kind of a reader's problem has its entry in the one diagnostic
// catalogue, named "ingest-" + the kind's name and marked as a reader's,
// and every reader's entry is some kind's (issue 29): problemCodes joins
// the two lists once, by the kind's number.
func TestProblemCodesInCatalogue(t *testing.T) {
	kinds := archive.ProblemKinds()
	if len(kinds) < 17 {
		t.Errorf("archive has %d problem kinds", len(kinds))
	}
	ofKind := make(map[robots.Code]archive.ProblemKind)
	for _, k := range kinds {
		c := problemCode(k)
		if ci := c.Info(); ci.Name != "ingest-"+k.String() || !ci.Reader || ci.Doc == "" {
			t.Errorf("kind %d (%s): catalogue entry %+v", k, k, ci)
		}
		if other, dup := ofKind[c]; dup {
			t.Errorf("kinds %s and %s have the same code %s", other, k, c)
		}
		ofKind[c] = k
	}
	for _, ci := range robots.Codes() {
		if _, ok := ofKind[ci.Code]; ci.Reader && !ok {
			t.Errorf("reader's catalogue entry %s is no archive problem kind's", ci.Name)
		}
	}
	if c := problemCode(archive.ProblemKind(255)); c.Info().Name != "" {
		t.Errorf("problemCode(255) = %s, want no code", c)
	}
}

// A problem's code is looked up without building a string or allocating.
func TestProblemCodeAllocatesNothing(t *testing.T) {
	kinds := archive.ProblemKinds()
	var sink robots.Code
	allocs := testing.AllocsPerRun(100, func() {
		for _, k := range kinds {
			sink = problemCode(k)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per lookup of the %d problem kinds, want 0", allocs, len(kinds))
	}
	_ = sink
}

// BenchmarkProblemCode looks up the code of each problem kind.
func BenchmarkProblemCode(b *testing.B) {
	kinds := archive.ProblemKinds()
	b.ReportAllocs()
	var sink robots.Code
	for i := 0; b.Loop(); i++ {
		sink = problemCode(kinds[i%len(kinds)])
	}
	_ = sink
}
