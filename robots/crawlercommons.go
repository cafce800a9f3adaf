package robots

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// ccReading is a file read as SimpleRobotRulesParser of crawler-commons 1.6
// reads it in its default configuration ([SemanticsCrawlerCommons]): its
// groups, as spans of one agent slice, one rule slice and one slice of
// crawl-delay lines, and the rules' patterns normalised for comparison.
type ccReading struct {
	agents []ccAgent // user-agent values, trimmed, as written (compared ignoring case)
	rules  []rfcRule
	delays []ccDelayLine
	groups []ccGroup
	// allowAll: the body is an HTML page without a "user-agent:" (or is
	// empty), which the parser reads as allowing everything.
	allowAll bool
}

// ccGroup is one group: user-agent lines and the lines after them up to
// the next user-agent line after an allow or disallow line.
type ccGroup struct {
	agents, rules, delays pySpan
}

// ccAgent is a user-agent value as written, with what matching it against
// a crawler's names needs, found once when the reading is built.
type ccAgent struct {
	value string
	ascii bool  // the value is ASCII: compared in place
	token int32 // the length of the product token ([A-Za-z_-]+) it starts with
}

// newCCAgent returns the agent of user-agent value v.
func newCCAgent(v string) ccAgent {
	n := 0
	for n < len(v) && isTokenByte(v[n]) {
		n++
	}
	return ccAgent{value: v, ascii: asciiOnly(v), token: int32(n)}
}

// ccDelayLine is a crawl-delay line of a group and the user-agent lines it
// counts for: those since the group's start or its previous crawl-delay
// line (the parser takes one crawl-delay after a user-agent line naming
// the crawler; testCrawlDelay, testSelectCrawlDelayGroup).
type ccDelayLine struct {
	agents pySpan
	ms     int64 // -1 when the value is no number
}

// ccMaxCrawlDelay is the parser's default maximum crawl delay
// (DEFAULT_MAX_CRAWL_DELAY, 300,000 ms): a larger delay for the crawler
// disallows everything.
const ccMaxCrawlDelay = 300_000

// ccKind is the directive of a line, as far as verdicts need it.
type ccKind uint8

const (
	ccOther ccKind = iota
	ccUserAgent
	ccAllow
	ccDisallow
	ccCrawlDelay
)

// ccKeys are the directive names the parser recognises at the start of a
// line, lower-case, its misspellings among them (testDirectiveTypos), and
// the directive each stands for; the names of the directives that do not
// bear on verdicts (sitemap, host, noindex, request-rate, ...) are ccOther.
var ccKeys = []struct {
	name string
	kind ccKind
}{
	{"user-agent", ccUserAgent}, {"useragent", ccUserAgent}, {"useg-agent", ccUserAgent},
	{"ser-agent", ccUserAgent}, {"users-agent", ccUserAgent}, {"user agent", ccUserAgent},
	{"user-agnet", ccUserAgent}, {"user-agents", ccUserAgent},
	{"disallow", ccDisallow}, {"desallow", ccDisallow}, {"dissallow", ccDisallow},
	{"dissalow", ccDisallow}, {"disalow", ccDisallow}, {"dssalow", ccDisallow},
	{"dsallow", ccDisallow}, {"diasllow", ccDisallow}, {"disallaw", ccDisallow},
	{"diallow", ccDisallow}, {"disallows", ccDisallow}, {"disllow", ccDisallow},
	{"allow", ccAllow},
	{"crawl-delay", ccCrawlDelay}, {"crawl delay", ccCrawlDelay}, {"clawl-delay", ccCrawlDelay},
	{"craw-delay", ccCrawlDelay}, {"crawl-deley", ccCrawlDelay},
}

