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
	want := []string{"runLint ./analyze", "xAcc.AddMarks ./analyze", "count ./analyze", "view.draw ./cmd/robocensus"}
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
	if err := list(new(strings.Builder), []string{path}); err == nil {
		t.Error("a file without mutants: no error")
	}
}

// Every section of the crawl report and every site check has mutants:
// the files of analyze, as scripts/mutate.sh lists them.
func TestRepositoryMutants(t *testing.T) {
	files, err := filepath.Glob("../../analyze/section_*.go")
	if err != nil {
		t.Fatal(err)
	}
	files = slices.DeleteFunc(files, func(f string) bool { return strings.HasSuffix(f, "_test.go") })
	if len(files) < 10 {
		t.Fatalf("section files %q", files)
	}
	files = append(files, "../../analyze/checks.go")
	var b strings.Builder
	if err := list(&b, files); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"checks.go runFetch ./analyze", "section_sitemaps.go sitemapsAcc.addCaptures ./analyze", "section_strata.go strataAcc.Add ./cmd/robocensus"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no mutant %q in\n%s", want, b.String())
		}
	}
}
