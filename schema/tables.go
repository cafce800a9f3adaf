package schema

import "time"

// Row is the set of row types, one per table of the dataset. Each is a plain
// struct whose `parquet` struct tags are the table's contract: the column
// names and types DuckDB sees (DESIGN.md, "Dataset"). Columns keep the order
// of the struct fields.
//
// The tags use these parquet-go options (see parquet.SchemaOf), chosen so that
// DuckDB reads exactly the types DESIGN.md lists:
//
//	Go type    | tag options                       | Parquet                            | DuckDB
//	-----------+-----------------------------------+------------------------------------+-----------
//	string     | (none)                            | BYTE_ARRAY (STRING), required      | VARCHAR
//	string     | optional                          | BYTE_ARRAY (STRING), optional      | VARCHAR, "" is NULL
//	string     | dict                              | as above, RLE_DICTIONARY encoded   | VARCHAR
//	int32      | (none)                            | INT32, required                    | INTEGER
//	int32      | optional                          | INT32, optional                    | INTEGER, 0 is NULL
//	int64      | (none)                            | INT64, required                    | BIGINT
//	*int32     | optional                          | INT32, optional                    | INTEGER, nil is NULL
//	*int64     | optional                          | INT64, optional                    | BIGINT, nil is NULL
//	bool       | (none)                            | BOOLEAN, required                  | BOOLEAN
//	time.Time  | timestamp(microsecond:local)      | INT64 TIMESTAMP(MICROS, UTC=false) | TIMESTAMP
//	time.Time  | optional,timestamp(...)           | as above, optional                 | TIMESTAMP, zero time is NULL
//	float64    | (none)                            | DOUBLE, required                   | DOUBLE
//	[]string   | list + parquet-element:",dict"    | 3-level LIST of required STRING    | VARCHAR[]
//	(all)      | (none: set by the Writer)         | ZSTD, fastest level (by default)   |
//
// Notes on the choices:
//
//   - NULL is the Go zero value. An optional column writes the zero value of
//     its field as NULL, so rows need no pointers. This is only used where the
//     zero value is never a real value: HTTP status 0, an empty string, the
//     zero [time.Time]. Read back with parquet-go, NULL becomes the zero value
//     again, so a round trip is exact. Where 0 is a real value and NULL is
//     needed too (group_index outside any group, payload_length_real in
//     rows kept from older files), the field is a pointer: nil is NULL.
//   - Timestamps are written with isAdjustedToUTC=false ("local" in
//     parquet-go's words), holding UTC wall-clock time. DuckDB reads
//     isAdjustedToUTC=true as TIMESTAMP WITH TIME ZONE, not TIMESTAMP; every
//     timestamp in the dataset is UTC by convention instead. The unit is the
//     microsecond, DuckDB's own. Arrow sees timestamp[us, tz=UTC].
//   - Dictionary encoding (dict) is used on columns that repeat across rows:
//     vocabularies (code, severity, outcome, directive, verdict, agent, MIME
//     types, truncation reasons), file names, and, in the tables that have
//     several rows per capture, capture_id and url_host_name, which come in
//     runs. Columns unique per row (capture_id in captures, url) stay PLAIN:
//     a dictionary would only add a page. A dictionary larger than
//     [DefaultDictionaryMaxBytes] falls back to PLAIN for the rest of the
//     row group, so a wrong guess costs little.
//   - Every column is compressed with zstd at its fastest level, set by the
//     Writer for all columns: ingest writes at crawl speed, and the files
//     are only about 4% larger than at zstd's default level. [WithCompression]
//     chooses Snappy or no compression instead, for the whole file.
//   - The crawl label is not a column: DuckDB adds crawl from the Hive
//     partition directory (crawl=<label>), see [PartitionDir].
type Row interface {
	Capture | Diagnostic | Rule | Sitemap | Agent | Input | Body | Directive | Preference | Host | Reading | TemplateBlock
}

