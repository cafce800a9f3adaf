package robots

import (
	"fmt"
	"strings"
)

// Severity ranks a diagnostic.
type Severity uint8

const (
	// Info is a fact worth counting.
	Info Severity = iota + 1
	// Warning is probably not what the author meant, or crawler-specific.
	Warning
	// Error means Google ignores or misreads the line or the file.
	Error
)

// String returns "info", "warning" or "error".
func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return "unknown"
}

// Code is a stable diagnostic code. Its [Code.String] form ("html-content",
// "typo-accepted", ...) is the contract: it is what lint prints and what the
// dataset stores. Codes are never renumbered in meaning; new ones are appended.
type Code uint8

// The diagnostic catalogue. Line 0 means the whole file.
const (
	codeNone Code = iota

	// HTTP5xx: the server answered 500-599. Google treats the whole site as
	// disallowed while this lasts (RFC 9309 §2.3.1.4).
	HTTP5xx
	// HTTP429: the server answered 429 Too Many Requests, which Google treats
	// as a server error: full disallow.
	HTTP429
	// HTTP4xx: a 4xx other than 404, 410 and 429 (401, 403, ...). Crawlers
	// treat it as "no robots.txt": everything is allowed, rarely what was meant.
	HTTP4xx
	// HTTP404: 404 or 410, there is no robots.txt: everything is allowed.
	HTTP404
	// HTTPRedirect: a 3xx answer; the crawler follows it (Google: up to five
	// hops) and obeys the target.
	HTTPRedirect
	// RedirectCrossHost: the redirect leads to another host.
	RedirectCrossHost
	// HTMLContent: an HTML page was served as robots.txt (a soft 404, a
	// landing page, a bot wall). Google finds no rules in it.
	HTMLContent
	// NonTextContentType: the Content-Type is not text/plain.
	NonTextContentType
	// Empty: the file has no bytes, or only whitespace and comments.
	Empty
	// Oversize: the file is over 500 KiB (512,000 bytes); Google ignores the
	// rest, and so do the verdicts of this package.
	Oversize
	// CrawlerTruncated: the capture is cut (WARC-Truncated), so the rules
	// seen may be incomplete. Besides the crawler's WARC-Truncated reasons
	// ("length", "time", ...) the message knows those of robocensus's own
	// reader: "body-cap", "record-cap", "input-end".
	CrawlerTruncated
	// BinaryContent: NUL bytes or mostly control characters: not a text file
	// (compressed or binary data served as robots.txt).
	BinaryContent
	// BOMUTF8: the file starts with a UTF-8 byte order mark, which Google skips.
	BOMUTF8
	// BOMUTF16: the file is UTF-16 text, which Google's parser cannot read:
	// every line is cut at its first NUL byte, so no rule is seen.
	BOMUTF16
	// InvalidUTF8: a line has bytes that are not UTF-8 (a legacy encoding);
	// non-ASCII bytes in patterns are percent-encoded byte for byte.
	InvalidUTF8
	// MixedLineEndings: CR, LF and CRLF line endings are mixed, or bare CR is
	// used. Google accepts all three, older parsers may not.
	MixedLineEndings
	// NoUserAgent: the file has allow or disallow lines but no user-agent
	// line at all, so every rule is ignored.
	NoUserAgent
	// NoRules: the file has no allow or disallow line at all.
	NoRules
	// LineTooLong: the line is over 16,663 bytes; Google keeps only the first
	// 16,663 bytes.
	LineTooLong
	// MissingColon: "key value" without a colon. Google accepts it when the
	// line has exactly two words; other parsers do not.
	MissingColon
	// UnparsableLine: a line Google cannot use: no colon and not exactly two
	// words, or nothing before the colon. It is ignored.
	UnparsableLine
	// TypoAccepted: a misspelled key that Google accepts: useragent,
	// user agent, dissallow, dissalow, disalow, diasllow, disallaw, site-map.
	// Other crawlers may drop the line.
	TypoAccepted
	// TypoIgnored: a near miss of user-agent, allow, disallow or sitemap that
	// Google does not recognise (desallow, useg-agent, user-agnet, disalllow,
	// sitmap, user_agent, ...): the line is dropped.
	TypoIgnored
	// KeyPrefixMatch: a key that only starts with a directive name
	// ("disallowed:", "user-agents:"); Google accepts it by its prefix.
	KeyPrefixMatch
	// WhitespaceBeforeColon: "disallow : /x". Google accepts it.
	WhitespaceBeforeColon
	// UnknownDirective: a key no crawler defines; ignored.
	UnknownDirective
	// UnsupportedDirective: a known extension Google ignores: crawl-delay,
	// host, clean-param, noindex, nofollow, noarchive, request-rate,
	// visit-time, revisit-after, content-signal, content-usage, domain.
	UnsupportedDirective
	// HTMLMarkup: HTML tags in a line: usually a page template leaking into
	// the file.
	HTMLMarkup
	// EndOfLineComment: a comment after a directive; older crawlers read the
	// comment as part of the value.
	EndOfLineComment
	// LeadingWhitespace: a directive line starting with whitespace; older
	// crawlers may not recognise it.
	LeadingWhitespace
	// RuleOutsideGroup: an allow or disallow line before any user-agent line:
	// it belongs to no group and is ignored.
	RuleOutsideGroup
	// EmptyUserAgent: "User-agent:" with no value.
	EmptyUserAgent
	// UserAgentTruncated: the name has characters outside [A-Za-z_-]
	// ("Googlebot/2.1", "MJ12bot"); Google matches only the part before them.
	UserAgentTruncated
	// UserAgentWildcard: a '*' inside a name ("*bot", "Google*"): it is not a
	// wildcard; Google matches only the letters before it.
	UserAgentWildcard
	// AgentsMergedAcrossBlankLine: a user-agent line after a blank line that
	// follows other user-agent lines with no rule between: Google puts them
	// in one group, the blank line does not end a group.
	AgentsMergedAcrossBlankLine
	// EmptyGroup: the last group has no rules; its agents may crawl
	// everything.
	EmptyGroup
	// DuplicateGroup: a later group names an agent already named by an
	// earlier group; Google merges their rules.
	DuplicateGroup
	// CrawlDelayInvalid: a crawl-delay that is not a non-negative number.
	CrawlDelayInvalid
	// ConflictingRules: an allow and a disallow with the same pattern in one
	// group; the allow wins.
	ConflictingRules
	// DuplicateRule: the same rule twice in one group.
	DuplicateRule
	// PathNotAbsolute: a pattern that starts with neither '/' nor '*': it
	// never matches a URL path.
	PathNotAbsolute
	// PathIsURL: a pattern that is a whole URL: it never matches a URL path.
	PathIsURL
	// MultiplePaths: several whitespace-separated paths in one value; the
	// value is matched as one pattern, spaces included.
	MultiplePaths
	// DollarNotAtEnd: a '$' inside a pattern is a literal character; only a
	// final '$' anchors the end.
	DollarNotAtEnd
	// Wildcard: the pattern uses '*'.
	Wildcard
	// EndAnchor: the pattern ends in '$'.
	EndAnchor
	// RedundantWildcard: a trailing '*' (and "/*", which equals "/") changes
	// nothing but the rule's length.
	RedundantWildcard
	// EmptyDisallow: "Disallow:" with no value: allows everything.
	EmptyDisallow
	// DisallowAll: "Disallow: /" in the '*' group: the site shuts out every
	// crawler without a group of its own.
	DisallowAll
	// NonASCIIPath: raw non-ASCII bytes in a pattern; Google percent-encodes
	// them (UTF-8 bytes) before matching, so URLs must be percent-encoded too.
	NonASCIIPath
	// SitemapRelative: a sitemap that is not an absolute URL.
	SitemapRelative
	// SitemapBadScheme: a sitemap URL whose scheme is not http, https or ftp.
	SitemapBadScheme
	// SitemapEmpty: "Sitemap:" with no value.
	SitemapEmpty
	// PatternBadPercentEscape: a '%' in a pattern not followed by two hex
	// digits ("/a%3Mb", "/a%", "/a%4"). Google matches it literally, but
	// such a path is not a valid URL, so the rule rarely matches anything.
	PatternBadPercentEscape
	// BOMDoubleEncoded: the line starts with "ï»¿" (C3 AF C2 BB C2 BF), a
	// UTF-8 byte order mark that was read as Latin-1 and saved as UTF-8
	// again. Google skips only a real BOM at the start of the file, so the
	// key is not recognised and the line is ignored.
	BOMDoubleEncoded

	numCodes
)

