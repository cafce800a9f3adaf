package robots

import "strings"

// Verdict is the answer for one URL.
type Verdict struct {
	Allowed bool
	// Line is the line of the rule that decided, 0 when no rule did (no
	// matching rule, or the HTTP status decided).
	Line int
}

// Allowed reports whether a crawler that answers to any of agents may fetch
// url, with the verdict of Google's robots.txt parser. See [File.Match].
func (f *File) Allowed(url string, agents ...string) bool {
	return f.Match(url, agents).Allowed
}

// Match returns Google's verdict for url and a crawler that answers to any of
// agents (product tokens such as "Googlebot"; compared case-insensitively
// with the user-agent names of the file cut at the first character outside
// [A-Za-z_-]).
//
// The URL is not normalised or percent-encoded: pass it encoded, as Google's
// parser expects. Only its path, parameters and query count.
//
// The rules are those of Google's matcher: the groups naming one of the
// agents are merged and used; only when none names one are the '*' groups
// used. Within them the longest matching pattern wins, an allow winning a
// tie. A capture whose status makes crawlers ignore the body decides by
// status: 5xx and 429 disallow everything, other statuses allow everything.
//
//mutate:catch ./robots
func (f *File) Match(url string, agents []string) Verdict {
	if f.Response.bodyIgnored() {
		return Verdict{Allowed: f.Outcome() != OutcomeDisallowAll}
	}
	var buf [32]int32
	return f.matchGroups(f.selectGroups(agents, buf[:0]), PathOf(url))
}

// selectGroups appends to sel the groups Google's matcher obeys for a
// crawler that answers to any of agents, in file order: those that name
// one of agents, else the '*' groups.
func (f *File) selectGroups(agents []string, sel []int32) []int32 {
	n := len(sel)
	for gi := range f.Groups {
		if f.Groups[gi].names(f, agents) {
			sel = append(sel, int32(gi))
		}
	}
	if len(sel) > n {
		return sel
	}
	for gi := range f.Groups {
		if f.Groups[gi].Global {
			sel = append(sel, int32(gi))
		}
	}
	return sel
}

// matchGroups is the verdict of the rules of groups sel for path.
func (f *File) matchGroups(sel []int32, path string) Verdict {
	var m groupsMatch
	for _, gi := range sel {
		m.consider(f, &f.Groups[gi], path)
	}
	return m.verdict()
}

// groupsMatch is where Google's matcher stands after the rules of the
// groups considered so far: the best allow and the best disallow.
type groupsMatch struct{ allow, disallow ruleMatch }

// consider takes the rules of group g of f that match path into m.
func (m *groupsMatch) consider(f *File, g *Group, path string) {
	text, escaped := f.text, f.escaped // Rule.Pattern's strings, read once: the calls below would make the loop reload them
	var second byte                    // what Rule.lead is compared with: path's byte after its '/', 0 when it has none
	if len(path) > 1 {
		second = path[1]
	}
	rules := g.Rules(f)
	for ri := range rules {
		r := &rules[ri]
		if r.lead != 0 && r.lead != second {
			continue // cannot match: its priority would be -1, which never counts
		}
		s := text
		if r.escaped {
			s = escaped
		}
		pattern := r.pattern.in(s)
		if r.Directive == Allow {
			m.allow.update(r.allowPriority(pattern, path), r.Line)
		} else {
			m.disallow.update(r.priority(pattern, path), r.Line)
		}
	}
}

// leadOf returns the byte that every path a pattern matches has after its
// leading '/' (Rule.lead), or 0 when there is none to tell: the pattern
// does not start with '/' and another byte, its second byte is a '*' or
// its final '$', or the index.htm leniency may match a shorter pattern.
// Most rules of a group have another lead than a given path: matching
// passes them over without reading their pattern.
func leadOf(pattern string, m patternInfo) byte {
	if len(pattern) < 2 || pattern[0] != '/' || m.index > 0 || pattern[1] == '*' || m.anchored && len(pattern) == 2 {
		return 0
	}
	return pattern[1]
}

// verdict is the verdict of the rules considered: the longer of the best
// allow and the best disallow, the allow on a tie; allowed when no rule
// with a pattern matched.
//
//mutate:catch ./robots
func (m *groupsMatch) verdict() Verdict {
	if m.disallow.priority > 0 || m.allow.priority > 0 {
		if m.disallow.priority > m.allow.priority {
			return Verdict{Allowed: false, Line: m.disallow.line}
		}
		return Verdict{Allowed: true, Line: m.allow.line}
	}
	return Verdict{Allowed: true}
}

// ruleMatch keeps the highest priority match and its line; the first of
// equal priorities stays.
type ruleMatch struct{ priority, line int }

//mutate:catch ./robots
func (m *ruleMatch) update(priority, line int) {
	if priority > m.priority {
		m.priority, m.line = priority, line
	}
}

// namesAny reports whether any group names one of agents.
func (f *File) namesAny(agents []string) bool {
	for gi := range f.Groups {
		if f.Groups[gi].names(f, agents) {
			return true
		}
	}
	return false
}

