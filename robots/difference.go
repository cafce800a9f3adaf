package robots

import "strings"

// DifferenceClass is one reason why another parser's reading of a file
// ([File.As]) gives a crawler another verdict than Google's. Its
// [DifferenceClass.String] names are the dataset's (the readings table's
// class column); [Explainer] finds the class of a difference.
type DifferenceClass uint8

// The difference classes, in the order [Explainer] tests them, the most
// specific first.
const (
	diffNone DifferenceClass = iota
	// DiffStatus: the HTTP status decides, and the parsers read it
	// differently (401 and 403 disallow everything for Python, 429 is a
	// 4xx for RFC 9309 and crawler-commons).
	DiffStatus
	// DiffBodyEncoding: no rule decides for either reading although the
	// status lets the body be read: the other parser cannot read the body
	// (Python: it is not UTF-8).
	DiffBodyEncoding
	// DiffCrawlDelay: crawler-commons disallows everything, with no rule
	// deciding, because the crawler's crawl delay is over its maximum of
	// 300 seconds; Google reads no crawl delay.
	DiffCrawlDelay
	// DiffRobotsTxtAllowed: the URL is /robots.txt, which RFC 9309
	// (section 2.2.2) and crawler-commons always allow and Google's rules
	// may disallow.
	DiffRobotsTxtAllowed
	// DiffRulesBeforeUserAgent: a deciding rule stands before any
	// user-agent line.
	DiffRulesBeforeUserAgent
	// DiffEmptyUserAgent: a deciding rule's group has an empty user-agent
	// value, which Python's parser takes to name every crawler.
	DiffEmptyUserAgent
	// DiffBlankLineEndsGroup: a blank line between the group's user-agent
	// lines and Google's deciding rule ends the group for the other parser.
	DiffBlankLineEndsGroup
	// DiffKeySpelling: a deciding line of either reading, or a user-agent
	// line of its group, is a misspelled key, a key prefix or lacks its
	// colon: Google reads it, the other parser does not.
	DiffKeySpelling
	// DiffAgentMatching: the deciding rules stand in groups of different
	// user-agent lines, or one reading decides by a rule and the other by
	// none: the parsers match the crawler's name, or pick among groups,
	// differently.
	DiffAgentMatching
	// DiffEmptyDisallow: an empty Disallow decides for the other parser
	// (Python: it allows everything and, read first, overrides the rules
	// after it).
	DiffEmptyDisallow
	// DiffURLNormalisation: a deciding rule holds '?', ';' or '#', or
	// does not start with '/' or '*', and the parsers normalise it or the
	// URL differently (Python: "Disallow: /?" is "/").
	DiffURLNormalisation
	// DiffPercentEncoding: a deciding rule holds a percent-escape or a
	// byte outside ASCII, which the parsers encode or decode differently.
	DiffPercentEncoding
	// DiffWildcards: a deciding rule holds '*' or '$', a wildcard or
	// anchor for Google and a literal character for the other parser.
	DiffWildcards
	// DiffAllowOrder: the deciding rules are an allow and a disallow of
	// the same group: the first match in file order decides for the other
	// parser, the longest for Google.
	DiffAllowOrder
	// DiffOther: none of the above.
	DiffOther

	numDifferenceClasses
)

// differenceNames are the names of the classes, in the order of the
// constants; schema's vocabulary spells the same names (a test there
// checks it).
var differenceNames = [numDifferenceClasses]string{"", "status", "body-encoding",
	"crawl-delay", "robots-txt-always-allowed", "rules-before-user-agent", "empty-user-agent", "blank-line-ends-group", "key-spelling",
	"agent-matching", "empty-disallow", "url-normalisation", "percent-encoding",
	"wildcards", "allow-order", "other"}

// String returns the class's name as the dataset stores it
// ("agent-matching", ...), or "" for the zero class (no difference).
func (c DifferenceClass) String() string {
	if c >= numDifferenceClasses {
		return ""
	}
	return differenceNames[c]
}

// Code returns the catalogue code of the class, parsers-disagree-CLASS
// ([DisagreeStatus] ...), or no code (its String is "code(0)") for the
// zero class.
func (c DifferenceClass) Code() Code {
	if c == diffNone || c >= numDifferenceClasses {
		return codeNone
	}
	return DisagreeStatus + Code(c-DiffStatus)
}

// DifferenceClasses returns every class in the order [Explainer] tests
// them.
func DifferenceClasses() []DifferenceClass {
	out := make([]DifferenceClass, 0, numDifferenceClasses-1)
	for c := diffNone + 1; c < numDifferenceClasses; c++ {
		out = append(out, c)
	}
	return out
}

// A Difference explains why another reading gives a crawler another
// verdict than Google's for one URL.
type Difference struct {
	Class DifferenceClass
	// Line is the line the class is about, 0 for the whole file (status,
	// body-encoding): the deciding rule the class's test found (before
	// any user-agent line, cut off by a blank line, misspelled, holding
	// the character the parsers read differently), the empty user-agent
	// line, or the user-agent line heading the group the other parser
	// obeys.
	Line int
	// Ref is another line the difference involves, 0 when none: the
	// other reading's deciding rule, or the head of the other group.
	Ref int
}

