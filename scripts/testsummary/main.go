// Command testsummary reads the events of "go test -json" on its standard
// input and prints what "go test" prints without -json (an "ok" line for
// each package that passes, the output of the tests that fail, build
// errors), then one line for each kind of test skipped for want of
// something a fresh clone may lack, with how to run them:
//
//	25 tests and 153 subtests skipped without the shared corpus: ...
//
// Plain "go test ./..." cannot say so, as it shows nothing of a package
// that passes. scripts/test.sh runs it: go test -json ./... | testsummary.
// It exits 1 when a package failed, as go test does.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// A skipKind is a reason tests skip that the summary counts: tests whose
// skip message starts with prefix (internal/testutil's CorpusSkipPrefix,
// DuckDBSkipPrefix and S3SkipPrefix).
type skipKind struct {
	prefix string
	what   string // ends "N tests and M subtests skipped ..."
}

var skipKinds = []skipKind{
	{"corpus test skipped: ", "without the shared corpus: put it at ../shared/corpus beside the checkout or set ROBOCENSUS_CORPUS to its folder to run them (see README, Set up)"},
	{"DuckDB test skipped: ", "without DuckDB, which needs cgo and a C compiler: install gcc (or set CGO_ENABLED=1) to run them (see README, Set up)"},
	{"S3 test skipped: ", "without versitygw, the S3-compatible test server: install it with scripts/ci-deps.sh to run them (see README, Set up)"},
}

// event is one line of go test -json (see "go doc test2json").
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// summary follows the events of a run.
type summary struct {
	out     io.Writer
	tests   map[string][]string // output of each test still running, by package and name
	failed  map[string][]string // output of the failed tests, by package
	pending map[string][]string // a package's own lines, printed if it fails
	skipped []struct{ tests, subtests int }
	failure bool
}

func newSummary(out io.Writer) *summary {
	return &summary{out: out, tests: map[string][]string{}, failed: map[string][]string{}, pending: map[string][]string{},
		skipped: make([]struct{ tests, subtests int }, len(skipKinds))}
}

// line handles one line of input: an event, or any other text, printed.
func (s *summary) line(text string) {
	var e event
	if json.Unmarshal([]byte(text), &e) != nil || e.Action == "" {
		fmt.Fprintln(s.out, text)
		return
	}
	switch {
	case e.Action == "build-output":
		fmt.Fprint(s.out, e.Output)
	case e.Test == "":
		s.packageEvent(e)
	default:
		s.testEvent(e)
	}
}

// testEvent keeps a test's output until it ends: for the summary when it
// skipped, for the package's output when it failed.
func (s *summary) testEvent(e event) {
	key := e.Package + " " + e.Test
	switch e.Action {
	case "output":
		if !strings.HasPrefix(e.Output, "=== ") { // === RUN, PAUSE, CONT, NAME
			s.tests[key] = append(s.tests[key], e.Output)
		}
	case "skip":
		s.countSkip(e.Test, s.tests[key])
		delete(s.tests, key)
	case "fail":
		s.failed[e.Package] = append(s.failed[e.Package], s.tests[key]...)
		delete(s.tests, key)
	case "pass":
		delete(s.tests, key)
	}
}

// countSkip counts a skipped test under the kind its message says.
func (s *summary) countSkip(test string, output []string) {
	text := strings.Join(output, "")
	for i, k := range skipKinds {
		if strings.Contains(text, k.prefix) {
			if strings.Contains(test, "/") {
				s.skipped[i].subtests++
			} else {
				s.skipped[i].tests++
			}
			return
		}
	}
}

// packageEvent prints a package's lines as go test does without -json: the
// "ok" (or "?") line of a package that passed; for one that failed, the
// output of its failed tests and its own lines ("FAIL ...", what TestMain
// printed), once it is known to have failed.
func (s *summary) packageEvent(e event) {
	switch e.Action {
	case "output":
		switch out := e.Output; {
		case out == "PASS\n" || strings.HasPrefix(out, "=== "):
		case strings.HasPrefix(out, "ok ") || strings.HasPrefix(out, "?"):
			fmt.Fprint(s.out, out)
		default:
			s.pending[e.Package] = append(s.pending[e.Package], out)
		}
	case "fail":
		s.failure = true
		fmt.Fprint(s.out, strings.Join(s.failed[e.Package], "")+strings.Join(s.pending[e.Package], ""))
		fallthrough
	case "pass", "skip":
		delete(s.failed, e.Package)
		delete(s.pending, e.Package)
	}
}

// end prints the line of each kind of skip met.
func (s *summary) end() {
	for i, k := range skipKinds {
		if n := s.skipped[i]; n.tests+n.subtests > 0 {
			fmt.Fprintf(s.out, "%s skipped %s\n", counts(n.tests, n.subtests), k.what)
		}
	}
}

// counts says "2 tests and 3 subtests", leaving out a count of 0.
func counts(tests, subtests int) string {
	var parts []string
	if tests > 0 {
		parts = append(parts, count(tests, "test", "tests"))
	}
	if subtests > 0 {
		parts = append(parts, count(subtests, "subtest", "subtests"))
	}
	return strings.Join(parts, " and ")
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func main() {
	s := newSummary(os.Stdout)
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<10), 64<<20)
	for in.Scan() {
		s.line(in.Text())
	}
	s.end()
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		os.Exit(1)
	}
	if s.failure {
		os.Exit(1)
	}
}
