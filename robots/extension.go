package robots

import "strings"

// Extension directives: lines whose key is none of Google's four but a
// directive some crawler or standard defines. Google's parser ignores them
// (its verdicts never depend on them); this package records each one with
// its value and whether the value follows the syntax of its definition.

// Extension is one line of an extension directive (crawl-delay, host,
// clean-param, request-rate, visit-time, noindex, content-signal,
// content-usage, license, ...). It holds no pointer: its key, value and
// crawlers are read through the File that parsed it ([Extension.Key],
// [Extension.Value], [Extension.Agents]), its value as offsets into its
// line.
type Extension struct {
	Line int
	// Group is the index in File.Groups of the group the line stands in,
	// or -1 for a line before any user-agent line (it concerns the whole
	// file).
	Group int
	key   span  // the key as written, kept for an "acap-" key only
	value span  // the value as written
	def   uint8 // the index of the definition in extensionDefs; len(extensionDefs) for acapDef
	Valid bool  // the value follows the syntax of the directive's definition
}

// Key returns the canonical key, lower case: "crawl-delay",
// "content-signal", ...; an "acap-..." key is the key as written, lower
// case (only one written otherwise costs a copy). f is the File whose
// Extensions hold e.
func (e Extension) Key(f *File) string {
	if int(e.def) < len(extensionDefs) {
		return extensionDefs[e.def].key
	}
	return extensionKey(&acapDef, f.spanText(e.Line, e.key))
}

// Value returns the value as written, trimmed, without its comment: a
// part of f's text.
func (e Extension) Value(f *File) string { return f.spanText(e.Line, e.value) }

// Agents returns the user-agent lines of the extension's group, the
// crawlers the line addresses; nil when Group is -1. Groups are Google's:
// an extension line does not end a group's user-agent lines, so a
// user-agent line right after one joins its group (as crawler-commons
// reads it too).
func (e Extension) Agents(f *File) []Agent { return f.groupAgents(e.Group) }

// defIndex returns the index of d for Extension.def.
func defIndex(d *extensionDef) uint8 {
	for i := range extensionDefs {
		if d == &extensionDefs[i] {
			return uint8(i)
		}
	}
	return uint8(len(extensionDefs))
}

// An extensionDef is what this package knows of one extension directive.
type extensionDef struct {
	key string // canonical, lower case
	// who says who defines or honours the directive, for the
	// unsupported-directive message: "<key> is <who>; Google ignores it".
	who   string
	valid func(v string) bool // nil for the usage preferences, parsed in preference.go
}

// extensionDefs lists the extension directives. The sources, each cited
// where its syntax is checked:
//   - crawl-delay: no standard; Bing documents it (seconds between
//     fetches); Yandex ignores it since 22 February 2018 (Yandex Webmaster,
//     "The Crawl-delay directive").
//   - host, clean-param: Yandex Webmaster, "The Clean-param directive"; Host
//     named the main mirror and was dropped by Yandex in 2018.
//   - request-rate, visit-time: "An Extended Standard for Robot Exclusion"
//     (S. Conner, 1996, conman.org/people/spc/robots2.html).
//   - noindex, nofollow, noarchive, revisit-after: meta-robots values
//     written into robots.txt; Google stopped honouring noindex there on
//     1 September 2019.
//   - content-signal: Cloudflare's Content Signals Policy (contentsignals.org).
//   - content-usage: IETF AI Preferences, draft-ietf-aipref-attach §3 and
//     draft-ietf-aipref-vocab.
//   - license: RSL 1.0 (Really Simple Licensing), rslstandard.org, "Adding
//     RSL to robots.txt".
var extensionDefs = [...]extensionDef{
	{"crawl-delay", "a delay between fetches that Bing and some other crawlers honour (Yandex stopped in 2018)", validDelay},
	{"host", "Yandex's preferred-host (main mirror) directive, which Yandex itself dropped in 2018", validHost},
	{"clean-param", "Yandex's directive for URL parameters that do not change a page", validCleanParam},
	{"request-rate", "from the 1996 Extended Standard for Robot Exclusion, which few crawlers honour", validRequestRate},
	{"visit-time", "from the 1996 Extended Standard for Robot Exclusion, which few crawlers honour", validVisitTime},
	{"noindex", "a meta-robots value, not a robots.txt directive (Google stopped honouring it here in 2019)", validPathValue},
	{"nofollow", "a meta-robots value, not a robots.txt directive; no major crawler reads it here", validPathValue},
	{"noarchive", "a meta-robots value, not a robots.txt directive; no major crawler reads it here", validPathValue},
	{"revisit-after", "an HTML meta tag, not a robots.txt directive; no major crawler reads it here", nonEmpty},
	{"content-signal", "a Content Signals usage preference (contentsignals.org, Cloudflare), for the AI and search crawlers that honour it", nil},
	{"content-usage", "an IETF AI-preferences usage preference (draft-ietf-aipref-attach), for the crawlers that honour it", nil},
	{"license", "an RSL 1.0 directive (rslstandard.org) pointing crawlers to licensing terms", validLicense},
	{"domain", "a directive some generators write; no major crawler documents it", nonEmpty},
}

// acapDef covers the keys of ACAP (Automated Content Access Protocol,
// 2007), "acap-...", which no major crawler adopted.
var acapDef = extensionDef{"acap-", "from ACAP (Automated Content Access Protocol, 2007), which no major crawler adopted", nonEmpty}

// ExtensionKeys returns the canonical keys of the extension directives
// this package knows (the key column of the directives table), in the
// order of their definitions, then "acap-", the prefix every ACAP key
// starts with.
func ExtensionKeys() []string {
	out := make([]string, 0, len(extensionDefs)+1)
	for _, d := range extensionDefs {
		out = append(out, d.key)
	}
	return append(out, acapDef.key)
}

