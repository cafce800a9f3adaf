package hosts

import (
	"net"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"
	"golang.org/x/net/publicsuffix"

	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// The hosts table: one row per host of a partition, computed when the
// partition is published (DESIGN.md, "Sites: the hosts table").
//
// For each host: its deciding capture (a capture that is not a redirect if
// it has one, then the latest fetched, then the smallest capture_id:
// [schema.DecidesBefore], as the reports choose it), the redirect chain followed from it, the
// effective capture and outcome at the chain's end, its registered domain
// and Common Crawl's fetch class.
//
// Redirects are followed as Google does: the Location of a 3xx capture,
// resolved against its URL, is looked up among the captures of the
// partition (scheme and host compared case-insensitively, default ports
// dropped, path and query as written), at most maxRedirectHops hops,
// across hosts and schemes. A target captured several times stands for
// its deciding capture among those of that URL. The chain ends resolved
// (a capture that is not a redirect), not-captured (no capture of the
// target URL), loop (a URL met twice), too-many-hops, or
// invalid-location (a 3xx without a Location that resolves to an http(s)
// URL).
//
// The fetch class of a capture follows its outcome and status, a
// redirect's being that of its chain's end (redirect-not-resolved when
// the chain is unresolved); a host's class is the best of its captures'
// in the order of fetchClasses, so that a host fetched over http and
// https counts as its success, as Common Crawl counts them.

// maxRedirectHops is the most redirects followed from a capture (RFC 9309
// §2.3.1.2 asks for at least five; Google follows five).
const maxRedirectHops = 5

// Redirect results (hosts.redirect_result).
const (
	redirectNone            = "none"
	redirectResolved        = "resolved"
	redirectNotCaptured     = "not-captured"
	redirectLoop            = "loop"
	redirectTooManyHops     = "too-many-hops"
	redirectInvalidLocation = "invalid-location"
)

// fetchClasses are the fetch classes (hosts.fetch_class) best first
// (schema.FetchClassesBestFirst): a host's class is the first of its
// captures' classes in this order.
var fetchClasses = schema.FetchClassesBestFirst()

// Indexes into fetchClasses.
var (
	classWithRules           = classIndex(schema.FetchRobotsWithRules)
	classNoRules             = classIndex(schema.FetchRobotsNoRules)
	classNotRobots           = classIndex(schema.FetchNotRobots)
	classAllowAll            = classIndex(schema.FetchHTTPAllowAll)
	classForbidden           = classIndex(schema.FetchHTTPForbidden)
	classDeferVisits         = classIndex(schema.FetchHTTPDeferVisits)
	classRedirectNotResolved = classIndex(schema.FetchRedirectNotResolved)
)

// classIndex is the index of a fetch class in fetchClasses.
func classIndex(class string) int {
	i := slices.Index(fetchClasses, class)
	if i < 0 {
		panic("hosts: " + class + " is not in schema.FetchClassesBestFirst")
	}
	return i
}

// hostCapture is what the hosts computation keeps of a capture.
type hostCapture struct {
	id      string
	host    string
	key     string // the capture's URL as a lookup key (see urlKey)
	target  string // for a 3xx, its Location's key; "" when invalid or none
	status  int32
	outcome string
	rules   int32
	fetched int64 // fetch time, Unix microseconds
}

// isRedirect reports whether the capture is a redirect (outcome redirect:
// a 3xx answer).
func (c *hostCapture) isRedirect() bool { return c.outcome == "redirect" }

// captureColumns are the columns of a captures row that the hosts
// computation reads, named and typed as in [schema.Capture]
// (TestCaptureColumnsMatchSchema): a captures file is read eight columns
// of its thirty-odd, each by its entry in captureColumnSetters.
type captureColumns struct {
	CaptureID     string    `parquet:"capture_id"`
	URL           string    `parquet:"url"`
	URLHostName   string    `parquet:"url_host_name"`
	FetchTime     time.Time `parquet:"fetch_time,optional,timestamp(microsecond:local)"`
	FetchStatus   int32     `parquet:"fetch_status,optional"`
	FetchRedirect string    `parquet:"fetch_redirect,optional"`
	Outcome       string    `parquet:"outcome,dict"`
	RuleCount     int32     `parquet:"rule_count"`
}

// captureColumnSetters set each field of captureColumns from a value (not
// NULL) of its column, of the kind given.
var captureColumnSetters = []schema.ColumnField[captureColumns]{
	{Name: "capture_id", Kind: parquet.ByteArray, Set: func(r *captureColumns, v *parquet.Value) { r.CaptureID = string(v.ByteArray()) }},
	{Name: "url", Kind: parquet.ByteArray, Set: func(r *captureColumns, v *parquet.Value) { r.URL = string(v.ByteArray()) }},
	{Name: "url_host_name", Kind: parquet.ByteArray, Set: func(r *captureColumns, v *parquet.Value) { r.URLHostName = string(v.ByteArray()) }},
	{Name: "fetch_time", Kind: parquet.Int64, Set: func(r *captureColumns, v *parquet.Value) { r.FetchTime = time.UnixMicro(v.Int64()).UTC() }},
	{Name: "fetch_status", Kind: parquet.Int32, Set: func(r *captureColumns, v *parquet.Value) { r.FetchStatus = v.Int32() }},
	{Name: "fetch_redirect", Kind: parquet.ByteArray, Set: func(r *captureColumns, v *parquet.Value) { r.FetchRedirect = string(v.ByteArray()) }},
	{Name: "outcome", Kind: parquet.ByteArray, Set: func(r *captureColumns, v *parquet.Value) { r.Outcome = outcomeString(v.ByteArray()) }},
	{Name: "rule_count", Kind: parquet.Int32, Set: func(r *captureColumns, v *parquet.Value) { r.RuleCount = v.Int32() }},
}

// outcomes are the names of the engine's outcomes.
var outcomes = func() (names []string) {
	for o := robots.OutcomeUnknown; o <= robots.OutcomeDisallowAll; o++ {
		names = append(names, o.String())
	}
	return names
}()

// outcomeString returns b as a string, without allocating for the
// outcomes the engine gives.
func outcomeString(b []byte) string {
	for _, o := range outcomes {
		if string(b) == o {
			return o
		}
	}
	return string(b)
}

// newHostCapture keeps of a captures row what the hosts computation needs.
func newHostCapture(r *captureColumns) hostCapture {
	c := hostCapture{id: r.CaptureID, host: r.URLHostName, status: r.FetchStatus, outcome: r.Outcome, rules: r.RuleCount,
		fetched: r.FetchTime.UnixMicro()}
	if key, ok := plainKey(r.URL); ok && !c.isRedirect() {
		c.key = key
		return c
	}
	u, err := url.Parse(r.URL)
	if err != nil {
		return c
	}
	c.key = urlKey(u)
	if c.isRedirect() && r.FetchRedirect != "" {
		if loc, err := u.Parse(strings.TrimSpace(r.FetchRedirect)); err == nil && (loc.Scheme == "http" || loc.Scheme == "https") && loc.Host != "" {
			c.target = urlKey(loc)
		}
	}
	return c
}

// urlKey is the form in which a URL is looked up among the captures:
// scheme and host in lower case, the scheme's default port dropped, the
// path (at least "/") and query as written, no fragment.
func urlKey(u *url.URL) string {
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if port == "80" && scheme == "http" || port == "443" && scheme == "https" {
		port = ""
	}
	if port != "" {
		host = net.JoinHostPort(host, port)
	} else if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" || u.ForceQuery {
		path += "?" + u.RawQuery
	}
	return scheme + "://" + host + path
}

