package robots

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Parse parses a robots.txt body whose HTTP response is unknown. It never
// fails: every input gives a File, and every problem is a [Diagnostic].
// Parse copies what it keeps of body, so the caller may reuse body.
func Parse(body []byte) *File { return ParseResponse(Response{}, body) }

// ParseString is [Parse] for a string, without the copy.
func ParseString(body string) *File { return parse(Response{}, body, len(body)) }

// ParseResponse parses a robots.txt body served with the given response.
// When the status makes crawlers ignore the body (any known status outside
// 2xx) the body is kept for display but yields no groups, and verdicts
// follow the status.
func ParseResponse(r Response, body []byte) *File {
	return parse(r, string(body[:min(len(body), MaxBytes)]), len(body))
}

// ParsePrefix parses a body of size bytes of which the caller read only
// prefix: all of it, or at least its first MaxBytes. Size counts for the
// [Oversize] diagnostic and [File.Size].
func ParsePrefix(r Response, prefix []byte, size int) *File {
	return parse(r, string(prefix[:min(len(prefix), MaxBytes)]), max(size, len(prefix)))
}

// ParseResponseString is [ParseResponse] for a string, without the copy.
func ParseResponseString(r Response, body string) *File { return parse(r, body, len(body)) }

// ParseUncut parses all of body, ignoring the [MaxBytes] cut, up to 4 GiB
// (the most a File's line list places). Its verdicts are not Google's for
// a longer body; they tell what the rules after the cut would decide. The
// [Oversize] diagnostic is still reported.
func ParseUncut(body []byte) *File {
	return parseText(Response{}, string(body[:min(uint64(len(body)), maxLinesText)]), len(body))
}

// parse parses text, the first MaxBytes (or fewer) of a body of size bytes.
func parse(r Response, text string, size int) *File {
	return parseText(r, text[:min(len(text), MaxBytes)], size)
}

// parseText parses all of text, a body of size bytes.
func parseText(r Response, text string, size int) *File {
	return parseLines(r, text, size, true)
}

// parseLines is parseText; keepLines keeps the line list the readings other
// than Google's derive their groups from ([File.As]). Only the benchmark of
// what that list costs parses without it.
func parseLines(r Response, text string, size int, keepLines bool) *File {
	return parseWith(parser{keepLines: keepLines}, r, text, size)
}

// parseWithoutTemplates parses all of text recognising no template: the
// parse of a file's template lines alone, or of its own lines alone
// (templatesplit.go), and the benchmark of what recognition costs.
func parseWithoutTemplates(text string) *File {
	return parseWith(parser{keepLines: true, noTemplates: true}, Response{}, text, len(text))
}

// parseWith parses text, a body of size bytes, with the options set in p
// (keepLines, noTemplates), in scratch space from the pool.
func parseWith(p parser, r Response, text string, size int) *File {
	s := scratchPool.Get().(*scratch)
	f := &File{Response: r, Size: size, text: text}
	parseIn(p, s, f)
	s.release()
	return f
}

// parseIn parses f's text into f, growing its slices in s. The File gets
// copies of them at their length, or, when p.shared, the slices of s
// themselves (a [Parser]'s parse).
func parseIn(p parser, s *scratch, f *File) {
	f.Rules, f.Diagnostics, f.Groups, f.agents, f.lines = s.rules, s.diags, s.groups, s.agents, s.lines
	p.f, p.cur, p.s = f, -1, s
	p.run()
}

// parser holds the state of one parse. Groups are formed as Google's
// matcher forms them: user-agent lines open a group unless the current group
// has no rule yet, in which case they join it.
type parser struct {
	f         *File
	quiet     bool // not a text file: no per-line diagnostics
	badUTF8   bool // the text is not UTF-8: its lines are checked one by one
	hasLT     bool // the text has a '<': a line may hold HTML markup
	plain     int  // the length of the text's plain prefix (plainPrefix)
	unsorted  bool // a diagnostic on a line was added after one on a later line
	late0     bool // a diagnostic on line 0 was added after one on a line
	lastLine  int  // the greatest line a diagnostic was added on so far
	keepLines bool // record every line in File.lines for the other readings
	// shared: the File keeps the scratch's slices rather than copies (a
	// Parser's parse, valid until its next).
	shared bool
	// noTemplates: recognise no template block (File.Templates stays nil).
	noTemplates bool
	// firstContent is the number of the first line that is not blank,
	// 0 before it (templatematch.go).
	firstContent int
	lineAt       int // where the line being parsed starts in File.text

	cur           int    // index of the current group, -1 before the first
	curText       string // text of the current group's first user-agent line
	curFirstRule  int    // index in File.Rules of the current group's first rule
	curFirstPref  int    // index in File.Preferences of the current group's first preference
	curHasRules   bool   // the current group has a rule: a user-agent line opens a new group
	blankInAgents bool   // a blank line came after the current group's user-agent lines
	ruleLines     int    // allow and disallow lines, inside groups or not
	agentLines    int
	content       bool // a line other than blank or comment was seen

	s            *scratch        // storage while parsing; the tables of the duplicate checks
	escaped      strings.Builder // the escaped patterns of the file, one after the other
	rulesMade    bool            // File.Rules is not nil even when empty
	groupRulesOn bool            // s.ruleTable holds the current group
	groupSketch  uint64          // the patternSketch bits of the current group's rules (sameRule)
	agentIndexOn bool            // s.agentTable holds every agent line so far
	// starDisallows: a Disallow of a '*' group matches every path, which
	// Stats.StarDisallowsAll needs (File.Access is asked only then).
	starDisallows bool
}