// readCrawlerCommons builds the reading from the file's line list (or, for
// a body with a UTF-16 byte order mark, from the body decoded).
func readCrawlerCommons(f *File, r *ccReading) {
	if f.Response.bodyIgnored() {
		return
	}
	text := f.text[f.bom:]
	if text == "" {
		r.allowAll = true
		return
	}
	count, lineAt, classified := len(f.lines), f.line, f.classified
	if u, ok := ccUTF16(f.text); ok {
		lines := ccSplit(u)
		text, count, lineAt, classified = u, len(lines), func(i int) string { return lines[i] }, false
	}
	html := f.hasLT && ccLooksHTML(text) // a '<' of the text decoded is one of its bytes
	if html && !ccHasUserAgent(text) {
		r.allowAll = true
		return
	}
	r.agents = make([]ccAgent, 0, len(f.agents))
	r.rules = make([]rfcRule, 0, len(f.Rules))
	r.groups = make([]ccGroup, 0, len(f.Groups))
	b := ccBuilder{r: r, html: html}
	if classified && !html { // the lines are Google's, and their values too
		for i, l := range f.lines {
			if l.class.kind() != lineSlow {
				b.record(i+1, ccKindOfClass(l.class), f.classValue(i))
			} else {
				b.line(i+1, f.line(i))
			}
		}
		return
	}
	extra := strings.Contains(text, "\u0085") || strings.Contains(text, "\u2028") || strings.Contains(text, "\u2029")
	for i := range count {
		line := lineAt(i)
		if !extra {
			b.line(i+1, line)
			continue
		}
		for _, part := range strings.FieldsFunc(line, func(c rune) bool { return c == '\u0085' || c == '\u2028' || c == '\u2029' }) {
			b.line(i+1, part)
		}
	}
}

// ccBuilder forms the groups of a ccReading, line by line.
type ccBuilder struct {
	r        *ccReading
	html     bool            // strip HTML tags from each line
	inRules  bool            // the current group has an allow or disallow line
	agent0   int32           // the first agent a crawl-delay line would count for
	patterns strings.Builder // normalised patterns that are not their value
}

// line reads one line.
func (b *ccBuilder) line(num int, s string) {
	if b.html {
		s = ccStripTags(s)
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	kind, value := ccClassify(ccTrim(s))
	b.record(num, kind, value)
}

// ccKindOfClass is the directive of a line of class c (not lineSlow).
func ccKindOfClass(c lineClass) ccKind {
	switch c.kind() {
	case lineUserAgent:
		return ccUserAgent
	case lineAllow:
		return ccAllow
	case lineDisallow:
		return ccDisallow
	}
	return ccOther
}

// record acts on a line of directive kind and its trimmed value.
func (b *ccBuilder) record(num int, kind ccKind, value string) {
	r := b.r
	switch kind {
	case ccUserAgent:
		if len(r.groups) == 0 || b.inRules {
			n, m, d := int32(len(r.agents)), int32(len(r.rules)), int32(len(r.delays))
			r.groups = append(r.groups, ccGroup{agents: pySpan{n, n}, rules: pySpan{m, m}, delays: pySpan{d, d}})
			b.inRules, b.agent0 = false, n
		}
		r.agents = append(r.agents, newCCAgent(value))
		r.groups[len(r.groups)-1].agents.end++
	case ccAllow, ccDisallow:
		if len(r.groups) == 0 {
			return
		}
		b.inRules = true
		if value == "" {
			return // an empty path is no rule (testEmptyDisallow, testEmptyAllow)
		}
		r.rules = append(r.rules, newRFCRule(num, kind == ccAllow, ccNormalise(&b.patterns, value, false)))
		r.groups[len(r.groups)-1].rules.end++
	case ccCrawlDelay:
		n := int32(len(r.agents))
		if len(r.groups) == 0 || b.agent0 == n {
			return // no user-agent line since the last crawl-delay
		}
		d, ok := ccDelay(value)
		if !ok {
			d = -1
		}
		r.delays = append(r.delays, ccDelayLine{agents: pySpan{b.agent0, n}, ms: d})
		r.groups[len(r.groups)-1].delays.end++
		b.agent0 = n
	}
}

// ccClassify finds the directive a trimmed line starts with, ignoring
// case: a name of ccKeys followed by a colon (white space around it
// allowed) or by white space alone ("Disallow /no-colon/",
// testFormatErrors). value is the rest, trimmed.
func ccClassify(s string) (ccKind, string) {
	for _, k := range ccKeys {
		if len(s) < len(k.name) || !equalFoldASCII(s[:len(k.name)], k.name) {
			continue
		}
		rest := s[len(k.name):]
		sep := strings.TrimLeft(rest, " \t")
		switch {
		case strings.HasPrefix(sep, ":"):
			return k.kind, ccTrim(sep[1:])
		case len(sep) < len(rest):
			return k.kind, ccTrim(sep)
		}
	}
	return ccOther, ""
}

// ccTrim cuts bytes up to and including the space from both ends of s, as
// Java's String.trim does.
func ccTrim(s string) string {
	for len(s) > 0 && s[0] <= ' ' {
		s = s[1:]
	}
	for len(s) > 0 && s[len(s)-1] <= ' ' {
		s = s[:len(s)-1]
	}
	return s
}

// ccDelay reads a crawl-delay value in seconds as milliseconds: a decimal
// number when it has a '.', rounded (testFloatingPointCrawlDelay), an
// integer otherwise; ok is false for other values, which are ignored.
func ccDelay(v string) (int64, bool) {
	if strings.IndexByte(v, '.') >= 0 {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return 0, false
		}
		return int64(f*1000 + 0.5), true
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, false
	}
	return n * 1000, true
}

