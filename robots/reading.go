package robots

import (
	"slices"
	"strings"
)

// Semantics names a parser whose reading of robots.txt files a [Reading]
// gives: the verdicts that parser would give for the same file.
type Semantics uint8

const (
	// SemanticsGoogle is Google's open-source parser: [File.Match].
	SemanticsGoogle Semantics = iota
	// SemanticsPythonLegacy is urllib.robotparser of CPython 3.12 and
	// earlier (before gh-138907; the machine's 3.11.7 is the reference of
	// the differential tests). It differs from Google's reading in every
	// way below; "doc" is the module's documentation in the Python 3.11
	// library reference, a test name is a class of CPython's
	// Lib/test/test_robotparser.py, "observed" is the behaviour of the
	// module that TestPythonLegacyAgainstModuleGenerated pins.
	//
	//   - The first rule of the group whose path is a prefix of the URL's
	//     decides, not the longest (GoogleURLOrderingTest: the Allow must
	//     come first); '*' and '$' are literal characters (observed).
	//   - A group ends at a line that is empty, not even white space
	//     (observed; doc: "parse(lines)" of lines split by splitlines); a
	//     group whose user-agent lines are followed by an empty line is
	//     dropped, and its rules are then outside any group.
	//   - A user-agent value names a crawler when, lower-cased, it is a
	//     substring of the crawler's name cut at its first '/' and
	//     lower-cased (DifferentAgentTest, UserAgentOrderingTest): "bot"
	//     names GPTBot, an empty value names every crawler.
	//   - The first group naming the crawler is obeyed alone; groups are
	//     not merged; '*' groups count only when no other group names it,
	//     and only the first of them (UseFirstUserAgentWildcardTest).
	//   - Rule paths and URLs are percent-decoded (as UTF-8, invalid
	//     sequences becoming U+FFFD), parsed and joined back by urlparse
	//     and urlunparse, and percent-encoded again by quote
	//     (CrawlDelayAndRequestRateTest: "/a%3cd.html", "/~joe/"); an
	//     empty query, params or fragment disappears, so "Disallow: /?" and
	//     "Disallow: /a?" are "/" and "/a" (EmptyQueryStringTest), and a
	//     query is matched as part of the path (DisallowQueryStringTest);
	//     the fragment of a URL stays in it.
	//   - "Disallow:" with an empty path allows everything, and as the
	//     first match it overrides the rules after it
	//     (CrawlDelayAndCustomAgentTest).
	//   - Only "user-agent", "allow", "disallow", "crawl-delay",
	//     "request-rate" and "sitemap" are keys, spelled in full, with a
	//     colon: none of Google's misspellings, prefixes or missing colons.
	//     Crawl-delay and Request-rate lines end the user-agent lines of a
	//     group like a rule (CrawlDelayAndCustomAgentTest).
	//   - Allow and disallow lines before any user-agent line are ignored,
	//     as Google ignores them (observed).
	//   - /robots.txt is matched like any path (observed).
	//   - The body is decoded as UTF-8 by read(): a byte order mark stays
	//     on the first line, whose key is then unknown; a body that is not
	//     UTF-8 makes read() raise before parsing, and can_fetch answers
	//     false to everything (observed; doc: can_fetch before read).
	//   - Lines end also at VT, FF, U+001C to U+001E, U+0085, U+2028 and
	//     U+2029 (str.splitlines), and keys and values are stripped of
	//     Unicode white space (U+00A0 included); NUL bytes and lines of any
	//     length are kept (observed).
	//   - A rule path or URL with an unbalanced or invalid bracketed host
	//     ("//[x") makes urlparse raise ValueError, which ends the parse
	//     (groups complete before it stay) or, for a URL, can_fetch (read
	//     as disallowed); so does a crawl-delay or request-rate of digits
	//     int() rejects, such as "²" (observed).
	//   - Statuses, as read() sets its flags (doc: read; test_read_404,
	//     PasswordProtectedSiteTestCase): 401 and 403 disallow everything,
	//     any other 4xx, 429 included, allows everything, a 5xx leaves the
	//     parser unread (everything disallowed); a redirect is followed,
	//     so it reads as Google reads it.
	//
	// The reading takes the text the File holds: parse a body over
	// [MaxBytes] with [ParseUncut] for the module's reading of all of it.
	SemanticsPythonLegacy
	// SemanticsRFC9309 is RFC 9309, "Robots Exclusion Protocol" (September
	// 2022), by its letter, without Google's leniencies. It shares Google's
	// grouping (a group ends at a user-agent line after a rule, not at a
	// blank line), merging of matching groups, '*' fallback, longest match,
	// allow on ties and 500 KiB limit, and differs in every way below, each
	// with its section of the RFC:
	//
	//   - Only "user-agent", "allow" and "disallow" are records, spelled in
	//     full in any case and followed by a colon (2.2, the grammar's
	//     startgroupline and rule); Google's misspellings ("dissallow",
	//     "useragent", "user agent") and lines without the colon are other
	//     records, which neither start nor join a group (2.2.4).
	//   - White space around keys, colons and values is SP and HTAB only
	//     (2.2, WS).
	//   - A user-agent value names a crawler only when it is, whole, the
	//     crawler's product token, ignoring case (2.2.1, product-token =
	//     identifier / "*"): "Googlebot/2.1" and "Linguee Bot" name no
	//     crawler, where Google cuts them to "Googlebot" and "Linguee", and
	//     "* x" is not the '*' group. Such a line still starts or joins a
	//     group.
	//   - A rule's path must start with '/' (2.2, path-pattern) or with
	//     '*', as the RFC's own example "Disallow: *.gif$" does (5.1); other
	//     values make no rule (Google keeps them as patterns that match no
	//     path, which gives the same verdicts).
	//   - Percent-encoding (2.2.2): escapes of unreserved characters are
	//     decoded in patterns and URLs ("/%62%61%7A" matches "/baz"), the
	//     hex digits of other escapes upper-cased and bytes outside ASCII
	//     percent-encoded in URLs as in patterns (Google does both in
	//     patterns only: "/foo/bar/ツ" as a URL does not match "Allow:
	//     /foo/bar/ツ" for Google); '*' and '$' in a URL compare as "%2A"
	//     and "%24", so "Disallow: /a-%2A" matches "/a-*" (2.2.3).
	//   - /robots.txt is always allowed (2.2.2: "The /robots.txt URI is
	//     implicitly allowed"); its query does not count.
	//   - Google's index.htm leniency ("Allow: /d/index.html" also allowing
	//     "/d/") is not in the RFC (2.2.2: a rule matches the paths it is a
	//     prefix of).
	//   - Status 429 is a 4xx, "unavailable": everything is allowed
	//     (2.3.1.3); Google takes it as "unreachable", everything
	//     disallowed. Other statuses read as Google reads them.
	SemanticsRFC9309
	// SemanticsPython is urllib.robotparser after gh-138907, "Support RFC
	// 9309 in robotparser" (python/cpython#138908 on main, backported to
	// 3.13 by python/cpython#149376, May 2026). The change's description
	// (both pull requests, cited "PR" below) lists what it changed; the
	// rest of the module is taken as python-legacy's, since no Python with
	// the change was at hand to compare with (the machine's python3 is
	// 3.11) and the stored snapshots of CPython's Lib/test/test_robotparser.py
	// predate it (testdata/python/rfc9309.txt says which expectations are
	// the change's own and which are inferred). It differs from Google's
	// reading in every way below:
	//
	//   - A user-agent value names a crawler, in this order of preference
	//     (PR: "prefer full match for user agent"): equal to the crawler's
	//     name cut at its first '/', ignoring case; else, lower-cased, a
	//     substring of that name lower-cased, as before the change
	//     (DifferentAgentTest: "figtree" names "FigTree Robot
	//     libwww-perl/5.04"); else '*'. The groups of the best kind that
	//     any group reaches are merged (PR: "groups matching the same user
	//     agent are now merged"). Google takes the product token up to the
	//     first character outside [A-Za-z_-] and matches it whole.
	//   - Rule paths and URLs are compared as python/cpython#138502
	//     ("gh-88375, gh-111788: Fix parsing errors and normalization in
	//     robotparser", CPython main, 2025-09-04, which the change builds
	//     on) compares them, tested by its PercentEncodingTest,
	//     DisallowQueryStringTest and LocalNetworkTestCase
	//     (testdata/python/percent-encoding.txt):
	//     every escape decoded and every byte that quote does not keep
	//     encoded again, octet by octet ("%7E" is "~", "%f0" is "%F0" even
	//     when not UTF-8, a '%' that starts no escape is "%25"); the first
	//     raw '?' starts the query and is kept even last ("Disallow:
	//     /another/path?" does not block "/another/path"), raw '=' and '&'
	//     in the query are kept, and their escapes and an escaped '?' are
	//     other characters ("Disallow: /question%3Fq=v" does not block
	//     "/question?q=v"); a raw '*' and a final '$' in a rule are a
	//     wildcard and the anchor (PR: "special characters "$" and "*" are
	//     now supported in rules"), escaped ones ("%2A", "%24") literal
	//     characters that the raw ones of a URL match; a rule is not parsed
	//     as a URL, so no rule raises ("Disallow: //[spam]/path",
	//     LocalNetworkTestCase), and a URL's fragment is part of its path
	//     ("/hash#f" is "/hash%23f"). Google decodes no escape, keeps
	//     '?', '=', '&', '#' and ' ' raw and encodes only bytes outside
	//     ASCII in rules. (pyNormalise's doc has the details.)
	//   - Only "user-agent", "allow", "disallow", "crawl-delay",
	//     "request-rate" and "sitemap" are keys, spelled in full with a
	//     colon; crawl-delay and request-rate lines count as rules for
	//     grouping (a user-agent line after them starts a group).
	//   - Lines end also at Python's own line breaks, a ValueError of
	//     int() ends the parse (of urlparse, on a URL, can_fetch answers
	//     false), and statuses read as read() sets its flags: all as
	//     python-legacy.
	//   - /robots.txt is matched like any path; no index.htm leniency.
	//
	// Whether #138502 is in the 3.13 backport is not known here.
	//
	// What it shares with Google since the change: blank lines never end a
	// group and a user-agent line after a rule starts one (PR: "empty lines
	// are always ignored", "the user-agent line after a rule starts a new
	// group"), the longest match decides and Allow wins ties (PR: "the
	// rule with the longest match wins", "the Allow rule wins"), rules
	// before any user-agent line are ignored; and since #138502 a body
	// that is not UTF-8 is read, its invalid octets kept ("Don't fail
	// trying to decode non-UTF-8 robots.txt files"; LocalNetworkTestCase:
	// "Disallow: /non-utf8/\xf0" blocks "/non-utf8/%F0"), where
	// python-legacy's read() raises and every URL is disallowed.
	SemanticsPython
	// SemanticsCrawlerCommons is SimpleRobotRulesParser of crawler-commons
	// 1.6 in its default configuration (exact user-agent matching, a
	// maximum crawl delay of 300 s), what Common Crawl's CCBot, built on
	// Apache Nutch, obeys. Agents are given to it as to the parser's string
	// API: lower-cased and split at commas and white space. It shares
	// Google's grouping (a user-agent line after a rule starts a group,
	// blank lines and other directives do not), merging of matching
	// groups, '*' fallback, longest match, allow on ties, '*' and '$', and
	// differs in every way below; a test name is a method of
	// src/test/java/crawlercommons/robots/SimpleRobotRulesParserTest.java
	// at the tag crawler-commons-1.6, "doc" the javadoc of
	// SimpleRobotRulesParser and SimpleRobotRules there:
	//
	//   - A user-agent value names a crawler when, lower-cased, it equals
	//     one of its names, or, not being a product token ([a-z_-]+) as a
	//     whole, starts with one ("foo/1.2" and "foo bar" name foo:
	//     testAgentTokenMatch; doc: setExactUserAgentMatching,
	//     userAgentProductTokenPartialMatch). Google compares the value's
	//     token, cut at the first character outside [A-Za-z_-], with the
	//     name: "crawler1" names the crawler "crawler1" for crawler-commons,
	//     "crawler" for Google.
	//   - Its own list of misspelt keys counts ("useragent", "useg-agent",
	//     "desallow", "dissalow", "disalow", "crawl delay" and others:
	//     testDirectiveTypos), not Google's: "desallow" is a disallow line
	//     for crawler-commons only. (A key followed by white space instead
	//     of a colon, testFormatErrors, is a record for both.)
	//   - Lines end also at U+0085, U+2028 and U+2029 (testMixedEndings2);
	//     a body with a UTF-16 byte order mark is decoded as UTF-16
	//     (testRobotsWithUTF16LEBOM, testRobotsWithUTF16BEBOM).
	//   - A body with an <html>, <head> or <body> tag is read as allowing
	//     everything unless it has "user-agent:"; then its tags are cut
	//     from each line ("Disallow: /<BR>" is "Disallow: /":
	//     testHtmlMarkupInRobotsTxt, testIgnoreOfHtml).
	//   - Rule paths and URLs are normalised (testEscapedPaths;
	//     doc: escapePath): escapes of unreserved characters decoded,
	//     other escapes upper-cased, controls, space, '"', '#', '<', '>',
	//     '[', ']', '^', '`', '{', '|', '}' and bytes outside ASCII
	//     percent-encoded, '*' and '$' of a URL compared as "%2A" and
	//     "%24" ("/%7Ejoe" matches "/~joe"; "Disallow: /search/%2A/"
	//     matches "/search/*/" only).
	//   - /robots.txt is always allowed (testRobotsTxtAlwaysAllowed).
	//   - The index.htm leniency applies to disallow rules too: "Disallow:
	//     /d/index.html" also disallows "/d/" (doc: isAllowedPath).
	//   - A crawl delay over 300 seconds for the crawler (the smallest of
	//     the crawl-delay lines that follow a user-agent line naming it, one
	//     for each run of such lines; doc: ParseState.setCrawlDelay)
	//     disallows everything (testBigCrawlDelay; doc: setMaxCrawlDelay).
	//   - Statuses (doc: failedFetch; testStatusCodeCreation): any 4xx,
	//     429 included, allows everything, 5xx disallows everything; a
	//     redirect reads as Google reads it (the crawler follows it).
	//   - Bytes that are not UTF-8 become U+FFFD before rules are encoded.
	SemanticsCrawlerCommons
)