// escapedBytes is the first size of parser.escaped: most files that
// escape a pattern escape a few.
const escapedBytes = 256

// Thresholds above which the duplicate checks switch from a linear scan to
// a hash table (firstTable), so that no file costs quadratic time.
const (
	linearRules  = 32
	linearAgents = 16
)

// add adds a finding of code c on line (0: the whole file); text is the
// line, arg what the finding is about: a string found in the line, or a
// detail made for the finding (see File.spanIn). A finding about a part of
// the line whose place is known is added with addAt.
func (p *parser) add(line int, c Code, text, arg string) {
	p.addAt(line, c, p.f.spanIn(text, arg))
}

// addAt adds a finding of code c on line (0: the whole file) about arg, a
// span of the line or a detail.
func (p *parser) addAt(line int, c Code, arg span) {
	switch {
	case line >= p.lastLine:
		p.lastLine = line
	case line == 0:
		p.late0 = true // most files: put first by keep, with no sort
	default:
		p.unsorted = true
	}
	p.f.Diagnostics = append(p.f.Diagnostics, Diagnostic{Line: line, Code: c, arg: arg})
}

func (p *parser) addFile(c Code, arg string) { p.add(0, c, "", arg) }

func (p *parser) run() {
	f := p.f
	f.Response.httpDiagnostics(p.addFile)
	oversize := -1
	if f.Size > MaxBytes {
		f.Stats.Oversize = true
		oversize = len(f.Diagnostics)
		p.addFile(Oversize, strconv.Itoa(f.Size))
	}
	if f.Response.bodyIgnored() {
		p.finish()
		return
	}
	p.sniff()
	p.rulesMade = !p.quiet
	f.bom = skipBOM(f.text)
	sp := newLineSplitter(f.text[f.bom:])
	classes := p.classifiesLines()
	var text string // the last line
	var l Line
	for {
		t, num, ok := sp.next()
		if !ok {
			break
		}
		text = t
		l = classifyLine(num, t, f.hasNUL, sp.hashIn())
		p.lineAt = f.bom + sp.start
		if p.keepLines {
			ref := lineRef{start: uint32(p.lineAt), end: uint32(p.lineAt + len(t))}
			if classes {
				ref.class = classOf(&l)
			}
			f.lines = append(f.lines, ref)
		}
		if !p.noTemplates {
			p.noteForTemplates(&l)
		}
		p.line(&l)
	}
	f.Stats.Lines = sp.num
	last := text
	if t := f.text[f.bom:]; t == "" || t[len(t)-1] == '\n' || t[len(t)-1] == '\r' {
		f.Stats.Lines--
		last = ""
	}
	if oversize >= 0 {
		// Where Google stops reading: after the last line, or inside it.
		d := &f.Diagnostics[oversize]
		d.refer(f.Stats.Lines, f.spanIn(f.lineText(f.Stats.Lines), last))
	}
	p.endOfFile(&sp)
	p.finish()
}

// sniff looks at the whole text: byte order marks, NUL and non-ASCII
// bytes, binary and HTML content. It finds the text's plain prefix first
// (plainPrefix: most texts are plain all through), and looks for the
// bytes that prefix cannot hold only after it.
//
//mutate:catch ./robots
func (p *parser) sniff() {
	f, t := p.f, p.f.text
	p.plain = plainPrefix(t)
	rest := t[p.plain:] // where a NUL or a byte outside ASCII can be
	f.hasNUL = strings.IndexByte(rest, 0) >= 0
	p.hasLT = strings.IndexByte(t, '<') >= 0
	f.hasLT = p.hasLT
	p.badUTF8 = hasNonASCII(rest) && !utf8.ValidString(rest) // a line of valid text is valid: it ends at an ASCII byte
	f.badUTF8 = p.badUTF8
	switch {
	case strings.HasPrefix(t, "\xEF\xBB\xBF"):
		p.addFile(BOMUTF8, "")
	case strings.HasPrefix(t, "\xFF\xFE") || strings.HasPrefix(t, "\xFE\xFF"):
		p.addFile(BOMUTF16, "")
		p.quiet = true
		return
	}
	if format, binary := sniffBinary(t, p.plain); binary {
		p.addFile(BinaryContent, format)
		p.quiet = true
	} else if kind := markupKind(t, f.Response.ContentType); kind != "" {
		p.addFile(HTMLContent, kind)
		p.quiet = true
	}
}

