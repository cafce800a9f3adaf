package robots

import (
	"iter"
	"math"
	"slices"
	"strings"
	"sync/atomic"
)

// File is a parsed robots.txt: its groups and rules compiled for matching,
// its sitemaps, its diagnostics and its statistics. A File is immutable and
// safe for concurrent use. Its strings are substrings of one copy of the
// body, so a File keeps at most [MaxBytes] of text alive; its rules,
// agents, diagnostics, sitemaps and directives keep offsets into that text
// instead of strings, and its groups index ranges of its agents and rules
// (see [Rule], [Agent], [Group], [Diagnostic]), so the File keeps the text
// alive for them: their strings are read through the File that parsed
// them.
type File struct {
	Response Response // how the file was served (zero when unknown)
	Size     int      // bytes given to Parse, before any cut

	Groups   []Group   // in file order, as Google groups lines
	Rules    []Rule    // every rule of every group, in file order
	Sitemaps []Sitemap // every sitemap line, in file order
	// Extensions are the lines of directives Google ignores but some
	// crawler or standard defines (crawl-delay, content-signal, license,
	// ...), in file order; nil when there are none.
	Extensions []Extension
	// Preferences are the usage preferences of the Content-Signal and
	// Content-Usage lines, one per "key=value" pair, in file order; nil
	// when there are none.
	Preferences []Preference
	Diagnostics []Diagnostic // sorted by line; line 0 (the whole file) first
	Stats       Stats

	text string // what was parsed: the body, cut at MaxBytes
	// escaped holds the patterns escaping changed ([Rule.Pattern]), one
	// after the other; "" when none did.
	escaped string
	// details are the arguments of diagnostics that are not a part of
	// their line (a size, the line endings counted, a template's state),
	// in the order they were found; a detail span is an index into it
	// (span).
	details []string
	// inlineDetails backs details up to its length, so that a file with a
	// few (line endings counted, a template's key and state) allocates
	// nothing for them.
	inlineDetails [4]string
	// readings memoises ReadingDiagnostics' disagreements, whose examples
	// are the arguments of its findings; nil until asked.
	readings atomic.Pointer[[]Disagreement]
	bom      int // bytes of byte order mark skipped at the start of text
	hasNUL   bool
	// hasLT: the text has a '<' (sniff); without one it holds no markup,
	// which the readings need not look for.
	hasLT bool
	// badUTF8: the text is not valid UTF-8 (a body Python's read() cannot
	// decode).
	badUTF8 bool
	agents  []Agent // backing array of the groups' agents
	// lines is the line list of the parse: every line of text[bom:] as
	// Google's parser splits it (at CR, LF and CRLF), line n at index n-1,
	// each as its offsets in text and its class (lineRef; the text of line
	// n is f.line(n-1): raw, comments, whitespace and bytes past
	// MaxLineBytes or a NUL kept). The readings other than Google's derive
	// their own grouping from it ([File.As]) instead of splitting the body
	// again; nil for a body the status makes crawlers ignore.
	lines []lineRef
	// templates are the template blocks recognised in the file, in line
	// order; nil when there are none.
	templates []TemplateBlock
	// classified: the lines have classes (lineClass), for the readings to
	// reuse: the text is classifiable (classifiableText); when it is not,
	// every line's class is lineSlow. classesNonASCII: the text classified
	// has bytes outside ASCII (asciiClassified).
	classified      bool
	classesNonASCII bool
}

// lineRef is one line of a File's line list: where the line starts and
// ends in the File's text (its line ending left out), and its class
// (lineSlow when the File is not classified). A line list costs 12 bytes
// a line and holds no pointer.
type lineRef struct {
	start, end uint32
	class      lineClass
}

// maxLinesText is the longest text whose lines a lineRef can place.
const maxLinesText = math.MaxUint32

// Group is a run of user-agent lines and the rules that follow them, as
// Google's parser groups them: a group ends at the first user-agent line
// after a rule, never at a blank line. It holds no pointer: its agents and
// rules are kept as index ranges into the File's ([Group.Agents],
// [Group.Rules], each given that File).
type Group struct {
	Line   int        // line of the first user-agent line
	agents indexRange // of the File's agents
	rules  indexRange // of File.Rules
	Global bool       // one of the agents is '*'
}

// indexRange is the elements [start, end) of one of a File's slices.
type indexRange struct{ start, end int32 }