// plainKey returns raw as its own key (urlKey of url.Parse(raw),
// FuzzPlainKey) when it is a URL of the plain form most captures have:
// http or https, a host of lower-case letters, digits, dots and hyphens
// with no port, and a path of slashes and unreserved characters, with no
// query or fragment. Else ok is false.
func plainKey(raw string) (key string, ok bool) {
	rest, ok := strings.CutPrefix(raw, "https://")
	if !ok {
		if rest, ok = strings.CutPrefix(raw, "http://"); !ok {
			return "", false
		}
	}
	host, path, ok := strings.Cut(rest, "/")
	if !ok || host == "" || !allBytes(host, isHostByte) || !allBytes(path, isPathByte) {
		return "", false
	}
	return raw, true
}

// isHostByte: a byte of a plain lower-case host name.
func isHostByte(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '-'
}

// isPathByte: a byte of a plain path, taken as written by url.Parse and
// EscapedPath.
func isPathByte(c byte) bool {
	return isHostByte(c) || 'A' <= c && c <= 'Z' || c == '/' || c == '_' || c == '~'
}

// allBytes reports whether every byte of s is one of is.
func allBytes(s string, is func(byte) bool) bool {
	for i := range len(s) {
		if !is(s[i]) {
			return false
		}
	}
	return true
}

// hostOfKey returns the host part of a key, as url_host_name spells it
// (lower case, no port, no brackets).
func hostOfKey(key string) string {
	_, rest, _ := strings.Cut(key, "://")
	authority, _, _ := strings.Cut(rest, "/")
	authority, _, _ = strings.Cut(authority, "?")
	if h, _, err := net.SplitHostPort(authority); err == nil {
		return h
	}
	return strings.Trim(authority, "[]")
}

// decides reports whether a decides for its host before b, in the order
// of [schema.DecidesBefore].
func decides(a, b *hostCapture) bool {
	return schema.DecidesBefore(a.decidingKey(), b.decidingKey())
}

