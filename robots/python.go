package robots

import "strings"

// pyRFCReading is a file read as urllib.robotparser reads it after
// gh-138907 ([SemanticsPython]): its groups, as spans of one agent slice
// and one rule slice, and the rules' patterns, normalised as
// python/cpython#138502 normalises them ([pyNormalise]) around the special
// characters '*' and a final '$'.
type pyRFCReading struct {
	agents []pyAgent
	rules  []rfcRule
	groups []rfcGroup
}

// pyRFCBuilder forms the groups of a pyRFCReading from lines.
type pyRFCBuilder struct {
	r        *pyRFCReading
	inRules  bool            // the current group has a rule: a user-agent line starts another
	paths    strings.Builder // normalised patterns that are not their value
	pyBreaks bool            // the text has a line break only Python knows
}

// readPython derives the python reading from the file's line list, cut at
// Python's own line breaks, as readPythonLegacy does. A body that is not
// UTF-8 is read too (python/cpython#138502: "Don't fail trying to decode
// non-UTF-8 robots.txt files"), its bytes as they are: an invalid octet
// is no white space or line break, and a rule compares it as its escape
// ([pyNormalise]).
func readPython(f *File, r *pyRFCReading) {
	if f.Response.bodyIgnored() {
		return
	}
	r.agents = make([]pyAgent, 0, len(f.agents))
	r.rules = make([]rfcRule, 0, len(f.Rules))
	r.groups = make([]rfcGroup, 0, len(f.Groups))
	b := pyRFCBuilder{r: r, pyBreaks: mayHavePyBreak(f)}
	pyReadLines(f, &b)
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
	return b.record(num, kind, pyStrip(value))
}

// classified reads a line of a plain text from its class; false when
// robotparser raised.
func (b *pyRFCBuilder) classified(num int, c lineClass, text string) bool {
	switch c.kind() {
	case lineSlow:
		return b.line(num, text)
	case lineNone, lineOther:
		return true
	}
	return b.record(num, pyKeyOfClass(c), c.value(text))
}

// record acts on a line of a key robotparser knows, its value stripped;
// false when robotparser raised.
func (b *pyRFCBuilder) record(num int, kind pyKeyKind, value string) bool {
	if kind != pyKeyAllow && kind != pyKeyDisallow {
		value = pyUnquote(value) // a rule's escapes are pyNormalise's
	}
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
		r.rules = append(r.rules, newRFCRule(num, kind == pyKeyAllow, pyPattern(&b.paths, value)))
		r.groups[len(r.groups)-1].rules.end++
	case pyKeyCrawlDelay, pyKeyRequestRate:
		if len(r.groups) == 0 {
			return true
		}
		if pyIntRaises(kind, value) {
			return false
		}
		b.inRules = true
	}
	return true
}

// pyPattern is a rule's value as the python reading compares it: a final
// '$' kept as the anchor, the rest normalised ([pyNormalise]) with its
// raw '*' characters kept as wildcards. A value that needs no change is
// its own pattern; another is written to paths.
func pyPattern(paths *strings.Builder, value string) string {
	body, anchored := strings.CutSuffix(value, "$")
	p := pyNormalise(paths, body, true)
	switch {
	case p == body:
		return value
	case !anchored:
		return p
	}
	start := paths.Len() - len(p) // p is the end of paths
	paths.WriteByte('$')
	return paths.String()[start:]
}

// match is can_fetch for url and a crawler that answers to any of agents.
func (r *pyRFCReading) match(f *File, url string, agents []string) Verdict {
	var buf [4]pyName
	path, names, v, ok := pyMatchInput(f, false, url, agents, buf[:0], pyRFCRequestPath)
	if !ok {
		return v
	}
	var sel [32]int32
	return rfcMatchGroups(r.rules, r.groups, r.selectGroups(names, sel[:0]), path)
}

// selectGroups appends to sel the groups can_fetch obeys for a crawler of
// names, in file order: those of the best tier that any group reaches,
// none when no group names it, not even by '*'.
func (r *pyRFCReading) selectGroups(names []pyName, sel []int32) []int32 {
	n := len(sel)
	tier := pyTierNone
	for gi, g := range r.groups {
		t := r.groupTier(g, names)
		if t == pyTierNone || t < tier {
			continue
		}
		if t > tier {
			sel, tier = sel[:n], t
		}
		sel = append(sel, int32(gi))
	}
	return sel
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

// pyRFCRequestPath is the path the python reading compares with the
// rules: the URL's scheme and network location cut off, the rest
// normalised as python/cpython#138502 normalises it ([pyNormalise]); "/"
// when that leaves nothing. ok is false when urlparse raises.
func pyRFCRequestPath(url string) (string, bool) {
	if url == "/" {
		return url, true // the root, as a census asks: nothing to parse or quote
	}
	_, _, rest, err := pyURLCut(url)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	if p := pyNormalise(&b, rest, false); p != "" {
		return p, true
	}
	return "/", true
}