// Capture is one row of the captures table: one robots.txt capture (a WARC
// response or resource record, an ARC record, a tar entry or a file), parsed.
// Column names follow Common Crawl's columnar index where they overlap.
type Capture struct {
	// CaptureID identifies the capture, unique in the dataset and stable
	// across reruns over the same input. Every other table joins on it.
	CaptureID string `parquet:"capture_id"`
	// URL is the target URI of the capture.
	URL string `parquet:"url"`
	// URLHostName is the host of URL, lower case.
	URLHostName string `parquet:"url_host_name"`
	// URLSurtKey is URL in the SURT form of Common Crawl's index and CDX
	// files ("com,example)/robots.txt"): the host's labels reversed and
	// joined by commas, without the scheme, a leading "www." (or "www2."
	// and the like) and the default port, then the path and query lower
	// case, a trailing slash dropped, the query's parameters sorted.
	// Session IDs are not stripped and escapes are kept as written, which
	// Common Crawl's canonicalizer would change: a robots.txt URL rarely
	// has either. NULL when URL has no host.
	URLSurtKey string `parquet:"url_surtkey,optional"`
	// URLHostTLD is the last label of the host ("com" for
	// www.example.com), as in Common Crawl's index, where it need not be
	// a top-level domain (the last byte of an IPv4 address); NULL for an
	// IPv6 address or no host.
	URLHostTLD string `parquet:"url_host_tld,optional,dict"`
	// URLHostRegisteredDomain is the host's registered domain by the
	// public suffix list ("example.co.uk" for www.example.co.uk, the
	// hosts table's url_host_registered_domain); NULL for an IP address
	// or a host the list cannot place.
	URLHostRegisteredDomain string `parquet:"url_host_registered_domain,optional"`
	// URLProtocol is the scheme of URL, lower case ("http" or "https");
	// NULL when URL has none (readers keep only http and https URLs, and
	// make up "https://HOST/robots.txt" for tar entries and files).
	URLProtocol string `parquet:"url_protocol,optional,dict"`
	// URLPort is the port written in URL; NULL when none is written
	// (even where it is the default one: "https://example.com:443/" has
	// 443), as in Common Crawl's index.
	URLPort int32 `parquet:"url_port,optional"`
	// FetchTime is when the crawler fetched the file, in UTC (WARC-Date, the
	// ARC date, or the tar entry's or file's modification time). The zero
	// time is written as NULL: unknown.
	FetchTime time.Time `parquet:"fetch_time,optional,timestamp(microsecond:local)"`
	// FetchStatus is the HTTP status; 0, written as NULL, when unknown (tar
	// entries and plain files).
	FetchStatus int32 `parquet:"fetch_status,optional"`
	// ContentMimeType is the Content-Type the server sent, without
	// parameters; NULL when none was sent.
	ContentMimeType string `parquet:"content_mime_type,optional,dict"`
	// ContentMimeDetected is the media type detected from the body; NULL when
	// not detected.
	ContentMimeDetected string `parquet:"content_mime_detected,optional,dict"`
	// ContentCharset is the charset the server declared: the charset
	// parameter of the Content-Type header, as written (charset names are
	// case-insensitive); NULL when none. Common Crawl's index fills its
	// content_charset from a detector (Apache Tika, for HTML pages), and
	// has none for robots.txt captures.
	ContentCharset string `parquet:"content_charset,optional,dict"`
	// PayloadLength is the number of body bytes stored (after any crawler
	// truncation and the stored-bytes cap): at most the cap (default 1
	// MiB), so not the size of a larger file; see PayloadLengthReal.
	PayloadLength int64 `parquet:"payload_length"`
	// PayloadLengthReal is the size of the whole payload as the input
	// holds it (decoded), counted past the stored-bytes cap: the file's
	// real size, which sizes and the 500 KiB limit are judged on. It
	// equals PayloadLength unless robocensus capped the body
	// (content_truncated robots.StoredBodyCap); for StoredRecordCap it is a
	// lower bound, and a body the crawler cut (WARC-Truncated) is as long as
	// the crawler kept it. NULL in files written before schema 2.1, and
	// for rows a rerun kept from them: use
	// coalesce(payload_length_real, payload_length).
	PayloadLengthReal *int64 `parquet:"payload_length_real,optional"`
	// ContentDigest is the digest of the payload as recorded in the input
	// (WARC-Payload-Digest with its algorithm, "sha1:" + base32), or the
	// SHA-1 ingest computes when the record has none; NULL when none.
	// Common Crawl's index writes the base32 digits alone: compare with
	// 'sha1:' || content_digest. (Schema 1.x: payload_digest.)
	ContentDigest string `parquet:"content_digest,optional"`
	// ContentTruncated is the reason the stored body is incomplete
	// ("length", "time", "disconnect" as in WARC-Truncated, or a robocensus
	// cap); NULL when the body is complete. (Schema 1.x: truncated.)
	ContentTruncated string `parquet:"content_truncated,optional,dict"`
	// Oversize reports a body over 500 KiB (512,000 bytes); verdicts are those
	// of the first 500 KiB, which is what Google obeys.
	Oversize bool `parquet:"oversize"`
	// WARCFilename names the file the capture was read from: the WARC or ARC
	// file, the tar archive, or the plain file.
	WARCFilename string `parquet:"warc_filename,dict"`
	// WARCRecordOffset is the offset of the record in WARCFilename, in
	// stored (compressed) bytes.
	WARCRecordOffset int64 `parquet:"warc_record_offset"`
	// WARCRecordLength is the length of the record in stored (compressed)
	// bytes.
	WARCRecordLength int64 `parquet:"warc_record_length"`
	// WARCSegment is the segment of a Common Crawl file, from its path
	// (crawl-data/CC-MAIN-.../segments/SEGMENT/robotstxt/...); NULL for
	// other inputs.
	WARCSegment string `parquet:"warc_segment,optional,dict"`
	// WARCRecordID is the WARC-Record-ID ("<urn:uuid:...>"); NULL for
	// inputs that have none (ARC, tar, files).
	WARCRecordID string `parquet:"warc_record_id,optional"`
	// FetchRedirect is the Location header of a 3xx response, as written;
	// NULL otherwise. (Schema 1.x: redirect_location.)
	FetchRedirect string `parquet:"fetch_redirect,optional"`
	// Outcome applies Google's HTTP rules: "rules", "no-rules",
	// "not-robots", "redirect", "allow-all", "disallow-all" or "unknown"
	// (DESIGN.md). A body with no HTTP status (a tar entry, a file) is
	// judged by its content as a 2xx body is: "not-robots" when it has no
	// rule and is HTML, XML, binary or UTF-16, else "unknown" (a
	// robots.txt, usable as "rules" and "no-rules" are). Crawls published
	// by earlier versions have "unknown" for every body with no status.
	Outcome string `parquet:"outcome,dict"`
	// LineCount is the number of lines in the parsed body.
	LineCount int32 `parquet:"line_count"`
	// GroupCount is the number of groups (runs of user-agent lines and the
	// rules that follow).
	GroupCount int32 `parquet:"group_count"`
	// RuleCount is the number of allow and disallow rules.
	RuleCount int32 `parquet:"rule_count"`
	// AllowCount is the number of allow rules.
	AllowCount int32 `parquet:"allow_count"`
	// DisallowCount is the number of disallow rules.
	DisallowCount int32 `parquet:"disallow_count"`
	// SitemapCount is the number of sitemap lines.
	SitemapCount int32 `parquet:"sitemap_count"`
	// WildcardRuleCount is the number of rules whose pattern has a '*'.
	WildcardRuleCount int32 `parquet:"wildcard_rule_count"`
	// ErrorCount is the number of diagnostics of severity "error".
	ErrorCount int32 `parquet:"error_count"`
	// WarningCount is the number of diagnostics of severity "warning".
	WarningCount int32 `parquet:"warning_count"`
	// InfoCount is the number of diagnostics of severity "info".
	InfoCount int32 `parquet:"info_count"`
	// UserAgents lists the user-agent values of the file as written, in
	// order; empty (never NULL) when there are none.
	UserAgents []string `parquet:"user_agents,list" parquet-element:",dict"`
	// StarDisallowsAll reports that the '*' group disallows "/".
	StarDisallowsAll bool `parquet:"star_disallows_all"`
	// Input is the input the capture was read from, as in the input column
	// of the inputs table, which it joins.
	Input string `parquet:"input,dict"`
}

