package schema

import (
	"fmt"
	"slices"
	"strings"

	"github.com/robocensus/robocensus/robots"
)

// The vocabularies of the dataset that ingest, analyze and the notebooks
// share, each defined here once: Go code imports these, and the notebooks
// get them as SQL macros from notebooks/vocabulary.sql, which the notebooks
// test generates from these definitions (go test ./notebooks -update) and
// fails on when stale. internal/archtest fails on a second spelling of one
// of them in the repository's Go or SQL.

// DecidingKey is what the deciding-capture order reads of a capture.
type DecidingKey struct {
	Redirect bool   // its outcome is redirect
	Fetched  int64  // fetch_time in Unix microseconds; a NULL time must be below every real one (math.MinInt64)
	ID       string // capture_id
}

// DecidesBefore reports whether the capture a decides for its host (in one
// crawl) before the capture b: a capture that is not a redirect before a
// redirect, then the latest fetched (a NULL fetch_time last), then the
// smallest capture_id. A host's deciding capture is the first of its
// captures in this order; [DecidingOrderSQL] is the same order in SQL.
func DecidesBefore(a, b DecidingKey) bool {
	if a.Redirect != b.Redirect {
		return !a.Redirect
	}
	if a.Fetched != b.Fetched {
		return a.Fetched > b.Fetched
	}
	return a.ID < b.ID
}

// DecidingOrderSQL is the order of [DecidesBefore] as an SQL ORDER BY list
// over the captures table's columns: a host's deciding capture in a crawl
// is the first row of
//
//	row_number() OVER (PARTITION BY crawl, url_host_name ORDER BY ...)
//
// The notebooks use it through the macro deciding_captures(t).
const DecidingOrderSQL = "(outcome = 'redirect'), fetch_time DESC NULLS LAST, capture_id"

// Fetch classes (hosts.fetch_class): Common Crawl's robotstxt-experiments
// classes of a host, by what its effective capture answered.
const (
	FetchRobotsWithRules     = "robots-with-rules"     // a usable robots.txt with at least one rule
	FetchRobotsNoRules       = "robots-no-rules"       // a usable robots.txt with none
	FetchNotRobots           = "not-robots"            // 2xx or no status, but HTML or another content that is not a robots.txt
	FetchHTTPAllowAll        = "http-allow-all"        // 404, 410, 401 and the other 4xx but 403 and 429
	FetchHTTPForbidden       = "http-forbidden"        // 403
	FetchHTTPDeferVisits     = "http-defer-visits"     // 5xx and 429
	FetchRedirectNotResolved = "redirect-not-resolved" // a redirect whose chain does not end at a capture
)

// FetchClassesBestFirst returns the fetch classes best first: a host's
// class is the first of its captures' classes in this order (redirects
// followed). The notebooks get it as fetch_classes_best_first().
func FetchClassesBestFirst() []string {
	return []string{FetchRobotsWithRules, FetchRobotsNoRules, FetchNotRobots,
		FetchHTTPAllowAll, FetchHTTPForbidden, FetchHTTPDeferVisits, FetchRedirectNotResolved}
}

// FetchClassColumns returns the fetch classes in the order of the columns
// of Common Crawl's table (after its "No robots.txt capture"), which the
// reports follow: the same classes as [FetchClassesBestFirst] in another
// order. The notebooks get it as fetch_classes().
func FetchClassColumns() []string {
	return []string{FetchHTTPForbidden, FetchHTTPDeferVisits, FetchHTTPAllowAll, FetchRedirectNotResolved,
		FetchNotRobots, FetchRobotsNoRules, FetchRobotsWithRules}
}

// UsableFetchClasses returns the fetch classes of a host whose effective
// capture is a usable robots.txt (robots.Outcome.Usable): robots-with-rules
// and robots-no-rules. The notebooks get it as usable_fetch_classes().
func UsableFetchClasses() []string { return slices.Clone(usableFetchClasses[:]) }

var usableFetchClasses = [...]string{FetchRobotsWithRules, FetchRobotsNoRules}

