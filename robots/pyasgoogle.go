package robots

import "strings"

// PythonReadsAsGoogle reports whether reading s of f, a python reading
// (python-legacy or python), gives every crawler for whose name
// PythonTokenAsGoogle finds a token Google's verdict for that token on
// every path of the bytes Python's quote keeps (the root among them), so
// that a census may ask Google's reading instead of building and asking
// that reading. It holds only for files
// without a line on which the readings' doc comments name a difference
// from Google:
//
//   - the status is 2xx (or none), the body is UTF-8 and plain text
//     (printable ASCII, tabs, CR and LF) without a byte order mark, and
//     every line is empty, a comment, a sitemap line or a user-agent,
//     allow or disallow line spelt in full with its colon (lineClass: no
//     misspelt key, no crawl-delay);
//   - no user-agent value is empty (it names every crawler for Python),
//     holds '%' (unquoted by Python) or is Google's '*' without being '*'
//     alone ("* x"); which crawlers the others name is PythonTokenAsGoogle's
//     question;
//   - every rule value is empty or starts with '/' but not "//", holds only
//     bytes quote keeps (no '%', '?' or ';': nothing urlparse, quote or
//     unquote changes) and not "index.htm" (Google's leniency); for python
//     it may also hold the wildcard '*' (no run after one starting "//")
//     and end with the anchor '$', which it reads as Google does (its
//     patterns are then their values, matched as RFC 9309's), and for
//     python-legacy, which takes both as literal characters, neither;
//   - no rule comes before the first user-agent line, and the last group
//     has a rule.
//
// For python-legacy (first match, groups ended by an empty line, the first
// '*' group alone), besides: no allow line after a disallow line of the
// same group that is a prefix of it, nor a disallow line after such an
// allow line unless equal to it (firstMatchAlike), no empty line after
// user-agent lines or before a rule of the same group, no group with an
// empty and another rule, and at most one group naming '*'.
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
	if !f.asciiClassified() {
		return false
	}
	var g pyAlikeGroup
	stars, work := 0, 0
	for i, l := range f.lines {
		switch l.class.kind() {
		case lineNone:
			if legacy && f.line(i) == "" && !g.blank() {
				return false
			}
		case lineOther:
		case lineUserAgent:
			v := f.classValue(i)
			if v == "" || v != "*" && (isGlobalAgent(v) || strings.IndexByte(v, '%') >= 0) {
				return false
			}
			if g.state == pyRules {
				g = pyAlikeGroup{}
			}
			if g.state == pyStart {
				g.first = i
			}
			if v == "*" && !g.star {
				g.star = true
				stars++
			}
			g.state = pyAgents
		case lineAllow, lineDisallow:
			v := f.classValue(i)
			if !g.rule(v, legacy) || legacy && !f.firstMatchAlike(&g, i, &work) {
				return false
			}
		default:
			return false
		}
	}
	return g.state == pyRules && (!legacy || stars <= 1)
}

// maxFirstMatchWork bounds the pairs of rules firstMatchAlike compares in
// a file; past it the file is refused.
const maxFirstMatchWork = 1 << 14

// firstMatchAlike reports whether rule line i of g, read first match
// (python-legacy), leaves every path the verdict of the longest match
// (Google): no earlier rule of the group of the other directive is a
// prefix of it, unless an allow equal to a later disallow, which wins for
// both. Where first and longest match differ on a path, both rules match
// it, so the shorter is a prefix of the longer and comes first (else it
// would not be the first match), with the other directive, or they are
// equal and the disallow comes first (Google lets the allow win the tie).
// With plain paths (no wildcard, no index.htm) matching is by prefix for
// both. work counts the pairs compared in the file.
func (f *File) firstMatchAlike(g *pyAlikeGroup, i int, work *int) bool {
	allow := f.lines[i].class.kind() == lineAllow
	if allow {
		g.allows = true
	} else if !g.allows {
		return true // no earlier allow to compare with
	}
	v := f.classValue(i)
	for j := g.first; j < i; j++ {
		k := f.lines[j].class.kind()
		if k != lineAllow && k != lineDisallow || (k == lineAllow) == allow {
			continue
		}
		if *work++; *work > maxFirstMatchWork {
			return false
		}
		if earlier := f.classValue(j); strings.HasPrefix(v, earlier) && (allow || v != earlier) {
			return false
		}
	}
	return true
}