// Diagnostic is one row of the diagnostics table: one finding of the robots
// engine in one capture.
type Diagnostic struct {
	// CaptureID joins captures.capture_id.
	CaptureID string `parquet:"capture_id,dict"`
	// URLHostName repeats captures.url_host_name for convenience.
	URLHostName string `parquet:"url_host_name,dict"`
	// Line is the 1-based line number; 0 means the whole file.
	Line int32 `parquet:"line"`
	// Code is the stable diagnostic code, e.g. "typo-accepted".
	Code string `parquet:"code,dict"`
	// Severity is "error", "warning" or "info".
	Severity string `parquet:"severity,dict"`
	// Text is the line, at most [MaxTextBytes] bytes (see [ClipText]). It is
	// NULL for line 0, and for an empty line.
	Text string `parquet:"text,optional"`
	// Message is the human-readable explanation, as lint prints it.
	Message string `parquet:"message"`
}

// Rule is one row of the rules table: one allow or disallow rule.
type Rule struct {
	// CaptureID joins captures.capture_id.
	CaptureID string `parquet:"capture_id,dict"`
	// URLHostName repeats captures.url_host_name for convenience.
	URLHostName string `parquet:"url_host_name,dict"`
	// GroupIndex is the 0-based index of the rule's group in the file.
	GroupIndex int32 `parquet:"group_index"`
	// UserAgents lists the user-agent values of the group, as written.
	UserAgents []string `parquet:"user_agents,list" parquet-element:",dict"`
	// Directive is "allow" or "disallow".
	Directive string `parquet:"directive,dict"`
	// Pattern is the path pattern, as written.
	Pattern string `parquet:"pattern"`
	// Line is the 1-based line number of the rule.
	Line int32 `parquet:"line"`
	// HasWildcard reports a '*' in Pattern.
	HasWildcard bool `parquet:"has_wildcard"`
	// HasEndAnchor reports a Pattern ending in '$'.
	HasEndAnchor bool `parquet:"has_end_anchor"`
}