// semanticsNames are the names of the semantics, as the command line and
// the dataset spell them, in the order of the constants.
var semanticsNames = [...]string{"google", "python-legacy", "rfc9309", "python", "crawler-commons"}

// String returns the name of the semantics ("google", "python-legacy",
// "rfc9309", "python", "crawler-commons").
func (s Semantics) String() string { return semanticsNames[s] }

// AllSemantics returns every semantics, Google's first.
func AllSemantics() []Semantics {
	all := make([]Semantics, len(semanticsNames))
	for i := range all {
		all[i] = Semantics(i)
	}
	return all
}

// ParseSemantics returns the semantics named name; ok is false for an
// unknown name.
func ParseSemantics(name string) (s Semantics, ok bool) {
	for i, n := range semanticsNames {
		if n == name {
			return Semantics(i), true
		}
	}
	return 0, false
}

// SemanticsNames returns the names of every semantics joined with sep.
func SemanticsNames(sep string) string { return strings.Join(semanticsNames[:], sep) }

// A Reading is a parsed file read as one parser reads it. It is built from
// the File's one parse, from its groups (Google) or its line list (the
// other parsers, which group lines differently), without splitting the
// body again; in a classifiable text (printable ASCII, tabs and line ends,
// and UTF-8 runes no parser takes for white space or a line break: all
// but a few files, classifiableText) the other parsers take each line's
// key and value from the class Google's parse recorded (lineClass)
// instead of reading the line again.
// A Reading is immutable and safe for concurrent use.
type Reading struct {
	f   *File
	sem Semantics
	py  pyReading    // python-legacy
	rfc rfcReading   // rfc9309
	py2 pyRFCReading // python
	cc  ccReading    // crawler-commons
}