// lookupExtension returns the definition of an extension key, or nil.
func lookupExtension(k string) *extensionDef {
	if len(k) < 4 {
		return nil
	}
	for i := range extensionDefs {
		if d := &extensionDefs[i]; len(k) == len(d.key) && strings.EqualFold(k, d.key) {
			return &extensionDefs[i]
		}
	}
	if hasPrefixFold(k, "acap-") {
		return &acapDef
	}
	return nil
}

// extensionKey returns the canonical key of a line whose definition is d.
// Only an "acap-" key that is not written in lower case costs a copy.
func extensionKey(d *extensionDef, k string) string {
	if d != &acapDef {
		return d.key
	}
	for i := 0; i < len(k); i++ {
		if 'A' <= k[i] && k[i] <= 'Z' {
			return strings.ToLower(k)
		}
	}
	return k
}

// explainExtension says who defines or honours the directive named k.
func explainExtension(k string) string {
	if d := lookupExtension(k); d != nil {
		return d.who
	}
	return "an extension that some crawlers obey"
}

func nonEmpty(v string) bool { return v != "" }

// validHost: Yandex's "Host: [http://|https://]name[:port]", a host name
// and no path (Yandex Webmaster, the Host directive).
func validHost(v string) bool {
	// Leniency: a final '/' (the root, "Host: example.com/") is written
	// often and names no path.
	v = strings.TrimSuffix(v, "/")
	if s, ok := strings.CutPrefix(strings.ToLower(v), "https://"); ok {
		v = s
	} else if s, ok := strings.CutPrefix(strings.ToLower(v), "http://"); ok {
		v = s
	}
	name, port, hasPort := strings.Cut(v, ":")
	if hasPort && (port == "" || strings.Trim(port, "0123456789") != "") {
		return false
	}
	if name == "" || name[0] == '.' || name[0] == '-' {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !isLetter(c) && !isDigit(c) && c != '-' && c != '.' && c < 0x80 {
			return false
		}
	}
	return true
}

// validCleanParam: "Clean-param: p0[&p1&...&pn] [path]", parameter names
// joined by '&', then optionally a path prefix, at most 500 characters
// (Yandex Webmaster, "The Clean-param directive").
func validCleanParam(v string) bool {
	if v == "" || len(v) > 500 {
		return false
	}
	params, path := v, ""
	if i := indexBlank(v); i >= 0 {
		params, path = v[:i], trimSpace(v[i:])
	}
	if params[0] == '/' || params[0] == '*' {
		return false // a path without parameters
	}
	// Leniency: a leading '&' ("Clean-param: &ref") is a common way of
	// writing one parameter in long lists; it adds no empty name.
	params = strings.TrimPrefix(params, "&")
	for rest := params; ; {
		p, more, found := strings.Cut(rest, "&")
		if p == "" {
			return false
		}
		if !found {
			break
		}
		rest = more
	}
	return path == "" || indexBlank(path) < 0 && (path[0] == '/' || path[0] == '*')
}

// validRequestRate: "Request-rate: n/t[s|m|h] [HHMM-HHMM]", documents per
// time unit (seconds by default), optionally within a time window (An
// Extended Standard for Robot Exclusion, "Request-rate").
func validRequestRate(v string) bool {
	rate, window := v, ""
	if i := indexBlank(v); i >= 0 {
		rate, window = v[:i], trimSpace(v[i:])
	}
	n, t, ok := strings.Cut(rate, "/")
	if !ok || !allDigits(n) {
		return false
	}
	if t != "" {
		switch t[len(t)-1] {
		case 's', 'm', 'h':
			t = t[:len(t)-1]
		}
	}
	return allDigits(t) && (window == "" || validVisitTime(window))
}

// validVisitTime: "Visit-time: HHMM-HHMM" in UTC (An Extended Standard for
// Robot Exclusion, "Visit-time"); blanks around the '-' are tolerated, as
// files write them.
func validVisitTime(v string) bool {
	from, to, ok := strings.Cut(v, "-")
	return ok && validHHMM(trimSpace(from)) && validHHMM(trimSpace(to))
}

func validHHMM(s string) bool {
	if len(s) != 4 || !allDigits(s) {
		return false
	}
	return (s[0]-'0')*10+s[1]-'0' <= 24 && (s[2]-'0')*10+s[3]-'0' <= 59
}

// validPathValue: a path as in allow and disallow lines.
func validPathValue(v string) bool {
	return v != "" && (v[0] == '/' || v[0] == '*') && indexBlank(v) < 0
}

// validLicense: "License: [absoluteURL]", a fully qualified URL with
// scheme and host (RSL 1.0, "Adding RSL to robots.txt").
func validLicense(v string) bool {
	i := strings.Index(v, "://")
	if i <= 0 || !isURL(v) || indexBlank(v) >= 0 {
		return false
	}
	host := v[i+3:]
	if j := strings.IndexAny(host, "/?#"); j >= 0 {
		host = host[:j]
	}
	return host != ""
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// extensionSyntax is the syntax of a directive's value, for messages.
func extensionSyntax(key string) string {
	switch key {
	case "host":
		return "a host name, e.g. www.example.com"
	case "clean-param":
		return "param1&param2 [/path]"
	case "request-rate":
		return "pages/seconds such as 1/5, optionally with a unit and a time window: 1/10m 0600-0845"
	case "visit-time":
		return "HHMM-HHMM in UTC, e.g. 0600-0845"
	case "noindex", "nofollow", "noarchive":
		return "a path starting with '/'"
	}
	return "a value"
}
