package robots

import "strings"

// PythonReadsAsGoogle reports whether reading s of f, a python reading
// (python-legacy or python), gives every crawler whose name
// PythonNamesAsGoogle accepts Google's verdict on every path of the bytes
// Python's quote keeps (the root among them), so that a census may skip
// building and asking that reading for it. It holds only for files
// without a line on which the readings' doc comments name a difference
// from Google:
//
//   - the status is 2xx (or none), the body is UTF-8 and plain text
//     (printable ASCII, tabs, CR and LF) without a byte order mark, and
//     every line is empty, a comment, a sitemap line or a user-agent,
//     allow or disallow line spelt in full with its colon (lineClass: no
//     misspelt key, no crawl-delay);
//   - every user-agent value is '*' or a product token as a whole
//     ([A-Za-z_-]+): no empty value, which names every crawler for Python;
//   - every rule value is empty or starts with '/' but not "//", holds only
//     bytes quote keeps (no '%', '?', ';', '*' or '$': nothing urlparse,
//     quote or unquote changes, no wildcard) and not "index.htm" (Google's
//     leniency);
//   - no rule comes before the first user-agent line, and the last group
//     has a rule.
//
// For python-legacy (first match, groups ended by an empty line, the first
// '*' group alone), besides: no allow line, no empty line after user-agent
// lines or before a rule of the same group, no group with an empty and
// another rule, and at most one group naming '*'.
//
// TestPythonReadsAsGoogleOnCorpus proves it on the shared corpus.
func (f *File) PythonReadsAsGoogle(s Semantics) bool {
	legacy := s == SemanticsPythonLegacy
	if !legacy && s != SemanticsPython {
		return false
	}
	if f.Response.bodyIgnored() || f.badUTF8 || f.bom != 0 {
		return false
	}
	classes := f.lineClasses()
	if classes == nil {
		return false
	}
	var g pyAlikeGroup
	stars := 0
	for i, c := range classes {
		switch c.kind() {
		case lineNone:
			if f.lines[i] == "" && legacy && !g.blank() {
				return false
			}
		case lineOther:
		case lineUserAgent:
			v := c.value(f.lines[i])
			if v != "*" && !isToken(v) {
				return false
			}
			if g.state == pyRules {
				g = pyAlikeGroup{}
			}
			if v == "*" && !g.star {
				g.star = true
				stars++
			}
			g.state = pyAgents
		case lineAllow, lineDisallow:
			v := c.value(f.lines[i])
			if legacy && c.kind() == lineAllow || !g.rule(v, legacy) {
				return false
			}
		default:
			return false
		}
	}
	return g.state == pyRules && (!legacy || stars <= 1)
}

// pyAlikeGroup is where PythonReadsAsGoogle stands in the current group.
type pyAlikeGroup struct {
	state       pyState // pyStart before any user-agent line
	ended       bool    // an empty line followed the group's rules
	empty, full bool    // the group has an empty rule, a rule with a path
	star        bool    // the group names '*'
}

// blank reads an empty line of python-legacy: false where it would end the
// group differently from Google (after user-agent lines).
func (g *pyAlikeGroup) blank() bool {
	if g.state == pyAgents {
		return false
	}
	g.ended = g.state == pyRules
	return true
}

// rule reads a rule of value v: false where a python reading may read it
// otherwise than Google.
func (g *pyAlikeGroup) rule(v string, legacy bool) bool {
	if g.state == pyStart || g.ended || !pythonAlikeRule(v) {
		return false
	}
	g.state = pyRules
	if v == "" {
		g.empty = true
	} else {
		g.full = true
	}
	return !legacy || !(g.empty && g.full)
}

// pythonAlikeRule reports whether rule value v reads alike for Google and
// both python readings (see PythonReadsAsGoogle).
func pythonAlikeRule(v string) bool {
	if v == "" {
		return true
	}
	return v[0] == '/' && !strings.HasPrefix(v, "//") && pyQuoted(v) && !strings.Contains(v, "index.htm")
}

// PythonNamesAsGoogle reports whether python reading s of f, given the
// crawler's name, obeys the groups Google's reading obeys given google
// (one product token, or none for the '*' groups): every user-agent value
// but '*' that Python's applies_to takes to name the crawler (a substring
// of its name, ignoring case) is the token Google is given, and the
// reverse; for python-legacy, which obeys the first group that names the
// crawler where Google merges them, they lie in one group. Together with
// PythonReadsAsGoogle it means that s gives the crawler Google's verdicts.
func (f *File) PythonNamesAsGoogle(s Semantics, name string, google []string) bool {
	if s != SemanticsPythonLegacy && s != SemanticsPython || len(google) > 1 || !asciiOnly(name) {
		return false
	}
	name, _, _ = strings.Cut(name, "/")
	named := -1
	for gi := range f.Groups {
		for _, a := range f.Groups[gi].Agents {
			v := strings.TrimSpace(a.Value)
			if v == "*" {
				continue
			}
			byPython := containsFoldASCII(name, v)
			if byPython != (len(google) == 1 && strings.EqualFold(v, google[0])) {
				return false
			}
			if byPython && named >= 0 && named != gi && s == SemanticsPythonLegacy {
				return false
			}
			if byPython {
				named = gi
			}
		}
	}
	return true
}
