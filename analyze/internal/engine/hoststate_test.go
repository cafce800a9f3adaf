package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestHostStateRuns writes hosts in many small runs, each host's state
// (digest and verdicts) and fetch class in different runs and in random
// order, and checks that merging the runs gives every host once, in name
// order, with its records combined.
func TestHostStateRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	type want struct {
		digest   uint64
		verdicts uint16
		class    uint8
	}
	wants := map[string]want{}
	type rec struct {
		name string
		st   HostState
	}
	var recs []rec
	for i := range 3000 {
		name := fmt.Sprintf("h%05d.example", rng.IntN(100000))
		if _, ok := wants[name]; ok {
			continue
		}
		w := want{digest: rng.Uint64(), verdicts: uint16(rng.IntN(1 << 14)), class: uint8(1 + i%7)}
		if i%5 == 0 {
			w.class = 0 // no row of hosts
		}
		wants[name] = w
		recs = append(recs, rec{name, HostState{Digest: w.digest, Verdicts: w.verdicts, Flags: StatePresent}})
		if w.class != 0 {
			recs = append(recs, rec{name, HostState{Class: w.class}})
		}
	}
	rng.Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
	dir := t.TempDir()
	var b StateBuffer
	var runs []string
	for i, r := range recs {
		b.Add(r.name, r.st)
		if b.Size() > 2000 || i == len(recs)-1 {
			path, err := b.WriteRun(dir)
			if err != nil {
				t.Fatal(err)
			}
			runs = append(runs, path)
		}
	}
	if len(runs) < 20 {
		t.Fatalf("%d runs: the test wants many", len(runs))
	}
	m, err := OpenStateMerge(runs)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	var names []string
	for m.NextPresent() {
		name := string(m.State.Name)
		names = append(names, name)
		w := wants[name]
		if got := (want{m.State.Digest, m.State.Verdicts, m.State.Class}); got != w {
			t.Fatalf("%s: %+v, want %+v", name, got, w)
		}
	}
	if err := m.Failed(); err != nil {
		t.Fatal(err)
	}
	if !slices.IsSorted(names) || len(names) != len(wants) || len(slices.Compact(slices.Clone(names))) != len(names) {
		t.Errorf("merged %d names (sorted %v), want each of %d once in order", len(names), slices.IsSorted(names), len(wants))
	}
}