// names reports whether the group, one of f's, names one of agents.
//
//mutate:catch ./robots
func (g *Group) names(f *File, agents []string) bool {
	text, lines := f.text, g.Agents(f)
	for ai := range lines {
		a := &lines[ai]
		if a.Global {
			continue
		}
		for _, ua := range agents {
			// A token of another length is not ua: most are not read.
			if int(a.token) == len(ua) && equalFoldASCII(text[a.value.start:a.value.start+a.token], ua) {
				return true
			}
		}
	}
	return false
}

// allowPriority is the priority of an allow rule whose pattern is pattern
// for path, with Google's index.htm leniency: an allow of
// ".../index.htm*" that does not match also allows its directory itself,
// as the pattern ".../$".
//
//mutate:catch ./robots
func (r *Rule) allowPriority(pattern, path string) int {
	p := r.priority(pattern, path)
	if p < 0 && r.pat.index > 0 && matchPattern(pattern[:r.pat.index], firstStar(r.pat.indexStar, r.pat.star), true, path) {
		return int(r.pat.index) + 1
	}
	return p
}

// patternInfo is what compiling a pattern learns about it: 8 bytes.
type patternInfo struct {
	star int32 // index of the first '*' of the pattern, -1 when it has none
	// index is the length of the directory prefix (ending in '/') of a
	// pattern whose last segment starts with "index.htm"; 0 otherwise. A
	// pattern is at most maxPatternBytes long, so the length fits.
	index     uint16
	anchored  bool // the pattern ends in '$'
	indexStar bool // the index prefix contains '*'
}

// maxPatternBytes is the longest a rule's pattern can be: its value is cut
// with its line at MaxLineBytes, and escaping makes at most three bytes of
// one ("%E9"). The conversion fails to compile if it outgrows
// patternInfo.index.
const maxPatternBytes = uint16(3 * MaxLineBytes)

//mutate:catch ./robots
func compilePattern(p string) patternInfo {
	var m patternInfo
	text := p
	if strings.HasSuffix(p, "$") {
		text, m.anchored = p[:len(p)-1], true
	}
	m.star = int32(strings.IndexByte(text, '*'))
	if i := strings.LastIndexByte(p, '/'); i >= 0 && strings.HasPrefix(p[i:], "/index.htm") {
		m.index = uint16(i + 1)
		m.indexStar = m.star >= 0 && int(m.star) < i
	}
	return m
}

// text returns pattern, r's, without a final '$'.
func (r *Rule) text(pattern string) string {
	if r.pat.anchored {
		return pattern[:len(pattern)-1]
	}
	return pattern
}

// priority returns the length of pattern, r's, if it matches path, -1 if
// not. An empty pattern matches with priority 0, which never decides.
func (r *Rule) priority(pattern, path string) int {
	if matchPattern(r.text(pattern), int(r.pat.star), r.pat.anchored, path) {
		return len(pattern)
	}
	return -1
}

func firstStar(has bool, at int32) int {
	if has {
		return int(at)
	}
	return -1
}

// matchPattern reports whether pat matches path from its start: '*' stands for
// any run of bytes, everything else is literal; anchored requires the match
// to reach the end of path. star is the index of the first '*' in pat, -1
// if none. Middle segments are matched leftmost, which leaves the most room
// to the rest, so one pass decides.
//
//mutate:catch ./robots
func matchPattern(pat string, star int, anchored bool, path string) bool {
	if star < 0 {
		if anchored {
			return path == pat
		}
		return len(path) >= len(pat) && path[:len(pat)] == pat
	}
	i := star
	if len(path) < i || path[:i] != pat[:i] {
		return false
	}
	pos := i
	pat = pat[i+1:]
	for {
		i = strings.IndexByte(pat, '*')
		if i < 0 {
			break
		}
		seg := pat[:i]
		j := strings.Index(path[pos:], seg)
		if j < 0 {
			return false
		}
		pos += j + len(seg)
		pat = pat[i+1:]
	}
	if anchored {
		return len(path)-len(pat) >= pos && strings.HasSuffix(path, pat)
	}
	return strings.Contains(path[pos:], pat)
}

// PathOf returns the part of url that robots.txt rules match: path,
// parameters and query, without scheme, authority and fragment. The result
// always starts with '/'; it is "/" when url has no path. This is exactly
// what Google's parser extracts; nothing is decoded or normalised.
//
//mutate:catch ./robots
func PathOf(url string) string {
	start := 0
	if strings.HasPrefix(url, "//") {
		start = 2
	}
	early := indexPathStart(url, start)
	proto := strings.Index(url[start:], "://")
	if proto >= 0 {
		proto += start
	}
	if proto < 0 || (early >= 0 && early < proto) {
		proto = start
	} else {
		proto += 3
	}
	p := indexPathStart(url, proto)
	if p < 0 {
		return "/"
	}
	end := len(url)
	if h := strings.IndexByte(url[start:], '#'); h >= 0 {
		h += start
		if h < p {
			return "/"
		}
		end = h
	}
	if url[p] != '/' {
		return "/" + url[p:end]
	}
	return url[p:end]
}

