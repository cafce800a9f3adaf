package main

import (
	"strings"
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
)

// TestSkipPrefixes: the summary counts the skips testutil makes.
func TestSkipPrefixes(t *testing.T) {
	if skipKinds[0].prefix != testutil.CorpusSkipPrefix || skipKinds[1].prefix != testutil.DuckDBSkipPrefix ||
		skipKinds[2].prefix != testutil.S3SkipPrefix {
		t.Errorf("prefixes %q, %q, %q; testutil skips with %q, %q, %q", skipKinds[0].prefix, skipKinds[1].prefix, skipKinds[2].prefix,
			testutil.CorpusSkipPrefix, testutil.DuckDBSkipPrefix, testutil.S3SkipPrefix)
	}
}

// TestIssue27Summary (issue 27 item 14): the events of go test -json are
// printed as go test prints them (the "ok" line of a package that passed,
// the failed tests and the FAIL lines of one that failed, build errors),
// and the run ends with a line per kind of skip counted, tests apart from
// subtests; other skips are not counted.
func TestIssue27Summary(t *testing.T) {
	const events = `{"Action":"start","Package":"m/a"}
{"Action":"run","Package":"m/a","Test":"TestCorpus"}
{"Action":"output","Package":"m/a","Test":"TestCorpus","Output":"=== RUN   TestCorpus\n"}
{"Action":"output","Package":"m/a","Test":"TestCorpus","Output":"    x_test.go:9: corpus test skipped: shared corpus file /c/x is not available\n"}
{"Action":"output","Package":"m/a","Test":"TestCorpus","Output":"--- SKIP: TestCorpus (0.00s)\n"}
{"Action":"skip","Package":"m/a","Test":"TestCorpus"}
{"Action":"run","Package":"m/a","Test":"TestFiles"}
{"Action":"run","Package":"m/a","Test":"TestFiles/one"}
{"Action":"output","Package":"m/a","Test":"TestFiles/one","Output":"    x_test.go:9: corpus test skipped: shared corpus file /c/one is not available\n"}
{"Action":"skip","Package":"m/a","Test":"TestFiles/one"}
{"Action":"run","Package":"m/a","Test":"TestFiles/two"}
{"Action":"output","Package":"m/a","Test":"TestFiles/two","Output":"    x_test.go:9: corpus test skipped: shared corpus file /c/two is not available\n"}
{"Action":"skip","Package":"m/a","Test":"TestFiles/two"}
{"Action":"pass","Package":"m/a","Test":"TestFiles"}
{"Action":"run","Package":"m/a","Test":"TestSlow"}
{"Action":"output","Package":"m/a","Test":"TestSlow","Output":"    x_test.go:9: input too large\n"}
{"Action":"skip","Package":"m/a","Test":"TestSlow"}
{"Action":"output","Package":"m/a","Output":"PASS\n"}
{"Action":"output","Package":"m/a","Output":"ok  \tm/a\t0.01s\n"}
{"Action":"pass","Package":"m/a"}
{"Action":"start","Package":"m/b"}
{"Action":"run","Package":"m/b","Test":"TestDB"}
{"Action":"output","Package":"m/b","Test":"TestDB","Output":"    db_test.go:5: DuckDB test skipped: DuckDB needs cgo\n"}
{"Action":"skip","Package":"m/b","Test":"TestDB"}
{"Action":"run","Package":"m/b","Test":"TestOK"}
{"Action":"output","Package":"m/b","Test":"TestOK","Output":"=== RUN   TestOK\n"}
{"Action":"output","Package":"m/b","Test":"TestOK","Output":"--- PASS: TestOK (0.00s)\n"}
{"Action":"pass","Package":"m/b","Test":"TestOK"}
{"Action":"run","Package":"m/b","Test":"TestBad"}
{"Action":"output","Package":"m/b","Test":"TestBad","Output":"=== RUN   TestBad\n"}
{"Action":"output","Package":"m/b","Test":"TestBad","Output":"    b_test.go:7: got 1, want 2\n"}
{"Action":"output","Package":"m/b","Test":"TestBad","Output":"--- FAIL: TestBad (0.00s)\n"}
{"Action":"fail","Package":"m/b","Test":"TestBad"}
{"Action":"output","Package":"m/b","Output":"FAIL\n"}
{"Action":"output","Package":"m/b","Output":"FAIL\tm/b\t0.02s\n"}
{"Action":"fail","Package":"m/b"}
{"ImportPath":"m/c [m/c.test]","Action":"build-output","Output":"# m/c [m/c.test]\n"}
{"ImportPath":"m/c [m/c.test]","Action":"build-output","Output":"c/c_test.go:3:1: syntax error\n"}
{"ImportPath":"m/c [m/c.test]","Action":"build-fail"}
{"Action":"start","Package":"m/c"}
{"Action":"output","Package":"m/c","Output":"FAIL\tm/c [build failed]\n"}
{"Action":"fail","Package":"m/c"}
{"Action":"start","Package":"m/d"}
{"Action":"output","Package":"m/d","Output":"?   \tm/d\t[no test files]\n"}
{"Action":"skip","Package":"m/d"}
not an event
`
	var out strings.Builder
	s := newSummary(&out)
	for _, line := range strings.Split(strings.TrimSuffix(events, "\n"), "\n") {
		s.line(line)
	}
	s.end()
	want := `ok  	m/a	0.01s
    b_test.go:7: got 1, want 2
--- FAIL: TestBad (0.00s)
FAIL
FAIL	m/b	0.02s
# m/c [m/c.test]
c/c_test.go:3:1: syntax error
FAIL	m/c [build failed]
?   	m/d	[no test files]
not an event
1 test and 2 subtests skipped ` + skipKinds[0].what + `
1 test skipped ` + skipKinds[1].what + `
`
	if got := out.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if !s.failure {
		t.Error("a package failed, but the summary does not say so")
	}
}