// As returns the file read with semantics s. Build it once and match many
// URLs with it: for s other than Google, As derives that parser's groups
// from the file's lines, unless the status decides every verdict (outside
// 2xx: the body is not read).
func (f *File) As(s Semantics) *Reading {
	r := &Reading{f: f, sem: s}
	if f.Response.bodyIgnored() {
		return r // the status decides every verdict (each reading's match asks it first): nothing to read
	}
	switch s {
	case SemanticsPythonLegacy:
		readPythonLegacy(f, &r.py)
	case SemanticsRFC9309:
		readRFC9309(f, &r.rfc)
	case SemanticsPython:
		readPython(f, &r.py2)
	case SemanticsCrawlerCommons:
		readCrawlerCommons(f, &r.cc)
	}
	return r
}

// Semantics returns the semantics of the reading.
func (r *Reading) Semantics() Semantics { return r.sem }

// Match returns the verdict for url and a crawler that answers to any of
// agents, as the reading's parser would give it. Verdict.Line is the line
// of the rule that decided, 0 when none did.
func (r *Reading) Match(url string, agents []string) Verdict {
	switch r.sem {
	case SemanticsPythonLegacy:
		return r.py.match(r.f, url, agents)
	case SemanticsRFC9309:
		return r.rfc.match(r.f, url, agents)
	case SemanticsPython:
		return r.py2.match(r.f, url, agents)
	case SemanticsCrawlerCommons:
		return r.cc.match(r.f, url, agents)
	}
	return r.f.Match(url, agents)
}