// ccHasUserAgent reports whether text holds "user-agent:" in any case,
// looking only before each colon.
func ccHasUserAgent(text string) bool {
	const key = "user-agent"
	for i := 0; ; {
		j := strings.IndexByte(text[i:], ':')
		if j < 0 {
			return false
		}
		i += j
		if i >= len(key) && equalFoldASCII(text[i-len(key):i], key) {
			return true
		}
		i++
	}
}

// ccLooksHTML reports whether text has an <html>, <head> or <body> tag, in
// any case (testHtmlMarkupInRobotsTxt, testIgnoreOfHtml).
func ccLooksHTML(text string) bool {
	for i := strings.IndexByte(text, '<'); i >= 0; {
		rest := text[i+1:]
		for _, tag := range [...]string{"html", "head", "body"} {
			if len(rest) >= len(tag) && equalFoldASCII(rest[:len(tag)], tag) {
				after := strings.TrimLeft(rest[len(tag):], " \t\r\n\f\v")
				if strings.HasPrefix(after, ">") {
					return true
				}
			}
		}
		j := strings.IndexByte(rest, '<')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// ccStripTags removes every "<...>" tag from a line.
func ccStripTags(s string) string {
	if strings.IndexByte(s, '<') < 0 {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i+1:], '>')
		if j <= 0 {
			break // no tag: "<>" or no '>' (the pattern wants one character or more)
		}
		b.WriteString(s[:i])
		s = s[i+1+j+1:]
	}
	b.WriteString(s)
	return b.String()
}

// ccUTF16 decodes a body with a UTF-16 byte order mark (testRobotsWithUTF16LEBOM,
// testRobotsWithUTF16BEBOM); ok is false for any other body.
func ccUTF16(text string) (string, bool) {
	var big bool
	switch {
	case strings.HasPrefix(text, "\xFF\xFE"):
	case strings.HasPrefix(text, "\xFE\xFF"):
		big = true
	default:
		return "", false
	}
	text = text[2:]
	units := make([]uint16, 0, len(text)/2)
	for i := 0; i+1 < len(text); i += 2 {
		if big {
			units = append(units, uint16(text[i])<<8|uint16(text[i+1]))
		} else {
			units = append(units, uint16(text[i+1])<<8|uint16(text[i]))
		}
	}
	return string(utf16.Decode(units)), true
}

// ccSplit splits text into lines at CR, LF and CRLF.
func ccSplit(text string) []string {
	return strings.FieldsFunc(text, func(c rune) bool { return c == '\r' || c == '\n' })
}

// ccEncoded reports the ASCII bytes the parser percent-encodes in paths:
// controls, space, '"', '#', '<', '>', '[', ']', '^', '`', '{', '|', '}'
// and DEL (crawler-commons' BasicURLNormalizer.escapePath).
var ccEncoded = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = c <= 0x20 || c >= 0x7F || strings.IndexByte("\"#<>[]^`{|}", byte(c)) >= 0
	}
	return t
}()