// CodeInfo describes one code of the catalogue.
type CodeInfo struct {
	Code     Code
	Name     string   // the stable name, e.g. "typo-accepted"
	Severity Severity // how bad it is
	Summary  string   // when it is reported, in one line
}

var catalogue = [numCodes]CodeInfo{
	HTTP5xx:                     {HTTP5xx, "http-5xx", Error, "status 500-599: full disallow while it lasts"},
	HTTP429:                     {HTTP429, "http-429", Error, "status 429: treated as a server error (full disallow)"},
	HTTP4xx:                     {HTTP4xx, "http-4xx", Warning, "4xx other than 404/410/429, e.g. 401/403: full allow, rarely meant"},
	HTTP404:                     {HTTP404, "http-404", Info, "404 or 410: no robots.txt"},
	HTTPRedirect:                {HTTPRedirect, "http-redirect", Info, "3xx: the crawler follows the redirect"},
	RedirectCrossHost:           {RedirectCrossHost, "redirect-cross-host", Info, "the redirect target is another host"},
	HTMLContent:                 {HTMLContent, "html-content", Error, "an HTML page served as robots.txt"},
	NonTextContentType:          {NonTextContentType, "non-text-content-type", Warning, "Content-Type other than text/plain"},
	Empty:                       {Empty, "empty", Info, "no bytes, or only whitespace and comments"},
	Oversize:                    {Oversize, "oversize", Error, "over 500 KiB (512,000 bytes): Google ignores the rest"},
	CrawlerTruncated:            {CrawlerTruncated, "crawler-truncated", Warning, "the capture was cut by the crawler (WARC-Truncated)"},
	BinaryContent:               {BinaryContent, "binary-content", Error, "NUL bytes or mostly non-text"},
	BOMUTF8:                     {BOMUTF8, "bom-utf8", Info, "UTF-8 byte order mark (skipped)"},
	BOMUTF16:                    {BOMUTF16, "bom-utf16", Error, "UTF-16 text: unreadable for Google's parser"},
	InvalidUTF8:                 {InvalidUTF8, "invalid-utf8", Warning, "a line with bytes that are not UTF-8 (legacy encodings)"},
	MixedLineEndings:            {MixedLineEndings, "mixed-line-endings", Info, "CR, LF and CRLF mixed, or bare CR"},
	NoUserAgent:                 {NoUserAgent, "no-user-agent", Error, "rules but no user-agent line at all"},
	NoRules:                     {NoRules, "no-rules", Info, "no allow or disallow line at all"},
	LineTooLong:                 {LineTooLong, "line-too-long", Warning, "over 16,663 bytes: Google cuts the line"},
	MissingColon:                {MissingColon, "missing-colon", Warning, "key value without a colon (Google accepts exactly two words)"},
	UnparsableLine:              {UnparsableLine, "unparsable-line", Error, "a line Google cannot use (e.g. three words, no colon)"},
	TypoAccepted:                {TypoAccepted, "typo-accepted", Warning, "a misspelled key Google accepts (useragent, dissallow, site-map, ...)"},
	TypoIgnored:                 {TypoIgnored, "typo-ignored", Error, "a near miss of a known key that Google drops (desallow, user-agnet, sitmap, ...)"},
	KeyPrefixMatch:              {KeyPrefixMatch, "key-prefix-match", Warning, "a key that only starts with a directive (disallowed:), which Google accepts"},
	WhitespaceBeforeColon:       {WhitespaceBeforeColon, "whitespace-before-colon", Info, "whitespace between key and colon (disallow : /x)"},
	UnknownDirective:            {UnknownDirective, "unknown-directive", Warning, "a key nobody defines"},
	UnsupportedDirective:        {UnsupportedDirective, "unsupported-directive", Info, "a known extension Google ignores (crawl-delay, host, noindex, ...)"},
	HTMLMarkup:                  {HTMLMarkup, "html-markup", Error, "HTML tags in a line"},
	EndOfLineComment:            {EndOfLineComment, "end-of-line-comment", Info, "a comment after a directive (older crawlers misread it)"},
	LeadingWhitespace:           {LeadingWhitespace, "leading-whitespace", Info, "a directive line starting with whitespace"},
	RuleOutsideGroup:            {RuleOutsideGroup, "rule-outside-group", Error, "allow/disallow before any user-agent line: ignored"},
	EmptyUserAgent:              {EmptyUserAgent, "empty-user-agent", Error, "User-agent: with no value"},
	UserAgentTruncated:          {UserAgentTruncated, "user-agent-truncated", Warning, "the name has characters outside [A-Za-z_-]: Google matches only the part before them"},
	UserAgentWildcard:           {UserAgentWildcard, "user-agent-wildcard", Warning, "'*' inside a name (*bot): not a wildcard"},
	AgentsMergedAcrossBlankLine: {AgentsMergedAcrossBlankLine, "agents-merged-across-blank-line", Warning, "user-agent lines separated only by a blank line form one group"},
	EmptyGroup:                  {EmptyGroup, "empty-group", Info, "the last group has no rules"},
	DuplicateGroup:              {DuplicateGroup, "duplicate-group", Warning, "a later group for an agent already seen: Google merges them"},
	CrawlDelayInvalid:           {CrawlDelayInvalid, "crawl-delay-invalid", Warning, "crawl-delay that is not a non-negative number"},
	ConflictingRules:            {ConflictingRules, "conflicting-rules", Warning, "an allow and a disallow with the same pattern in one group"},
	DuplicateRule:               {DuplicateRule, "duplicate-rule", Info, "the same rule twice in one group"},
	PathNotAbsolute:             {PathNotAbsolute, "path-not-absolute", Error, "a pattern not starting with / or *: never matches"},
	PathIsURL:                   {PathIsURL, "path-is-url", Error, "a pattern that is a whole URL: never matches"},
	MultiplePaths:               {MultiplePaths, "multiple-paths", Error, "several whitespace-separated paths in one value"},
	DollarNotAtEnd:              {DollarNotAtEnd, "dollar-not-at-end", Warning, "$ inside a pattern is literal"},
	Wildcard:                    {Wildcard, "wildcard", Info, "a pattern with *"},
	EndAnchor:                   {EndAnchor, "end-anchor", Info, "a pattern ending in $"},
	RedundantWildcard:           {RedundantWildcard, "redundant-wildcard", Info, "a trailing *, or /* (same as /)"},
	EmptyDisallow:               {EmptyDisallow, "empty-disallow", Info, "Disallow: with no value (allows everything)"},
	DisallowAll:                 {DisallowAll, "disallow-all", Warning, "Disallow: / in the * group: the site shuts out every crawler"},
	NonASCIIPath:                {NonASCIIPath, "non-ascii-path", Info, "raw non-ASCII bytes in a pattern (Google percent-encodes them)"},
	SitemapRelative:             {SitemapRelative, "sitemap-relative", Error, "a sitemap that is not an absolute URL"},
	SitemapBadScheme:            {SitemapBadScheme, "sitemap-bad-scheme", Error, "a sitemap scheme other than http, https or ftp"},
	SitemapEmpty:                {SitemapEmpty, "sitemap-empty", Error, "Sitemap: with no value"},
	PatternBadPercentEscape:     {PatternBadPercentEscape, "pattern-bad-percent-escape", Warning, "a % in a pattern not followed by two hex digits"},
	BOMDoubleEncoded:            {BOMDoubleEncoded, "bom-double-encoded", Error, "a line starting with a byte order mark encoded twice (ï»¿): Google ignores the line"},
}