// A Selection is what a reading's parser obeys for one crawler: the groups
// (python-legacy: the entry) it selects for the crawler's agents, chosen
// once, so that many URLs are matched without choosing them again, as the
// census matches the root and many probe paths for each crawler. Its
// Match gives [Reading.Match]'s verdicts. [Reading.Select] fills one; a
// Selection reused from crawler to crawler allocates nothing once its
// buffer has grown to the groups a crawler obeys.
type Selection struct {
	r       *Reading
	decided bool    // the status, an unread body or a crawl delay decides every URL
	verdict Verdict // the verdict of every URL, when decided
	groups  []int32 // the groups obeyed, in file order (every reading but python-legacy)
	entry   pyEntry // python-legacy's entry, when hasEntry
	// hasEntry: python-legacy obeys an entry (none names the crawler and
	// there is no default entry otherwise).
	hasEntry bool
}

// sameAs reports whether s and t are the same choice of the same
// reading: every URL gets the same verdict from both.
func (s *Selection) sameAs(t *Selection) bool {
	return s.r == t.r && s.decided == t.decided && s.verdict == t.verdict &&
		s.hasEntry == t.hasEntry && s.entry == t.entry && slices.Equal(s.groups, t.groups)
}

// clone returns a copy of s that shares no memory with it (Select reuses
// a Selection's memory).
func (s *Selection) clone() Selection {
	c := *s
	c.groups = slices.Clone(s.groups)
	return c
}

