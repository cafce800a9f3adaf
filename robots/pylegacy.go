package robots

import (
	"strings"
)

// pyReading is a file read as urllib.robotparser of Python 3.12 and
// earlier reads it ([SemanticsPythonLegacy]): its entries, in file order,
// and the default entry, the first whose user-agents include '*'. The
// agents and rules of every entry lie in two slices, entry after entry,
// and the normalised rule paths in one buffer, so that a file costs a few
// allocations however many lines it has.
type pyReading struct {
	agents  []pyAgent // the agents of every entry, entry by entry
	rules   []pyRule  // the rules of every entry, entry by entry
	entries []pyEntry // in file order, the default entry left out
	def     pyEntry   // the default entry when hasDef
	hasDef  bool
	// unread: read() raised before parsing (the body is not UTF-8), so
	// can_fetch answers false to everything.
	unread bool
}

// pySpan is a run of agents or rules of a pyReading: [start, end).
type pySpan struct{ start, end int32 }

// pyEntry is one group as robotparser forms it: spans of the reading's
// agents and rules.
type pyEntry struct {
	agents pySpan
	rules  pySpan // in file order: the first that matches decides
}

// pyAgent is one user-agent value, unquoted, as written: robotparser
// lower-cases it when it compares (see [pyAgentNames]).
type pyAgent struct {
	value string
	ascii bool // value is ASCII: lower-casing it is ASCII's
}

// pyRule is one allow or disallow line, its path normalised as robotparser
// normalises it.
type pyRule struct {
	line  int32
	allow bool
	path  string
}

// pyState is where robotparser's reading of lines stands: before any
// user-agent line (or after a group ended), after user-agent lines, or
// after a rule.
type pyState uint8

const (
	pyStart pyState = iota
	pyAgents
	pyRules
)

// pyBuilder forms the entries of a pyReading from lines. The current entry
// is the agents and rules after agent0 and rule0.
type pyBuilder struct {
	r             *pyReading
	agent0, rule0 int
	state         pyState
	paths         strings.Builder // the normalised paths that are not their value
	pyBreaks      bool            // the text has a line break only Python knows
}

// readPythonLegacy derives the python-legacy reading from the file's line
// list: each line as Google split it, cut again at the line boundaries only
// Python's splitlines knows, with the byte order mark put back (Python's
// UTF-8 decoding keeps it as U+FEFF on the first line).
func readPythonLegacy(f *File, r *pyReading) {
	if r.unread = f.badUTF8; !pyParses(f) {
		return
	}
	// Google's rules and agents are as many as robotparser's in most
	// files: one allocation each.
	r.agents = make([]pyAgent, 0, len(f.agents))
	r.rules = make([]pyRule, 0, len(f.Rules))
	r.entries = make([]pyEntry, 0, len(f.Groups))
	b := pyBuilder{r: r, pyBreaks: mayHavePyBreak(f)}
	if !pyReadLines(f, &b) {
		return
	}
	if b.state == pyRules {
		b.endGroup() // user-agent lines without a rule at the end are dropped
	}
}

const utf8BOM = "\xEF\xBB\xBF"

// mayHavePyBreak reports whether f's text may have a line break only
// Python knows (hasPyBreak): not when its lines have classes, whose text
// has none (classifiableText), so that it need not be looked for.
func mayHavePyBreak(f *File) bool { return !f.classified && hasPyBreak(f.text) }

// pyParses reports whether robotparser parses f's body: not when its
// status makes read() ignore it, nor when it is not UTF-8 (read() raises
// before parsing, and can_fetch answers false to everything).
func pyParses(f *File) bool { return !f.Response.bodyIgnored() && !f.badUTF8 }

// pyLineReader is what reads lines as robotparser does (pyBuilder,
// pyRFCBuilder): a line from its class, or a line of the line list, cut at
// Python's own line breaks; each false when robotparser raised.
type pyLineReader interface {
	classified(num int, c lineClass, text string) bool
	lines(num int, text string) bool
}

// pyReadLines gives b every line of f, from its class where the text is
// plain, the byte order mark put back on the first (Python's UTF-8
// decoding keeps it as U+FEFF); false when robotparser raised, which ends
// its parse.
func pyReadLines(f *File, b pyLineReader) bool {
	for i, l := range f.lines {
		text := f.line(i)
		var ok bool
		switch {
		case i == 0 && f.bom == len(utf8BOM):
			ok = b.lines(i+1, utf8BOM+text)
		case f.classified:
			ok = b.classified(i+1, l.class, text)
		default:
			ok = b.lines(i+1, text)
		}
		if !ok {
			return false
		}
	}
	return true
}