// pyAlikeGroup is where PythonReadsAsGoogle stands in the current group.
type pyAlikeGroup struct {
	first       int     // the line of its first user-agent line
	allows      bool    // the group has an allow rule
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
	if g.state == pyStart || g.ended || !pythonAlikeRule(v, legacy) {
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
// python-legacy (legacy) or python (see PythonReadsAsGoogle).
func pythonAlikeRule(v string, legacy bool) bool {
	if v == "" {
		return true
	}
	if v[0] != '/' || strings.HasPrefix(v, "//") || strings.Contains(v, "index.htm") {
		return false
	}
	if legacy {
		return pyQuoted(v)
	}
	return pyPatternKept(strings.TrimSuffix(v, "$"))
}

// pyPatternKept reports whether every run of body between '*' characters
// is its own normalised path: bytes quote keeps, and no run starts "//".
func pyPatternKept(body string) bool {
	for i := 0; i < len(body); i++ {
		if c := body[i]; c != '*' && !pyUnreservedBytes[c] || c == '/' && i+1 < len(body) && body[i+1] == '/' && (i == 0 || body[i-1] == '*') {
			return false
		}
	}
	return true
}

// PythonTokenAsGoogle returns the product token for which Google's
// reading of f gives the crawler named name python reading s's verdicts,
// where f is a file PythonReadsAsGoogle accepts for s: token is empty when
// Python obeys the '*' groups (Google is then given no agent); ok is false
// when Google obeys no such groups. It is ok when the user-agent values
// other than '*' that Python's applies_to takes to name the crawler (a
// substring of its name cut at '/', ignoring case) all have one token
// (Google's cut, Agent.Token) and every value of that token names it for
// Python: the groups Python obeys are then the groups Google obeys for the
// token. For python, which obeys only the values equal to the name where
// one is ("Linguee Bot" before "Linguee"), they are all equal to it or
// none is, and its deciding rule is Google's (the same patterns, longest
// first, allow on ties, the first of equal rules); for python-legacy,
// which obeys the first group that names the crawler where Google merges
// them, they lie in one group, and only the verdict is Google's (its first
// match may be another rule).
func (f *File) PythonTokenAsGoogle(s Semantics, name string) (token string, ok bool) {
	if s != SemanticsPythonLegacy && s != SemanticsPython || !asciiOnly(name) {
		return "", false
	}
	name, _, _ = strings.Cut(name, "/")
	named := -1
	var whole, part bool // a value naming the crawler is its whole name, a part of it
	for gi := range f.Groups {
		for _, a := range f.Groups[gi].Agents(f) {
			v := strings.TrimSpace(a.Value(f))
			if v == "*" || !containsFoldASCII(name, v) {
				continue
			}
			if a.Token(f) == "" || token != "" && !equalFoldASCII(a.Token(f), token) || named >= 0 && named != gi && s == SemanticsPythonLegacy {
				return "", false
			}
			token, named = a.Token(f), gi
			if len(v) == len(name) {
				whole = true
			} else {
				part = true
			}
		}
	}
	if whole && part && s == SemanticsPython || token != "" && !f.tokenNamesOnly(token, name) {
		return "", false
	}
	return token, true
}

// tokenNamesOnly reports whether every user-agent value of f whose token
// is token names the crawler name (cut at '/') for Python.
func (f *File) tokenNamesOnly(token, name string) bool {
	for gi := range f.Groups {
		for _, a := range f.Groups[gi].Agents(f) {
			if !a.Global && equalFoldASCII(a.Token(f), token) && !containsFoldASCII(name, strings.TrimSpace(a.Value(f))) {
				return false
			}
		}
	}
	return true
}
