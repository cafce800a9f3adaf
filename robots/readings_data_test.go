package robots

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
)

// readExpectations reads a file of parser expectations kept as test data
// (testdata/rfc9309/examples.txt, testdata/python/rfc9309.txt,
// testdata/crawler-commons/expectations.txt). Its format:
//
//	# comment                  (also blank lines)
//	@ name                     starts a case
//	> text                     a line of its robots.txt (">" alone an empty line)
//	>q "text"                  bytes of its robots.txt, a Go string literal, no line end added
//	< file                     its robots.txt is file of the shared corpus's
//	                           robots/crawler-commons-test-robots (skipped when absent)
//	? agent URL allow|disallow an expectation; an agent with spaces is a Go string literal
//
// A case whose file is absent from the corpus is dropped (and logged).
func readExpectations(t *testing.T, path string) []*rfcExample {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(path)
	var cases []*rfcExample
	for i, line := range strings.Split(string(data), "\n") {
		fail := func(what string) { t.Fatalf("%s:%d: %s %q", name, i+1, what, line) }
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "@ "):
			cases = append(cases, &rfcExample{name: line[2:]})
		case len(cases) == 0:
			fail("before the first case:")
		case strings.HasPrefix(line, ">q "):
			s, err := strconv.Unquote(line[3:])
			if err != nil {
				fail("bad literal")
			}
			cases[len(cases)-1].body.WriteString(s)
		case line == ">" || strings.HasPrefix(line, "> "):
			cases[len(cases)-1].body.WriteString(strings.TrimPrefix(strings.TrimPrefix(line, ">"), " ") + "\n")
		case strings.HasPrefix(line, "< "):
			cases[len(cases)-1].file = line[2:]
		case strings.HasPrefix(line, "? "):
			w, ok := parseWant(line[2:])
			if !ok {
				fail("bad expectation")
			}
			c := cases[len(cases)-1]
			c.wants = append(c.wants, w)
		default:
			fail("unknown line")
		}
	}
	return loadExpectationFiles(t, cases)
}

// parseWant reads "agent URL allow|disallow", the agent possibly quoted.
func parseWant(s string) (rfcWant, bool) {
	var agent string
	if strings.HasPrefix(s, `"`) {
		q, err := strconv.QuotedPrefix(s)
		if err != nil {
			return rfcWant{}, false
		}
		agent, _ = strconv.Unquote(q)
		s = strings.TrimPrefix(s[len(q):], " ")
		s = "x " + s
	}
	f := strings.Fields(s)
	if len(f) != 3 || f[2] != "allow" && f[2] != "disallow" {
		return rfcWant{}, false
	}
	if agent == "" {
		agent = f[0]
	}
	return rfcWant{agent, f[1], f[2] == "allow"}, true
}

// loadExpectationFiles reads the bodies of the cases that name a file of
// the shared corpus. Without the corpus those cases are dropped, with a
// log line, or the test fails when the corpus is required.
func loadExpectationFiles(t *testing.T, cases []*rfcExample) []*rfcExample {
	t.Helper()
	dir := filepath.Join(testutil.CorpusDir(), "robots", "crawler-commons-test-robots")
	var kept []*rfcExample
	dropped := 0
	for _, c := range cases {
		if c.file == "" {
			kept = append(kept, c)
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, c.file))
		if err != nil {
			if os.IsNotExist(err) && os.Getenv(testutil.RequireCorpusEnv) != "1" {
				dropped++
				continue
			}
			t.Fatalf("%s: %v", c.name, err)
		}
		c.body.Write(data)
		kept = append(kept, c)
	}
	if dropped > 0 {
		t.Logf("%s%d cases left out: their files are not in %s", testutil.CorpusSkipPrefix, dropped, dir)
	}
	return kept
}