// IsUsableFetchClass reports whether class is one of [UsableFetchClasses].
func IsUsableFetchClass(class string) bool { return slices.Contains(usableFetchClasses[:], class) }

// FollowedAICrawlers returns the AI crawlers followed host by host, in the
// report's strata and in its changes between crawls, and in the notebooks
// (03, 11 and 12): the most named in robots.txt files and the most
// discussed, in the order the report lists them. A new slice each call.
// The notebooks get it as the table macro followed_ai_crawlers(), a row
// (ord, agent) for each, ord counting from 1.
func FollowedAICrawlers() []string {
	return []string{"GPTBot", "ClaudeBot", "CCBot", "Google-Extended", "PerplexityBot", "Bytespider", "Applebot-Extended"}
}

// FollowedAICrawlersSQL is [FollowedAICrawlers] as the rows of a DuckDB
// VALUES list, (1, 'GPTBot'), (2, 'ClaudeBot') and so on; the notebooks
// use it through the macro followed_ai_crawlers().
func FollowedAICrawlersSQL() string {
	names := FollowedAICrawlers()
	rows := make([]string, len(names))
	for i, name := range names {
		rows[i] = fmt.Sprintf("(%d, %s)", i+1, sqlString(name))
	}
	return strings.Join(rows, ", ")
}

// SQLStrings returns values as a DuckDB list literal of strings
// (['a', 'b']), each quoted with its single quotes doubled.
func SQLStrings(values []string) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = sqlString(v)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}

// sqlString quotes s as an SQL string literal, its single quotes doubled.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// NotRobotsCodesSQL is [robots.NotRobotsCodes] as a DuckDB list literal;
// the notebooks use it through the macro not_robots_codes().
func NotRobotsCodesSQL() string {
	codes := robots.NotRobotsCodes()
	names := make([]string, len(codes))
	for i, c := range codes {
		names[i] = c.String()
	}
	return SQLStrings(names)
}

// SeverityRank orders the values of the diagnostics' severity column:
// errors first, then warnings, then infos, then any other value.
func SeverityRank(severity string) int {
	for i, s := range []robots.Severity{robots.Error, robots.Warning, robots.Info} {
		if severity == s.String() {
			return i
		}
	}
	return 3
}

// NoTraining reports whether a row of preferences (allowed not NULL) asks
// that the whole site not train AI models, whichever crawler reads it:
// Content-Signal ai-train=no (the key in any case, as the engine reads it)
// or Content-Usage train-ai=n, file-wide or in a group of '*', for the
// path "/". The site check and the crawl report's preferences section
// both use it.
func NoTraining(source, category string, allowed bool, path string, agents []string) bool {
	training := source == robots.ContentSignal.String() && strings.EqualFold(category, "ai-train") ||
		source == robots.ContentUsage.String() && category == "train-ai"
	return training && !allowed && path == "/" && (len(agents) == 0 || slices.Contains(agents, "*"))
}

// DifferenceClass is one reason why two parsers give a file's crawler
// different verdicts: the readings table's class column, and the crawl
// report's ranking of them.
type DifferenceClass struct {
	Name string // stable, as in readings.class
	Doc  string // what differs, in one sentence
}

// Difference classes, each the name of a [DifferenceClass]. The census
// gives a difference the first class of [DifferenceClasses] whose test
// holds for the two readings' verdicts, deciding lines and URL path:
// robots.Explainer's class,
// whose names these are (a test holds them equal).
const (
	ClassStatus               = "status"
	ClassBodyEncoding         = "body-encoding"
	ClassCrawlDelay           = "crawl-delay"
	ClassRobotsTxtAllowed     = "robots-txt-always-allowed"
	ClassRulesBeforeUserAgent = "rules-before-user-agent"
	ClassEmptyUserAgent       = "empty-user-agent"
	ClassBlankLineEndsGroup   = "blank-line-ends-group"
	ClassKeySpelling          = "key-spelling"
	ClassAgentMatching        = "agent-matching"
	ClassEmptyDisallow        = "empty-disallow"
	ClassURLNormalisation     = "url-normalisation"
	ClassPercentEncoding      = "percent-encoding"
	ClassWildcards            = "wildcards"
	ClassAllowOrder           = "allow-order"
	ClassOther                = "other"
)