// decidingKey is what the deciding-capture order reads of the capture.
func (c *hostCapture) decidingKey() schema.DecidingKey {
	return schema.DecidingKey{Redirect: c.isRedirect(), Fetched: c.fetched, ID: c.id}
}

// ownClass is the fetch class of a capture that is not a redirect: a
// usable robots.txt (robots.Outcome.Usable, with or without an HTTP
// status) is robots-with-rules or robots-no-rules by its rules, and a body
// that is not a robots.txt (outcome not-robots, with 2xx or with no
// status, as a tar entry that is an HTML page) is not-robots. A capture
// published before robocensus judged a body with no status by its content
// has outcome unknown whatever its content, and is classed by its rules.
func ownClass(c *hostCapture) int {
	if o, ok := robots.ParseOutcome(c.outcome); ok && o.Usable() {
		if c.rules > 0 {
			return classWithRules
		}
		return classNoRules
	}
	switch c.outcome {
	case "not-robots":
		return classNotRobots
	case "allow-all":
		if c.status == 403 {
			return classForbidden
		}
		return classAllowAll
	case "disallow-all":
		return classDeferVisits
	}
	return classRedirectNotResolved
}

// chainEnd is where a redirect chain from a capture ended.
type chainEnd struct {
	result  string
	hops    int32
	id      string // the effective capture; "" when unresolved
	outcome string // its outcome; "redirect" when unresolved
	class   int
}

// unresolved returns the end of a chain that stopped after hops with the
// result given.
func unresolved(result string, hops int32) chainEnd {
	return chainEnd{result: result, hops: hops, outcome: "redirect", class: classRedirectNotResolved}
}

// resolvedAt returns the end of a chain at capture c after hops.
func resolvedAt(c *hostCapture, hops int32) chainEnd {
	return chainEnd{result: redirectResolved, hops: hops, id: c.id, outcome: c.outcome, class: ownClass(c)}
}

// hostRow makes the row of a host from its captures (at least one) and the
// ends of their chains (ends[i] for caps[i]; only those of redirects are
// read).
func hostRow(caps []*hostCapture, ends []chainEnd) schema.Host {
	best := 0
	for i := range caps {
		if decides(caps[i], caps[best]) {
			best = i
		}
	}
	d := caps[best]
	row := schema.Host{URLHostName: d.host, URLHostRegisteredDomain: RegisteredDomain(d.host), CaptureID: d.id, Captures: int32(len(caps))}
	end := chainEnd{result: redirectNone, id: d.id, outcome: d.outcome}
	if d.isRedirect() {
		end = ends[best]
	}
	row.RedirectHops, row.RedirectResult, row.EffectiveCaptureID, row.EffectiveOutcome = end.hops, end.result, end.id, end.outcome
	class := classRedirectNotResolved
	for i, c := range caps {
		k := ownClass(c)
		if c.isRedirect() {
			k = ends[i].class
		}
		class = min(class, k)
	}
	row.FetchClass = fetchClasses[class]
	return row
}

// RegisteredDomain returns the registered domain of a host as Common
// Crawl's index gives url_host_registered_domain: the host's name one
// label below its registry suffix, the ICANN section of the public suffix
// list ("example.co.uk" for www.example.co.uk, and "blogspot.com" for
// a.blogspot.com, whose private suffix blogspot.com is not a registry's).
// It returns "" for an IP address and for a host that is a registry
// suffix. A name under a top-level domain the list does not have counts
// that label as its suffix ("b.example" for a.b.example), where Common
// Crawl gives NULL. It allocates nothing: the result is a part of host.
func RegisteredDomain(host string) string {
	host = strings.TrimSuffix(host, ".")
	if host == "" || IsIPAddress(host) {
		return ""
	}
	suffix, icann := publicsuffix.PublicSuffix(host)
	for !icann {
		i := strings.IndexByte(suffix, '.')
		if i < 0 {
			break
		}
		suffix, icann = publicsuffix.PublicSuffix(suffix[i+1:])
	}
	if len(suffix) >= len(host) {
		return ""
	}
	rest := host[:len(host)-len(suffix)-1]
	return host[strings.LastIndexByte(rest, '.')+1:]
}

// IsIPAddress reports whether a host name (as url_host_name spells it,
// without brackets) is an IP address: an IPv6 address has colons, an IPv4
// address only digits and dots (Common Crawl's index also reads the
// shortened decimal forms, "127.1", as IPv4). It allocates nothing, unlike
// net.ParseIP on a name.
func IsIPAddress(host string) bool {
	if strings.IndexByte(host, ':') >= 0 || strings.HasPrefix(host, "[") {
		return true
	}
	for i := 0; i < len(host); i++ {
		if c := host[i]; c != '.' && (c < '0' || c > '9') {
			return false
		}
	}
	return host != ""
}