// Codes returns the whole catalogue in a stable order.
func Codes() []CodeInfo {
	out := make([]CodeInfo, 0, numCodes-1)
	for _, ci := range catalogue[1:] {
		out = append(out, ci)
	}
	return out
}

// LookupCode returns the code with the given stable name.
func LookupCode(name string) (Code, bool) {
	for _, ci := range catalogue[1:] {
		if ci.Name == name {
			return ci.Code, true
		}
	}
	return codeNone, false
}

// String returns the stable name of the code.
func (c Code) String() string {
	if c == codeNone || c >= numCodes {
		return fmt.Sprintf("code(%d)", uint8(c))
	}
	return catalogue[c].Name
}

// Severity returns the severity of the code.
func (c Code) Severity() Severity {
	if c == codeNone || c >= numCodes {
		return 0
	}
	return catalogue[c].Severity
}

// Info returns the catalogue entry of the code.
func (c Code) Info() CodeInfo {
	if c >= numCodes {
		return CodeInfo{}
	}
	return catalogue[c]
}

// Diagnostic is one finding. Text and Arg are substrings of the parsed file:
// making one costs no allocation.
type Diagnostic struct {
	Line int    // 1-based line number as Google counts lines; 0 for the whole file
	Code Code   // what was found
	Text string // the line as written (without its end of line); "" for line 0
	Arg  string // the part of the line the finding is about, or a detail
	// Ref is another line the finding refers to, 0 if none: for
	// DuplicateGroup the earlier user-agent line naming the same crawler,
	// for Oversize the last line Google reads.
	Ref int
	// RefArg is what Ref is about: for DuplicateGroup the earlier agent as
	// written, for Oversize the part of line Ref that Google reads when the
	// cut falls inside it ("" when it falls at the end of the line).
	RefArg string
}