// indexPathStart returns the index of the first '/', '?' or ';' of s at or
// after from, or -1.
func indexPathStart(s string, from int) int {
	for i := from; i < len(s); i++ {
		if c := s[i]; c == '/' || c == '?' || c == ';' {
			return i
		}
	}
	return -1
}

// EscapePattern returns pattern as Google's parser matches it: bytes
// outside ASCII percent-encoded ("/é" is "/%C3%A9") and the hex digits of
// existing percent-escapes upper-cased ("%2f" is "%2F"). Nothing else
// changes, and a pattern that needs no change is returned as is.
//
//mutate:catch ./robots
func EscapePattern(p string) string {
	if !needsEscape(p) {
		return p
	}
	var b strings.Builder
	b.Grow(len(p) + 16)
	return escapeInto(&b, p)
}

// needsEscape reports whether EscapePattern changes p.
func needsEscape(p string) bool {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c >= 0x80 {
			return true
		}
		if c == '%' && i+2 < len(p) && isHex(p[i+1]) && isHex(p[i+2]) {
			if isLowerHex(p[i+1]) || isLowerHex(p[i+2]) {
				return true
			}
			i += 2
		}
	}
	return false
}

// escapeInto appends the escaped form of p to b and returns it. It stays
// valid as b grows: a strings.Builder never changes the bytes it has
// written, so one builder holds every escaped pattern of a file at the
// cost of a few allocations, not one a pattern.
func escapeInto(b *strings.Builder, p string) string {
	const hex = "0123456789ABCDEF"
	start := b.Len()
	var buf [128]byte // written to b when full: a call a chunk, not a byte
	n := 0
	for i := 0; i < len(p); i++ {
		if n > len(buf)-3 {
			b.Write(buf[:n])
			n = 0
		}
		c := p[i]
		switch {
		case c == '%' && i+2 < len(p) && isHex(p[i+1]) && isHex(p[i+2]):
			buf[n], buf[n+1], buf[n+2] = '%', upper(p[i+1]), upper(p[i+2])
			n += 3
			i += 2
		case c >= 0x80:
			buf[n], buf[n+1], buf[n+2] = '%', hex[c>>4], hex[c&0xf]
			n += 3
		default:
			buf[n] = c
			n++
		}
	}
	b.Write(buf[:n])
	return b.String()[start:]
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isLowerHex(c byte) bool { return 'a' <= c && c <= 'f' }

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// equalFoldASCII reports whether a and b are equal under ASCII case
// folding, as Google's matcher compares agent names (no Unicode folding:
// the Kelvin sign is not a 'K').
//
//mutate:catch ./robots
func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if x != y && lowerASCII(x) != lowerASCII(y) {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// ExtractAgentToken returns the product token of a crawler name: the name
// up to its first character outside [A-Za-z_-] ("Googlebot/2.1" gives
// "Googlebot", "Linguee Bot" gives "Linguee", "MJ12bot" gives "MJ"). It is
// the part of a user-agent line that Google's parser keeps.
//
// This is robocensus's one rule for crawler names. Wherever a name stands
// for a crawler, the crawler is its product token, compared with the
// product tokens of the user-agent lines ignoring ASCII case:
//
//   - a user-agent line names ExtractAgentToken of its value ([Agent.Token]),
//     and lint's messages say which token Google reads;
//   - a tracked crawler is named by the groups of its product token
//     ([Crawler.MatchToken]), so the agents table and the report count
//     "User-agent: Linguee Bot" and "User-agent: Linguee" as naming the
//     tracked crawler "Linguee Bot";
//   - robocensus match, given the name of a tracked crawler
//     ([TrackedCrawler]) that is not a product token, matches its product
//     token, and says so.
//
// An agent given to the matcher ([File.Match]) is compared whole, as
// Google's matcher compares the agents it is asked about: one that is not a
// product token ([ValidAgent] false), such as "Googlebot/2.1", "*" or "",
// equals no user-agent line, so no group names it.
//
//mutate:catch ./robots
func ExtractAgentToken(value string) string {
	for i := 0; i < len(value); i++ {
		c := value[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_') {
			return value[:i]
		}
	}
	return value
}

// isGlobalAgent reports whether a user-agent value names every crawler:
// '*', or (Google-specific) '*' followed by whitespace and anything.
func isGlobalAgent(value string) bool {
	return len(value) > 0 && value[0] == '*' && (len(value) == 1 || isSpace(value[1]))
}

// ValidAgent reports whether agent can match anything: a non-empty product
// token made of [A-Za-z_-] only, such as "Googlebot", which is its own
// [ExtractAgentToken]. Agents like "Googlebot/2.1" never match a group.
func ValidAgent(agent string) bool {
	return agent != "" && ExtractAgentToken(agent) == agent
}
