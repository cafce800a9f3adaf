// Package robots parses robots.txt files and answers crawl questions with
// the verdicts of Google's open-source robots.txt parser (RFC 9309 plus
// Google's documented leniencies), and names every problem it meets with a
// stable diagnostic code.
//
// It does no I/O and imports nothing of this repository: bytes in, a parsed
// [File] out. [Parse] never fails; whatever the input, problems become
// [Diagnostic] values.
//
// It is the engine the rest is built on: ingest parses every captured body
// with a [Parser] (one a worker, its storage reused from one capture to the
// next) and writes the verdicts of the [TrackedCrawlers],
// the rules, the sitemaps and the diagnostics as rows; analyze parses a
// host's robots.txt again for the site checks; robocensus lint and match
// run it on files at hand. The entry points: [Parse] and [ParseResponse]
// make a [File], and a [Parser] makes one File after another in storage it
// reuses; [File.Allowed], [File.Match] and [File.CrawlerAccess]
// answer for a URL or a crawler; [Codes] and [LookupCode] give the
// diagnostic catalogue.
//
// # Parsing
//
// A robots.txt file is read line by line as Google's parser reads it:
//
//   - a UTF-8 byte order mark (or any prefix of one) at the very start is
//     skipped;
//   - lines end at LF, CR or CRLF;
//   - a line keeps at most [MaxLineBytes] bytes and ends at a NUL byte;
//   - '#' starts a comment; surrounding whitespace is dropped;
//   - "key: value" is split at the first ':'; without a colon, "key value"
//     is accepted when the line holds exactly two words;
//   - keys are recognised by case-insensitive prefix (user-agent, allow,
//     disallow, sitemap) with a few accepted misspellings (useragent,
//     user agent, dissallow, dissalow, disalow, diasllow, disallaw,
//     site-map).
//
// Only the first [MaxBytes] (500 KiB) of a file count, as for Google's
// crawler; a larger file is flagged [Oversize].
//
// # Groups and matching
//
// User-agent lines open a group; a group takes the allow and disallow lines
// that follow, and ends at the next user-agent line after a rule (never at a
// blank line). A crawler obeys the groups that name it (its product token
// compared, ignoring ASCII case, with each name cut at its first character
// outside [A-Za-z_-]; [ExtractAgentToken] documents this one rule for
// crawler names), merged; only when none names it does it obey the '*'
// groups. Among their rules the longest matching pattern wins and an allow
// wins a tie. Patterns match from the start of the URL's path and query;
// '*' matches any run of characters and a final '$' anchors the end.
// Patterns are percent-encoded before matching; URLs are not.
//
// Some crawlers obey another token's group when no group names their own
// (Googlebot-Image obeys googlebot's, Applebot obeys Googlebot's): a
// [Crawler] lists them in Fallbacks, and [File.CrawlerAccess],
// [File.MatchCrawler] and [File.Select] follow the first of its tokens that
// a group names, saying through which group the answer came ([Via]).
//
// A parsed [File] is compiled once and matched many times:
// [File.Allowed] and [File.Match] do not reparse, and a match allocates
// nothing.
//
// # Diagnostics
//
// Each finding is a [Diagnostic]: a line (0 for the whole file), a [Code]
// and the text it concerns. Codes are stable names ("typo-accepted",
// "html-content", ...) with a [Severity]; [Codes] lists the catalogue, and
// each code is documented where it is declared. The diagnostics that need
// the HTTP response (status, Content-Type, redirects, crawler truncation)
// come from [ParseResponse].
//
// # Spans, not strings
//
// A File keeps one copy of the text it parsed, and its diagnostics,
// sitemaps, extensions and preferences keep offsets into their lines of
// it (spans), not strings; its rules and agents keep offsets into the
// text, and its groups index ranges of its agents and rules. They hold no
// pointer, so that the collector has nothing in them to scan. A string
// that is no part of the line (a size, a template's state) is kept once in
// a list of the File, and so are the patterns escaping changes. Their
// strings are read through the File, which keeps the text alive:
// d.Text(f), d.Arg(f), s.URL(f), e.Value(f), p.Category(f), r.Value(f),
// r.Pattern(f), a.Value(f), a.Token(f), each a part of the text, made
// without a copy; g.Agents(f) and g.Rules(f) are parts of the File's
// slices. A message is written from the spans with [AppendMessage] into a
// buffer the caller reuses; [Diagnostic.Message] makes it a string.
//
// # Extensions and usage preferences
//
// Lines Google ignores but some crawler or standard defines (crawl-delay,
// host, clean-param, request-rate, visit-time, noindex, content-signal,
// content-usage, license, ...) are kept in [File.Extensions], each with its
// group, the agents it addresses, its canonical key, its value and whether
// the value follows the directive's definition. The pairs of Content-Signal
// (contentsignals.org) and Content-Usage (IETF draft-ietf-aipref-attach
// and draft-ietf-aipref-vocab) lines are usage preferences,
// [File.Preferences]: whom and which paths they address, the category as
// written and whether its use is allowed, disallowed or unknown;
// [Preference.Explain] says what one asks. They concern the use of
// content, not crawling: no verdict depends on them. The usage-preference
// diagnostic explains each one, and malformed ones have codes of their own.
//
// # Templates
//
// Many robots.txt files are not written by their sites: a CDN prepends a
// managed block, a CMS serves a virtual default, a plugin inserts a marked
// block, a site pastes a release of the ai.robots.txt block list. The
// parse recognises these template blocks from its own lines and groups
// (no second parse): [File.Templates] gives each block's lines, template,
// version and whether it is intact, edited or extended; [Templates] is the
// catalogue, one entry per template and version with its source and date;
// [AIRobotsReleases] the agents of every release of the block list, so
// that a pasted copy is dated by the release it equals or is nearest to
// (Jaccard index of the agent sets). [File.Attribute] says whether a
// crawler's verdict comes from the template lines, the site's own lines or
// both, and whether the site's lines cancel a template's block. The
// template, template-list-outdated and template-block-cancelled codes
// report them.
//
// # HTTP status
//
// [ParseResponse] also applies Google's HTTP rules: a 4xx answer (other than
// 429) allows everything, a 5xx or 429 disallows everything, whatever the
// body says; see [File.Outcome].
//
// # Adding a diagnostic code
//
// A code is a constant appended to the list in catalogue.go (a code's
// number never changes meaning), with its entry in catalogue: name,
// severity, summary, documentation and message, all said there once
// (TestCatalogue fails on an incomplete entry). The parser reports it
// where it meets the problem (parse.add, in parse.go or the file of the
// check), and a fixture, testdata/diag/NAME.txt, gives a body and the exact
// findings it makes: TestEveryCodeHasAFixture fails for an engine code
// without one. The table of DESIGN.md's diagnostic catalogue is the
// contract it implements. The corpus test counts the files that raise each
// code in testdata/corpus-summary.golden: rewrite it with go test ./robots
// -update and review the diff. A problem found by ingest's archive readers
// is a catalogue entry too, marked as the reader's (the Ingest* codes).
//
// A tracked crawler is added to the list scripts/gencrawlers generates
// robots/crawlers.go from (go generate), not to crawlers.go itself.
package robots
