package robots

import (
	"fmt"
	"strings"
	"testing"
)

// allowed parses body both ways (bytes and string) and returns the verdict
// for url and agents, failing if the two parses disagree.
func allowed(t *testing.T, body, url string, agents ...string) bool {
	t.Helper()
	a := Parse([]byte(body)).Allowed(url, agents...)
	b := ParseString(body).Allowed(url, agents...)
	if a != b {
		t.Fatalf("Parse and ParseString disagree on %q for %v", url, agents)
	}
	return a
}

// expectVerdicts checks each "allow URL" / "disallow URL" line of want
// against body, for the given agent.
func expectVerdicts(t *testing.T, body, agent, want string) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSpace(want), "\n") {
		verdict, url, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok || verdict != "allow" && verdict != "disallow" {
			t.Fatalf("bad expectation line %q", line)
		}
		if got := allowed(t, body, url, agent); got != (verdict == "allow") {
			t.Errorf("%s %s: got allowed=%v, want %s\nrobots.txt:\n%s", agent, url, got, verdict, body)
		}
	}
}

// codesOf returns the diagnostics of f as "LINE:code" strings.
func codesOf(f *File) []string {
	var out []string
	for _, d := range f.Diagnostics {
		out = append(out, fmt.Sprintf("%d:%s", d.Line, d.Code))
	}
	return out
}

// messageOf is the message of a finding of code c on line with the given
// strings, as a File would keep them: the catalogue's message funcs over
// any sample, without a parse.
func messageOf(c Code, line int, text, arg string, ref int, refArg string) string {
	m := message{line: line, ref: ref, text: text, refArg: refArg}
	return string(m.write(c, arg))
}