// DifferenceClasses returns the difference classes in the order the census
// tests them, the most specific first. A new slice each call. The
// notebooks get it as the table macro difference_classes(), a row
// (ord, class, doc) each.
func DifferenceClasses() []DifferenceClass {
	return []DifferenceClass{
		{ClassStatus, "the HTTP status decides, and the parsers read it differently (401 and 403 disallow everything for Python, 429 is a 4xx for RFC 9309)"},
		{ClassBodyEncoding, "no rule decides for the other parser although the status lets it read the body: it cannot read the body (Python: not UTF-8)"},
		{ClassCrawlDelay, "the crawler's crawl delay is over 300 seconds, and crawler-commons then disallows everything with no rule deciding"},
		{ClassRobotsTxtAllowed, "the URL is /robots.txt, which RFC 9309 and crawler-commons always allow and Google's rules may disallow"},
		{ClassRulesBeforeUserAgent, "a deciding rule stands before any user-agent line"},
		{ClassEmptyUserAgent, "a deciding rule's group has an empty user-agent value, which Python's parser takes to name every crawler"},
		{ClassBlankLineEndsGroup, "a blank line between the group's user-agent lines and Google's deciding rule ends the group for the other parser"},
		{ClassKeySpelling, "a deciding line of either parser, or a user-agent line of its group, is a misspelled key, a key prefix or lacks its colon: Google reads it, the other parser does not"},
		{ClassAgentMatching, "the deciding rules stand in groups of different user-agent lines: the parsers match the crawler's name with them, or pick among the groups, differently"},
		{ClassEmptyDisallow, "an empty Disallow decides for the other parser (Python: it allows everything and, read first, overrides the rules after it)"},
		{ClassURLNormalisation, "a deciding rule holds a question mark, semicolon or '#', or does not start with '/', and the parsers normalise it or the URL differently (Python 3.12 and earlier: \"Disallow: /?\" is \"/\")"},
		{ClassPercentEncoding, "a deciding rule holds a percent-escape or a byte outside ASCII, which the parsers encode or decode differently"},
		{ClassWildcards, "a deciding rule holds '*' or '$', a wildcard or anchor for Google and a literal character for the other parser"},
		{ClassAllowOrder, "the deciding rules are an allow and a disallow of the same group: the first match in file order decides for the other parser, the longest for Google"},
		{ClassOther, "none of the above"},
	}
}

// DifferenceClassesSQL is [DifferenceClasses] as the rows of a DuckDB
// VALUES list, (1, 'status', '...') and so on; the notebooks use it
// through the macro difference_classes().
func DifferenceClassesSQL() string {
	classes := DifferenceClasses()
	rows := make([]string, len(classes))
	for i, c := range classes {
		rows[i] = fmt.Sprintf("(%d, %s, %s)", i+1, sqlString(c.Name), sqlString(c.Doc))
	}
	return strings.Join(rows, ", ")
}

// ReadingParsers returns, for each name of robots.Semantics, the parser
// that reading reproduces, with its version, as the report names it.
// A semantics not listed is named by its name alone.
func ReadingParsers() map[string]string {
	return map[string]string{
		"google":          "Google's robotstxt library (github.com/google/robotstxt, as of 2024)",
		"python-legacy":   "Python urllib.robotparser, CPython 3.12 and earlier (checked against 3.11.7)",
		"python":          "Python urllib.robotparser after gh-138907 (CPython 3.13.x patch releases from May 2026, 3.14+)",
		"rfc9309":         "RFC 9309 (September 2022), by its letter",
		"crawler-commons": "crawler-commons 1.6 SimpleRobotRulesParser (Nutch, StormCrawler, CCBot)",
	}
}

// ReadingParser returns the parser and version [ReadingParsers] gives for
// the semantics named name, or name itself when it lists none.
func ReadingParser(name string) string {
	if p, ok := ReadingParsers()[name]; ok {
		return p
	}
	return name
}