// Span returns the byte range of Text the finding is about: where Arg is
// in the line. It is (0, 0) for a finding about the whole line or file, or
// whose Arg is a detail (a size) rather than a part of the line.
func (d Diagnostic) Span() (start, end int) {
	if d.Line == 0 || d.Arg == "" || d.Code == LineTooLong {
		return 0, 0
	}
	i := strings.Index(d.Text, d.Arg)
	if i < 0 {
		return 0, 0
	}
	return i, i + len(d.Arg)
}

// Severity returns the severity of the diagnostic's code.
func (d Diagnostic) Severity() Severity { return d.Code.Severity() }

// Message explains the finding to a site owner, in one sentence.
func (d Diagnostic) Message() string {
	a := d.Arg
	switch d.Code {
	case HTTP5xx:
		return fmt.Sprintf("the server answered %s: Google treats the whole site as disallowed until robots.txt can be fetched", a)
	case HTTP429:
		return "the server answered 429 Too Many Requests: Google treats it as a server error and crawls nothing"
	case HTTP4xx:
		return fmt.Sprintf("the server answered %s: crawlers treat this as 'no robots.txt' and may crawl everything", a)
	case HTTP404:
		return fmt.Sprintf("the server answered %s: there is no robots.txt, so everything may be crawled", a)
	case HTTPRedirect:
		if a == "" {
			return "robots.txt redirects; crawlers follow the redirect and obey the target"
		}
		return fmt.Sprintf("robots.txt redirects to %q; crawlers follow it and obey the target", a)
	case RedirectCrossHost:
		return fmt.Sprintf("robots.txt redirects to another host (%s); the target's rules apply to this host", a)
	case HTMLContent:
		if a == "xml" {
			return "this is an XML document (a sitemap or an error page?), not a robots.txt: crawlers find no usable rules in it"
		}
		return "this is an HTML page, not a robots.txt: crawlers find no usable rules in it"
	case NonTextContentType:
		return fmt.Sprintf("served as %q; robots.txt should be text/plain", a)
	case Empty:
		return "the file is empty: everything may be crawled"
	case Oversize:
		switch {
		case d.Ref == 0:
			return fmt.Sprintf("the file is %s bytes; Google reads only the first 500 KiB (512,000 bytes) and ignores the rest", a)
		case d.RefArg != "":
			return fmt.Sprintf("the file is %s bytes; Google reads only the first 500 KiB (512,000 bytes): Google stops reading inside line %d and ignores the rest", a, d.Ref)
		}
		return fmt.Sprintf("the file is %s bytes; Google reads only the first 500 KiB (512,000 bytes): Google stops reading after line %d and ignores the rest", a, d.Ref)
	case CrawlerTruncated:
		// The reader that stored the capture gives these reasons itself
		// when the record has no WARC-Truncated field.
		switch a {
		case "body-cap":
			return "robocensus stored only the first part of this capture (body-cap: its own cap on stored bytes, not the crawler's); Google reads only the first 500 KiB, which were kept"
		case "record-cap":
			return "robocensus stopped reading this record at its own size cap (record-cap): rules after it were not seen"
		case "input-end":
			return "the input ended inside this record (input-end): rules after the cut were not seen"
		}
		return fmt.Sprintf("the crawler cut this capture (%s): rules after the cut were not seen", a)
	case BinaryContent:
		return "the file is binary (NUL bytes or mostly control characters), not text; it may be served compressed"
	case BOMUTF8:
		return "the file starts with a UTF-8 byte order mark; Google skips it, some crawlers read it as part of the first line"
	case BOMUTF16:
		return "the file is UTF-16 text; Google's parser reads UTF-8 only and finds no rules: save it as UTF-8"
	case InvalidUTF8:
		return "this line is not valid UTF-8 (a legacy encoding?); save the file as UTF-8"
	case MixedLineEndings:
		return fmt.Sprintf("line endings are mixed (%s); use one style, LF or CRLF", a)
	case NoUserAgent:
		return "the file has rules but no User-agent line, so crawlers ignore every rule"
	case NoRules:
		return "the file has no Allow or Disallow line: everything may be crawled"
	case LineTooLong:
		return fmt.Sprintf("this line is %s bytes; Google keeps only the first 16,663 bytes", a)
	case MissingColon:
		return fmt.Sprintf("missing ':' after %q; Google accepts it, other crawlers may not", a)
	case UnparsableLine:
		if a != "" {
			return fmt.Sprintf("a bare URL %q is not a directive; crawlers ignore it (a sitemap needs \"Sitemap: \" before it)", a)
		}
		return "this line is neither a directive nor a comment; crawlers ignore it"
	case TypoAccepted:
		return fmt.Sprintf("%q is misspelled; Google accepts it, other crawlers may ignore the line", a)
	case TypoIgnored:
		if hasNonASCII(a) || !isKeyLike(a) {
			return fmt.Sprintf("%q is %s with stray or invisible characters (an encoding problem?); crawlers do not recognise it and ignore the line", a, nearMissTarget(a))
		}
		return fmt.Sprintf("%q looks like a misspelled %s; crawlers do not recognise it and ignore the line", a, nearMissTarget(a))
	case KeyPrefixMatch:
		return fmt.Sprintf("%q is not a directive name; Google reads it by its prefix, other crawlers ignore it", a)
	case WhitespaceBeforeColon:
		return "whitespace before ':'; accepted, but unusual"
	case UnknownDirective:
		return fmt.Sprintf("unknown directive %q; crawlers ignore it", a)
	case UnsupportedDirective:
		return fmt.Sprintf("%q is an extension that Google ignores (some other crawlers obey it)", a)
	case HTMLMarkup:
		return "HTML markup in robots.txt: a page template leaked into the file"
	case EndOfLineComment:
		return "comment after a directive; old crawlers may read it as part of the value"
	case LeadingWhitespace:
		return "the line starts with whitespace; old crawlers may not recognise it"
	case RuleOutsideGroup:
		return "this rule comes before any User-agent line, so it applies to no crawler and is ignored"
	case EmptyUserAgent:
		return "User-agent has no value; the rules of this group apply to no crawler"
	case UserAgentTruncated:
		return fmt.Sprintf("user-agent %q has characters outside [A-Za-z_-]; Google matches only %q", a, ExtractAgentToken(a))
	case UserAgentWildcard:
		return fmt.Sprintf("'*' in user-agent %q is not a wildcard; Google matches only %q", a, ExtractAgentToken(a))
	case AgentsMergedAcrossBlankLine:
		return "a blank line does not end a group: this user-agent joins the group of the user-agent lines above"
	case EmptyGroup:
		return fmt.Sprintf("the last group (%s) has no rules: these crawlers may crawl everything", a)
	case DuplicateGroup:
		switch {
		case d.Ref == 0:
			return fmt.Sprintf("%q already has a group above; Google merges the rules of both groups", a)
		case equalFoldASCII(a, d.RefArg) || isGlobalAgent(a):
			return fmt.Sprintf("%q already has a group on line %d (%q); Google merges the rules of both groups", a, d.Ref, d.RefArg)
		}
		return fmt.Sprintf("%q already has a group on line %d (%q): Google reads both names as %q, so it merges the rules of both groups", a, d.Ref, d.RefArg, ExtractAgentToken(a))
	case CrawlDelayInvalid:
		return fmt.Sprintf("crawl-delay %q is not a non-negative number", a)
	case ConflictingRules:
		return fmt.Sprintf("allow and disallow of the same pattern %q in one group: the allow wins", a)
	case DuplicateRule:
		return fmt.Sprintf("the rule for %q already appears in this group", a)
	case PathNotAbsolute:
		return fmt.Sprintf("pattern %q does not start with '/' or '*', so it never matches", a)
	case PathIsURL:
		return fmt.Sprintf("pattern %q is a full URL; rules take a path such as /private/, so it never matches", a)
	case MultiplePaths:
		if looksLikeSeveralPaths(a) {
			return fmt.Sprintf("%q holds several paths; write one rule per path (it is matched as one pattern, spaces included)", a)
		}
		return fmt.Sprintf("%q contains whitespace, which URLs never do (a space is %%20): it never matches as written", a)
	case DollarNotAtEnd:
		return fmt.Sprintf("'$' inside %q is matched literally; only a final '$' marks the end of the URL", a)
	case Wildcard:
		return fmt.Sprintf("pattern %q uses the * wildcard", a)
	case EndAnchor:
		return fmt.Sprintf("pattern %q is anchored at the end with $", a)
	case RedundantWildcard:
		return fmt.Sprintf("the trailing '*' in %q changes nothing", a)
	case EmptyDisallow:
		return "Disallow with no value allows everything"
	case DisallowAll:
		return "Disallow: / for User-agent: * shuts out every crawler without a group of its own"
	case NonASCIIPath:
		return fmt.Sprintf("pattern %q has non-ASCII characters; Google matches their percent-encoded UTF-8 form", a)
	case SitemapRelative:
		return fmt.Sprintf("sitemap %q is not an absolute URL (it needs https://host/...)", a)
	case SitemapBadScheme:
		return fmt.Sprintf("sitemap %q must use http, https or ftp", a)
	case SitemapEmpty:
		return "Sitemap has no value"
	case PatternBadPercentEscape:
		return fmt.Sprintf("pattern %q has %q, a '%%' not followed by two hex digits; Google matches it literally, so it matches only URLs with the same broken escape (a literal '%%' is written %%25)", a, badPercentEscape(a))
	case BOMDoubleEncoded:
		return "this line starts with \"ï»¿\", a byte order mark encoded twice (the file was converted to UTF-8 twice); Google skips only a real byte order mark, so it does not recognise the directive and ignores the line: delete those characters"
	}
	return d.Code.String()
}
