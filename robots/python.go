package robots

import "strings"

// pyRFCReading is a file read as urllib.robotparser reads it after
// gh-138907 ([SemanticsPython]): its groups, as spans of one agent slice
// and one rule slice, and the rules' patterns, normalised as the
// python-legacy reading normalises paths, piece by piece between the
// special characters '*' and '$'.
type pyRFCReading struct {
	agents []pyAgent
	rules  []rfcRule
	groups []rfcGroup
	// unread: read() raised before parsing (the body is not UTF-8), so
	// can_fetch answers false to everything.
	unread bool
}

// pyRFCBuilder forms the groups of a pyRFCReading from lines.
type pyRFCBuilder struct {
	r        *pyRFCReading
	inRules  bool            // the current group has a rule: a user-agent line starts another
	paths    strings.Builder // normalised patterns that are not their value
	pyBreaks bool            // the text has a line break only Python knows
}

// readPython derives the python reading from the file's line list, cut at
// Python's own line breaks, as readPythonLegacy does.
func readPython(f *File, r *pyRFCReading) {
	if f.Response.bodyIgnored() {
		return
	}
	if f.badUTF8 {
		r.unread = true
		return
	}
	r.agents = make([]pyAgent, 0, len(f.agents))
	r.rules = make([]rfcRule, 0, len(f.Rules))
	r.groups = make([]rfcGroup, 0, len(f.Groups))
	b := pyRFCBuilder{r: r, pyBreaks: hasPyBreak(f.text)}
	for i, text := range f.lines {
		if i == 0 && f.bom == len(utf8BOM) {
			text = utf8BOM + text
		}
		if !b.lines(i+1, text) {
			return
		}
	}
}

// lines reads one line of the line list, or the lines Python cuts it into;
// false when robotparser raised ValueError, which ends its parse.
func (b *pyRFCBuilder) lines(num int, text string) bool {
	if b.pyBreaks {
		if parts := pySplitLines(text); parts != nil {
			for _, p := range parts {
				if !b.line(num, p) {
					return false
				}
			}
			return true
		}
	}
	return b.line(num, text)
}

// line reads one line; false when robotparser raised.
func (b *pyRFCBuilder) line(num int, s string) bool {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	key, value, ok := strings.Cut(s, ":")
	if !ok {
		return true // an empty line, or no key: ignored, the group goes on
	}
	kind := pyKeyOf(key)
	if kind == pyKeyOther {
		return true
	}
	value = pyUnquote(pyStrip(value))
	r := b.r
	switch kind {
	case pyKeyUserAgent:
		if len(r.groups) == 0 || b.inRules {
			n := int32(len(r.agents))
			m := int32(len(r.rules))
			r.groups = append(r.groups, rfcGroup{agents: pySpan{n, n}, rules: pySpan{m, m}})
			b.inRules = false
		}
		r.agents = append(r.agents, pyAgent{value: value, ascii: asciiOnly(value)})
		r.groups[len(r.groups)-1].agents.end++
	case pyKeyAllow, pyKeyDisallow:
		if len(r.groups) == 0 {
			return true
		}
		b.inRules = true
		if value == "" {
			return true // "Disallow:" has no effect on a longest match
		}
		pattern, ok := pyPattern(&b.paths, value)
		if !ok {
			return false
		}
		r.rules = append(r.rules, newRFCRule(num, kind == pyKeyAllow, pattern))
		r.groups[len(r.groups)-1].rules.end++
	case pyKeyCrawlDelay:
		if len(r.groups) == 0 {
			return true
		}
		if digits, decimal := pyIsDigits(value); digits && !decimal {
			return false // int() raises
		}
		b.inRules = true
	case pyKeyRequestRate:
		if len(r.groups) == 0 {
			return true
		}
		if n0, n1, ok := strings.Cut(value, "/"); ok && strings.IndexByte(n1, '/') < 0 {
			d0, dec0 := pyIsDigits(pyStrip(n0))
			d1, dec1 := pyIsDigits(pyStrip(n1))
			if d0 && d1 && !(dec0 && dec1) {
				return false
			}
		}
		b.inRules = true
	}
	return true
}

// pyPattern is a rule's value as the python reading compares it: the runs
// between '*' characters normalised as robotparser normalises a path
// ([pyRulePath]), a final '$' kept as the anchor. ok is false when urlparse
// raises on a run.
func pyPattern(paths *strings.Builder, value string) (string, bool) {
	anchored := strings.HasSuffix(value, "$")
	if anchored {
		value = value[:len(value)-1]
	}
	if strings.IndexByte(value, '*') < 0 && strings.IndexByte(value, '$') < 0 {
		p, ok := pyRulePath(paths, value)
		if anchored {
			p += "$"
		}
		return p, ok
	}
	var out strings.Builder
	out.Grow(len(value) + 8)
	for i, run := range strings.Split(value, "*") {
		if i > 0 {
			out.WriteByte('*')
		}
		p, ok := pyRulePath(paths, run)
		if !ok {
			return "", false
		}
		out.WriteString(p)
	}
	if anchored {
		out.WriteByte('$')
	}
	return out.String(), true
}

// match is can_fetch for url and a crawler that answers to any of agents.
func (r *pyRFCReading) match(f *File, url string, agents []string) Verdict {
	if f.Response.bodyIgnored() {
		return pyStatusVerdict(f)
	}
	if r.unread {
		return Verdict{}
	}
	path, ok := pyRequestPath(url)
	if !ok {
		return Verdict{}
	}
	var buf [4]pyName
	names := buf[:0]
	for _, ua := range agents {
		name, _, _ := strings.Cut(ua, "/")
		names = append(names, pyName{name, asciiOnly(name)})
	}
	tier := r.tier(names)
	var best rfcRule
	found := false
	for _, g := range r.groups {
		if r.groupTier(g, names) != tier || tier == pyTierNone {
			continue
		}
		for _, rule := range r.rules[g.rules.start:g.rules.end] {
			if !matchPattern(rule.pattern, int(rule.star), rule.anchored, path) {
				continue
			}
			if !found || rule.length > best.length || rule.length == best.length && rule.allow && !best.allow {
				best, found = rule, true
			}
		}
	}
	if !found {
		return Verdict{Allowed: true}
	}
	return Verdict{Allowed: best.allow, Line: int(best.line)}
}

// pyTier is how well a group names a crawler: by its whole name, by a
// part of it, by '*', or not at all. The groups of the best tier that any
// group reaches are obeyed, merged.
type pyTier uint8

const (
	pyTierNone pyTier = iota
	pyTierStar
	pyTierPart
	pyTierFull
)

// tier is the best tier any group reaches for names.
func (r *pyRFCReading) tier(names []pyName) pyTier {
	best := pyTierNone
	for _, g := range r.groups {
		best = max(best, r.groupTier(g, names))
	}
	return best
}

// groupTier is the best tier of the group's user-agent values for names:
// a value equal to a name ignoring case, a value that is, lower-cased, a
// substring of a name lower-cased (robotparser's old applies_to), or '*'.
func (r *pyRFCReading) groupTier(g rfcGroup, names []pyName) pyTier {
	best := pyTierNone
	for _, a := range r.agents[g.agents.start:g.agents.end] {
		if a.value == "*" {
			best = max(best, pyTierStar)
			continue
		}
		for _, name := range names {
			switch {
			case a.ascii && name.ascii && equalFoldASCII(a.value, name.s),
				!(a.ascii && name.ascii) && pyLower(a.value) == pyLower(name.s):
				return pyTierFull
			case pyAgentNames(a, name):
				best = max(best, pyTierPart)
			}
		}
	}
	return best
}