// Agents returns the user-agent lines of g, in order: a part of f's, with
// no room to append. f is the File whose Groups hold g.
func (g *Group) Agents(f *File) []Agent {
	return f.agents[g.agents.start:g.agents.end:g.agents.end]
}

// Rules returns the allow and disallow lines of g, in order: a part of
// f.Rules, with no room to append. f is the File whose Groups hold g.
func (g *Group) Rules(f *File) []Rule {
	return f.Rules[g.rules.start:g.rules.end:g.rules.end]
}

// Agent is one user-agent line. It holds no pointer: its value is kept as
// offsets into the text of the File that parsed it, and its token as a
// length ([Agent.Value], [Agent.Token], each given that File).
type Agent struct {
	Line   int
	value  textRange // as written: bytes of the File's text
	token  int32     // the token's length: it is a prefix of the value
	Global bool      // the value is '*', or '*' followed by whitespace
}

// Value returns the user-agent as written ("Googlebot/2.1"), a part of
// f's text; f is the File whose groups hold a.
func (a Agent) Value(f *File) string { return a.value.in(f.text) }

// Token returns what Google matches: the value cut at the first character
// outside [A-Za-z_-] ("Googlebot"); "" for '*'. f is the File whose
// groups hold a.
func (a Agent) Token(f *File) string {
	return f.text[a.value.start : a.value.start+a.token]
}

// Directive is the kind of a rule.
type Directive uint8

const (
	// Disallow forbids the paths its pattern matches.
	Disallow Directive = iota
	// Allow permits them.
	Allow
)

// String returns "allow" or "disallow".
func (d Directive) String() string {
	if d == Allow {
		return "allow"
	}
	return "disallow"
}

// Rule is one allow or disallow line of a group. It holds no pointer: its
// value and pattern are kept as offsets into the File that parsed it, which
// makes the strings when asked ([Rule.Value], [Rule.Pattern], each given
// that File); keeping a million Rules costs the collector nothing to scan.
//
// A Rule is 40 bytes on 64-bit machines (TestRuleSize): a pass over the
// corpus copies a million of them out of the parse's scratch space.
type Rule struct {
	Line      int
	Group     int32 // index in File.Groups
	Directive Directive
	// escaped: the pattern is not the value (escaping changed it) and is
	// kept in the File's escaped patterns rather than its text.
	escaped bool
	// lead is the byte every path the pattern matches has after its '/',
	// 0 when there is none to tell (see leadOf).
	lead    byte
	pat     patternInfo
	value   textRange // the pattern as written: bytes of the File's text
	pattern textRange // what Google matches: bytes of the text, or of the escaped patterns when escaped
}

// hasPattern reports whether r's pattern is pattern; r is one of f's
// rules. A pattern of another length is not read.
func (r *Rule) hasPattern(f *File, pattern string) bool {
	return int(r.pattern.end-r.pattern.start) == len(pattern) && r.Pattern(f) == pattern
}

// textRange is bytes [start, end) of one of a File's strings.
type textRange struct{ start, end int32 }

// rangeOf returns the range of the n bytes at start.
func rangeOf(start, n int) textRange { return textRange{int32(start), int32(start + n)} }

// in returns the bytes of s the range covers.
func (t textRange) in(s string) string { return s[t.start:t.end] }

// Value returns the pattern as written, a part of f's text; f is the File
// whose Rules hold r.
func (r *Rule) Value(f *File) string { return r.value.in(f.text) }

// Pattern returns what Google matches: the value with non-ASCII bytes
// percent-encoded and percent-escapes upper-cased; the value itself (a
// part of f's text) when that changes nothing, as it does for most rules.
// f is the File whose Rules hold r.
func (r *Rule) Pattern(f *File) string {
	if r.escaped {
		return r.pattern.in(f.escaped)
	}
	return r.pattern.in(f.text)
}

// HasWildcard reports whether the pattern uses '*'.
func (r *Rule) HasWildcard() bool { return r.pat.star >= 0 }

// HasEndAnchor reports whether the pattern ends in '$'.
func (r *Rule) HasEndAnchor() bool { return r.pat.anchored }

// Sitemap is one sitemap line. Its URL is kept as offsets into its line of
// the File that parsed it ([Sitemap.URL]): a Sitemap holds no pointer.
type Sitemap struct {
	Line  int
	url   span // the URL as written
	Valid bool // an absolute http, https or ftp URL with a host
}

