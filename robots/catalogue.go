package robots

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// The codes of the diagnostic catalogue, in the order they were added (a
// code's number never changes meaning). Each is documented by its entry in
// catalogue: name, severity, summary, documentation and message together.
const (
	codeNone Code = iota

	HTTP5xx
	HTTP429
	HTTP4xx
	HTTP404
	HTTPRedirect
	RedirectCrossHost
	HTMLContent
	NonTextContentType
	Empty
	Oversize
	CrawlerTruncated
	BinaryContent
	BOMUTF8
	BOMUTF16
	InvalidUTF8
	MixedLineEndings
	NoUserAgent
	NoRules
	LineTooLong
	MissingColon
	UnparsableLine
	TypoAccepted
	TypoIgnored
	KeyPrefixMatch
	WhitespaceBeforeColon
	UnknownDirective
	UnsupportedDirective
	HTMLMarkup
	EndOfLineComment
	LeadingWhitespace
	RuleOutsideGroup
	EmptyUserAgent
	UserAgentTruncated
	UserAgentWildcard
	AgentsMergedAcrossBlankLine
	EmptyGroup
	DuplicateGroup
	CrawlDelayInvalid
	ConflictingRules
	DuplicateRule
	PathNotAbsolute
	PathIsURL
	MultiplePaths
	DollarNotAtEnd
	Wildcard
	EndAnchor
	RedundantWildcard
	EmptyDisallow
	DisallowAll
	NonASCIIPath
	SitemapRelative
	SitemapBadScheme
	SitemapEmpty
	PatternBadPercentEscape
	BOMDoubleEncoded

	// Problems the archive readers (ingest) find with a record, not the
	// engine with a file: their Reader field is set, lint never reports
	// them, and the dataset's diagnostics table does.
	IngestHTTPStatusInvalid
	IngestHTTPHeaderInvalid
	IngestHTTPHeaderTooLarge
	IngestHTTPHeaderTooMany
	IngestHTTPHeaderUnterminated
	IngestChunkedInvalid
	IngestContentEncodingInvalid
	IngestContentEncodingUnsupported
	IngestBodyCapped
	IngestRecordCapped
	IngestLengthMismatch
	IngestRecordIncomplete
	IngestInputDamaged
	IngestDateInvalid
	IngestTargetURIInvalid
	IngestWARCHeaderInvalid
	IngestHostUnknown

	// Extension directives and usage preferences (issue 10).
	UsagePreference
	UsagePreferenceUnknownKey
	UsagePreferenceBadValue
	UsagePreferenceConflict
	UsagePathNotAbsolute
	LicenseNotAbsolute
	ExtensionValueInvalid

	// The classic mistakes of the 2.4-million-site survey (issue 14; see
	// Mistakes).
	ReversedSyntax
	CRLFLineEndings
	FilesListedOneByOne

	// A stray NUL byte in a text file (issue 27).
	NULByte
	// The body stored is cut by robocensus's reader, not by the crawler
	// (issue 27): see Response.StoredTruncated.
	StoredTruncated

	// Lines other parsers read differently from Google's (issue 31): one
	// code per DifferenceClass, in its order (DifferenceClass.Code), found
	// by File.ReadingDiagnostics, not in File.Diagnostics.
	DisagreeStatus
	DisagreeBodyEncoding
	DisagreeCrawlDelay
	DisagreeRobotsTxtAllowed
	DisagreeRulesBeforeUserAgent
	DisagreeEmptyUserAgent
	DisagreeBlankLineEndsGroup
	DisagreeKeySpelling
	DisagreeAgentMatching
	DisagreeEmptyDisallow
	DisagreeURLNormalisation
	DisagreePercentEncoding
	DisagreeWildcards
	DisagreeAllowOrder
	DisagreeOther
	// Template blocks: text that CDNs, CMSs, plugins and block lists put
	// into robots.txt files (issue 32; see Templates).
	TemplateFound
	TemplateListOutdated
	TemplateBlockCancelled

	numCodes
)