// Sitemap is one row of the sitemaps table: one sitemap line.
type Sitemap struct {
	// CaptureID joins captures.capture_id.
	CaptureID string `parquet:"capture_id,dict"`
	// URLHostName repeats captures.url_host_name for convenience.
	URLHostName string `parquet:"url_host_name,dict"`
	// URL is the sitemap value, as written.
	URL string `parquet:"url"`
	// Line is the 1-based line number.
	Line int32 `parquet:"line"`
	// Valid reports an absolute http, https or ftp URL.
	Valid bool `parquet:"valid"`
}

// Agent is one row of the agents table: one tracked crawler (the
// ai.robots.txt list plus major search crawlers) in one capture.
type Agent struct {
	// CaptureID joins captures.capture_id.
	CaptureID string `parquet:"capture_id,dict"`
	// URLHostName repeats captures.url_host_name for convenience.
	URLHostName string `parquet:"url_host_name,dict"`
	// Agent is the crawler's name as the crawler list spells it
	// (robots.Crawler.Token), e.g. "GPTBot" or "Linguee Bot". Groups name
	// it by its product token, the name cut at its first character outside
	// [A-Za-z_-] ("Linguee"), by the one rule for crawler names documented
	// on robots.ExtractAgentToken.
	Agent string `parquet:"agent,dict"`
	// Named reports that a group names the agent's own product token
	// (rather than a token it falls back on, or '*').
	Named bool `parquet:"named"`
	// Verdict is "allowed", "partially-disallowed" or "disallowed", as
	// computed by the robots engine's matcher from the groups Via says.
	Verdict string `parquet:"verdict,dict"`
	// Via says through which group the verdict came (robots.Via): "named"
	// (a group names the agent's own token), "fallback" (no group names
	// it, and one names a token the crawler documents that it obeys then,
	// e.g. Googlebot for Googlebot-Image or Applebot), "star" (the '*'
	// groups) or "none" (no group applies: none names its tokens and there
	// is no '*' group, or the HTTP status decided). Added in schema 1.3.
	Via string `parquet:"via,dict"`
	// Source says whose lines shut the crawler out of the whole site
	// (robots.File.Attribute, each half read alone with Google's rules):
	// "template" (the lines of the file's template blocks, the templates
	// table, alone), "site" (the site's own lines alone; every full block
	// of a file without a template), "both" (each alone, or only the two
	// together); "none" when the verdict is not disallowed. Added in
	// schema 2.3: NULL in older crawls.
	Source string `parquet:"source,dict"`
	// Cancelled reports that the file's template lines alone shut the
	// crawler out and the file does not: the site's own lines undo the
	// template's block (a group naming the crawler merged with the
	// template's, its Allow: / as long as the Disallow: /). Added in
	// schema 2.3: NULL in older crawls.
	Cancelled bool `parquet:"cancelled"`
}

