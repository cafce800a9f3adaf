package sections

import (
	"encoding/json"
	"time"

	"github.com/robocensus/robocensus/analyze/internal/render"
)

// Ratio is a count and the count it is a share of. Its JSON form is
// {"n": N, "of": OF, "share": N/OF}.
type Ratio struct {
	N  int64 `json:"n"`
	Of int64 `json:"of"`
}

// Share returns N/Of, or 0 when Of is 0.
func (r Ratio) Share() float64 {
	if r.Of == 0 {
		return 0
	}
	return float64(r.N) / float64(r.Of)
}

// MarshalJSON adds the share to the two counts.
func (r Ratio) MarshalJSON() ([]byte, error) {
	type plain Ratio
	return json.Marshal(struct {
		plain
		Share float64 `json:"share"`
	}{plain(r), r.Share()})
}

// Crawl holds the figures of one crawl partition.
type Crawl struct {
	Crawl string `json:"crawl"`
	// Captures counts the rows of captures; Hosts the distinct
	// url_host_name values.
	Captures int64 `json:"captures"`
	Hosts    int64 `json:"hosts"`
	// ReadCaptures counts the captures whose body crawlers read: HTTP status
	// 2xx, or no status (tar entries, files).
	ReadCaptures int64 `json:"read_captures"`
	// UsableHosts counts the hosts whose deciding capture is a usable
	// robots.txt (see the package documentation).
	UsableHosts int64 `json:"usable_hosts"`
	// WithErrors counts the captures with at least one finding of severity
	// error, of all captures.
	WithErrors Ratio `json:"with_errors"`
	// FirstFetch and LastFetch bound fetch_time; nil when it is always NULL.
	FirstFetch *time.Time `json:"first_fetch,omitempty"`
	LastFetch  *time.Time `json:"last_fetch,omitempty"`

	Inputs       Inputs           `json:"inputs"`
	Outcomes     []OutcomeShare   `json:"outcomes"`
	Diagnostics  []CodeShare      `json:"diagnostics"`
	Sizes        Sizes            `json:"sizes"`
	Patterns     Patterns         `json:"patterns"`
	Typos        Typos            `json:"typos"`
	UserAgents   UserAgents       `json:"user_agents"`
	Sitemaps     Sitemaps         `json:"sitemaps"`
	SharedBodies SharedBodies     `json:"farms"` // section_farms.go
	WorstHosts   []HostErrors     `json:"worst_hosts"`
	Crawlers     CrawlerFigures   `json:"crawlers"`
	Preferences  UsagePreferences `json:"usage_preferences"` // section_preferences.go
	Mistakes     ClassicMistakes  `json:"classic_mistakes"`  // section_mistakes.go
	Readings     Disagreements    `json:"readings"`          // section_readings.go
	Templates    Authorship       `json:"templates"`         // section_templates.go
	Strata       *Strata          `json:"strata,omitempty"`  // section_strata.go, with a ranked host list only
	Changes      *Changes         `json:"changes,omitempty"` // section_changes.go, when a crawl precedes it in the report
}

// Inputs sums the inputs table of the crawl.
type Inputs struct {
	Inputs   int64 `json:"inputs"`
	Failed   int64 `json:"failed"` // not read to their end (error is not NULL)
	Bytes    int64 `json:"bytes"`
	Records  int64 `json:"records"`
	Captures int64 `json:"captures"`
	Skipped  int64 `json:"skipped"`
	Damage   int64 `json:"damage_events"`
}

// OutcomeShare is the share of captures with one outcome, and the HTTP
// statuses behind it.
type OutcomeShare struct {
	Outcome  string        `json:"outcome"`
	Captures Ratio         `json:"captures"` // of all captures
	Statuses []StatusCount `json:"statuses"` // most frequent first
}

// StatusCount counts the captures of one fetch_status; Status 0 stands for
// NULL (no HTTP status).
type StatusCount struct {
	Status   int32 `json:"status"`
	Captures int64 `json:"captures"`
}

// CodeShare is the prevalence of one diagnostic code.
type CodeShare struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	// Captures with at least one finding of the code, of all captures.
	Captures Ratio `json:"captures"`
	// Findings counts the rows of diagnostics with the code.
	Findings int64 `json:"findings"`
}

// Sizes is the distribution of the real payload sizes over the read
// captures: payload_length_real, or payload_length in crawls published
// before schema 2.1, which lack it.
type Sizes struct {
	Captures int64        `json:"captures"` // the read captures
	Buckets  []SizeBucket `json:"buckets"`
	Empty    Ratio        `json:"empty"`    // size 0
	Oversize Ratio        `json:"oversize"` // oversize: over 500 KiB
	Median   int64        `json:"median"`
	P90      int64        `json:"p90"`
	P99      int64        `json:"p99"`
	Max      int64        `json:"max"`
	Bytes    int64        `json:"bytes"` // the sum
}

// SizeBucket counts the read captures with Min <= size <= Max
// (Max -1: no upper bound).
type SizeBucket struct {
	Label    string `json:"label"`
	Min      int64  `json:"min"`
	Max      int64  `json:"max"`
	Captures Ratio  `json:"captures"`
}