// catalogue holds one entry per code: everything about a code is said
// here, once. A test checks that every code has a complete entry.
var catalogue = [numCodes]CodeInfo{
	HTTP5xx: {
		Name: "http-5xx", Severity: Error,
		Summary: "status 500-599: full disallow while it lasts",
		Doc: "The server answered 500-599. Google treats the whole site as " +
			"disallowed while this lasts (RFC 9309 §2.3.1.4).",
		message: func(m message, a string) message {
			return m.add("the server answered ").add(a).add(": Google treats the whole site as disallowed until robots.txt can be fetched")
		},
	},
	HTTP429: {
		Name: "http-429", Severity: Error,
		Summary: "status 429: treated as a server error (full disallow)",
		Doc: "The server answered 429 Too Many Requests, which Google treats as a " +
			"server error: full disallow.",
		message: func(m message, a string) message {
			return m.add("the server answered 429 Too Many Requests: Google treats it as a server error and crawls nothing")
		},
	},
	HTTP4xx: {
		Name: "http-4xx", Severity: Warning,
		Summary: "4xx other than 404/410/429, e.g. 401/403: full allow, rarely meant",
		Doc: "A 4xx other than 404, 410 and 429 (401, 403, ...). Crawlers treat it " +
			"as \"no robots.txt\": everything is allowed, rarely what was meant.",
		message: func(m message, a string) message {
			return m.add("the server answered ").add(a).add(": crawlers treat this as 'no robots.txt' and may crawl everything")
		},
	},
	HTTP404: {
		Name: "http-404", Severity: Info,
		Summary: "404 or 410: no robots.txt",
		Doc:     "404 or 410, there is no robots.txt: everything is allowed.",
		message: func(m message, a string) message {
			return m.add("the server answered ").add(a).add(": there is no robots.txt, so everything may be crawled")
		},
	},
	HTTPRedirect: {
		Name: "http-redirect", Severity: Info,
		Summary: "3xx: the crawler follows the redirect",
		Doc: "A 3xx answer; the crawler follows it (Google: up to five hops) and " +
			"obeys the target. " +
			"When the target is an ordinary page (html-content), classic mistake 6 of the 2.4-million-site survey: a missing robots.txt redirected to a page.",
		message: func(m message, a string) message {
			if a == "" {
				return m.add("robots.txt redirects; crawlers follow the redirect and obey the target")
			}
			return m.add("robots.txt redirects to ").quote(a).add("; crawlers follow it and obey the target")
		},
	},
	RedirectCrossHost: {
		Name: "redirect-cross-host", Severity: Info,
		Summary: "the redirect target is another host",
		Doc:     "The redirect leads to another host.",
		message: func(m message, a string) message {
			return m.add("robots.txt redirects to another host (").add(a).add("); the target's rules apply to this host")
		},
	},
	HTMLContent: {
		Name: "html-content", Severity: Error,
		Summary: "an HTML page served as robots.txt",
		Doc: "An HTML page was served as robots.txt (a soft 404, a landing page, a " +
			"bot wall). Google finds no rules in it. " +
			"Classic mistake 6 of the 2.4-million-site survey: a missing robots.txt answered with an ordinary page.",
		message: func(m message, a string) message {
			if a == "xml" {
				return m.add("this is an XML document (a sitemap or an error page?), not a robots.txt: crawlers find no usable rules in it")
			}
			return m.add("this is an HTML page, not a robots.txt: crawlers find no usable rules in it")
		},
	},
	NonTextContentType: {
		Name: "non-text-content-type", Severity: Warning,
		Summary: "Content-Type other than text/plain",
		Doc:     "The Content-Type is not text/plain.",
		message: func(m message, a string) message {
			return m.add("served as ").quote(a).add("; robots.txt should be text/plain")
		},
	},
	Empty: {
		Name: "empty", Severity: Info,
		Summary: "no bytes, or only whitespace and comments",
		Doc:     "The file has no bytes, or only whitespace and comments.",
		message: func(m message, a string) message {
			return m.add("the file is empty: everything may be crawled")
		},
	},
	Oversize: {
		Name: "oversize", Severity: Error,
		Summary: "over 500 KiB (512,000 bytes): Google ignores the rest",
		Doc: "The file is over 500 KiB (512,000 bytes); Google ignores the rest, and " +
			"so do the verdicts of this package.",
		message: func(m message, a string) message {
			switch {
			case m.ref == 0:
				return m.add("the file is ").add(a).add(" bytes; Google reads only the first 500 KiB (512,000 bytes) and ignores the rest")
			case m.refArg != "":
				return m.add("the file is ").add(a).add(" bytes; Google reads only the first 500 KiB (512,000 bytes): Google stops reading inside line ").int(m.ref).add(" and ignores the rest")
			}
			return m.add("the file is ").add(a).add(" bytes; Google reads only the first 500 KiB (512,000 bytes): Google stops reading after line ").int(m.ref).add(" and ignores the rest")
		},
	},
	CrawlerTruncated: {
		Name: "crawler-truncated", Severity: Warning,
		Summary: "the capture was cut by the crawler (WARC-Truncated)",
		Doc: "The crawler cut the capture (its WARC record has WARC-Truncated: " +
			"\"length\", \"time\", \"disconnect\", ...), so the rules seen may be " +
			"incomplete. Only the crawler's cuts: a body robocensus itself stored " +
			"only part of is stored-truncated.",
		message: func(m message, a string) message {
			return m.add("the crawler cut this capture (").add(a).add("): rules after the cut were not seen")
		},
	},
	StoredTruncated: {
		Name: "stored-truncated", Severity: Info,
		Summary: "robocensus stored only part of the body (its own cap, or the input's end), not the crawler",
		Doc: "The crawler's capture may be whole, but robocensus stored only part " +
			"of its body: \"body-cap\", its cap on stored bytes (default 1 MiB, at " +
			"least 500 KiB, so all Google reads was kept; captures.payload_length_real " +
			"has the real size); \"record-cap\", its cap on the bytes of a record " +
			"read (the real size is larger than counted); \"input-end\", the input " +
			"ended or broke inside the record (rules after the cut were not seen; " +
			"ingest-record-incomplete says so). The crawler's own cuts are " +
			"crawler-truncated.",
		message: func(m message, a string) message {
			switch a {
			case StoredBodyCap:
				return m.add("robocensus stored only the first part of this capture (body-cap: its own cap on stored bytes, not the crawler's); Google reads only the first 500 KiB, which were kept")
			case StoredRecordCap:
				return m.add("robocensus stopped reading this record at its own size cap (record-cap): the file is larger than counted")
			case StoredInputEnd:
				return m.add("the input ended inside this record (input-end): rules after the cut were not seen")
			}
			return m.add("robocensus stored only part of this capture (").add(a).add(")")
		},
	},
	BinaryContent: {
		Name: "binary-content", Severity: Error,
		Summary: "not text: a known binary format (gzip, GIF, PNG, ...), or mostly control characters or NUL bytes",
		Doc: "The body is not text: it starts with the magic number of a known " +
			"binary format (gzip, zstd, xz, bzip2 or zlib-compressed data; a PNG, " +
			"GIF, JPEG, WebP or ICO image; a PDF document; a ZIP archive), or its " +
			"first KiB is full of control characters, NUL bytes or U+FFFD " +
			"replacement characters, the mark of binary data once decoded as " +
			"UTF-8 (more than one byte in ten, or more than one in 32 when there " +
			"are at least 8; a run of NULs counts once, NUL padding at the end not " +
			"at all). Crawlers " +
			"find no usable rules in it. Compressed data may be a body sent " +
			"compressed without a Content-Encoding header, or compressed twice. A " +
			"text file with a stray NUL byte is nul-byte instead. " +
			"Classic mistake 11 of the 2.4-million-site survey: a server that answers robots.txt with a binary file.",
		message: func(m message, a string) message {
			f := lookupBinaryFormat(a)
			switch {
			case f == nil:
				return m.add("the file is binary (full of control characters, NUL bytes or replacement characters), not text; crawlers find no usable rules in it")
			case f.compressed:
				return m.add("the file is ").add(f.name).add(", not text: it may be served compressed without a Content-Encoding header saying so, or compressed twice; crawlers find no usable rules in it")
			}
			return m.add("the file is ").add(f.name).add(", not text; crawlers find no usable rules in it")
		},
	},
	BOMUTF8: {
		Name: "bom-utf8", Severity: Info,
		Summary: "UTF-8 byte order mark (skipped)",
		Doc:     "The file starts with a UTF-8 byte order mark, which Google skips.",
		message: func(m message, a string) message {
			return m.add("the file starts with a UTF-8 byte order mark; Google skips it, some crawlers read it as part of the first line")
		},
	},
	BOMUTF16: {
		Name: "bom-utf16", Severity: Error,
		Summary: "UTF-16 text: unreadable for Google's parser",
		Doc: "The file is UTF-16 text, which Google's parser cannot read: every line " +
			"is cut at its first NUL byte, so no rule is seen. " +
			"With binary-content, classic mistake 11 of the 2.4-million-site survey: a server that answers robots.txt with a file crawlers cannot read.",
		message: func(m message, a string) message {
			return m.add("the file is UTF-16 text; Google's parser reads UTF-8 only and finds no rules: save it as UTF-8")
		},
	},
	InvalidUTF8: {
		Name: "invalid-utf8", Severity: Warning,
		Summary: "a line with bytes that are not UTF-8 (legacy encodings)",
		Doc: "A line has bytes that are not UTF-8 (a legacy encoding); non-ASCII " +
			"bytes in patterns are percent-encoded byte for byte.",
		message: func(m message, a string) message {
			return m.add("this line is not valid UTF-8 (a legacy encoding?); save the file as UTF-8")
		},
	},
	MixedLineEndings: {
		Name: "mixed-line-endings", Severity: Info,
		Summary: "CR, LF and CRLF mixed, or bare CR",
		Doc: "CR, LF and CRLF line endings are mixed, or bare CR is used. Google " +
			"accepts all three, older parsers may not. " +
			"With crlf-line-endings, classic mistake 3 of the 2.4-million-site survey: a file edited in DOS mode.",
		message: func(m message, a string) message {
			if !strings.Contains(a, ",") {
				// One kind only: bare CR, as in "3 CR".
				return m.add("every line ends in a bare CR (").add(a).add("), as old Mac OS editors saved files; Google and RFC 9309 accept it, older parsers may read the file as one long line: use LF or CRLF")
			}
			return m.add("line endings are mixed (").add(a).add("); use one style, LF or CRLF")
		},
	},
	NoUserAgent: {
		Name: "no-user-agent", Severity: Error,
		Summary: "rules but no user-agent line at all",
		Doc: "The file has allow or disallow lines but no user-agent line at all, so " +
			"every rule is ignored.",
		message: func(m message, a string) message {
			return m.add("the file has rules but no User-agent line, so crawlers ignore every rule")
		},
	},
	NoRules: {
		Name: "no-rules", Severity: Info,
		Summary: "no allow or disallow line at all",
		Doc:     "The file has no allow or disallow line at all.",
		message: func(m message, a string) message {
			return m.add("the file has no Allow or Disallow line: everything may be crawled")
		},
	},
	LineTooLong: {
		Name: "line-too-long", Severity: Warning,
		Summary: "over 16,663 bytes: Google cuts the line",
		Doc: "The line is over 16,663 bytes; Google keeps only the first 16,663 " +
			"bytes.",
		message: func(m message, a string) message {
			return m.add("this line is ").add(a).add(" bytes; Google keeps only the first 16,663 bytes")
		},
	},
	MissingColon: {
		Name: "missing-colon", Severity: Warning,
		Summary: "key value without a colon (Google accepts exactly two words)",
		Doc: "\"key value\" without a colon. Google accepts it when the line has " +
			"exactly two words; other parsers do not.",
		message: func(m message, a string) message {
			return m.add("missing ':' after ").quote(a).add("; Google accepts it, other crawlers may not")
		},
	},
	UnparsableLine: {
		Name: "unparsable-line", Severity: Error,
		Summary: "a line Google cannot use (e.g. three words, no colon)",
		Doc: "A line Google cannot use: no colon and not exactly two words, or " +
			"nothing before the colon. It is ignored.",
		message: func(m message, a string) message {
			if a != "" {
				return m.add("a bare URL ").quote(a).add(" is not a directive; crawlers ignore it (a sitemap needs \"Sitemap: \" before it)")
			}
			return m.add("this line is neither a directive nor a comment; crawlers ignore it")
		},
	},
	TypoAccepted: {
		Name: "typo-accepted", Severity: Warning,
		Summary: "a misspelled key Google accepts (useragent, dissallow, site-map, ...)",
		Doc: "A misspelled key that Google accepts: useragent, user agent, " +
			"dissallow, dissalow, disalow, diasllow, disallaw, site-map. Other " +
			"crawlers may drop the line.",
		message: func(m message, a string) message {
			return m.quote(a).add(" is misspelled; Google accepts it, other crawlers may ignore the line")
		},
	},
	TypoIgnored: {
		Name: "typo-ignored", Severity: Error,
		Summary: "a near miss of a known key that Google drops (desallow, user-agnet, sitmap, ...)",
		Doc: "A near miss of user-agent, allow, disallow or sitemap that Google does " +
			"not recognise (desallow, useg-agent, user-agnet, disalllow, sitmap, " +
			"user_agent, ...): the line is dropped.",
		message: func(m message, a string) message {
			if hasNonASCII(a) || !isKeyLike(a) {
				return m.quote(a).add(" is ").add(nearMissTarget(a)).add(" with stray or invisible characters (an encoding problem?); crawlers do not recognise it and ignore the line")
			}
			return m.quote(a).add(" looks like a misspelled ").add(nearMissTarget(a)).add("; crawlers do not recognise it and ignore the line")
		},
	},
	KeyPrefixMatch: {
		Name: "key-prefix-match", Severity: Warning,
		Summary: "a key that only starts with a directive (disallowed:), which Google accepts",
		Doc: "A key that only starts with a directive name (\"disallowed:\", " +
			"\"user-agents:\"); Google accepts it by its prefix.",
		message: func(m message, a string) message {
			return m.quote(a).add(" is not a directive name; Google reads it by its prefix, other crawlers ignore it")
		},
	},
	WhitespaceBeforeColon: {
		Name: "whitespace-before-colon", Severity: Info,
		Summary: "whitespace between key and colon (disallow : /x)",
		Doc:     "\"disallow : /x\". Google accepts it.",
		message: func(m message, a string) message {
			return m.add("whitespace before ':'; accepted, but unusual")
		},
	},
	UnknownDirective: {
		Name: "unknown-directive", Severity: Warning,
		Summary: "a key nobody defines",
		Doc:     "A key no crawler defines; ignored.",
		message: func(m message, a string) message {
			return m.add("unknown directive ").quote(a).add("; crawlers ignore it")
		},
	},
	UnsupportedDirective: {
		Name: "unsupported-directive", Severity: Info,
		Summary: "a known extension Google ignores (crawl-delay, host, content-signal, license, ...); the message says who honours it",
		Doc: "A known extension Google ignores: crawl-delay (Bing), host and " +
			"clean-param (Yandex), request-rate and visit-time (the 1996 Extended " +
			"Standard for Robot Exclusion), noindex, nofollow, noarchive and " +
			"revisit-after (meta-robots values), content-signal (Content Signals, " +
			"contentsignals.org), content-usage (IETF draft-ietf-aipref-attach), " +
			"license (RSL 1.0, rslstandard.org), domain and acap-* (ACAP). Each " +
			"such line is also a row of the dataset's directives table.",
		message: func(m message, a string) message {
			return m.quote(a).add(" is ").add(explainExtension(a)).add("; Google ignores it")
		},
	},
	HTMLMarkup: {
		Name: "html-markup", Severity: Error,
		Summary: "HTML tags in a line",
		Doc:     "HTML tags in a line: usually a page template leaking into the file.",
		message: func(m message, a string) message {
			return m.add("HTML markup in robots.txt: a page template leaked into the file")
		},
	},
	EndOfLineComment: {
		Name: "end-of-line-comment", Severity: Info,
		Summary: "a comment after a directive (older crawlers misread it)",
		Doc: "A comment after a directive; older crawlers read the comment as part " +
			"of the value. " +
			"Classic mistake 4 of the 2.4-million-site survey: a comment at the end of a line, which old parsers read as part of the value.",
		message: func(m message, a string) message {
			return m.add("comment after a directive; old crawlers may read it as part of the value")
		},
	},
	LeadingWhitespace: {
		Name: "leading-whitespace", Severity: Info,
		Summary: "a directive line starting with whitespace",
		Doc: "A directive line starting with whitespace; older crawlers may not " +
			"recognise it. " +
			"Classic mistake 5 of the 2.4-million-site survey: whitespace before a directive.",
		message: func(m message, a string) message {
			return m.add("the line starts with whitespace; old crawlers may not recognise it")
		},
	},
	RuleOutsideGroup: {
		Name: "rule-outside-group", Severity: Error,
		Summary: "allow/disallow before any user-agent line: ignored",
		Doc: "An allow or disallow line before any user-agent line: it belongs to no " +
			"group and is ignored.",
		message: func(m message, a string) message {
			return m.add("this rule comes before any User-agent line, so it applies to no crawler and is ignored")
		},
	},
	EmptyUserAgent: {
		Name: "empty-user-agent", Severity: Error,
		Summary: "User-agent: with no value",
		Doc:     "\"User-agent:\" with no value.",
		message: func(m message, a string) message {
			return m.add("User-agent has no value; the rules of this group apply to no crawler")
		},
	},
	UserAgentTruncated: {
		Name: "user-agent-truncated", Severity: Warning,
		Summary: "the name has characters outside [A-Za-z_-]: Google matches only the part before them",
		Doc: "The name has characters outside [A-Za-z_-] (\"Googlebot/2.1\", " +
			"\"MJ12bot\"); Google matches only the part before them.",
		message: func(m message, a string) message {
			return m.add("user-agent ").quote(a).add(" has characters outside [A-Za-z_-]; Google matches only ").quote(ExtractAgentToken(a))
		},
	},
	UserAgentWildcard: {
		Name: "user-agent-wildcard", Severity: Warning,
		Summary: "'*' inside a name (*bot): not a wildcard",
		Doc: "A '*' inside a name (\"*bot\", \"Google*\"): it is not a wildcard; Google " +
			"matches only the letters before it.",
		message: func(m message, a string) message {
			return m.add("'*' in user-agent ").quote(a).add(" is not a wildcard; Google matches only ").quote(ExtractAgentToken(a))
		},
	},
	AgentsMergedAcrossBlankLine: {
		Name: "agents-merged-across-blank-line", Severity: Warning,
		Summary: "user-agent lines separated only by a blank line form one group",
		Doc: "A user-agent line after a blank line that follows other user-agent " +
			"lines with no rule between: Google puts them in one group, the blank " +
			"line does not end a group.",
		message: func(m message, a string) message {
			return m.add("a blank line does not end a group: this user-agent joins the group of the user-agent lines above")
		},
	},
	EmptyGroup: {
		Name: "empty-group", Severity: Info,
		Summary: "the last group has no rules",
		Doc:     "The last group has no rules; its agents may crawl everything.",
		message: func(m message, a string) message {
			return m.add("the last group (").add(a).add(") has no rules: these crawlers may crawl everything")
		},
	},
	DuplicateGroup: {
		Name: "duplicate-group", Severity: Warning,
		Summary: "a later group for an agent already seen: Google merges them",
		Doc: "A later group names an agent already named by an earlier group; Google " +
			"merges their rules.",
		message: func(m message, a string) message {
			switch {
			case m.ref == 0:
				return m.quote(a).add(" already has a group above; Google merges the rules of both groups")
			case equalFoldASCII(a, m.refArg) || isGlobalAgent(a):
				return m.quote(a).add(" already has a group on line ").int(m.ref).add(" (").quote(m.refArg).add("); Google merges the rules of both groups")
			}
			return m.quote(a).add(" already has a group on line ").int(m.ref).add(" (").quote(m.refArg).add("): Google reads both names as ").quote(ExtractAgentToken(a)).add(", so it merges the rules of both groups")
		},
	},
	CrawlDelayInvalid: {
		Name: "crawl-delay-invalid", Severity: Warning,
		Summary: "crawl-delay that is not a non-negative number",
		Doc:     "A crawl-delay that is not a non-negative number.",
		message: func(m message, a string) message {
			return m.add("crawl-delay ").quote(a).add(" is not a non-negative number")
		},
	},
	ConflictingRules: {
		Name: "conflicting-rules", Severity: Warning,
		Summary: "an allow and a disallow with the same pattern in one group",
		Doc: "An allow and a disallow with the same pattern in one group; the allow " +
			"wins.",
		message: func(m message, a string) message {
			return m.add("allow and disallow of the same pattern ").quote(a).add(" in one group: the allow wins")
		},
	},
	DuplicateRule: {
		Name: "duplicate-rule", Severity: Info,
		Summary: "the same rule twice in one group",
		Doc:     "The same rule twice in one group.",
		message: func(m message, a string) message {
			return m.add("the rule for ").quote(a).add(" already appears in this group")
		},
	},
	PathNotAbsolute: {
		Name: "path-not-absolute", Severity: Error,
		Summary: "a pattern not starting with / or *: never matches",
		Doc: "A pattern that starts with neither '/' nor '*': it never matches a URL " +
			"path. " +
			"Classic mistake 10 of the 2.4-million-site survey: a path without a leading slash (\"Disallow: john\"); see also reversed-syntax.",
		message: func(m message, a string) message {
			return m.add("pattern ").quote(a).add(" does not start with '/' or '*', so it never matches")
		},
	},
	PathIsURL: {
		Name: "path-is-url", Severity: Error,
		Summary: "a pattern that is a whole URL: never matches",
		Doc:     "A pattern that is a whole URL: it never matches a URL path.",
		message: func(m message, a string) message {
			return m.add("pattern ").quote(a).add(" is a full URL; rules take a path such as /private/, so it never matches")
		},
	},
	MultiplePaths: {
		Name: "multiple-paths", Severity: Error,
		Summary: "several whitespace-separated paths in one value",
		Doc: "Several whitespace-separated paths in one value; the value is matched " +
			"as one pattern, spaces included. " +
			"Classic mistake 2 of the 2.4-million-site survey: several directories on one Disallow line.",
		message: func(m message, a string) message {
			if looksLikeSeveralPaths(a) {
				return m.quote(a).add(" holds several paths; write one rule per path (it is matched as one pattern, spaces included)")
			}
			return m.quote(a).add(" contains whitespace, which URLs never do (a space is %20): it never matches as written")
		},
	},
	DollarNotAtEnd: {
		Name: "dollar-not-at-end", Severity: Warning,
		Summary: "$ inside a pattern is literal",
		Doc: "A '$' inside a pattern is a literal character; only a final '$' " +
			"anchors the end.",
		message: func(m message, a string) message {
			return m.add("'$' inside ").quote(a).add(" is matched literally; only a final '$' marks the end of the URL")
		},
	},
	Wildcard: {
		Name: "wildcard", Severity: Info,
		Summary: "a pattern with *",
		Doc:     "The pattern uses '*'.",
		message: func(m message, a string) message {
			return m.add("pattern ").quote(a).add(" uses the * wildcard")
		},
	},
	EndAnchor: {
		Name: "end-anchor", Severity: Info,
		Summary: "a pattern ending in $",
		Doc:     "The pattern ends in '$'.",
		message: func(m message, a string) message {
			return m.add("pattern ").quote(a).add(" is anchored at the end with $")
		},
	},
	RedundantWildcard: {
		Name: "redundant-wildcard", Severity: Info,
		Summary: "a trailing *, or /* (same as /)",
		Doc: "A trailing '*' (and \"/*\", which equals \"/\") changes nothing but the " +
			"rule's length.",
		message: func(m message, a string) message {
			return m.add("the trailing '*' in ").quote(a).add(" changes nothing")
		},
	},
	EmptyDisallow: {
		Name: "empty-disallow", Severity: Info,
		Summary: "Disallow: with no value (allows everything)",
		Doc:     "\"Disallow:\" with no value: allows everything.",
		message: func(m message, a string) message {
			return m.add("Disallow with no value allows everything")
		},
	},
	DisallowAll: {
		Name: "disallow-all", Severity: Warning,
		Summary: "Disallow: / in the * group: the site shuts out every crawler",
		Doc: "\"Disallow: /\" in the '*' group: the site shuts out every crawler " +
			"without a group of its own.",
		message: func(m message, a string) message {
			return m.add("Disallow: / for User-agent: * shuts out every crawler without a group of its own")
		},
	},
	NonASCIIPath: {
		Name: "non-ascii-path", Severity: Info,
		Summary: "raw non-ASCII bytes in a pattern (Google percent-encodes them)",
		Doc: "Raw non-ASCII bytes in a pattern; Google percent-encodes them byte " +
			"for byte before matching (UTF-8 text as its UTF-8 bytes, text in a " +
			"legacy encoding such as Latin-1 as its own bytes), so URLs must be " +
			"percent-encoded the same way.",
		message: func(m message, a string) message {
			if b := firstInvalidByte(a); b != "" {
				return m.add("pattern ").quote(a).add(" has bytes that are not UTF-8 (a legacy encoding?); Google percent-encodes each byte as it is (").quote(b).add(" as %").add(strings.ToUpper(strconv.FormatUint(uint64(b[0]), 16))).add("), so the rule matches only URLs with those bytes, not the UTF-8 form of the same characters")
			}
			return m.add("pattern ").quote(a).add(" has non-ASCII characters; Google matches their percent-encoded UTF-8 form")
		},
	},
	SitemapRelative: {
		Name: "sitemap-relative", Severity: Error,
		Summary: "a sitemap that is not an absolute URL",
		Doc:     "A sitemap that is not an absolute URL.",
		message: func(m message, a string) message {
			return m.add("sitemap ").quote(a).add(" is not an absolute URL (it needs https://host/...)")
		},
	},
	SitemapBadScheme: {
		Name: "sitemap-bad-scheme", Severity: Error,
		Summary: "a sitemap scheme other than http, https or ftp",
		Doc:     "A sitemap URL whose scheme is not http, https or ftp.",
		message: func(m message, a string) message {
			return m.add("sitemap ").quote(a).add(" must use http, https or ftp")
		},
	},
	SitemapEmpty: {
		Name: "sitemap-empty", Severity: Error,
		Summary: "Sitemap: with no value",
		Doc:     "\"Sitemap:\" with no value.",
		message: func(m message, a string) message {
			return m.add("Sitemap has no value")
		},
	},
	PatternBadPercentEscape: {
		Name: "pattern-bad-percent-escape", Severity: Warning,
		Summary: "a % in a pattern not followed by two hex digits",
		Doc: "A '%' in a pattern not followed by two hex digits (\"/a%3Mb\", \"/a%\", " +
			"\"/a%4\"). Google matches it literally, but such a path is not a valid " +
			"URL, so the rule rarely matches anything.",
		message: func(m message, a string) message {
			return m.add("pattern ").quote(a).add(" has ").quote(badPercentEscape(a)).add(", a '%' not followed by two hex digits; Google matches it literally, so it matches only URLs with the same broken escape (a literal '%' is written %25)")
		},
	},
	BOMDoubleEncoded: {
		Name: "bom-double-encoded", Severity: Error,
		Summary: "a line starting with a byte order mark encoded twice (ï»¿): Google ignores the line",
		Doc: "The line starts with \"ï»¿\" (C3 AF C2 BB C2 BF), a UTF-8 byte order " +
			"mark that was read as Latin-1 and saved as UTF-8 again. Google skips " +
			"only a real BOM at the start of the file, so the key is not recognised " +
			"and the line is ignored.",
		message: func(m message, a string) message {
			return m.add("this line starts with \"ï»¿\", a byte order mark encoded twice (the file was converted to UTF-8 twice); Google skips only a real byte order mark, so it does not recognise the directive and ignores the line: delete those characters")
		},
	},
	IngestHTTPStatusInvalid: {
		Name: "ingest-http-status-invalid", Severity: Warning, Reader: true,
		Summary: "the HTTP status line is missing or has no three-digit status code",
		Doc: "The HTTP status line is missing or has no three-digit status code; " +
			"the capture is stored without a status and its headers are still read.",
		message: readerMessage("http-status-invalid"),
	},
	IngestHTTPHeaderInvalid: {
		Name: "ingest-http-header-invalid", Severity: Warning, Reader: true,
		Summary: "an HTTP header line without a colon",
		Doc: "An HTTP header line without a colon; the line is ignored (reported " +
			"once per capture).",
		message: readerMessage("http-header-invalid"),
	},
	IngestHTTPHeaderTooLarge: {
		Name: "ingest-http-header-too-large", Severity: Warning, Reader: true,
		Summary: "the HTTP header block is larger than the reader's cap on header bytes (256 KiB)",
		Doc: "The HTTP header block is larger than the reader's cap on header bytes " +
			"(256 KiB by default); headers are read from the bytes under the cap " +
			"and the payload is taken to be empty.",
		message: readerMessage("http-header-too-large"),
	},
	IngestHTTPHeaderTooMany: {
		Name: "ingest-http-header-too-many", Severity: Warning, Reader: true,
		Summary: "more HTTP header fields than the reader's cap (1,000)",
		Doc: "More HTTP header fields than the reader's cap on fields (1,000 by " +
			"default); the extra ones are ignored.",
		message: readerMessage("http-header-too-many"),
	},
	IngestHTTPHeaderUnterminated: {
		Name: "ingest-http-header-unterminated", Severity: Warning, Reader: true,
		Summary: "the record ends inside the HTTP headers (no empty line)",
		Doc: "The record ends inside the HTTP headers (no empty line); the payload " +
			"is empty.",
		message: readerMessage("http-header-unterminated"),
	},
	IngestChunkedInvalid: {
		Name: "ingest-chunked-invalid", Severity: Warning, Reader: true,
		Summary: "Transfer-Encoding: chunked, but the chunk framing is broken",
		Doc: "Transfer-Encoding: chunked but the chunk framing is broken. When the " +
			"first chunk size is unreadable the payload is used as stored; " +
			"otherwise the body holds the chunks read before the error.",
		message: readerMessage("chunked-invalid"),
	},
	IngestContentEncodingInvalid: {
		Name: "ingest-content-encoding-invalid", Severity: Warning, Reader: true,
		Summary: "the payload cannot be decoded with its Content-Encoding",
		Doc: "The payload cannot be decoded with its Content-Encoding. When decoding " +
			"fails at once the body is the payload as stored; otherwise the bytes " +
			"decoded before the error.",
		message: readerMessage("content-encoding-invalid"),
	},
	IngestContentEncodingUnsupported: {
		Name: "ingest-content-encoding-unsupported", Severity: Warning, Reader: true,
		Summary: "a Content-Encoding other than gzip, x-gzip, deflate, br, zstd and identity, or more than one coding",
		Doc: "A Content-Encoding other than gzip, x-gzip, deflate, br, zstd and " +
			"identity, or more than one coding; the body is the payload as stored.",
		message: readerMessage("content-encoding-unsupported"),
	},
	IngestBodyCapped: {
		Name: "ingest-body-capped", Severity: Warning, Reader: true,
		Summary: "the decoded payload is larger than the reader's cap on stored body bytes (1 MiB)",
		Doc: "The decoded payload is larger than the reader's cap on stored body " +
			"bytes (1 MiB by default, like Common Crawl's crawler); the body kept " +
			"is what fits under the cap, and the capture's content_truncated is " +
			"body-cap unless the record has WARC-Truncated.",
		message: readerMessage("body-capped"),
	},
	IngestRecordCapped: {
		Name: "ingest-record-capped", Severity: Warning, Reader: true,
		Summary: "the payload (as stored or decoded) is larger than the reader's cap on a record (64 MiB)",
		Doc: "The payload (as stored or decoded) is larger than the reader's cap on " +
			"the bytes read for one record (64 MiB by default); the rest was " +
			"passed over unread, so the body's size is a lower bound. A " +
			"decompression bomb ends here.",
		message: readerMessage("record-capped"),
	},
	IngestLengthMismatch: {
		Name: "ingest-length-mismatch", Severity: Warning, Reader: true,
		Summary: "Content-Length (or the ARC length) disagrees with the data",
		Doc: "Content-Length (or the ARC length) disagrees with the data: the bytes " +
			"after the block are not the end of a record. The block was " +
			"re-delimited at the next record found, when that was possible (the " +
			"message says which).",
		message: readerMessage("length-mismatch"),
	},
	IngestRecordIncomplete: {
		Name: "ingest-record-incomplete", Severity: Warning, Reader: true,
		Summary: "the input ended, or its compressed stream broke, inside this record",
		Doc: "The input ended, or its compressed stream broke, inside this record; " +
			"the capture holds what could be read and its content_truncated is " +
			"input-end.",
		message: readerMessage("record-incomplete"),
	},
	IngestInputDamaged: {
		Name: "ingest-input-damaged", Severity: Warning, Reader: true,
		Summary: "the compressed data holding this record is damaged (a gzip checksum mismatch, ...)",
		Doc: "The compressed data holding this record is damaged (e.g. a gzip " +
			"checksum mismatch found at the end of its member); the bytes were used " +
			"as decoded.",
		message: readerMessage("input-damaged"),
	},
	IngestDateInvalid: {
		Name: "ingest-date-invalid", Severity: Warning, Reader: true,
		Summary: "WARC-Date, the ARC date or the archive date cannot be parsed",
		Doc: "WARC-Date, the ARC date or the archive date cannot be parsed; the " +
			"capture has no fetch time.",
		message: readerMessage("date-invalid"),
	},
	IngestTargetURIInvalid: {
		Name: "ingest-target-uri-invalid", Severity: Warning, Reader: true,
		Summary: "WARC-Target-URI is missing, wrapped in angle brackets or contains white space",
		Doc: "WARC-Target-URI is missing, wrapped in angle brackets or contains " +
			"white space; the capture's URL is the cleaned value.",
		message: readerMessage("target-uri-invalid"),
	},
	IngestWARCHeaderInvalid: {
		Name: "ingest-warc-header-invalid", Severity: Warning, Reader: true,
		Summary: "a WARC header line without a colon, or a repeated Content-Length with another value",
		Doc: "A WARC header line without a colon, or a repeated Content-Length with " +
			"another value; the line is ignored.",
		message: readerMessage("warc-header-invalid"),
	},
	IngestHostUnknown: {
		Name: "ingest-host-unknown", Severity: Warning, Reader: true,
		Summary: "no host can be derived from a tar entry or file name",
		Doc: "No host can be derived from a tar entry or file name; the capture's " +
			"URL and host are empty.",
		message: readerMessage("host-unknown"),
	},
	UsagePreference: {
		Name: "usage-preference", Severity: Info,
		Summary: "a usage preference (Content-Signal or Content-Usage), explained",
		Doc: "One key=value pair of a Content-Signal line (Content Signals Policy, " +
			"contentsignals.org: search, ai-input, ai-train = yes|no, use = " +
			"immediate|reference|full) or of a Content-Usage line (IETF " +
			"draft-ietf-aipref-attach §3 with the draft-ietf-aipref-vocab labels " +
			"train-ai, ai-use, search = y|n). The message says what it asks. A " +
			"preference concerns the use of content, not crawling: it changes no " +
			"verdict, and Google ignores it.",
		message: func(m message, a string) message {
			src, path := preferenceLine(m.text)
			it := cutItem(src, a)
			return writePreference(m, src, it.key, it.val, path)
		},
	},
	UsagePreferenceUnknownKey: {
		Name: "usage-preference-unknown-key", Severity: Warning,
		Summary: "a Content-Signal key or Content-Usage label its standard does not define",
		Doc: "A key that is not search, ai-input, ai-train or use on a " +
			"Content-Signal line, or a label that is not in the AI-preferences " +
			"vocabulary (train-ai, ai-use, search; earlier revisions: train-genai, " +
			"all, bots) on a Content-Usage line: readers ignore it " +
			"(draft-ietf-aipref-vocab §6.4). Content-Usage labels are " +
			"case-sensitive, and a key that is not lower case makes the whole line " +
			"unreadable (RFC 9651 dictionary parsing fails).",
		message: func(m message, a string) message {
			src, _ := preferenceLine(m.text)
			if src == ContentSignal {
				return m.quote(a).add(" is not a Content-Signal key (search, ai-input, ai-train, use); crawlers ignore it")
			}
			if !isSFKey(a) {
				return m.quote(a).add(" is not a valid Content-Usage label (labels are lower case, like train-ai); the whole line is unreadable, so none of its preferences counts")
			}
			return m.quote(a).add(" is not a label of the AI-preferences vocabulary (train-ai, ai-use, search); crawlers ignore it")
		},
	},
	UsagePreferenceBadValue: {
		Name: "usage-preference-bad-value", Severity: Warning,
		Summary: "a usage preference whose value is not the standard's (yes/no, y/n), or none at all",
		Doc: "A Content-Signal value other than yes or no (immediate, reference or " +
			"full for use), a Content-Usage value other than y or n, a key with no " +
			"value, or a line with no preference at all. The preference is " +
			"unknown: it neither allows nor forbids (draft-ietf-aipref-vocab §6.5).",
		message: func(m message, a string) message {
			src, _ := preferenceLine(m.text)
			if a == "" {
				return m.add("this ").add(preferenceName(src)).add(" line states no preference; write key=value pairs")
			}
			it := cutItem(src, a)
			switch {
			case !it.hasValue:
				return m.quote(a).add(" has no value, so the preference is unknown; write ").add(it.key).add("=").add(exampleValue(src, it.key))
			case src == ContentSignal && strings.EqualFold(it.key, "use"):
				return m.quote(a).add(": use takes immediate, reference or full; crawlers read the preference as unknown")
			case src == ContentSignal:
				return m.quote(a).add(": Content-Signal values are yes or no; crawlers read the preference as unknown")
			}
			return m.quote(a).add(": Content-Usage values are y or n (not yes/no); crawlers read the preference as unknown")
		},
	},
	UsagePreferenceConflict: {
		Name: "usage-preference-conflict", Severity: Warning,
		Summary: "the same usage preference stated twice for the same crawlers and path, with opposite values",
		Doc: "A category is both allowed and disallowed for the same crawlers and " +
			"path, on one line or two. Readers disagree on which counts: a " +
			"Structured Fields dictionary keeps the last value on a line, while " +
			"draft-ietf-aipref-vocab §5.1 lets the most restrictive win across " +
			"statements. The message names the earlier line.",
		message: func(m message, a string) message {
			if m.ref == 0 {
				return m.quote(a).add(" contradicts an earlier preference for the same crawlers; crawlers may follow either")
			}
			return m.quote(a).add(" contradicts ").quote(m.refArg).add(" on line ").int(m.ref).add(" for the same crawlers; crawlers may follow either (the AI-preferences rules let the more restrictive win)")
		},
	},
	UsagePathNotAbsolute: {
		Name: "usage-path-not-absolute", Severity: Warning,
		Summary: "a Content-Usage path not starting with /",
		Doc: "The path of a Content-Usage line must start with '/' " +
			"(draft-ietf-aipref-attach §3.2); one that does not never matches a URL " +
			"path, so the preference applies nowhere.",
		message: func(m message, a string) message {
			return m.add("Content-Usage path ").quote(a).add(" does not start with '/', so the preference applies to no URL")
		},
	},
	LicenseNotAbsolute: {
		Name: "license-not-absolute-url", Severity: Warning,
		Summary: "an RSL License that is not an absolute URL",
		Doc: "RSL 1.0 requires the License value to be a fully qualified URL, " +
			"scheme and host included, of an RSL license or feed file " +
			"(rslstandard.org, \"Adding RSL to robots.txt\").",
		message: func(m message, a string) message {
			if a == "" {
				return m.add("License has no value; RSL needs the absolute URL of a license file (https://host/license.xml)")
			}
			return m.add("License ").quote(a).add(" is not an absolute URL; RSL needs https://host/... so crawlers can find the license")
		},
	},
	ExtensionValueInvalid: {
		Name: "extension-value-invalid", Severity: Warning,
		Summary: "an extension directive whose value does not follow its definition (host, clean-param, request-rate, visit-time, ...)",
		Doc: "The value does not follow the definition of its directive: host " +
			"(Yandex: a host name, optional scheme and port), clean-param (Yandex: " +
			"p0[&p1...] [path]), request-rate (Extended Standard for Robot " +
			"Exclusion: n/t[s|m|h] [HHMM-HHMM]), visit-time (HHMM-HHMM), noindex, " +
			"nofollow and noarchive (a path), or an empty value. Crawlers that " +
			"honour the directive skip the line.",
		message: func(m message, a string) message {
			key := strings.ToLower(classify(m.line, m.text, false).KeyText)
			if a == "" {
				return m.add(key).add(" has no value; crawlers that honour it skip the line")
			}
			return m.add(key).add(" ").quote(a).add(" does not follow its definition (").add(extensionSyntax(key)).add("); crawlers that honour it skip the line")
		},
	},
	ReversedSyntax: {
		Name: "reversed-syntax", Severity: Error,
		Summary: "a rule of the * group whose value is a crawler's name (Disallow: googlebot)",
		Doc: "A rule of the '*' group whose value is a bare word naming a crawler " +
			"(a known product token, or a word ending in bot, spider or crawler): " +
			"the author meant to shut that crawler out, but wrote its name where a " +
			"path goes. The rule never matches (path-not-absolute is reported on " +
			"the same line) and the crawler is not blocked; write \"User-agent: " +
			"name\" then \"Disallow: /\". Classic mistake 1 of the 2.4-million-site " +
			"survey: reversed syntax (\"Disallow: scooter\").",
		message: func(m message, a string) message {
			return m.quote(a).add(" names a crawler, not a path: this blocks nothing; to shut ").add(a).add(" out write \"User-agent: ").add(a).add("\" followed by \"Disallow: /\"")
		},
	},
	CRLFLineEndings: {
		Name: "crlf-line-endings", Severity: Info,
		Summary: "every line ends in CRLF (a file edited in DOS/Windows mode)",
		Doc: "Every line ends in CRLF, as a file saved by a DOS or Windows editor. " +
			"Google and RFC 9309 accept it; some old parsers read the CR as part " +
			"of the value. Classic mistake 3 of the 2.4-million-site survey: a " +
			"file edited in DOS mode.",
		message: func(m message, a string) message {
			return m.add("the file has DOS/Windows line endings (CRLF, ").add(a).add(" lines); Google reads them, some old crawlers may not: LF is safest")
		},
	},
	FilesListedOneByOne: {
		Name: "files-listed-one-by-one", Severity: Info,
		Summary: "at least 20 rules of one group list files of one directory that no rule names",
		Doc: "At least 20 rules of one group each name a file of the same " +
			"directory (other than the root), and no rule of the group names the " +
			"directory itself. If the whole directory is meant, one rule does " +
			"it, and keeps the file short and the directory's new files covered; " +
			"the listing also tells everyone which files are private. Classic " +
			"mistake 8 of the 2.4-million-site survey: every file listed one by " +
			"one (one file listed 4,000).",
		message: func(m message, a string) message {
			n := m.refArg
			if n == "" {
				n = "many"
			}
			return m.add(n).add(" rules list files of ").add(a).add(" one by one; if the whole directory is meant, one rule \"Disallow: ").add(a).add("\" does it")
		},
	},
	NULByte: {
		Name: "nul-byte", Severity: Warning,
		Summary: "a NUL byte in a text file: Google reads the line only up to it",
		Doc: "A line of a text file holds a NUL byte: a stray one, or padding at " +
			"the end of the file. Google's parser reads each line only up to its " +
			"first NUL and ignores the rest of the line; other parsers may take " +
			"the whole file for binary and ignore it. The other findings of the " +
			"file are reported as usual. A body that is mostly NUL bytes or " +
			"control characters is binary-content instead.",
		message: func(m message, a string) message {
			const others = "other crawlers may take the whole file for binary"
			before, _ := strings.CutSuffix(m.text, a)
			rest := strings.Trim(a, "\x00 \t")
			blank := trimSpace(before) == ""
			switch {
			case rest == "" && blank:
				return m.add("this line is only NUL bytes (padding?); Google's parser skips them, ").add(others).add(": delete them")
			case rest == "":
				return m.add("this line ends in NUL bytes; Google's parser ignores them, ").add(others).add(": delete them")
			case blank:
				return m.add("this line starts with a NUL byte: Google's parser ignores the whole line (").quoteClipped(rest, 60).add("); ").add(others)
			}
			return m.add("this line has a NUL byte: Google's parser reads the line only up to it (").quoteClipped(before, 60).add(") and ignores the rest (").quoteClipped(rest, 60).add("); ").add(others)
		},
	},

	// Lines other parsers read differently (issue 31). Warnings where the
	// file (or the server) says something ambiguous or outside RFC 9309
	// that its owner can rewrite so that the parsers agree; infos where the
	// file follows RFC 9309 and a parser that departs from it (mostly
	// Python's robotparser before 3.13) reads it otherwise.
	DisagreeStatus: disagreement("status", Warning,
		"the HTTP status means something else to other parsers",
		"The HTTP status decides the verdicts, and parsers read it "+
			"differently: 401 and 403 disallow everything for Python's "+
			"urllib.robotparser and allow everything for Google; 429 allows "+
			"everything for RFC 9309 and crawler-commons, nothing for Google.",
		"the server's status means something else to other parsers than to Google"),
	DisagreeBodyEncoding: disagreement("body-encoding", Warning,
		"no rule decides, yet another parser's verdict differs: it cannot read the body",
		"No rule decides for either parser, and the status lets the body "+
			"be read, yet their verdicts differ: the other parser reads the "+
			"whole body otherwise. Mostly a body that is not UTF-8, which "+
			"Python's urllib.robotparser of 3.12 and earlier cannot decode "+
			"(python/cpython#138502 reads it): it reads no rule and "+
			"disallows everything, where Google reads the rules; save the "+
			"file as UTF-8.",
		"no rule decides, yet other parsers' verdicts differ from Google's: they read the whole file otherwise (not UTF-8, for Python's robotparser, which then disallows everything)"),
	DisagreeCrawlDelay: disagreement("crawl-delay", Warning,
		"a crawl delay over 300 seconds: crawler-commons disallows everything",
		"crawler-commons (the parser of Apache Nutch and of "+
			"Common Crawl's CCBot) disallows the whole site to a crawler "+
			"whose crawl delay is over its maximum of 300 seconds "+
			"(its default maximum crawl delay, as of version 1.6), whatever "+
			"the rules say; Google ignores Crawl-delay. The line named is the "+
			"first crawl delay over 300 seconds. Ask for 300 seconds or less, "+
			"or disallow the crawler outright.",
		"crawler-commons disallows everything to a crawler with a crawl delay over 300 seconds, Google ignores it"),
	DisagreeRobotsTxtAllowed: disagreement("robots-txt-always-allowed", Info,
		"a rule that disallows /robots.txt, which RFC 9309 and crawler-commons always allow",
		"RFC 9309 (section 2.2.2) and crawler-commons always allow "+
			"/robots.txt itself; Google's parser applies the rules to it like "+
			"to any other path, so this rule disallows it for Google only. "+
			"The line named is Google's deciding rule. The file may follow "+
			"RFC 9309; it is the parsers that differ.",
		"this rule disallows /robots.txt for Google; RFC 9309 and crawler-commons always allow it"),
	DisagreeRulesBeforeUserAgent: disagreement("rules-before-user-agent", Warning,
		"a deciding rule before any user-agent line Google reads",
		"A rule that decides for one parser stands before the first "+
			"user-agent line Google reads: Google ignores it, while another "+
			"parser reads a user-agent line Google does not (crawler-commons' "+
			"own misspellings, such as \"useg-agent\") and obeys the rule. "+
			"Spell \"User-agent:\" in full.",
		"this rule stands before any user-agent line Google reads: Google ignores it, another parser obeys it"),
	DisagreeEmptyUserAgent: disagreement("empty-user-agent", Warning,
		"an empty user-agent line: every crawler for Python's robotparser",
		"An empty \"User-agent:\" value names no crawler for Google, every "+
			"crawler for Python's urllib.robotparser, so the group's rules "+
			"apply to all Python crawlers. Name the crawler, or write \"*\".",
		"this empty user-agent line names every crawler for Python's robotparser, none for Google"),
	DisagreeBlankLineEndsGroup: disagreement("blank-line-ends-group", Warning,
		"a blank line between a group's user-agent lines and the rule: the group ends there for Python's robotparser before 3.13",
		"A blank line stands between this rule and the user-agent lines of "+
			"its group. Google and RFC 9309 read on; Python's "+
			"urllib.robotparser before CPython 3.13 (the python-legacy "+
			"reading) ends the group at the blank line, drops it and ignores "+
			"the rule. Delete the blank line.",
		"a blank line stands between this rule and its user-agent lines (Python's robotparser before 3.13 ends the group there)"),
	DisagreeKeySpelling: disagreement("key-spelling", Warning,
		"Google reads this misspelled or colon-less line, other parsers ignore it",
		"Google accepts a few misspelled keys (\"dissallow\", "+
			"\"useragent\"), key prefixes and lines without a colon; RFC 9309, "+
			"Python's urllib.robotparser and, for most of them, crawler-commons "+
			"do not, and ignore the line. The line named is the deciding rule "+
			"of either parser, or a user-agent line of its group, that is so "+
			"written. Spell the key in full, with its colon.",
		"Google reads this misspelled or colon-less line, other parsers ignore it"),
	DisagreeAgentMatching: disagreement("agent-matching", Warning,
		"parsers give a crawler this group differently",
		"Parsers match a crawler's name with user-agent lines differently: "+
			"Google compares the product token whole; Python's "+
			"urllib.robotparser takes a value contained in the crawler's name "+
			"(\"bot\" names GPTBot) and obeys the first matching group alone; "+
			"RFC 9309 wants the whole token; crawler-commons also takes a "+
			"value that starts with it. The line named is the user-agent line "+
			"of the group the other parser obeys. Name crawlers by their "+
			"product tokens, one group each.",
		"parsers give crawlers this group differently from Google"),
	DisagreeEmptyDisallow: disagreement("empty-disallow", Warning,
		"an empty Disallow that, read first, overrides the rules after it for Python's robotparser",
		"\"Disallow:\" with no path allows everything; Python's "+
			"urllib.robotparser before CPython 3.13 obeys the first matching "+
			"rule, so in a group with other rules it allows everything the "+
			"rules after it disallow. Delete it from a group with rules.",
		"this empty Disallow, read first, overrides the rules after it for Python's robotparser before 3.13"),
	DisagreeURLNormalisation: disagreement("url-normalisation", Warning,
		"a path with '?', ';', '#' or no leading '/' that parsers normalise differently",
		"The rule's path holds '?', ';' or '#', or does not start with "+
			"'/': parsers normalise it or the URL differently (Python's "+
			"urllib.robotparser of 3.12 and earlier drops an empty query, so "+
			"\"Disallow: /?\" is \"Disallow: /\", which blocks the whole "+
			"site; since python/cpython#138502 the '?' counts). Start paths with "+
			"'/', and avoid empty queries.",
		"other parsers normalise this rule's path differently from Google"),
	DisagreePercentEncoding: disagreement("percent-encoding", Info,
		"a path with percent-escapes or non-ASCII bytes that parsers encode differently",
		"The rule's path holds a percent-escape or bytes outside ASCII, "+
			"which parsers decode or encode differently: RFC 9309 and "+
			"crawler-commons decode escapes of unreserved characters "+
			"(\"/%7Ejoe\" is \"/~joe\"), Google does not; Python's "+
			"urllib.robotparser decodes and re-encodes every escape. The file "+
			"may follow RFC 9309; it is the parsers that differ.",
		"other parsers encode or decode this rule's path differently from Google"),
	DisagreeWildcards: disagreement("wildcards", Info,
		"'*' or '$' in a path: literal characters for Python's robotparser before 3.13",
		"'*' and a final '$' are wildcards for Google, RFC 9309 and "+
			"crawler-commons, literal characters for Python's "+
			"urllib.robotparser before CPython 3.13, which then matches the "+
			"rule with almost no URL. The rule follows RFC 9309.",
		"'*' and '$' in this rule are wildcards for Google, literal characters for Python's robotparser before 3.13"),
	DisagreeAllowOrder: disagreement("allow-order", Info,
		"an allow and a disallow that a first-match parser orders differently",
		"Google and RFC 9309 obey the longest matching rule; Python's "+
			"urllib.robotparser before CPython 3.13 the first in file order, "+
			"so an Allow after the Disallow it narrows (as in the default "+
			"file of many blog engines) does not count for it. Put the Allow line first: every "+
			"parser then agrees.",
		"a parser that obeys the first matching rule in file order reads this rule differently from Google, which obeys the longest (put the Allow line before the Disallow it narrows)"),
	DisagreeOther: disagreement("other", Info,
		"other parsers read this line differently, for none of the known reasons",
		"Another parser gives a crawler another verdict with this line, "+
			"and none of the other parsers-disagree classes explains it.",
		"other parsers read this line differently from Google"),
	TemplateFound: {
		Name: "template", Severity: Info,
		Summary: "a block of lines written by a template: a CDN's, a CMS's, a plugin's or a pasted block list",
		Doc: "The lines are a template's, in one of its versions (see robots.Templates): " +
			"Cloudflare's managed robots.txt and its Content Signals Policy, WordPress's " +
			"virtual file, the marked blocks of Yoast SEO and WPForms, the defaults of " +
			"Shopify, Squarespace, Wix and Blogger, or a release of the ai.robots.txt " +
			"block list. The finding is on the block's first line and names its last; the " +
			"block is intact (the template's lines and no others), extended (the " +
			"template's lines and some of the site's), edited (lines of the template " +
			"changed or missing) or marked (only its marker is known). Verdicts that " +
			"come from a template are defaults, not the site's decisions.",
		message: templateMessage,
	},
	TemplateListOutdated: {
		Name: "template-list-outdated", Severity: Warning,
		Summary: "a pasted ai.robots.txt block list older than the newest release",
		Doc: "A group that blocks a release of the ai.robots.txt list (its agents equal " +
			"to a release's, or near one) lacks agents the newest release shuts out: " +
			"the list was pasted once and not kept up to date, so the crawlers added " +
			"since may crawl. The message names the release it is nearest to, with its " +
			"date, and the agents it misses.",
		message: outdatedMessage,
	},
	TemplateBlockCancelled: {
		Name: "template-block-cancelled", Severity: Warning,
		Summary: "the site's own group re-allows a crawler that a template block shuts out",
		Doc: "A template block (Cloudflare's managed block, a pasted block list) shuts a " +
			"crawler out with Disallow: /, and a group of the site's own lines names the " +
			"same crawler. Google merges the groups that name a crawler, and the longest " +
			"matching rule wins with an allow winning a tie, so the site's Allow: / (or a " +
			"file that no longer disallows everything) cancels the template's block: the " +
			"crawler may crawl, whatever the template meant.",
		message: cancelledMessage,
	},
}

