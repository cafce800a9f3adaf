package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const section = `package analyze

var xSection = &Section{Name: "x", New: newXAcc}

var lintCheck = &Check{Name: "lint", Run: runLint}

func runLint(p *Pass) error { return p.count() }

type xAcc struct{ n int }

func (a *xAcc) Add(string, arrow.Record) error { return nil }

func (a *xAcc) AddMarks(m *Marks) { a.n += count(m) }

// Merge is never called.
func (a *xAcc) Merge(Accumulator) {}

// AddHosts is not a mutant.
//
//mutate:skip the hosts are counted by AddMarks
func (a *xAcc) AddHosts(rec arrow.Record, hosts []CaptureRow) error { a.n++; return nil }

func (a *xAcc) Finish(out *Crawl) { out.X = a.n }

// count counts.
//
//mutate:catch
func count(m *Marks) int { return 1 }

//mutate:catch ./cmd/robocensus
func (v view) draw() string { return "x" }

func (v view) Add() string { return "not an accumulator" }

func helper() {}
`

// The mutants of a file are its checks' Run functions, its accumulator's
// feed methods that do something, and the functions it marks.
func TestMutants(t *testing.T) {
	path := filepath.Join(t.TempDir(), "section_x.go")
	if err := os.WriteFile(path, []byte(section), 0o644); err != nil {
		t.Fatal(err)
	}
	ms, err := mutants(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, m.fn+" "+m.pkg)
	}
	want := []string{"runLint ./analyze/...", "xAcc.AddMarks ./analyze/...", "count ./analyze/...", "view.draw ./cmd/robocensus"}
	if !slices.Equal(got, want) {
		t.Errorf("mutants %q, want %q", got, want)
	}
	for _, bad := range []string{"//mutate:skip\nfunc f() {}\n", "//mutate:drop\nfunc f() {}\n"} {
		if err := os.WriteFile(path, []byte("package p\n\n"+bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := mutants(path); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if err := os.WriteFile(path, []byte("package p\n\nfunc f() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := list(new(strings.Builder), []string{path}, 0, ""); err == nil {
		t.Error("a file without mutants: no error")
	}
}

// Every section of the crawl report, every site check, the host-batch
// engine and the robots parser and matcher have mutants: the files as
// scripts/mutate.sh lists them.
func TestRepositoryMutants(t *testing.T) {
	files, err := filepath.Glob("../../analyze/internal/sections/section_*.go")
	if err != nil {
		t.Fatal(err)
	}
	files = slices.DeleteFunc(files, func(f string) bool { return strings.HasSuffix(f, "_test.go") })
	if len(files) < 10 {
		t.Fatalf("section files %q", files)
	}
	files = append(files, "../../analyze/internal/site/checks.go", "../../analyze/internal/engine/batch.go", "../../analyze/internal/engine/sectiondriver.go", "../../robots/parse.go", "../../robots/match.go")
	var b strings.Builder
	if err := list(&b, files, 0, ""); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"checks.go runFetch ./analyze/...", "section_sitemaps.go sitemapsAcc.addCaptures ./analyze/...", "section_strata.go strataAcc.Add ./analyze/...",
		"batch.go host.decidesAfter ./analyze/...", "sectiondriver.go sectionRun.merge ./analyze/...", "parse.go parser.rule ./robots", "match.go matchPattern ./robots"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no mutant %q in\n%s", want, b.String())
		}
	}
}

// A sample is n mutants of each directory (all of one with fewer) in
// their order, the same for the same seed, another for another seed; one
// mutant more changes it by that mutant at most.
func TestSample(t *testing.T) {
	var ms []mutant
	for i := range 40 {
		ms = append(ms, mutant{"analyze/f.go", "fn" + strings.Repeat("x", i), "./analyze/..."})
	}
	ms = append(ms, mutant{"robots/m.go", "a", "./robots"}, mutant{"robots/m.go", "b", "./robots"})
	a := sample(ms, 5, "ci")
	perDir := map[string]int{}
	for _, m := range a {
		perDir[filepath.Dir(m.file)]++
	}
	if perDir["analyze"] != 5 || perDir["robots"] != 2 || len(a) != 7 {
		t.Fatalf("sample of 5 a directory: %v", a)
	}
	if !slices.IsSortedFunc(a, func(x, y mutant) int { return slices.Index(ms, x) - slices.Index(ms, y) }) {
		t.Errorf("sample %v not in the mutants' order", a)
	}
	if b := sample(slices.Clone(ms), 5, "ci"); !slices.Equal(a, b) {
		t.Errorf("same seed: %v, then %v", a, b)
	}
	if c := sample(ms, 5, "another"); slices.Equal(a, c) {
		t.Errorf("seeds ci and another: the same sample %v", a)
	}
	more := append(slices.Clone(ms), mutant{"analyze/g.go", "added", "./analyze/..."})
	kept := 0
	for _, m := range sample(more, 5, "ci") {
		if slices.Contains(a, m) {
			kept++
		}
	}
	if kept < 6 {
		t.Errorf("one mutant added: %d of the sample's 7 kept", kept)
	}
	if all := sample(ms, 100, "ci"); !slices.Equal(all, ms) {
		t.Errorf("sample of 100 a directory of %d: %d", len(ms), len(all))
	}
	if err := list(new(strings.Builder), nil, -1, ""); err == nil {
		t.Error("-sample -1: no error")
	}
}
