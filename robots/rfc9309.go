package robots

import "strings"

// rfcReading is a file read by the letter of RFC 9309
// ([SemanticsRFC9309]): its groups, as spans of one agent slice and one
// rule slice, and the rules' patterns normalised for comparison.
type rfcReading struct {
	agents []rfcAgent
	rules  []rfcRule
	groups []rfcGroup
}

// rfcGroup is one group: one or more user-agent lines and the rules after
// them, up to the next user-agent line after a rule.
type rfcGroup struct{ agents, rules pySpan }

// rfcAgent is the value of a user-agent line: a product token, '*', or
// something else, which names no crawler.
type rfcAgent struct {
	value  string
	global bool // the value is '*'
}

// rfcRule is an allow or disallow line with a path pattern.
type rfcRule struct {
	line     int32
	allow    bool
	anchored bool   // the pattern ends in '$'
	star     int32  // the first '*' of pattern, -1 when none
	pattern  string // normalised (rfcNormalise), without its final '$'
	length   int32  // octets of the normalised pattern, '$' included: the rule's specificity
}

// rfcKind is the kind of a line in RFC 9309's grammar.
type rfcKind uint8

const (
	rfcOther rfcKind = iota // an empty line, a comment, another record or no record
	rfcUserAgent
	rfcAllow
	rfcDisallow
)

// readRFC9309 builds the reading from the file's line list.
func readRFC9309(f *File, r *rfcReading) {
	if f.Response.bodyIgnored() {
		return
	}
	r.agents = make([]rfcAgent, 0, len(f.agents))
	r.rules = make([]rfcRule, 0, len(f.Rules))
	r.groups = make([]rfcGroup, 0, len(f.Groups))
	var patterns strings.Builder
	inRules := false // the current group has a rule: a user-agent line starts another
	for i, l := range f.lines {
		var kind rfcKind
		var value string
		if l.class.kind() != lineSlow {
			kind, value = rfcKindOfClass(l.class), f.classValue(i)
		} else {
			kind, value = rfcLine(f.line(i))
		}
		switch kind {
		case rfcUserAgent:
			if len(r.groups) == 0 || inRules {
				r.groups = append(r.groups, rfcGroup{agents: pySpan{int32(len(r.agents)), int32(len(r.agents))}, rules: pySpan{int32(len(r.rules)), int32(len(r.rules))}})
				inRules = false
			}
			r.agents = append(r.agents, rfcAgent{value: value, global: value == "*"})
			r.groups[len(r.groups)-1].agents.end++
		case rfcAllow, rfcDisallow:
			if len(r.groups) == 0 {
				continue // 2.2.2: rules before the first user-agent line are in no group
			}
			inRules = true
			if value == "" || value[0] != '/' && value[0] != '*' {
				continue // an empty pattern, or no path-pattern: no rule
			}
			r.rules = append(r.rules, newRFCRule(i+1, kind == rfcAllow, rfcNormalise(&patterns, value, false)))
			r.groups[len(r.groups)-1].rules.end++
		}
	}
}

// rfcLine classifies one line by RFC 9309's grammar (section 2.2): a
// comment from '#' on, white space (SP and HTAB only) around the key, the
// colon and the value, and the keys "user-agent", "allow" and "disallow"
// in any case, with their colon. value is the trimmed value.
func rfcLine(text string) (rfcKind, string) {
	if i := strings.IndexByte(text, '#'); i >= 0 {
		text = text[:i]
	}
	key, value, ok := strings.Cut(text, ":")
	if !ok {
		return rfcOther, ""
	}
	key = trimWS(key)
	var kind rfcKind
	switch {
	case equalFoldASCII(key, "user-agent"):
		kind = rfcUserAgent
	case equalFoldASCII(key, "allow"):
		kind = rfcAllow
	case equalFoldASCII(key, "disallow"):
		kind = rfcDisallow
	default:
		return rfcOther, ""
	}
	return kind, trimWS(value)
}

// rfcKindOfClass is the record of a line of class c (not lineSlow).
func rfcKindOfClass(c lineClass) rfcKind {
	switch c.kind() {
	case lineUserAgent:
		return rfcUserAgent
	case lineAllow:
		return rfcAllow
	case lineDisallow:
		return rfcDisallow
	}
	return rfcOther
}

// trimWS cuts RFC 9309's white space, SP and HTAB, from both ends of s.
func trimWS(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

// newRFCRule compiles a normalised pattern.
func newRFCRule(line int, allow bool, pattern string) rfcRule {
	r := rfcRule{line: int32(line), allow: allow, length: int32(len(pattern))}
	if strings.HasSuffix(pattern, "$") {
		pattern, r.anchored = pattern[:len(pattern)-1], true
	}
	r.pattern, r.star = pattern, int32(strings.IndexByte(pattern, '*'))
	return r
}

// rfcUnreserved reports RFC 3986's unreserved characters: ALPHA, DIGIT,
// '-', '.', '_' and '~'.
func rfcUnreserved(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// rfcNormalise writes s as RFC 9309 compares it (section 2.2.2) to b and
// returns it, or returns s itself when it needs no change: a
// percent-escape of an unreserved character decoded, the hex digits of
// other escapes upper-cased, bytes outside ASCII percent-encoded. In a URI
// (uri true), '*' and '$' are written "%2A" and "%24", so that they match
// only patterns that escape them (section 2.2.3).
func rfcNormalise(b *strings.Builder, s string, uri bool) string {
	return escapeNormalise(b, s, &rfcEncoded, uri, false)
}

// rfcEncoded are the bytes RFC 9309 percent-encodes: those outside ASCII.
var rfcEncoded = func() (t [256]bool) {
	for c := 0x80; c < 256; c++ {
		t[c] = true
	}
	return t
}()

// escapeNormalise writes s to b as rfcNormalise and ccNormalise compare it
// and returns it, or returns s itself when it needs no change: an escape
// of an unreserved character decoded, the hex digits of other escapes
// upper-cased, the bytes of enc percent-encoded, and, in a URI (uri true),
// '*' and '$' written "%2A" and "%24"; with bare, a '%' that starts no
// escape is written "%25".
func escapeNormalise(b *strings.Builder, s string, enc *[256]bool, uri, bare bool) string {
	if !escapeNeedsChange(s, enc, uri) {
		return s
	}
	const hex = "0123456789ABCDEF"
	start := b.Len()
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			if d := unhex(s[i+1])<<4 | unhex(s[i+2]); rfcUnreserved(d) {
				b.WriteByte(d)
			} else {
				b.Write([]byte{'%', upper(s[i+1]), upper(s[i+2])})
			}
			i += 2
		case c == '%' && bare:
			b.WriteString("%25")
		case enc[c] || uri && (c == '*' || c == '$'):
			b.Write([]byte{'%', hex[c>>4], hex[c&0xf]})
		default:
			b.WriteByte(c)
		}
	}
	return b.String()[start:]
}