// Input is one row of the inputs table: one input given to ingest, with the
// accounting of what was read from it.
type Input struct {
	// Input names the input as given: a path, a URL, or a manifest line.
	Input string `parquet:"input"`
	// Bytes is the number of bytes read from the input (compressed).
	Bytes int64 `parquet:"bytes"`
	// Records is the number of records framed (WARC and ARC records, tar
	// entries, files).
	Records int64 `parquet:"records"`
	// Captures is the number of records that became rows of captures.
	Captures int64 `parquet:"captures"`
	// Skipped is the number of records that did not (requests, metadata,
	// records that could not be read).
	Skipped int64 `parquet:"skipped"`
	// SkippedByReason breaks Skipped down by reason, as a JSON object such
	// as {"metadata":261,"request":261}; "{}" when nothing was skipped.
	// Records = Captures + Skipped, and Skipped is the sum of its values.
	SkippedByReason string `parquet:"skipped_by_reason"`
	// DamageEvents is the number of damaged spots the reader recovered from
	// (corrupt compression, garbage, wrong lengths, truncation).
	DamageEvents int64 `parquet:"damage_events"`
	// Damage lists the first damaged spots as a JSON array of
	// {"kind","offset","skipped","detail"}; NULL when there were none.
	Damage string `parquet:"damage,optional"`
	// Error is why the input was not read to its end; "" (NULL) when it
	// was.
	Error string `parquet:"error,optional"`
	// Started is when reading began, in UTC.
	Started time.Time `parquet:"started,timestamp(microsecond:local)"`
	// Finished is when reading ended, in UTC.
	Finished time.Time `parquet:"finished,timestamp(microsecond:local)"`
	// LengthUnknown reports a remote input whose server announced no
	// length (no Content-Length: a chunked body, or one ended by closing
	// the connection), nor did a later answer: such an input may be short
	// although it was read to its end without error. False for local
	// inputs and announced lengths. Added in schema version 1.1.
	LengthUnknown bool `parquet:"length_unknown"`
}

// Body is one row of the bodies table: the text of a robots.txt file, kept
// once per payload digest and part file (hosts serving the same file share
// it). Captures join it on content_digest. Only bodies that crawlers read
// (2xx or unknown status) are kept, at most the 500 KiB that are parsed;
// bytes that are not UTF-8 are replaced by U+FFFD when written.
type Body struct {
	// ContentDigest joins captures.content_digest. (Schema 1.x:
	// payload_digest.)
	ContentDigest string `parquet:"content_digest"`
	// Body is the text that was parsed.
	Body string `parquet:"body"`
}

// MaxTextBytes is the most bytes of a line kept in diagnostics.text.
const MaxTextBytes = 200

// ClipText returns line cut to at most [MaxTextBytes] bytes, at a UTF-8
// boundary when line is valid UTF-8 there.
func ClipText(line string) string {
	if len(line) <= MaxTextBytes {
		return line
	}
	cut := MaxTextBytes
	for i := 0; i < 3 && cut > 0 && isContinuation(line[cut]); i++ {
		cut--
	}
	if isContinuation(line[cut]) {
		cut = MaxTextBytes // not UTF-8 here: cut bytes
	}
	return line[:cut]
}

// isContinuation reports a UTF-8 continuation byte (10xxxxxx).
func isContinuation(b byte) bool { return b&0xC0 == 0x80 }

// Directive is one row of the directives table: one line of a directive
// that some crawler or standard defines besides user-agent, allow,
// disallow and sitemap (crawl-delay, host, clean-param, request-rate,
// visit-time, noindex, content-signal, content-usage, license, ...).
type Directive struct {
	// CaptureID joins captures.capture_id.
	CaptureID string `parquet:"capture_id,dict"`
	// URLHostName repeats captures.url_host_name for convenience.
	URLHostName string `parquet:"url_host_name,dict"`
	// Line is the 1-based line number.
	Line int32 `parquet:"line"`
	// GroupIndex is the 0-based index of the group the line stands in, as
	// in rules.group_index; NULL for a line before any user-agent line,
	// which concerns the whole file.
	GroupIndex *int32 `parquet:"group_index,optional"`
	// UserAgents lists the user-agent values of that group, as written;
	// empty outside any group.
	UserAgents []string `parquet:"user_agents,list" parquet-element:",dict"`
	// Key is the directive's canonical name, lower case: "crawl-delay".
	Key string `parquet:"key,dict"`
	// Value is the value as written, trimmed, without its comment.
	Value string `parquet:"value"`
	// Valid reports a value that follows the syntax of the directive's
	// definition (a non-negative number for crawl-delay, an absolute URL
	// for license, ...).
	Valid bool `parquet:"valid"`
}

