package robots

import (
	"slices"
	"strings"
)

// pyReading is a file read as urllib.robotparser of Python 3.12 and
// earlier reads it ([SemanticsPythonLegacy]): its entries, in file order,
// and the default entry, the first whose user-agents include '*'.
type pyReading struct {
	entries []pyEntry
	def     *pyEntry
	// unread: read() raised before parsing (the body is not UTF-8), so
	// can_fetch answers false to everything.
	unread bool
}

// pyEntry is one group as robotparser forms it.
type pyEntry struct {
	agents []string // the user-agent values, unquoted and lower-cased
	rules  []pyRule // in file order: the first that matches decides
}

// pyRule is one allow or disallow line, its path normalised as robotparser
// normalises it.
type pyRule struct {
	line  int
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

// pyBuilder forms the entries of a pyReading from lines.
type pyBuilder struct {
	r     *pyReading
	cur   pyEntry
	state pyState
}

// readPythonLegacy derives the python-legacy reading from the file's line
// list: each line as Google split it, cut again at the line boundaries only
// Python's splitlines knows, with the byte order mark put back (Python's
// UTF-8 decoding keeps it as U+FEFF on the first line).
func readPythonLegacy(f *File) *pyReading {
	r := &pyReading{}
	if f.Response.bodyIgnored() {
		return r
	}
	if f.badUTF8 {
		r.unread = true
		return r
	}
	b := pyBuilder{r: r}
	for i, text := range f.lines {
		if i == 0 && f.bom == len(utf8BOM) {
			text = utf8BOM + text
		}
		if !b.lines(i+1, text) {
			return r
		}
	}
	if b.state == pyRules {
		b.endGroup() // user-agent lines without a rule at the end are dropped
	}
	return r
}

const utf8BOM = "\xEF\xBB\xBF"

// lines reads one line of the line list, or the lines Python cuts it into;
// false when robotparser raised ValueError, which ends its parse.
func (b *pyBuilder) lines(num int, text string) bool {
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

// line reads one line as robotparser does; false when it raised.
func (b *pyBuilder) line(num int, s string) bool {
	if s == "" {
		if b.state == pyAgents {
			b.cur = pyEntry{}
			b.state = pyStart
		} else if b.state == pyRules {
			b.endGroup()
		}
		return true
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	key, value, ok := strings.Cut(pyStrip(s), ":")
	if !ok {
		return true
	}
	value = pyUnquote(pyStrip(value))
	switch pyKey(key) {
	case "user-agent":
		if b.state == pyRules {
			b.endGroup()
		}
		b.cur.agents = append(b.cur.agents, pyLower(value))
		b.state = pyAgents
	case "allow", "disallow":
		if b.state == pyStart {
			return true
		}
		allow := pyKey(key) == "allow" || value == ""
		u, err := pyURLParse(value)
		if err != nil {
			return false
		}
		b.cur.rules = append(b.cur.rules, pyRule{line: num, allow: allow, path: pyQuote(pyURLUnparse(u))})
		b.state = pyRules
	case "crawl-delay":
		if b.state == pyStart {
			return true
		}
		if digits, decimal := pyIsDigits(value); digits && !decimal {
			return false // int() raises
		}
		b.state = pyRules
	case "request-rate":
		if b.state == pyStart {
			return true
		}
		if n := strings.Split(value, "/"); len(n) == 2 {
			d0, dec0 := pyIsDigits(pyStrip(n[0]))
			d1, dec1 := pyIsDigits(pyStrip(n[1]))
			if d0 && d1 && !(dec0 && dec1) {
				return false
			}
		}
		b.state = pyRules
	}
	return true
}

// pyKey is a key as robotparser compares it, stripped and lower-cased; a
// key with a byte outside ASCII equals none of the keys it knows.
func pyKey(k string) string {
	k = pyStrip(k)
	if !allBytes(k, func(c byte) bool { return c < 0x80 }) {
		return ""
	}
	return strings.ToLower(k)
}

// endGroup ends the current entry, which has a rule or an extension line
// (crawl-delay, request-rate): the first entry
// naming '*' becomes the default entry, any later one is dropped, the
// others are kept in order.
func (b *pyBuilder) endGroup() {
	e := b.cur
	b.cur, b.state = pyEntry{}, pyStart
	if slices.Contains(e.agents, "*") {
		if b.r.def == nil {
			b.r.def = &e
		}
		return
	}
	b.r.entries = append(b.r.entries, e)
}

// match is can_fetch for url and a crawler that answers to any of agents.
func (r *pyReading) match(f *File, url string, agents []string) Verdict {
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
	names := make([]string, len(agents))
	for i, ua := range agents {
		name, _, _ := strings.Cut(ua, "/")
		names[i] = pyLower(name)
	}
	for i := range r.entries {
		if r.entries[i].appliesTo(names) {
			return r.entries[i].allowance(path)
		}
	}
	if r.def != nil {
		return r.def.allowance(path)
	}
	return Verdict{Allowed: true}
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

// appliesTo reports whether the entry names one of the crawlers of names,
// each a crawler's name cut at its first '/' and lower-cased: when one of
// its user-agent values is '*' or a substring of it.
func (e *pyEntry) appliesTo(names []string) bool {
	for _, name := range names {
		for _, a := range e.agents {
			if a == "*" || strings.Contains(name, a) {
				return true
			}
		}
	}
	return false
}

// allowance is the verdict of the entry's first rule whose path is a
// prefix of path (or is "*"); allowed when none is.
func (e *pyEntry) allowance(path string) Verdict {
	for _, r := range e.rules {
		if r.path == "*" || strings.HasPrefix(path, r.path) {
			return Verdict{Allowed: r.allow, Line: r.line}
		}
	}
	return Verdict{Allowed: true}
}