// readerMessage returns the message of a reader's problem: what it is,
// and the reader's detail when it gives one.
func readerMessage(problem string) func(message, string) message {
	return func(m message, detail string) message {
		m = m.add("the record has a problem: ").add(problem)
		if detail == "" {
			return m
		}
		return m.add(": ").add(detail)
	}
}

// firstInvalidByte returns the first byte of s that is not part of a
// UTF-8 sequence, or "".
func firstInvalidByte(s string) string {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return s[i : i+1]
		}
		i += n
	}
	return ""
}

// disagreement returns the catalogue entry of the code of a difference
// class: parsers-disagree-CLASS, marked as found by comparing readings,
// whose message is lead followed by the examples of its argument.
func disagreement(class string, sev Severity, summary, doc, lead string) CodeInfo {
	return CodeInfo{
		Name: "parsers-disagree-" + class, Severity: sev, Summary: summary,
		Doc: doc + " Found by comparing the readings of other parsers with " +
			"Google's (robocensus match --semantics all asks one URL); the " +
			"message names each parser that reads the line differently, " +
			"with a crawler and path for which its verdict differs. The " +
			"class is the first, in the order of the readings table's " +
			"classes, whose test the deciding lines pass: a parser named may " +
			"also differ there for a reason of a later class.",
		Readings: true,
		message: func(m message, a string) message {
			if a == "" {
				return m.add(lead)
			}
			return m.add(lead).add(": ").add(a)
		},
	}
}