// hasNonASCII reports whether s has a byte >= 0x80, 32 bytes at a time.
func hasNonASCII(s string) bool {
	i := 0
	for ; i+32 <= len(s); i += 32 {
		if (load64(s[i:])|load64(s[i+8:])|load64(s[i+16:])|load64(s[i+24:]))&highBits != 0 {
			return true
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// line handles one line: its own diagnostics, then its directive.
//
//mutate:catch ./robots
func (p *parser) line(l *Line) {
	if p.f.hasNUL && !p.quiet {
		if i := strings.IndexByte(l.Text, 0); i >= 0 {
			// Google's parser reads the line only up to the NUL.
			p.addAt(l.Number, NULByte, partSpan(i, len(l.Text)-i))
		}
	}
	switch l.Kind {
	case LineEmpty:
		if p.cur >= 0 && !p.curHasRules {
			p.blankInAgents = true
		}
		return
	case LineComment:
		return
	}
	p.content = true
	markup := false
	if !p.quiet && (l.TooLong || p.badUTF8 || p.hasLT) { // checkText has nothing to do otherwise
		markup = p.checkText(l)
	}
	if l.Key == KeyUnknown && strings.HasPrefix(l.Text, doubleBOM) {
		// Google skips only a real BOM: the key is not recognised and the
		// line is ignored.
		if !p.quiet && !markup {
			p.addAt(l.Number, BOMDoubleEncoded, partSpan(0, len(doubleBOM)))
		}
		return
	}
	if l.Kind == LineInvalid {
		if !p.quiet && !markup {
			p.addAt(l.Number, UnparsableLine, span{})
		}
		return
	}
	if l.Key == KeyUnknown && isBareURL(l) {
		// A URL alone on a line: its scheme is no directive.
		if !p.quiet && !markup {
			i, j := trimBounds(l.Text)
			p.addAt(l.Number, UnparsableLine, partSpan(i, j-i))
		}
		return
	}
	if !p.quiet {
		p.checkSyntax(l)
	}
	switch l.Key {
	case KeyUserAgent:
		p.agent(l)
	case KeyAllow, KeyDisallow:
		p.rule(l)
	case KeySitemap:
		p.sitemap(l)
	default:
		p.unknown(l, !p.quiet && !markup)
	}
}

// checkText reports problems of the bytes of a line and whether it holds
// HTML markup. line calls it only for a line too long, in a text that is
// not UTF-8 or in one with a '<': a check added here adds its condition
// there.
func (p *parser) checkText(l *Line) (markup bool) {
	if l.TooLong {
		p.add(l.Number, LineTooLong, l.Text, strconv.Itoa(len(l.Text)))
	}
	if p.badUTF8 && !utf8.ValidString(l.Text) {
		p.addAt(l.Number, InvalidUTF8, span{})
	}
	if !p.hasLT {
		return false
	}
	code := l.Text
	if l.Comment {
		code = code[:strings.IndexByte(code, '#')]
	}
	if hasHTMLTag(code) {
		p.addAt(l.Number, HTMLMarkup, span{})
		return true
	}
	return false
}

// checkSyntax reports how a directive line is written.
func (p *parser) checkSyntax(l *Line) {
	n, t, key := l.Number, l.Text, l.keySpan()
	if isSpace(t[0]) {
		p.addAt(n, LeadingWhitespace, span{})
	}
	if l.Comment {
		p.addAt(n, EndOfLineComment, span{})
	}
	if l.MissingColon {
		p.addAt(n, MissingColon, key)
	} else if l.colon > 0 && isSpace(t[l.colon-1]) {
		p.addAt(n, WhitespaceBeforeColon, key)
	}
	if l.Typo {
		p.addAt(n, TypoAccepted, key)
	}
	if l.Prefix {
		p.addAt(n, KeyPrefixMatch, key)
	}
}

// agent handles a user-agent line.
//
//mutate:catch ./robots
func (p *parser) agent(l *Line) {
	f := p.f
	p.agentLines++
	a := Agent{Line: l.Number, value: rangeOf(p.lineAt+l.valueAt, len(l.Value)), Global: isGlobalAgent(l.Value)}
	if !a.Global {
		a.token = int32(len(ExtractAgentToken(l.Value)))
	}
	if p.cur < 0 || p.curHasRules {
		p.forgetGroupRules() // before curFirstRule moves on
		p.groupSketch = 0
		f.Groups = append(f.Groups, Group{Line: l.Number})
		p.cur, p.curHasRules, p.blankInAgents = len(f.Groups)-1, false, false
		p.curText, p.curFirstRule = l.Text, len(f.Rules)
		p.curFirstPref = len(f.Preferences)
	} else if p.blankInAgents && !p.quiet {
		p.addAt(l.Number, AgentsMergedAcrossBlankLine, l.valueSpan())
	}
	if a.Global {
		f.Groups[p.cur].Global = true
	}
	if !p.quiet {
		p.checkAgent(l, &a)
	}
	f.agents = append(f.agents, a)
}

func (p *parser) checkAgent(l *Line, a *Agent) {
	switch {
	case l.Value == "":
		p.addAt(l.Number, EmptyUserAgent, span{})
		return
	case a.Global:
	case strings.IndexByte(l.Value, '*') >= 0:
		p.addAt(l.Number, UserAgentWildcard, l.valueSpan())
	case int(a.token) != len(l.Value):
		p.addAt(l.Number, UserAgentTruncated, l.valueSpan())
	}
	if i := p.earlierAgentOf(a); i >= 0 && p.groupOfAgent(i) != p.cur {
		f := p.f
		b := &f.agents[i]
		p.addAt(l.Number, DuplicateGroup, l.valueSpan())
		d := &f.Diagnostics[len(f.Diagnostics)-1]
		d.refer(b.Line, f.spanIn(f.lineText(b.Line), b.Value(f)))
	}
}

// earlierAgentOf returns the index in f.agents of the first user-agent
// line that names the same crawler as a (same token ignoring case, or both
// '*'), or -1. Agents with an empty token name no crawler and are never
// duplicates.
func (p *parser) earlierAgentOf(a *Agent) int {
	if !a.Global && a.token == 0 {
		return -1
	}
	f, agents := p.f, p.f.agents
	if len(agents) < linearAgents {
		for i := range agents {
			if sameCrawler(f, &agents[i], a) {
				return i
			}
		}
		return -1
	}
	if !p.agentIndexOn {
		p.agentIndexOn = true
		for i := range agents {
			p.indexAgent(&agents[i], int32(i))
		}
	}
	return int(p.indexAgent(a, int32(len(agents)))) // a is appended next
}

// sameCrawler reports whether two agent lines of f name the same crawler.
func sameCrawler(f *File, b, a *Agent) bool {
	return b.Global && a.Global || !b.Global && !a.Global && b.token == a.token && equalFoldASCII(b.Token(f), a.Token(f))
}

// indexAgent returns the index of the first agent line naming a's crawler,
// recording i as that line when none did (then it returns -1). Agents
// without a token are not recorded.
func (p *parser) indexAgent(a *Agent, i int32) int32 {
	if !a.Global && a.token == 0 {
		return -1
	}
	f, agents := p.f, p.f.agents
	h := hashFold(a.Token(f))
	if a.Global {
		h = hashFold("*")
	}
	j, slot := p.s.agentTable.find(h, func(k int32) bool { return sameCrawler(f, &agents[k], a) })
	if j < 0 {
		p.s.agentTable.insert(h, i, slot)
	}
	return j
}

// groupOfAgent returns the group of the i-th agent line. Groups hold their
// agents in order, so it counts the agents of each group.
func (p *parser) groupOfAgent(i int) int {
	gs := p.f.Groups
	lo, hi := 0, len(gs)-1
	line := p.f.agents[i].Line
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if gs[mid].Line <= line {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// rule handles an allow or disallow line.
//
//mutate:catch ./robots
func (p *parser) rule(l *Line) {
	f := p.f
	p.ruleLines++
	if p.cur < 0 {
		if !p.quiet {
			p.addAt(l.Number, RuleOutsideGroup, l.valueSpan())
		}
		return
	}
	r := Rule{Line: l.Number, Group: int32(p.cur), Directive: Disallow, value: rangeOf(p.lineAt+l.valueAt, len(l.Value))}
	if l.Key == KeyAllow {
		r.Directive = Allow
	}
	v := scanValue(l.Value)
	if v.high || v.lowerEscape { // as needsEscape
		if p.escaped.Cap() == 0 {
			p.escaped.Grow(escapedBytes)
		}
		start := p.escaped.Len()
		pattern := escapeInto(&p.escaped, l.Value)
		f.escaped = p.escaped.String() // every escaped pattern so far
		r.escaped, r.pattern = true, rangeOf(start, len(pattern))
		r.pat = v.escapedPattern(pattern)
		r.lead = leadOf(pattern, r.pat)
	} else {
		r.pattern = r.value
		r.pat = v.pattern(l.Value)
		r.lead = leadOf(l.Value, r.pat)
	}
	if !p.quiet {
		p.checkRule(l, &r, &v)
	}
	if r.Directive == Disallow && !p.starDisallows && f.Groups[p.cur].Global && r.matchesAll(r.Pattern(f)) {
		p.starDisallows = true
	}
	f.Stats.Allows += btoi(r.Directive == Allow)
	f.Stats.WildcardRules += btoi(r.pat.star >= 0)
	p.curHasRules = true
	f.Rules = append(f.Rules, r)
}

// valueScan is what one pass over a rule's value finds, for its
// compilation and its checks.
type valueScan struct {
	star, dollar int32 // first '*', first '$'; -1 when none
	slash        int32 // last '/' when the value has an 'x' (see pattern); -1 when none
	blank        bool  // a space or a tab
	percent      bool  // a '%'
	high         bool  // a byte >= 0x80
	// lowerEscape: an escape with a lower-case hex digit; badEscape: a
	// '%' that two hex digits do not follow (percentEscapes, looked for
	// only when percent).
	lowerEscape, badEscape bool
}

// Bits of valueBits: what a byte of a rule's value may need.
const (
	bitStar = 1 << iota
	bitDollar
	bitBlank
	bitPercent
	bitHigh
	bitX // an 'x', as in "/index.htm": the last '/' is then looked up
)

// valueBits gives the bits of each byte of a rule's value.
var valueBits = func() (t [256]uint8) {
	t['*'], t['$'], t[' '], t['\t'], t['%'], t['x'] = bitStar, bitDollar, bitBlank, bitBlank, bitPercent, bitX
	for c := 0x80; c < 0x100; c++ {
		t[c] = bitHigh
	}
	return t
}()

// scanValue scans v once, without a branch a byte; the positions, rarely
// needed, are then searched for.
//
//mutate:catch ./robots
func scanValue(v string) valueScan {
	var bits uint8
	i := 0
	for ; i+4 <= len(v); i += 4 {
		w := v[i : i+4]
		bits |= valueBits[w[0]] | valueBits[w[1]] | valueBits[w[2]] | valueBits[w[3]]
	}
	for ; i < len(v); i++ {
		bits |= valueBits[v[i]]
	}
	s := valueScan{star: -1, dollar: -1, slash: -1, blank: bits&bitBlank != 0, percent: bits&bitPercent != 0, high: bits&bitHigh != 0}
	if bits&bitStar != 0 {
		s.star = int32(strings.IndexByte(v, '*'))
	}
	if bits&bitDollar != 0 {
		s.dollar = int32(strings.IndexByte(v, '$'))
	}
	if bits&bitX != 0 {
		s.slash = int32(strings.LastIndexByte(v, '/'))
	}
	if s.percent {
		s.lowerEscape, s.badEscape = percentEscapes(v)
	}
	return s
}

// pattern is [compilePattern] of v, the value scanned, when escaping left
// it as it is.
func (s *valueScan) pattern(v string) patternInfo {
	m := patternInfo{star: s.star, anchored: v != "" && v[len(v)-1] == '$'}
	if i := int(s.slash); i >= 0 && strings.HasPrefix(v[i:], "/index.htm") {
		m.index = uint16(i + 1)
		m.indexStar = m.star >= 0 && int(m.star) < i
	}
	return m
}

// escapedPattern is [compilePattern] of p, the escaped form of the value
// scanned. Escaping adds bytes but keeps every '*', '$', '/' and 'x', so
// the scan tells which of them to look for again.
func (s *valueScan) escapedPattern(p string) patternInfo {
	e := *s
	if e.star >= 0 {
		e.star = int32(strings.IndexByte(p, '*'))
	}
	if e.slash >= 0 {
		e.slash = int32(strings.LastIndexByte(p, '/'))
	}
	return e.pattern(p)
}

//mutate:catch ./robots
func (p *parser) checkRule(l *Line, r *Rule, s *valueScan) {
	n, v, at := l.Number, l.Value, l.valueSpan()
	if v == "" {
		if r.Directive == Disallow {
			p.addAt(n, EmptyDisallow, span{})
		}
		return
	}
	switch {
	case v[0] == '/' || v[0] == '*': // most values; no URL starts so
	case isURL(v):
		p.addAt(n, PathIsURL, at)
	default:
		p.addAt(n, PathNotAbsolute, at)
		if p.f.Groups[p.cur].Global && looksLikeAgent(v) {
			p.addAt(n, ReversedSyntax, at)
		}
	}
	if s.blank {
		p.addAt(n, MultiplePaths, at)
	}
	if s.dollar >= 0 && int(s.dollar) < len(v)-1 {
		p.addAt(n, DollarNotAtEnd, at)
	}
	if r.pat.star >= 0 {
		p.addAt(n, Wildcard, at)
	}
	if r.pat.anchored {
		p.addAt(n, EndAnchor, at)
	}
	if v[len(v)-1] == '*' {
		p.addAt(n, RedundantWildcard, at)
	}
	if s.high {
		p.addAt(n, NonASCIIPath, at)
	}
	if s.badEscape {
		p.addAt(n, PatternBadPercentEscape, at)
	}
	if (v == "/" || v == "/*" || v == "*") && r.Directive == Disallow && p.f.Groups[p.cur].Global {
		p.addAt(n, DisallowAll, at)
	}
	if prev, ok := p.sameRule(r); ok {
		if prev == r.Directive {
			p.addAt(n, DuplicateRule, at)
		} else {
			p.addAt(n, ConflictingRules, at)
		}
	}
}

// sameRule looks for an earlier rule of the current group with the same
// pattern and returns its directive: r's own when the group has r already.
//
//mutate:catch ./robots
func (p *parser) sameRule(r *Rule) (Directive, bool) {
	f, rules, first := p.f, p.f.Rules, p.curFirstRule
	pattern := r.Pattern(f)
	if len(rules)-first < linearRules {
		// Most patterns are new to their group: a bit a pattern, set by
		// its length and two of its bytes, rules out most scans.
		bit := uint64(1) << (patternSketch(pattern) & 63)
		seen := p.groupSketch&bit != 0
		p.groupSketch |= bit
		if !seen {
			return 0, false
		}
		var found Directive
		ok := false
		for i := first; i < len(rules); i++ {
			if rules[i].hasPattern(f, pattern) {
				if rules[i].Directive == r.Directive {
					return r.Directive, true
				}
				found, ok = rules[i].Directive, true
			}
		}
		return found, ok
	}
	if !p.groupRulesOn {
		p.groupRulesOn = true
		p.s.ruleDirs = p.s.ruleDirs[:0]
		for i := first; i < len(rules); i++ {
			p.recordRule(&rules[i], int32(i))
		}
	}
	return p.recordRule(r, int32(len(rules))) // r is appended next
}

// patternSketch mixes a pattern's length with its last and middle bytes:
// equal patterns have equal sketches.
func patternSketch(p string) uint {
	if p == "" {
		return 0
	}
	n := uint(len(p))
	return n*7 + uint(p[n-1])*3 + uint(p[n/2])
}

// recordRule records rule i (r) in the table of the current group's
// patterns, which holds the first rule of each pattern and the directives
// its rules have (s.ruleDirs), and returns what sameRule returns: the
// directive of an earlier rule with r's pattern, r's own when one has it.
func (p *parser) recordRule(r *Rule, i int32) (Directive, bool) {
	f, rules, s, first := p.f, p.f.Rules, p.s, int32(p.curFirstRule)
	pattern := r.Pattern(f)
	bit := uint8(1) << r.Directive
	h := hashString(pattern)
	j, slot := s.ruleTable.find(h, func(k int32) bool { return rules[k].hasPattern(f, pattern) })
	if j < 0 {
		s.ruleTable.insert(h, i, slot)
		s.ruleDirs = append(s.ruleDirs, bit)
		return 0, false
	}
	s.ruleDirs = append(s.ruleDirs, 0) // rule i's pattern is j's
	seen := s.ruleDirs[j-first]
	s.ruleDirs[j-first] |= bit
	switch {
	case seen&bit != 0:
		return r.Directive, true
	case r.Directive == Allow:
		return Disallow, true
	}
	return Allow, true
}

// forgetGroupRules empties the table of the current group's rules.
func (p *parser) forgetGroupRules() {
	if p.groupRulesOn {
		p.s.ruleTable.reset()
		p.groupRulesOn = false
	}
}

// forgetAgents empties the table of this file's agents.
func (p *parser) forgetAgents() {
	if p.agentIndexOn {
		p.s.agentTable.reset()
		p.agentIndexOn = false
	}
}

// doubleBOM is the UTF-8 byte order mark read as Latin-1 and encoded as
// UTF-8 again: "ï»¿" (C3 AF C2 BB C2 BF).
const doubleBOM = "\u00EF\u00BB\u00BF"

// badPercentEscape returns the first '%' of v that two hex digits do not
// follow, with what follows it (at most two bytes), or "". It jumps from
// '%' to '%' (strings.IndexByte).
//
//mutate:catch ./robots
func badPercentEscape(v string) string {
	for i := 0; ; i += 3 {
		j := strings.IndexByte(v[i:], '%')
		if j < 0 {
			return ""
		}
		i += j
		if i+2 < len(v) && isHex(v[i+1]) && isHex(v[i+2]) {
			continue
		}
		end := i + 1
		for end < len(v) && end < i+3 && v[end] != '%' && v[end] < utf8.RuneSelf {
			end++
		}
		return v[i:end]
	}
}

// percentEscapes reports, in one jump from '%' to '%', whether v has an
// escape ('%' and two hex digits) with a lower-case digit (for a v with no
// byte from 0x80: whether [needsEscape] is true of it), and whether it has
// a '%' that two hex digits do not follow ([badPercentEscape] is not "").
func percentEscapes(v string) (lower, bad bool) {
	for i := 0; i < len(v) && !(lower && bad); {
		if v[i] != '%' { // after an escape, often the next one ("%C3%A9")
			j := strings.IndexByte(v[i:], '%')
			if j < 0 {
				break
			}
			i += j
		}
		if i+2 < len(v) && isHex(v[i+1]) && isHex(v[i+2]) {
			lower = lower || isLowerHex(v[i+1]) || isLowerHex(v[i+2])
			i += 3
		} else {
			bad = true
			i++ // not an escape: look again from the byte after the '%'
		}
	}
	return lower, bad
}

// isURL reports whether a pattern is a whole URL: a scheme of letters and
// "://".
func isURL(v string) bool {
	if v == "" || !isLetter(v[0]) {
		return false
	}
	i := strings.Index(v, "://")
	return i > 0 && isScheme(v[:i])
}

func isScheme(s string) bool {
	for j := 0; j < len(s); j++ {
		if !isLetter(s[j]) {
			return false
		}
	}
	return s != ""
}

// isBareURL reports a directive line that is really a URL alone: its key is
// a scheme and its value starts with "//".
func isBareURL(l *Line) bool {
	return strings.HasPrefix(l.Value, "//") && isScheme(l.KeyText) && !l.MissingColon
}

// sitemap handles a sitemap line.
//
//mutate:catch ./robots
func (p *parser) sitemap(l *Line) {
	s := Sitemap{Line: l.Number, url: l.valueSpan()}
	code := sitemapProblem(l.Value)
	s.Valid = code == codeNone
	if !s.Valid && !p.quiet {
		p.addAt(l.Number, code, s.url)
	}
	p.f.Sitemaps = append(p.f.Sitemaps, s)
}

// sitemapProblem returns what is wrong with a sitemap URL, or codeNone.
func sitemapProblem(v string) Code {
	if v == "" {
		return SitemapEmpty
	}
	i := strings.Index(v, "://")
	if i <= 0 || !isURL(v) {
		return SitemapRelative
	}
	switch strings.ToLower(v[:i]) {
	case "http", "https", "ftp":
	default:
		return SitemapBadScheme
	}
	host := v[i+3:]
	if j := strings.IndexAny(host, "/?#"); j >= 0 {
		host = host[:j]
	}
	if host == "" {
		return SitemapRelative
	}
	return codeNone
}

// unknown handles a line whose key Google's parser does not act on: an
// extension directive is recorded (even when report is false, like rules
// and sitemaps), anything else only reported.
//
//mutate:catch ./robots
func (p *parser) unknown(l *Line, report bool) {
	n, k, key := l.Number, l.KeyText, l.keySpan()
	def := lookupExtension(k)
	if def == nil {
		switch {
		case !report:
		case nearMissTarget(k) != "":
			p.addAt(n, TypoIgnored, key)
		default:
			p.addAt(n, UnknownDirective, key)
		}
		return
	}
	if report {
		p.addAt(n, UnsupportedDirective, key)
	}
	e := Extension{Line: n, Group: p.cur, value: l.valueSpan(), def: defIndex(def)}
	if def == &acapDef {
		e.key = key
	}
	switch key := def.key; key {
	case "content-signal":
		e.Valid = p.preferences(l, ContentSignal, report)
	case "content-usage":
		e.Valid = p.preferences(l, ContentUsage, report)
	default:
		e.Valid = def.valid(l.Value)
		if !e.Valid && report {
			p.addAt(n, invalidCode(key), e.value)
		}
	}
	p.f.Extensions = append(p.f.Extensions, e)
}

// invalidCode is the code for an extension value its definition rejects.
func invalidCode(key string) Code {
	switch key {
	case "crawl-delay":
		return CrawlDelayInvalid
	case "license":
		return LicenseNotAbsolute
	}
	return ExtensionValueInvalid
}

func validDelay(v string) bool {
	d, err := strconv.ParseFloat(v, 64)
	return err == nil && d >= 0 && d <= 1e9
}

// endOfFile adds the findings that need the whole file.
//
//mutate:catch ./robots
func (p *parser) endOfFile(sp *lineSplitter) {
	f := p.f
	if p.quiet {
		return
	}
	if !p.content {
		p.addFile(Empty, "")
		return
	}
	if f.Size > len(f.text) && strings.HasSuffix(f.text, "\r") {
		// The cut fell after a CR: its LF, if any, lies past the cut, so
		// the last line ending is of no known kind.
		sp.cr--
	}
	if kinds := btoi(sp.lf > 0) + btoi(sp.crlf > 0) + btoi(sp.cr > 0); kinds > 1 || sp.cr > 0 {
		p.addFile(MixedLineEndings, lineEndings(sp))
	} else if sp.crlf > 0 {
		p.addFile(CRLFLineEndings, strconv.Itoa(sp.crlf))
	}
	for start := 0; start < len(f.Rules); {
		end := start + 1
		for end < len(f.Rules) && f.Rules[end].Group == f.Rules[start].Group {
			end++
		}
		p.filesOneByOne(f.Rules[start:end])
		start = end
	}
	if p.ruleLines > 0 && p.agentLines == 0 {
		p.addFile(NoUserAgent, "")
	}
	if p.ruleLines == 0 {
		p.addFile(NoRules, "")
	}
	if n := len(f.Groups); n > 0 && !p.curHasRules {
		g := &f.Groups[n-1]
		p.add(g.Line, EmptyGroup, p.curText, f.agents[len(f.agents)-1].Value(f))
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func lineEndings(sp *lineSplitter) string {
	var parts []string
	for _, e := range [...]struct {
		n    int
		name string
	}{{sp.lf, "LF"}, {sp.crlf, "CRLF"}, {sp.cr, "CR"}} {
		if e.n > 0 {
			parts = append(parts, strconv.Itoa(e.n)+" "+e.name)
		}
	}
	return strings.Join(parts, ", ")
}

// keep moves the File's slices out of the scratch space into slices of
// their exact length, nil when empty (Rules is empty but not nil when the
// body was read as text, as it always was), and puts the diagnostics in
// line order as it copies them (sortedDiagnostics).
func (p *parser) keep() {
	f, s := p.f, p.s
	p.forgetGroupRules()
	p.forgetAgents()
	s.rules, s.diags, s.groups, s.agents, s.lines = f.Rules, f.Diagnostics, f.Groups, f.agents, f.lines
	f.Rules, f.Groups, f.agents, f.lines = kept(f.Rules, p.shared), kept(f.Groups, p.shared), kept(f.agents, p.shared), kept(f.lines, p.shared)
	f.Diagnostics = p.sortedDiagnostics(f.Diagnostics)
	if f.Rules == nil && p.rulesMade {
		f.Rules = []Rule{}
	}
}

// sortedDiagnostics returns a copy of ds, the diagnostics in the order
// they were added, of exact length and stably sorted by line. Most files
// need no sort: their findings on lines come in line order. The others are
// findings in line order and then a few found at the end (the findings on
// the whole file, line endings or no rules; the templates', an empty
// group's): those few are sorted where they lie, and merged with the
// others as they are copied (mergeDiagnostics), which is the stable sort
// of the whole at the cost of the copy.
func (p *parser) sortedDiagnostics(ds []Diagnostic) []Diagnostic {
	if !p.late0 && !p.unsorted {
		return kept(ds, p.shared)
	}
	k, last := 0, 0 // ds[:k]: its findings on lines are in line order
	for ; k < len(ds); k++ {
		if n := ds[k].Line; n != 0 {
			if n < last {
				break
			}
			last = n
		}
	}
	tail := ds[k:] // the scratch's: sorted in place
	slices.SortStableFunc(tail, func(a, b Diagnostic) int { return a.Line - b.Line })
	if p.shared {
		p.s.sorted = mergeDiagnostics(p.s.sorted[:0], ds[:k], tail)
		return kept(p.s.sorted, true)
	}
	return mergeDiagnostics(make([]Diagnostic, 0, len(ds)), ds[:k], tail)
}

// mergeDiagnostics appends to out the stable sort by line of head and
// then tail, each in line order but for head's findings on line 0: the
// findings on line 0 of head, then of tail, then the others merged, head's
// first among those on one line.
func mergeDiagnostics(out, head, tail []Diagnostic) []Diagnostic {
	for i := range head {
		if head[i].Line == 0 {
			out = append(out, head[i])
		}
	}
	j := 0
	for j < len(tail) && tail[j].Line == 0 {
		j++
	}
	out = append(out, tail[:j]...)
	for i := range head {
		d := &head[i]
		if d.Line == 0 {
			continue
		}
		for j < len(tail) && tail[j].Line < d.Line {
			out = append(out, tail[j])
			j++
		}
		out = append(out, *d)
	}
	return append(out, tail[j:]...)
}

// finish links groups to their agents and rules, recognises the
// templates, keeps what the File holds (sorting the diagnostics) and fills
// the statistics. The templates come before keep: their findings are then
// copied out with the others, not appended to the exact slice.
//
//mutate:catch ./robots
func (p *parser) finish() {
	p.linkGroups()
	if !p.noTemplates && !p.quiet {
		p.templates()
	}
	p.keep()
	p.fillStats()
}

// linkGroups gives each group the ranges of its agents and rules.
func (p *parser) linkGroups() {
	f := p.f
	ai, ri := 0, 0
	for gi := range f.Groups {
		g := &f.Groups[gi]
		a0, r0 := ai, ri
		next := int(^uint(0) >> 1)
		if gi+1 < len(f.Groups) {
			next = f.Groups[gi+1].Line
		}
		for ai < len(f.agents) && f.agents[ai].Line < next {
			ai++
		}
		for ri < len(f.Rules) && int(f.Rules[ri].Group) == gi {
			ri++
		}
		g.agents, g.rules = indexRange{int32(a0), int32(ai)}, indexRange{int32(r0), int32(ri)}
	}
}

// fillStats fills the statistics of the File.
func (p *parser) fillStats() {
	f := p.f
	s := &f.Stats
	s.Groups, s.Rules, s.Sitemaps = len(f.Groups), len(f.Rules), len(f.Sitemaps)
	s.Disallows = s.Rules - s.Allows // Allows and WildcardRules: counted by rule
	var bySeverity [Error + 1]int
	for i := range f.Diagnostics {
		bySeverity[f.Diagnostics[i].Code.Severity()]++
	}
	s.Errors, s.Warnings, s.Infos = bySeverity[Error], bySeverity[Warning], bySeverity[Info]
	s.StarDisallowsAll = (p.starDisallows || f.Response.bodyIgnored()) && f.starAccess() == AccessDisallowed
}