// escapeNeedsChange reports whether escapeNormalise changes s.
func escapeNeedsChange(s string, enc *[256]bool, uri bool) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '%' || enc[c] || uri && (c == '*' || c == '$') {
			return true
		}
	}
	return false
}

// match is the verdict of RFC 9309 for url and a crawler that answers to
// any of agents (product tokens).
func (r *rfcReading) match(f *File, url string, agents []string) Verdict {
	if f.Response.bodyIgnored() {
		return rfcStatusVerdict(f)
	}
	var b strings.Builder
	path, v, decided := rfcPath(&b, url)
	if decided {
		return v
	}
	var sel [32]int32
	return rfcMatchGroups(r.rules, r.groups, r.selectGroups(agents, sel[:0]), path)
}

// rfcPath returns the path RFC 9309 compares with the rules of url,
// normalised (rfcNormalise, written to b where it changes); decided is
// true, with the verdict, for /robots.txt, which is always allowed.
func rfcPath(b *strings.Builder, url string) (path string, v Verdict, decided bool) {
	path = PathOf(url)
	if p, _, _ := strings.Cut(path, "?"); p == "/robots.txt" {
		return "", Verdict{Allowed: true}, true // 2.2.2: implicitly allowed
	}
	return rfcNormalise(b, path, true), Verdict{}, false
}

// selectGroups appends to sel the groups RFC 9309 obeys for a crawler that
// answers to any of agents, in file order: those naming one of agents,
// else the '*' groups.
func (r *rfcReading) selectGroups(agents []string, sel []int32) []int32 {
	n := len(sel)
	for gi, g := range r.groups {
		if r.names(g, agents) {
			sel = append(sel, int32(gi))
		}
	}
	if len(sel) > n {
		return sel
	}
	for gi, g := range r.groups {
		if r.global(g) {
			sel = append(sel, int32(gi))
		}
	}
	return sel
}

// rfcMatchGroups is the verdict of the rules of groups sel for path: the
// longest match, Allow on ties, as the rfc9309 and python readings choose.
func rfcMatchGroups(rules []rfcRule, groups []rfcGroup, sel []int32, path string) Verdict {
	var c ruleChoice
	for _, gi := range sel {
		g := groups[gi]
		c.consider(rules[g.rules.start:g.rules.end], path)
	}
	return c.verdict()
}

// ruleChoice is the most specific rule matching a path among those
// considered so far: the longest pattern, an allow on ties (RFC 9309,
// 2.2.2), as the rfc9309 and python readings choose.
type ruleChoice struct {
	best  rfcRule
	found bool
}

// consider takes the rules of rules that match path into the choice.
func (c *ruleChoice) consider(rules []rfcRule, path string) {
	for _, rule := range rules {
		if !matchPattern(rule.pattern, int(rule.star), rule.anchored, path) {
			continue
		}
		if !c.found || rule.length > c.best.length || rule.length == c.best.length && rule.allow && !c.best.allow {
			c.best, c.found = rule, true
		}
	}
}

// verdict is the chosen rule's verdict; allowed when no rule matched.
func (c *ruleChoice) verdict() Verdict {
	if !c.found {
		return Verdict{Allowed: true}
	}
	return Verdict{Allowed: c.best.allow, Line: int(c.best.line)}
}

// names reports whether one of the group's user-agent values is one of
// agents, ignoring case (2.2.1).
func (r *rfcReading) names(g rfcGroup, agents []string) bool {
	for _, a := range r.agents[g.agents.start:g.agents.end] {
		if a.global {
			continue
		}
		for _, ua := range agents {
			if equalFoldASCII(a.value, ua) {
				return true
			}
		}
	}
	return false
}

// global reports whether one of the group's user-agent values is '*'.
func (r *rfcReading) global(g rfcGroup) bool {
	for _, a := range r.agents[g.agents.start:g.agents.end] {
		if a.global {
			return true
		}
	}
	return false
}

// rfcStatusVerdict is the verdict for a capture whose status makes
// crawlers ignore the body: 4xx, 429 included, is "unavailable" and allows
// everything (2.3.1.3), 5xx is "unreachable" and disallows everything
// (2.3.1.4); a redirect and any other status read as Google reads them.
func rfcStatusVerdict(f *File) Verdict {
	switch s := f.Response.Status; {
	case s >= 400 && s < 500:
		return Verdict{Allowed: true}
	case s >= 500 && s < 600:
		return Verdict{}
	}
	return Verdict{Allowed: f.Outcome() != OutcomeDisallowAll}
}