// Patterns is the use of wildcards and end anchors in rules.
type Patterns struct {
	WithRules         int64 `json:"captures_with_rules"`
	Rules             int64 `json:"rules"`
	Allow             int64 `json:"allow"`
	Disallow          int64 `json:"disallow"`
	WildcardRules     Ratio `json:"wildcard_rules"`      // of Rules
	EndAnchorRules    Ratio `json:"end_anchor_rules"`    // of Rules
	WildcardCaptures  Ratio `json:"wildcard_captures"`   // of WithRules
	EndAnchorCaptures Ratio `json:"end_anchor_captures"` // of WithRules
}

// Typos is the prevalence of misspelled keys.
type Typos struct {
	Accepted TypoShare `json:"accepted"` // typo-accepted: Google reads the line
	Ignored  TypoShare `json:"ignored"`  // typo-ignored: Google drops the line
	Keys     []TypoKey `json:"keys"`     // the misspellings, most frequent first
}

// TypoShare counts the captures with a kind of typo, and its lines.
type TypoShare struct {
	Captures Ratio `json:"captures"` // of all captures
	Lines    int64 `json:"lines"`
}

// TypoKey is one misspelled key, lower-cased, and how often it is written.
type TypoKey struct {
	Key   string `json:"key"`
	Code  string `json:"code"`
	Lines int64  `json:"lines"`
}

// UserAgents are the user-agent values most often named.
type UserAgents struct {
	// Captures counts the captures with at least one user-agent line.
	Captures int64 `json:"captures"`
	// Distinct counts the distinct values, lower-cased.
	Distinct int64 `json:"distinct"`
	// Top lists the values (lower-cased) by the captures naming them.
	Top []NameCount `json:"top"`
}

// NameCount is a value and the captures that name it, of the captures with
// a user-agent line.
type NameCount struct {
	Name     string `json:"name"`
	Captures Ratio  `json:"captures"`
}

// Sitemaps counts the sitemaps declared.
type Sitemaps struct {
	Captures Ratio `json:"captures"` // read captures with a sitemap line, of read captures
	Lines    int64 `json:"lines"`    // rows of sitemaps
	Valid    Ratio `json:"valid"`    // valid lines, of Lines
}

// HostErrors is one host with many errors in its deciding capture.
type HostErrors struct {
	Host      string   `json:"host"`
	CaptureID string   `json:"capture_id"`
	Errors    int32    `json:"errors"`
	Warnings  int32    `json:"warnings"`
	Codes     []string `json:"codes"` // the error codes found, sorted
}

// CrawlerFigures is the section on tracked crawlers: for each, the share of
// hosts that name it and that leave it allowed, partly or fully disallowed,
// over two denominators.
type CrawlerFigures struct {
	UsableHosts int64 `json:"usable_hosts"`
	AllHosts    int64 `json:"all_hosts"`
	// Usable hosts that name at least one AI crawler; that name one and
	// disallow it fully; whose robots.txt disallows every AI crawler.
	AnyAINamed           Ratio          `json:"any_ai_named"`
	AnyAINamedDisallowed Ratio          `json:"any_ai_named_disallowed"`
	EveryAIDisallowed    Ratio          `json:"every_ai_disallowed"`
	Crawlers             []CrawlerShare `json:"crawlers"`
}

// CrawlerShare holds the figures of one tracked crawler.
type CrawlerShare struct {
	Agent    string       `json:"agent"`
	Kind     string       `json:"kind"` // "search", "ai", or "other" when not in the crawl's crawler list
	Operator string       `json:"operator,omitempty"`
	Usable   HostVerdicts `json:"usable"` // over the hosts with a usable robots.txt
	All      HostVerdicts `json:"all"`    // over all hosts
}

// HostVerdicts counts hosts by what their deciding capture says of a
// crawler. Allowed + Partial + Disallowed = Hosts.
type HostVerdicts struct {
	Hosts           int64 `json:"hosts"`
	Named           int64 `json:"named"`
	NamedDisallowed int64 `json:"named_disallowed"`
	Disallowed      int64 `json:"disallowed"`
	Partial         int64 `json:"partially_disallowed"`
	Allowed         int64 `json:"allowed"`
}

// Trends compares the crawls of the dataset, oldest first.
type Trends struct {
	Crawls []string `json:"crawls"`
	Series []Series `json:"series"`
}

// Series is one figure over the crawls. Shares are fractions (0.25 is 25%).
type Series struct {
	Name   string    `json:"name"`
	Share  bool      `json:"share"` // the values are shares, not counts
	Values []float64 `json:"values"`
}

// Delta returns the change from the first crawl to the last.
func (s Series) Delta() float64 {
	if len(s.Values) == 0 {
		return 0
	}
	return s.Values[len(s.Values)-1] - s.Values[0]
}

func Share(n, of int64) float64 { return Ratio{n, of}.Share() }

// fmtRatio writes "12.5% (3 of 24)".
func FormatRatio(r Ratio) string {
	return render.Share(r.Share()) + " (" + render.Int(r.N) + " of " + render.Int(r.Of) + ")"
}