// An Explainer finds the class of differences between readings of files.
// It keeps an index of the lines of the last file it explained, built on
// the first difference that needs it and reused for the next differences
// of the same file; its memory is reused from file to file. The zero
// value is ready to use. An Explainer is not safe for concurrent use.
type Explainer struct {
	f         *File  // the file the index is of; nil before the first
	text      string // f's text when indexed: a File parsed again in place is another file
	lines     []Line // by number - 1
	firstUA   int    // the number of the first user-agent line, 0 when none
	headOf    []int  // per line: the number of the first user-agent line of the run heading it, 0 when none
	blankOf   []bool // per line: an empty line stands between the run heading it and the line
	emptyHead map[int]int
	// emptyHead: head -> the first empty user-agent line of its run
	whole bool // lines holds every line of f, not only the first ones
}

// A Question is one URL on which another reading of a file gives a
// crawler another verdict than Google's reading.
type Question struct {
	Semantics Semantics // the other reading
	Path      string    // the URL path asked
	Google    Verdict   // Google's verdict, with its deciding line
	Other     Verdict   // the other reading's verdict, with its deciding line
}

// ExplainQuestion returns why, in file f, the other reading's verdict of
// q differs from Google's: the classes only the reading and the URL tell
// ([DiffCrawlDelay], [DiffRobotsTxtAllowed]), else [Explainer.Explain]
// of the deciding lines. It does not check that the verdicts differ.
func (x *Explainer) ExplainQuestion(f *File, q Question) Difference {
	gl, rl := q.Google.Line, q.Other.Line
	if f.Response.bodyIgnored() || rl != 0 {
		return x.Explain(f, gl, rl)
	}
	if q.Semantics == SemanticsCrawlerCommons && !q.Other.Allowed {
		return Difference{Class: DiffCrawlDelay, Line: ccBigDelayLine(f), Ref: gl}
	}
	if p, _, _ := strings.Cut(q.Path, "?"); p == "/robots.txt" && q.Other.Allowed &&
		(q.Semantics == SemanticsRFC9309 || q.Semantics == SemanticsCrawlerCommons) {
		return Difference{Class: DiffRobotsTxtAllowed, Line: gl}
	}
	return x.Explain(f, gl, rl)
}

// Explain returns why, in file f, a reading that decided with the rule
// on line otherLine gives another verdict than Google's reading, which
// decided with googleLine (0: no rule decided): the first class, in the
// order of [DifferenceClasses], whose test holds. The lines alone cannot
// tell [DiffCrawlDelay] and [DiffRobotsTxtAllowed]: [Explainer.ExplainQuestion]
// can. A difference where one reading decides by a rule and the other by
// none, not explained by the rule's text, is [DiffAgentMatching]: the
// rule's group applies to the crawler for one parser only. Explain does
// not check that the verdicts differ.
func (x *Explainer) Explain(f *File, googleLine, otherLine int) Difference {
	gl, rl := googleLine, otherLine
	if gl == 0 && rl == 0 {
		if s := f.Response.Status; s != 0 && (s < 200 || s >= 300) {
			return Difference{Class: DiffStatus}
		}
		return Difference{Class: DiffBodyEncoding}
	}
	if last := max(gl, rl); x.f != f || x.text != f.text || last > len(x.lines) && !x.whole {
		x.read(f, last) // x keeps f alive, so no other file can take its address
	}
	decided := func(n int) bool { return n != 0 }
	for _, n := range []int{gl, rl} {
		if decided(n) && (x.firstUA == 0 || n < x.firstUA) {
			return Difference{Class: DiffRulesBeforeUserAgent, Line: n, Ref: counterpart(n, gl, rl)}
		}
	}
	for _, n := range []int{gl, rl} {
		if ua, ok := x.emptyHead[x.head(n)]; decided(n) && ok {
			return Difference{Class: DiffEmptyUserAgent, Line: ua, Ref: n}
		}
	}
	if decided(gl) && gl != rl && x.blankBefore(gl) {
		return Difference{Class: DiffBlankLineEndsGroup, Line: gl, Ref: x.head(gl)}
	}
	for _, n := range []int{gl, rl} {
		if decided(n) && misspelled(x.line(n)) {
			return Difference{Class: DiffKeySpelling, Line: n, Ref: counterpart(n, gl, rl)}
		}
	}
	for _, n := range []int{gl, rl} {
		if ua := x.misspelledAgent(n); decided(n) && ua != 0 {
			return Difference{Class: DiffKeySpelling, Line: ua, Ref: n}
		}
	}
	if decided(gl) && decided(rl) && x.head(gl) != x.head(rl) {
		return Difference{Class: DiffAgentMatching, Line: x.head(rl), Ref: x.head(gl)}
	}
	if r := x.line(rl); decided(rl) && r.Key == KeyDisallow && r.Value == "" {
		return Difference{Class: DiffEmptyDisallow, Line: rl, Ref: gl}
	}
	for _, t := range [...]struct {
		class DifferenceClass
		holds func(string) bool
	}{
		{DiffURLNormalisation, needsNormalising},
		{DiffPercentEncoding, func(v string) bool { return strings.Contains(v, "%") || hasNonASCII(v) }},
		{DiffWildcards, func(v string) bool { return strings.ContainsAny(v, "*$") }},
	} {
		for _, n := range []int{gl, rl} {
			if decided(n) && t.holds(x.line(n).Value) {
				return Difference{Class: t.class, Line: n, Ref: counterpart(n, gl, rl)}
			}
		}
	}
	if decided(gl) && decided(rl) && x.line(gl).Key != x.line(rl).Key {
		return Difference{Class: DiffAllowOrder, Line: gl, Ref: rl}
	}
	if decided(gl) != decided(rl) {
		return Difference{Class: DiffAgentMatching, Line: x.head(max(gl, rl))}
	}
	return Difference{Class: DiffOther, Line: gl, Ref: rl}
}