// Select fills s with what the reading's parser obeys for a crawler that
// answers to any of agents, reusing s's memory.
func (r *Reading) Select(agents []string, s *Selection) {
	*s = Selection{r: r, groups: s.groups[:0]}
	f := r.f
	switch r.sem {
	case SemanticsPythonLegacy:
		if s.verdict, s.decided = pyDecided(f, r.py.unread); !s.decided {
			var buf [4]pyName
			s.entry, s.hasEntry = r.py.entryFor(pyCrawlerNames(agents, buf[:0]))
		}
	case SemanticsRFC9309:
		if s.decided = f.Response.bodyIgnored(); s.decided {
			s.verdict = rfcStatusVerdict(f)
		} else {
			s.groups = r.rfc.selectGroups(agents, s.groups)
		}
	case SemanticsPython:
		if s.verdict, s.decided = pyDecided(f, false); !s.decided {
			var buf [4]pyName
			s.groups = r.py2.selectGroups(pyCrawlerNames(agents, buf[:0]), s.groups)
		}
	case SemanticsCrawlerCommons:
		var buf [8]ccName
		s.groups, s.verdict, s.decided = r.cc.selectGroups(f, ccNames(buf[:], agents), s.groups)
	default:
		if s.decided = f.Response.bodyIgnored(); s.decided {
			s.verdict = Verdict{Allowed: f.Outcome() != OutcomeDisallowAll}
		} else {
			s.groups = f.selectGroups(agents, s.groups)
		}
	}
}