// Preference is one row of the preferences table: one usage preference a
// file states, a key=value pair of a Content-Signal (contentsignals.org)
// or Content-Usage (IETF AI preferences) line.
type Preference struct {
	// CaptureID joins captures.capture_id.
	CaptureID string `parquet:"capture_id,dict"`
	// URLHostName repeats captures.url_host_name for convenience.
	URLHostName string `parquet:"url_host_name,dict"`
	// Line is the 1-based line number.
	Line int32 `parquet:"line"`
	// Source is "content-signal" or "content-usage".
	Source string `parquet:"source,dict"`
	// UserAgents lists the user-agent values of the group the line stands
	// in; empty when the preference is file-wide.
	UserAgents []string `parquet:"user_agents,list" parquet-element:",dict"`
	// Path is the scope: the Content-Usage path, "/" when none.
	Path string `parquet:"path,dict"`
	// Category is the key as written by its vocabulary: search, ai-input,
	// ai-train for Content-Signal; train-ai, ai-use, search, ... for
	// Content-Usage.
	Category string `parquet:"category,dict"`
	// Value is the value as written ("no", "n"; "" when missing).
	Value string `parquet:"value,dict"`
	// Allowed is what the value says: true (yes, y), false (no, n), or
	// NULL when it is not understood.
	Allowed *bool `parquet:"allowed,optional"`
}

// Host is one row of the hosts table: one host of a crawl partition (a
// url_host_name with at least one capture) and what decides for it, after
// following redirects within the partition. It is computed when the
// partition is published.
type Host struct {
	// URLHostName is the host, as in captures.url_host_name.
	URLHostName string `parquet:"url_host_name"`
	// URLHostRegisteredDomain is the host's registered domain by the public
	// suffix list ("example.co.uk" for "www.example.co.uk"); NULL for an IP
	// address or a host that is itself a public suffix.
	URLHostRegisteredDomain string `parquet:"url_host_registered_domain,optional"`
	// CaptureID is the host's deciding capture: a capture that is not a
	// redirect if it has one, then the latest fetched, then the smallest
	// capture_id.
	CaptureID string `parquet:"capture_id"`
	// Captures is the number of captures of the host in the partition.
	Captures int32 `parquet:"captures"`
	// RedirectHops is the number of redirects followed from the deciding
	// capture: 0 when it is not a redirect.
	RedirectHops int32 `parquet:"redirect_hops"`
	// RedirectResult is what following the deciding capture's redirects
	// gave: none (not a redirect), resolved, not-captured, loop,
	// too-many-hops or invalid-location.
	RedirectResult string `parquet:"redirect_result,dict"`
	// EffectiveCaptureID is the capture whose answer decides for the host:
	// the deciding capture, or the end of its redirect chain; NULL when the
	// chain is unresolved.
	EffectiveCaptureID string `parquet:"effective_capture_id,optional"`
	// EffectiveOutcome is the outcome of the effective capture (the
	// captures.outcome vocabulary), "redirect" when the chain is
	// unresolved.
	EffectiveOutcome string `parquet:"effective_outcome,dict"`
	// FetchClass is Common Crawl's robotstxt-experiments class of the host:
	// robots-with-rules, robots-no-rules, not-robots, http-allow-all,
	// http-forbidden, http-defer-visits or redirect-not-resolved, the best
	// of its captures' classes (redirects followed) in that order.
	FetchClass string `parquet:"fetch_class,dict"`
}