// ccNormalise writes s as the parser compares it (SimpleRobotRules.escapePath,
// testEscapedPaths) to b and returns it, or returns s when it needs no
// change: escapes of RFC 3986's unreserved characters decoded, the hex
// digits of other escapes upper-cased, a '%' that starts no escape written
// "%25", the bytes of ccEncoded and those outside ASCII percent-encoded
// (text not UTF-8 first made valid, each bad sequence U+FFFD, as Java
// decodes it). In a URL (uri true) '*' and '$' are "%2A" and "%24" too.
func ccNormalise(b *strings.Builder, s string, uri bool) string {
	if !escapeNeedsChange(s, &ccEncoded, uri) {
		return s
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return escapeNormalise(b, s, &ccEncoded, uri, true)
}

// ccName is one of a crawler's names, and whether it is ASCII.
type ccName struct {
	s     string
	ascii bool
}

// ccNames are the crawler's names as the parser's string API takes them:
// each agent split at commas and white space (lower-cased when compared:
// see ccAgent.namesCrawler). They are substrings of agents, in buf when it
// has room.
func ccNames(buf []ccName, agents []string) []ccName {
	names := buf[:0]
	for _, a := range agents {
		for len(a) > 0 {
			i := 0
			for i < len(a) && !ccNameSep(a[i]) {
				i++
			}
			if i > 0 {
				names = append(names, ccName{a[:i], asciiOnly(a[:i])})
			}
			for i < len(a) && ccNameSep(a[i]) {
				i++
			}
			a = a[i:]
		}
	}
	return names
}

// ccNameSep reports a byte that separates names: a comma or ASCII white
// space.
func ccNameSep(c byte) bool {
	return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// namesCrawler reports whether user-agent value a names one of names,
// ignoring case: it is one of them, or it is not a product token as a
// whole ([A-Za-z_-]+) and starts with one ("foo/1.2", "foo bar":
// testAgentTokenMatch).
func (a ccAgent) namesCrawler(names []ccName) bool {
	n := int(a.token)
	for _, name := range names {
		if a.equalFold(name) || n > 0 && n < len(a.value) && equalFoldASCII(a.value[:n], name.s) {
			return true
		}
	}
	return false
}

// equalFold reports whether a's value and name are equal lower-cased (as
// Java's toLowerCase(Locale.ROOT) would make them); ASCII is compared in
// place.
func (a ccAgent) equalFold(name ccName) bool {
	if a.ascii && name.ascii {
		return equalFoldASCII(a.value, name.s)
	}
	return strings.ToLower(a.value) == strings.ToLower(name.s)
}

// isTokenByte reports a byte of a product token: a letter, '_' or '-'.
func isTokenByte(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || c == '_' || c == '-'
}

// match is isAllowed for url and a crawler that answers to any of agents.
func (r *ccReading) match(f *File, url string, agents []string) Verdict {
	var buf [8]ccName
	var named [8]int32
	sel, v, decided := r.selectGroups(f, ccNames(buf[:], agents), named[:0])
	if decided {
		return v
	}
	return r.matchGroups(sel, url)
}

// selectGroups appends to sel the groups the parser obeys for a crawler
// of names, in file order: those that name it, each once, else the '*'
// groups. decided is true, with the verdict, when the status, a body read
// as allowing everything or a crawl delay over the maximum decides every
// URL.
func (r *ccReading) selectGroups(f *File, names []ccName, sel []int32) (_ []int32, v Verdict, decided bool) {
	if f.Response.bodyIgnored() {
		return sel, rfcStatusVerdict(f), true // failedFetch reads statuses as RFC 9309 does (testStatusCodeCreation)
	}
	if r.allowAll {
		return sel, Verdict{Allowed: true}, true
	}
	n := len(sel)
	for gi, g := range r.groups {
		if r.names(g, names) {
			sel = append(sel, int32(gi))
		}
	}
	specific := len(sel) > n
	if !specific {
		for gi, g := range r.groups {
			if r.global(g) {
				sel = append(sel, int32(gi))
			}
		}
	}
	delay := int64(-1)
	for _, gi := range sel[n:] {
		g := r.groups[gi]
		for _, d := range r.delays[g.delays.start:g.delays.end] {
			if d.ms >= 0 && (delay < 0 || d.ms < delay) && r.delayCounts(d, specific, names) {
				delay = d.ms
			}
		}
	}
	if delay > ccMaxCrawlDelay {
		return sel, Verdict{}, true // testBigCrawlDelay
	}
	return sel, Verdict{}, false
}

// matchGroups is the verdict of the rules of groups sel for url: the
// longest match (ccRuleMatch), Allow on ties; /robots.txt is always
// allowed.
func (r *ccReading) matchGroups(sel []int32, url string) Verdict {
	path := PathOf(url)
	if path == "/robots.txt" {
		return Verdict{Allowed: true} // testRobotsTxtAlwaysAllowed
	}
	var b strings.Builder
	return r.matchNormalised(sel, ccNormalise(&b, path, true))
}

// matchNormalised is matchGroups for a path normalised already
// (ccNormalise), not robots.txt.
func (r *ccReading) matchNormalised(sel []int32, path string) Verdict {
	best, found := rfcRule{}, false
	for _, gi := range sel {
		g := r.groups[gi]
		for _, rule := range r.rules[g.rules.start:g.rules.end] {
			length, ok := ccRuleMatch(rule, path)
			if !ok {
				continue
			}
			if !found || length > best.length || length == best.length && rule.allow && !best.allow {
				best, found = rule, true
				best.length = length
			}
		}
	}
	if !found {
		return Verdict{Allowed: true}
	}
	return Verdict{Allowed: best.allow, Line: int(best.line)}
}

// ccRuleMatch is the length by which rule matches path: its pattern's,
// '$' included; or, for a pattern ending in "index.htm" or "index.html"
// that does not match, that of the pattern cut before "index.htm" and
// anchored, when that matches (the parser's index.htm leniency, for allow
// and disallow alike).
func ccRuleMatch(rule rfcRule, path string) (int32, bool) {
	if matchPattern(rule.pattern, int(rule.star), rule.anchored, path) {
		return rule.length, true
	}
	if rule.anchored || !strings.HasSuffix(rule.pattern, "index.htm") && !strings.HasSuffix(rule.pattern, "index.html") {
		return 0, false
	}
	cut := rule.pattern[:strings.Index(rule.pattern, "index.htm")]
	star := strings.IndexByte(cut, '*')
	if matchPattern(cut, star, true, path) {
		return int32(len(cut) + 1), true
	}
	return 0, false
}

// delayCounts reports whether crawl-delay line d counts for the crawler:
// one of the user-agent lines it follows names it (specific) or is '*'.
func (r *ccReading) delayCounts(d ccDelayLine, specific bool, names []ccName) bool {
	for _, a := range r.agents[d.agents.start:d.agents.end] {
		if specific && a.value != "*" && a.value != "" && a.namesCrawler(names) || !specific && a.value == "*" {
			return true
		}
	}
	return false
}

// names reports whether one of the group's user-agent values names one of
// names.
func (r *ccReading) names(g ccGroup, names []ccName) bool {
	for _, a := range r.agents[g.agents.start:g.agents.end] {
		if a.value != "*" && a.value != "" && a.namesCrawler(names) {
			return true
		}
	}
	return false
}

// global reports whether one of the group's user-agent values is '*'.
func (r *ccReading) global(g ccGroup) bool {
	for _, a := range r.agents[g.agents.start:g.agents.end] {
		if a.value == "*" {
			return true
		}
	}
	return false
}

// ccBigDelayLine returns the first line of f that crawler-commons reads
// as a crawl delay over its maximum (ccMaxCrawlDelay), 0 when none: the
// line that makes it disallow everything, when the crawler's group has
// one crawl delay.
func ccBigDelayLine(f *File) int {
	for i := range f.lines {
		line := f.line(i)
		if c, _, ok := strings.Cut(line, "#"); ok {
			line = c
		}
		kind, value := ccClassify(ccTrim(line))
		if d, ok := ccDelay(value); kind == ccCrawlDelay && ok && d > ccMaxCrawlDelay {
			return i + 1
		}
	}
	return 0
}