// counterpart returns, of the two deciding lines gl and rl, the one that is not
// n (0 when both are n).
func counterpart(n, gl, rl int) int {
	if n == gl && rl != n {
		return rl
	}
	if n == rl && gl != n {
		return gl
	}
	return 0
}

// Explain returns why the other reading's verdict of q differs from
// Google's: [Explainer.ExplainQuestion], with an Explainer of its own.
func (f *File) Explain(q Question) Difference {
	var x Explainer
	return x.ExplainQuestion(f, q)
}

// misspelled reports a line whose key Google reads although it is
// misspelled, a prefix of the key or lacks its colon.
func misspelled(l Line) bool {
	return l.Typo || l.MissingColon || l.Prefix
}

// misspelledAgent returns the first misspelled user-agent line of the run
// heading line n, 0 when none (or n is 0 or past the end).
func (x *Explainer) misspelledAgent(n int) int {
	for i := x.head(n); i >= 1 && i < n; i++ {
		l := x.line(i)
		if l.Kind == LineDirective && l.Key != KeyUserAgent {
			break
		}
		if l.Key == KeyUserAgent && misspelled(l) {
			return i
		}
	}
	return 0
}

// read indexes the lines of f in place of what x held before: for each
// line, the run of user-agent lines heading it (the last such run before
// it; comments and empty lines do not end a run) and whether an empty line
// follows that run before it. It reads the lines up to line last at least,
// all that Explain asks of a difference whose deciding lines are last or
// before (the head of a line, its run and the first user-agent line
// before it come before it), and twice as many as it read of f before,
// so that a file whose differences ask later and later lines is read a
// few times, not once a difference.
func (x *Explainer) read(f *File, last int) {
	if x.f == f && x.text == f.text {
		last = max(last, 2*len(x.lines))
	}
	x.f, x.text, x.whole = f, f.text, true
	x.lines, x.headOf, x.blankOf, x.firstUA = x.lines[:0], x.headOf[:0], x.blankOf[:0], 0
	if x.emptyHead == nil {
		x.emptyHead = map[int]int{}
	}
	clear(x.emptyHead)
	head, inRun, blank := 0, false, false
	for l := range f.Lines() {
		if len(x.lines) == last {
			x.whole = false
			break
		}
		x.lines = append(x.lines, l)
		isUA := l.Kind == LineDirective && l.Key == KeyUserAgent
		switch {
		case isUA && !inRun:
			head, inRun, blank = l.Number, true, false
			if x.firstUA == 0 {
				x.firstUA = l.Number
			}
		case l.Kind == LineEmpty:
			blank = true
		case l.Kind == LineDirective:
			inRun = isUA
		}
		if _, seen := x.emptyHead[head]; isUA && !seen && strings.TrimSpace(l.Value) == "" {
			x.emptyHead[head] = l.Number
		}
		x.headOf = append(x.headOf, head)
		x.blankOf = append(x.blankOf, blank && head != 0)
	}
}

// line returns line n (1-based), or the zero Line when n is 0 or past the
// end.
func (x *Explainer) line(n int) Line {
	if n < 1 || n > len(x.lines) {
		return Line{}
	}
	return x.lines[n-1]
}

// blankBefore reports whether an empty line stands between line n and
// the run of user-agent lines heading it (false when n is 0 or past the
// end).
func (x *Explainer) blankBefore(n int) bool {
	return n >= 1 && n <= len(x.blankOf) && x.blankOf[n-1]
}

// head returns the head of line n's run (0 when none or n is 0).
func (x *Explainer) head(n int) int {
	if n < 1 || n > len(x.headOf) {
		return 0
	}
	return x.headOf[n-1]
}

// needsNormalising reports a rule value that parsers normalise
// differently: it holds '?', ';' or '#', or does not start with '/' or
// '*'.
func needsNormalising(v string) bool {
	return strings.ContainsAny(v, "?;#") || v != "" && v[0] != '/' && v[0] != '*'
}