// Reading is one row of the readings table, the census of parsers: a
// tracked crawler whose verdict for the site root, or whose full block,
// another parser's reading of the capture (semantics) gives differently
// from Google's reading. A capture, crawler and semantics without a row
// read as Google reads them (the agents table), so a new reading adds rows
// and semantics values, not columns. Ingest writes it from schema 2.2 on;
// [ReadingParsers] names each semantics' parser and version, and
// [DifferenceClasses] the classes.
type Reading struct {
	// CaptureID joins captures.capture_id.
	CaptureID string `parquet:"capture_id,dict"`
	// URLHostName repeats captures.url_host_name for convenience.
	URLHostName string `parquet:"url_host_name,dict"`
	// Agent is the crawler's token, as in agents.agent.
	Agent string `parquet:"agent,dict"`
	// Semantics is the reading ("python-legacy", "rfc9309", ...: the names
	// of robots.Semantics, never "google").
	Semantics string `parquet:"semantics,dict"`
	// RootAllowed is the reading's verdict for the site root "/".
	RootAllowed bool `parquet:"root_allowed"`
	// Blocked reports that the reading disallows the crawler every URL it
	// is asked: the root, a path no rule names, and the path each of the
	// file's first 200 allow rules names (its pattern with '*' and '$'
	// taken out): a crawler disallowed at the root is allowed elsewhere
	// only where an allow rule lets it or the root's rule stops matching.
	Blocked bool `parquet:"blocked"`
	// Line is the line of the rule that decided the reading's verdict at
	// Path; NULL when none did.
	Line int32 `parquet:"line,optional"`
	// GoogleRootAllowed, GoogleBlocked and GoogleLine are the same for
	// Google's reading (GoogleBlocked judged by the same paths).
	GoogleRootAllowed bool  `parquet:"google_root_allowed"`
	GoogleBlocked     bool  `parquet:"google_blocked"`
	GoogleLine        int32 `parquet:"google_line,optional"`
	// Path is the URL path at which the verdicts differ and whose deciding
	// lines Line and GoogleLine are: "/" when the root verdicts differ.
	Path string `parquet:"path,dict"`
	// Class is the difference class that explains the difference (one of
	// [DifferenceClasses]), found by comparing the deciding lines.
	Class string `parquet:"class,dict"`
}

// TemplateBlock is one row of the templates table: a block of a capture's
// robots.txt that a template of robots.Templates' catalogue wrote (a CDN's
// managed block, a CMS's default, a pasted ai.robots.txt release), as
// robots.File.Templates finds it. A capture without a row has no template
// block. Ingest writes it from schema 2.3 on.
type TemplateBlock struct {
	// CaptureID joins captures.capture_id.
	CaptureID string `parquet:"capture_id,dict"`
	// URLHostName repeats captures.url_host_name for convenience.
	URLHostName string `parquet:"url_host_name,dict"`
	// Template is the template's name in the catalogue
	// ("cloudflare-managed", "wordpress-core", "ai-robots-txt", ...).
	Template string `parquet:"template,dict"`
	// Version is the template's version ("2025-09", "5.5", or the
	// ai.robots.txt release tag "v1.32"): for a block list, the release
	// whose agents the group matches best.
	Version string `parquet:"version,dict"`
	// LineStart and LineEnd are the block's first and last lines (1-based,
	// inclusive, numbered as in diagnostics.line).
	LineStart int32 `parquet:"line_start"`
	LineEnd   int32 `parquet:"line_end"`
	// State is "intact" (the template's lines and nothing else), "edited"
	// (lines changed or missing), "extended" (all of them, and the site's
	// among them) or "marked" (only the template's marker is compared).
	State string `parquet:"state,dict"`
	// SiteLines is the number of the site's own directive lines inside
	// the block (rules added to the template's group, agents added to a
	// block list).
	SiteLines int32 `parquet:"site_lines"`
	// Similarity is, for an ai.robots.txt block list, the Jaccard index of
	// its agents and the release's (1 for an exact copy); 1 for the other
	// templates.
	Similarity float64 `parquet:"similarity"`
	// Missing are, for an ai.robots.txt block list, the agents of the
	// newest release the group does not name, in the release's order;
	// empty for the other templates.
	Missing []string `parquet:"missing,list" parquet-element:",dict"`
	// Released is when the template's version appeared (YYYY-MM-DD, or
	// YYYY-MM where its source gives only the month): the release date of
	// a pasted block list dates the copy. NULL when no public source dates
	// it.
	Released string `parquet:"released,optional,dict"`
}
