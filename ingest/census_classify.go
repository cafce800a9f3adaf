package ingest

import (
	"strings"

	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// lineIndex is what the classifier reads of a file's lines, built from
// robots.File.Lines for the first difference of a capture (most captures
// have none), into the census's one lineIndex.
type lineIndex struct {
	lines     []robots.Line // by number - 1
	firstUA   int           // the number of the first user-agent line, 0 when none
	headOf    []int         // per line: the number of the first user-agent line of the run heading it, 0 when none
	blankOf   []bool        // per line: an empty line stands between the run heading it and the line
	emptyHead map[int]bool  // heads whose run holds an empty user-agent value
}

// read reads the lines of f into x, in place of the file x held before
// (its slices and map are reused from capture to capture): for each line,
// the run of user-agent lines heading it (the last such run before it;
// comments and empty lines do not end a run) and whether an empty line
// follows that run before it.
func (x *lineIndex) read(f *robots.File) {
	x.lines, x.headOf, x.blankOf, x.firstUA = x.lines[:0], x.headOf[:0], x.blankOf[:0], 0
	if x.emptyHead == nil {
		x.emptyHead = map[int]bool{}
	}
	clear(x.emptyHead)
	head, inRun, blank := 0, false, false
	for l := range f.Lines() {
		x.lines = append(x.lines, l)
		isUA := l.Kind == robots.LineDirective && l.Key == robots.KeyUserAgent
		switch {
		case isUA && !inRun:
			head, inRun, blank = l.Number, true, false
			if x.firstUA == 0 {
				x.firstUA = l.Number
			}
		case l.Kind == robots.LineEmpty:
			blank = true
		case l.Kind == robots.LineDirective:
			inRun = isUA
		}
		if isUA && strings.TrimSpace(l.Value) == "" {
			x.emptyHead[head] = true
		}
		x.headOf = append(x.headOf, head)
		x.blankOf = append(x.blankOf, blank && head != 0)
	}
}

// line returns line n (1-based), or the zero Line when n is 0 or past the
// end.
func (x *lineIndex) line(n int) robots.Line {
	if n < 1 || n > len(x.lines) {
		return robots.Line{}
	}
	return x.lines[n-1]
}

// head returns the head of line n's run (0 when none or n is 0).
func (x *lineIndex) head(n int) int {
	if n < 1 || n > len(x.headOf) {
		return 0
	}
	return x.headOf[n-1]
}

// classify returns the difference class (schema.DifferenceClasses) that
// explains why reading sem decides with line rl where Google decides with
// line gl (0: no rule decided): the first class of the list whose test
// holds. A difference where one reading decides by a rule and the other by
// none, not explained by the rule's text, is agent-matching: the rule's
// group applies to the crawler for one parser only.
func (c *census) classify(f *robots.File, gl, rl int) string {
	if gl == 0 && rl == 0 {
		if s := f.Response.Status; s != 0 && (s < 200 || s >= 300) {
			return schema.ClassStatus
		}
		return schema.ClassBodyEncoding
	}
	if c.lines == nil {
		c.lineBuf.read(f)
		c.lines = &c.lineBuf
	}
	x := c.lines
	decided := func(n int) bool { return n != 0 }
	for _, n := range []int{gl, rl} {
		if decided(n) && (x.firstUA == 0 || n < x.firstUA) {
			return schema.ClassRulesBeforeUserAgent
		}
	}
	for _, n := range []int{gl, rl} {
		if decided(n) && x.emptyHead[x.head(n)] {
			return schema.ClassEmptyUserAgent
		}
	}
	if decided(gl) && gl != rl && x.blankOf[gl-1] {
		return schema.ClassBlankLineEndsGroup
	}
	if g := x.line(gl); decided(gl) && (g.Typo || g.MissingColon || g.Prefix) {
		return schema.ClassKeySpelling
	}
	if decided(gl) && decided(rl) && x.head(gl) != x.head(rl) {
		return schema.ClassAgentMatching
	}
	if r := x.line(rl); decided(rl) && r.Key == robots.KeyDisallow && r.Value == "" {
		return schema.ClassEmptyDisallow
	}
	values := make([]string, 0, 2)
	for _, n := range []int{gl, rl} {
		if decided(n) {
			values = append(values, x.line(n).Value)
		}
	}
	if anyValue(values, needsNormalising) {
		return schema.ClassURLNormalisation
	}
	if anyValue(values, func(v string) bool { return strings.Contains(v, "%") || hasNonASCII(v) }) {
		return schema.ClassPercentEncoding
	}
	if anyValue(values, func(v string) bool { return strings.ContainsAny(v, "*$") }) {
		return schema.ClassWildcards
	}
	if decided(gl) && decided(rl) && x.line(gl).Key != x.line(rl).Key {
		return schema.ClassAllowOrder
	}
	if decided(gl) != decided(rl) {
		return schema.ClassAgentMatching
	}
	return schema.ClassOther
}

// needsNormalising reports a rule value that parsers normalise
// differently: it holds '?', ';' or '#', or does not start with '/' or
// '*'.
func needsNormalising(v string) bool {
	return strings.ContainsAny(v, "?;#") || v != "" && v[0] != '/' && v[0] != '*'
}

func anyValue(values []string, test func(string) bool) bool {
	for _, v := range values {
		if test(v) {
			return true
		}
	}
	return false
}

func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}