// Match returns the verdict for url of the reading for the agents of the
// selection: [Reading.Match]'s.
func (s *Selection) Match(url string) Verdict {
	if s.decided {
		return s.verdict
	}
	return s.MatchProbe(s.r.Probe(url))
}

// A Probe is a URL made ready for one reading's matching: its path as that
// reading's parser normalises it, or the verdict the URL alone decides
// (robots.txt itself, a URL Python's urlparse rejects). A caller asking
// many crawlers about one URL makes its probe once a reading.
type Probe struct {
	path    string
	verdict Verdict
	decided bool
}

// Probe makes url ready for the reading's matching ([Selection.MatchProbe]).
func (r *Reading) Probe(url string) Probe {
	switch r.sem {
	case SemanticsPythonLegacy:
		path, ok := pyRequestPath(url)
		return Probe{path: path, decided: !ok} // urlparse raised: can_fetch is false
	case SemanticsRFC9309:
		var b strings.Builder
		path, v, decided := rfcPath(&b, url)
		return Probe{path: path, verdict: v, decided: decided}
	case SemanticsPython:
		path, ok := pyRFCRequestPath(url)
		return Probe{path: path, decided: !ok} // urlparse raised: can_fetch is false
	case SemanticsCrawlerCommons:
		path := PathOf(url)
		if path == "/robots.txt" {
			return Probe{verdict: Verdict{Allowed: true}, decided: true} // testRobotsTxtAlwaysAllowed
		}
		var b strings.Builder
		return Probe{path: ccNormalise(&b, path, true)}
	}
	return Probe{path: PathOf(url)}
}

// MatchProbe is [Selection.Match] of the URL p was made from, p made by
// the selection's reading.
func (s *Selection) MatchProbe(p Probe) Verdict {
	switch {
	case s.decided:
		return s.verdict
	case p.decided:
		return p.verdict
	}
	r := s.r
	switch r.sem {
	case SemanticsPythonLegacy:
		return r.py.allowance(s.entry, s.hasEntry, p.path)
	case SemanticsRFC9309:
		return rfcMatchGroups(r.rfc.rules, r.rfc.groups, s.groups, p.path)
	case SemanticsPython:
		return rfcMatchGroups(r.py2.rules, r.py2.groups, s.groups, p.path)
	case SemanticsCrawlerCommons:
		return r.cc.matchNormalised(s.groups, p.path)
	}
	return r.f.matchGroups(s.groups, p.path)
}