// URL returns the sitemap's URL as written, a part of f's text; f is the
// File whose Sitemaps hold s.
func (s Sitemap) URL(f *File) string { return f.spanText(s.Line, s.url) }

// Stats are the per-file figures the dataset stores.
type Stats struct {
	Lines         int  // lines of the parsed text, a final empty line not counted
	Groups        int  // groups, as Google forms them
	Rules         int  // allow and disallow lines inside groups
	Allows        int  // allow lines inside groups
	Disallows     int  // disallow lines inside groups
	Sitemaps      int  // sitemap lines
	WildcardRules int  // rules whose pattern uses '*'
	Errors        int  // diagnostics of severity error
	Warnings      int  // diagnostics of severity warning
	Infos         int  // diagnostics of severity info
	Oversize      bool // over MaxBytes
	// StarDisallowsAll: a crawler without a group of its own may fetch no
	// URL at all (see [File.Access]).
	StarDisallowsAll bool
}

// Text returns the text that was parsed: the body cut at MaxBytes.
func (f *File) Text() string { return f.text }

// Lines yields every line of the parsed text as Google's parser sees it,
// numbered as in diagnostics. It rescans the text: parsing keeps no
// per-line state.
func (f *File) Lines() iter.Seq[Line] {
	return func(yield func(Line) bool) {
		sp := newLineSplitter(f.text[f.bom:])
		for {
			text, num, ok := sp.next()
			if !ok || !yield(classify(num, text, f.hasNUL)) {
				return
			}
		}
	}
}

// linearUserAgents is the most agent lines UserAgents dedupes by scanning
// the values it kept rather than with a map.
const linearUserAgents = 64

// UserAgents returns the user-agent values as written, each once, in file
// order.
func (f *File) UserAgents() []string {
	if len(f.agents) == 0 {
		return nil
	}
	out := make([]string, 0, len(f.agents))
	if len(f.agents) <= linearUserAgents {
		// A scan of the few kept so far costs less than a map.
		for _, a := range f.agents {
			if v := a.Value(f); !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
		return out
	}
	seen := make(map[string]bool, len(f.agents))
	for _, a := range f.agents {
		if v := a.Value(f); !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// spanText returns the string a span of one of f's findings on line n
// keeps: a part of that line, or one of f's details.
func (f *File) spanText(n int, s span) string {
	if s.isDetail() {
		return f.details[-s.start-1]
	}
	if s.start == s.end {
		return ""
	}
	return f.lineText(n)[s.start:s.end]
}

// spanIn returns the span that keeps s for a finding of f about line,
// whose text is line: where s is in the line (its first place: the bytes
// are the same wherever it is found), else the index of s, appended to
// f's details (a string made for the finding, or a constant). Only the
// parser calls it, before f is shared.
func (f *File) spanIn(line, s string) span {
	if s == "" {
		return span{}
	}
	if i := strings.Index(line, s); i >= 0 && i+len(s) <= math.MaxInt32 {
		return span{start: int32(i), end: int32(i + len(s))}
	}
	if f.details == nil {
		f.details = f.inlineDetails[:0]
	}
	f.details = append(f.details, s)
	return span{start: int32(-len(f.details))}
}

// lineText returns line n of f's text (1-based, as in diagnostics) as
// written; "" for 0 or a line f does not have. It reads the line list of
// the parse, or, for a File parsed without it (a benchmark's), rescans
// the text.
func (f *File) lineText(n int) string {
	if n <= 0 {
		return ""
	}
	if n <= len(f.lines) {
		return f.line(n - 1)
	}
	for l := range f.Lines() {
		if l.Number == n {
			return l.Text
		}
	}
	return ""
}

// line returns the text of line i+1 of f's line list (index i) as written,
// without its line ending.
func (f *File) line(i int) string {
	l := f.lines[i]
	return f.text[l.start:l.end]
}

// classValue returns the value of line i+1 of f's line list (index i) as
// its class places it: a classified user-agent, allow or disallow line's.
func (f *File) classValue(i int) string {
	l := f.lines[i]
	return l.class.value(f.text[l.start:])
}

// groupAgents returns the user-agent lines of group g, nil for -1 (a line
// before any user-agent line).
func (f *File) groupAgents(g int) []Agent {
	if g < 0 || g >= len(f.Groups) {
		return nil
	}
	return f.Groups[g].Agents(f)
}