// lines reads one line of the line list, or the lines Python cuts it into;
// false when robotparser raised ValueError, which ends its parse.
func (b *pyBuilder) lines(num int, text string) bool {
	if !b.pyBreaks {
		return b.line(num, text)
	}
	parts := pySplitLines(text)
	if parts == nil {
		return b.line(num, text)
	}
	for _, p := range parts {
		if !b.line(num, p) {
			return false
		}
	}
	return true
}

// pyKeyKind is a key robotparser knows.
type pyKeyKind uint8

const (
	pyKeyOther pyKeyKind = iota
	pyKeyUserAgent
	pyKeyAllow
	pyKeyDisallow
	pyKeyCrawlDelay
	pyKeyRequestRate
)

// line reads one line as robotparser does; false when it raised.
func (b *pyBuilder) line(num int, s string) bool {
	if s == "" {
		if b.state == pyAgents {
			b.dropEntry()
		} else if b.state == pyRules {
			b.endGroup()
		}
		return true
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	key, value, ok := strings.Cut(s, ":") // both are stripped, as if s were first
	if !ok {
		return true
	}
	kind := pyKeyOf(key)
	if kind == pyKeyOther {
		return true
	}
	return b.record(num, kind, pyStrip(value))
}

// classified reads a line of a plain text from its class; false when
// robotparser raised.
func (b *pyBuilder) classified(num int, c lineClass, text string) bool {
	switch c.kind() {
	case lineSlow:
		return b.line(num, text)
	case lineNone:
		if text == "" {
			return b.line(num, text)
		}
		return true
	case lineOther:
		return true
	}
	return b.record(num, pyKeyOfClass(c), c.value(text))
}

// pyKeyOfClass is the key robotparser reads in a line of class c, a
// user-agent, allow or disallow line.
func pyKeyOfClass(c lineClass) pyKeyKind {
	switch c.kind() {
	case lineUserAgent:
		return pyKeyUserAgent
	case lineAllow:
		return pyKeyAllow
	}
	return pyKeyDisallow
}

// record acts on a line of a key robotparser knows, its value stripped;
// false when robotparser raised.
func (b *pyBuilder) record(num int, kind pyKeyKind, value string) bool {
	value = pyUnquote(value)
	switch kind {
	case pyKeyUserAgent:
		if b.state == pyRules {
			b.endGroup()
		}
		b.r.agents = append(b.r.agents, pyAgent{value: value, ascii: asciiOnly(value)})
		b.state = pyAgents
	case pyKeyAllow, pyKeyDisallow:
		if b.state == pyStart {
			return true
		}
		path, ok := pyRulePath(&b.paths, value)
		if !ok {
			return false
		}
		b.r.rules = append(b.r.rules, pyRule{line: int32(num), allow: kind == pyKeyAllow || value == "", path: path})
		b.state = pyRules
	case pyKeyCrawlDelay, pyKeyRequestRate:
		if b.state == pyStart {
			return true
		}
		if pyIntRaises(kind, value) {
			return false
		}
		b.state = pyRules
	}
	return true
}

// pyIntRaises reports whether robotparser's int() raises ValueError on the
// value of a crawl-delay or request-rate line, which ends its parse: a
// value of digits that are not all decimal digits ("²"), or such a number
// on either side of a request rate's '/'.
func pyIntRaises(kind pyKeyKind, value string) bool {
	if kind == pyKeyCrawlDelay {
		digits, decimal := pyIsDigits(value)
		return digits && !decimal
	}
	if n0, n1, ok := strings.Cut(value, "/"); ok && strings.IndexByte(n1, '/') < 0 {
		d0, dec0 := pyIsDigits(pyStrip(n0))
		d1, dec1 := pyIsDigits(pyStrip(n1))
		return d0 && d1 && !(dec0 && dec1)
	}
	return false
}

// pyKeyOf is the key robotparser reads in k, stripped and lower-cased; a
// key with a byte outside ASCII equals none of the keys it knows (no
// lower-casing of a non-ASCII rune gives one of their letters).
func pyKeyOf(k string) pyKeyKind {
	k = pyStrip(k)
	switch len(k) {
	case len("allow"), len("disallow"), len("user-agent"), len("crawl-delay"), len("request-rate"):
	default:
		return pyKeyOther
	}
	switch {
	case equalFoldASCII(k, "user-agent"):
		return pyKeyUserAgent
	case equalFoldASCII(k, "allow"):
		return pyKeyAllow
	case equalFoldASCII(k, "disallow"):
		return pyKeyDisallow
	case equalFoldASCII(k, "crawl-delay"):
		return pyKeyCrawlDelay
	case equalFoldASCII(k, "request-rate"):
		return pyKeyRequestRate
	}
	return pyKeyOther
}

// pyRulePath is the path robotparser keeps of a rule's value, already
// unquoted: parsed by urlparse, joined back by urlunparse and quoted. A
// value of bytes that quote keeps, not starting "//", is its own path;
// another is written to paths. ok is false when urlparse raises.
func pyRulePath(paths *strings.Builder, value string) (string, bool) {
	if pyQuoted(value) && !strings.HasPrefix(value, "//") {
		return value, true
	}
	if pyUnparsesToItself(value) {
		return pyQuoteInto(paths, value), true // most rules with '*', '$', '=' or a query
	}
	u, err := pyURLParse(value)
	if err != nil {
		return "", false
	}
	return pyQuoteInto(paths, pyURLUnparse(u)), true
}

// pyUnparsesToItself reports whether urlunparse(urlparse(v)) is v, which
// then needs no parsing: v starts with one '/' (no scheme, no network
// location), has no tab, CR or LF (urlsplit removes them), no '#' (a
// fragment) and no ';' (params, which disappear when empty), and its
// first '?', if any, is not its last byte (an empty query disappears).
// TestPyUnparsesToItself compares it with the parse.
func pyUnparsesToItself(v string) bool {
	if len(v) == 0 || v[0] != '/' || len(v) > 1 && v[1] == '/' {
		return false
	}
	for i := 1; i < len(v); i++ {
		switch v[i] {
		case '\t', '\r', '\n', '#', ';':
			return false
		}
	}
	q := strings.IndexByte(v, '?')
	return q != len(v)-1
}

// dropEntry forgets the current entry: its user-agent lines were followed
// by an empty line.
func (b *pyBuilder) dropEntry() {
	b.r.agents = b.r.agents[:b.agent0]
	b.r.rules = b.r.rules[:b.rule0]
	b.state = pyStart
}

// endGroup ends the current entry, which has a rule or an extension line
// (crawl-delay, request-rate): the first entry naming '*' becomes the
// default entry, any later one is dropped, the others are kept in order.
func (b *pyBuilder) endGroup() {
	r := b.r
	e := pyEntry{agents: pySpan{int32(b.agent0), int32(len(r.agents))}, rules: pySpan{int32(b.rule0), int32(len(r.rules))}}
	b.state = pyStart
	if r.namesStar(e) {
		if r.hasDef {
			b.dropEntry()
			return
		}
		r.def, r.hasDef = e, true
	} else {
		r.entries = append(r.entries, e)
	}
	b.agent0, b.rule0 = len(r.agents), len(r.rules)
}

// namesStar reports whether one of the entry's user-agents is '*'.
func (r *pyReading) namesStar(e pyEntry) bool {
	for _, a := range r.agents[e.agents.start:e.agents.end] {
		if a.value == "*" {
			return true
		}
	}
	return false
}

// pyName is a crawler's name as can_fetch compares it: cut at its first
// '/' (lower-cased when compared).
type pyName struct {
	s     string
	ascii bool
}

// pyMatchInput is what both python readings' can_fetch starts with: the
// verdict when the status, an unread body or a URL urlparse rejects
// decides (ok false), else the URL's path as the reading's requestPath
// gives it and the crawler's names (pyCrawlerNames) appended to names.
func pyMatchInput(f *File, unread bool, url string, agents []string, names []pyName, requestPath func(string) (string, bool)) (string, []pyName, Verdict, bool) {
	if v, decided := pyDecided(f, unread); decided {
		return "", nil, v, false
	}
	path, ok := requestPath(url)
	if !ok {
		return "", nil, Verdict{}, false
	}
	return path, pyCrawlerNames(agents, names), Verdict{}, true
}

// pyDecided returns the verdict of every URL when the status or an unread
// body decides it, before any path or name is read; decided is false
// otherwise.
func pyDecided(f *File, unread bool) (v Verdict, decided bool) {
	if f.Response.bodyIgnored() {
		return pyStatusVerdict(f), true
	}
	if unread {
		return Verdict{}, true
	}
	return Verdict{}, false
}

// pyCrawlerNames appends to names the names of a crawler that answers to any of
// agents as can_fetch compares them: each cut at its first '/'.
func pyCrawlerNames(agents []string, names []pyName) []pyName {
	for _, ua := range agents {
		name, _, _ := strings.Cut(ua, "/")
		names = append(names, pyName{name, asciiOnly(name)})
	}
	return names
}

// match is can_fetch for url and a crawler that answers to any of agents.
func (r *pyReading) match(f *File, url string, agents []string) Verdict {
	var buf [4]pyName
	path, names, v, ok := pyMatchInput(f, r.unread, url, agents, buf[:0], pyRequestPath)
	if !ok {
		return v
	}
	e, found := r.entryFor(names)
	return r.allowance(e, found, path)
}

// entryFor returns the entry can_fetch obeys for a crawler of names: the
// first that applies to it, else the default entry; found is false when
// there is neither.
func (r *pyReading) entryFor(names []pyName) (e pyEntry, found bool) {
	for _, e := range r.entries {
		if r.appliesTo(e, names) {
			return e, true
		}
	}
	return r.def, r.hasDef
}

// pyStatusVerdict maps the status of a capture whose body is ignored to
// what robotparser's read() makes of it: 401 and 403 disallow everything
// (disallow_all), any other 4xx, 429 included, allows everything
// (allow_all), a 5xx leaves the parser unread so that can_fetch answers
// false; a redirect and any other status read as Google reads them (urlopen
// follows redirects: the target decides).
func pyStatusVerdict(f *File) Verdict {
	switch s := f.Response.Status; {
	case s == 401 || s == 403:
		return Verdict{}
	case s >= 400 && s < 500:
		return Verdict{Allowed: true}
	case s >= 500 && s < 600:
		return Verdict{}
	}
	return Verdict{Allowed: f.Outcome() != OutcomeDisallowAll}
}

// pyRequestPath is the path can_fetch compares with the rules: the URL
// unquoted, parsed, its scheme and network location dropped, joined back
// (fragment included) and quoted; "/" when that leaves nothing. ok is false
// when urlparse raises.
func pyRequestPath(url string) (string, bool) {
	if url == "/" {
		return url, true // the root, as a census asks: nothing to parse or quote
	}
	u, err := pyURLParse(pyUnquote(url))
	if err != nil {
		return "", false
	}
	u.scheme, u.netloc = "", ""
	p := pyQuote(pyURLUnparse(u))
	if p == "" {
		p = "/"
	}
	return p, true
}

// appliesTo reports whether the entry names one of the crawlers of names:
// when one of its user-agent values is '*' or, lower-cased, a substring of
// a name lower-cased.
func (r *pyReading) appliesTo(e pyEntry, names []pyName) bool {
	for _, name := range names {
		for _, a := range r.agents[e.agents.start:e.agents.end] {
			if pyAgentNames(a, name) {
				return true
			}
		}
	}
	return false
}

// pyAgentNames reports whether robotparser's applies_to takes user-agent
// value a to name the crawler name: a is '*', or a.lower() in
// name.lower(). ASCII strings are compared in place; others lower-cased as
// Python lower-cases them.
func pyAgentNames(a pyAgent, name pyName) bool {
	if a.value == "*" {
		return true
	}
	if a.ascii && name.ascii {
		return containsFoldASCII(name.s, a.value)
	}
	return strings.Contains(pyLower(name.s), pyLower(a.value))
}

// containsFoldASCII reports whether sub is a substring of s under ASCII
// case folding.
func containsFoldASCII(s, sub string) bool {
	if sub == "" {
		return true
	}
	first := lowerASCII(sub[0])
	for i := 0; i+len(sub) <= len(s); i++ {
		if lowerASCII(s[i]) == first && equalFoldASCII(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// allowance is the verdict of the entry's first rule whose path is a
// prefix of path (or is "*"); allowed when none is, or when there is no
// entry (found false).
func (r *pyReading) allowance(e pyEntry, found bool, path string) Verdict {
	if !found {
		return Verdict{Allowed: true}
	}
	for _, rule := range r.rules[e.rules.start:e.rules.end] {
		if rule.path == "*" || strings.HasPrefix(path, rule.path) {
			return Verdict{Allowed: rule.allow, Line: int(rule.line)}
		}
	}
	return Verdict{Allowed: true}
}
