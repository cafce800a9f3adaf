package site

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"

	"github.com/robocensus/robocensus/analyze/internal/scan"
	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// SiteReport is the report on one host: its captures in every crawl, and
// for each crawl its deciding capture's robots.txt with the findings at
// their lines, what it says to the tracked crawlers and its sitemaps; then
// the findings of the site checks.
type SiteReport struct {
	Host string `json:"host"`
	// Captures lists every capture of the host, by crawl and fetch time.
	Captures []SiteCapture `json:"captures"`
	// Crawls holds, for each crawl with a capture of the host (oldest
	// first), what its deciding capture says.
	Crawls []*SiteCrawl `json:"crawls"`
	// Findings are those of the checks, most severe first.
	Findings []Finding `json:"findings"`
	// Checks names the checks that ran, with their documentation.
	Checks []CheckDoc `json:"checks"`
}

// SiteCapture is one capture of the host.
type SiteCapture struct {
	Crawl        string     `json:"crawl"`
	CaptureID    string     `json:"capture_id"`
	URL          string     `json:"url"`
	FetchTime    *time.Time `json:"fetch_time,omitempty"`
	Status       int32      `json:"fetch_status"` // 0: NULL
	Outcome      string     `json:"outcome"`
	ContentType  string     `json:"content_mime_type,omitempty"`
	Length       int64      `json:"payload_length"`      // bytes stored
	RealLength   int64      `json:"payload_length_real"` // the file's real size (payload_length in crawls published before schema 2.1)
	Digest       string     `json:"payload_digest,omitempty"`
	Truncated    string     `json:"truncated,omitempty"`
	Oversize     bool       `json:"oversize"`
	Redirect     string     `json:"redirect_location,omitempty"`
	Rules        int32      `json:"rules"`
	Errors       int32      `json:"errors"`
	Warnings     int32      `json:"warnings"`
	Infos        int32      `json:"infos"`
	WARCFilename string     `json:"warc_filename"`
	WARCOffset   int64      `json:"warc_record_offset"`
	WARCLength   int64      `json:"warc_record_length"`
	Deciding     bool       `json:"deciding"` // the capture the crawl's figures use

	fetch int64 // µs, noTime when NULL
}

// SiteCrawl is what the deciding capture of one crawl says.
type SiteCrawl struct {
	Crawl   string      `json:"crawl"`
	Capture SiteCapture `json:"capture"`
	// Listing is the robots.txt text with its findings; nil when the
	// dataset keeps no body for it (statuses crawlers do not read).
	Listing *Listing `json:"listing,omitempty"`
	// FileFindings are the findings about the whole file (line 0).
	FileFindings []SiteDiagnostic `json:"file_findings"`
	// Crawlers says what the host's robots.txt says of each tracked
	// crawler, redirects followed: the verdicts of its effective capture
	// (the hosts table's), which is the deciding capture unless its
	// redirects led to another one (CrawlersFrom).
	Crawlers []SiteCrawler `json:"crawlers"`
	// CrawlersFrom is the URL of the capture whose verdicts Crawlers
	// gives when redirects led to another capture than the deciding one;
	// empty otherwise.
	CrawlersFrom string `json:"crawlers_from,omitempty"`
	// Sitemaps are the sitemap lines.
	Sitemaps []SiteSitemap `json:"sitemaps"`
	// Preferences are the usage preferences the file states (Content-Signal,
	// Content-Usage), by line.
	Preferences []SitePreference `json:"preferences"`
	// Readings are the ways other parsers read the file differently from
	// Google's (site_readings.go); empty for a crawl published before the
	// readings table.
	Readings []SiteReading `json:"readings"`
	// Disagreements are the lines of the body that other parsers read
	// differently from Google's (site_readings.go): every such line, not
	// only those that change a tracked crawler's root verdict or full
	// block; nil when the dataset keeps no body.
	Disagreements []SiteDisagreement `json:"disagreements,omitempty"`
	// Templates are the template blocks of the body (site_templates.go):
	// who wrote which lines; nil when the dataset keeps no body.
	Templates []SiteTemplate `json:"templates,omitempty"`
	// SharedWith counts the other hosts of the crawl with a capture of the
	// same non-empty body.
	SharedWith int64 `json:"shared_with"`
	// Host is the host's row of the hosts table: its redirects followed
	// and Common Crawl's fetch class; nil for a crawl published before
	// the table existed.
	Host *SiteHost `json:"host,omitempty"`

	findings []SiteDiagnostic // all findings, until the listing is made
	text     string           // the body, when kept
}

// SiteHost is what the hosts table says of the host in a crawl (see
// schema.Host): the redirects followed from its deciding capture, the
// capture that answers for it at their end, and its fetch class.
type SiteHost struct {
	RegisteredDomain string `json:"registered_domain,omitempty"`
	RedirectHops     int32  `json:"redirect_hops"`
	RedirectResult   string `json:"redirect_result"`
	EffectiveID      string `json:"effective_capture_id,omitempty"`
	EffectiveURL     string `json:"effective_url,omitempty"`    // when it is another capture than the deciding one
	EffectiveDigest  string `json:"effective_digest,omitempty"` // its content digest, then
	EffectiveOutcome string `json:"effective_outcome"`
	FetchClass       string `json:"fetch_class"`
}

// Listing is a robots.txt text cut into lines as the engine numbers them.
// Long files are shortened: after the first [ListingHead] lines only the
// lines with findings are kept, with a gap marking what was left out.
type Listing struct {
	Digest string        `json:"payload_digest"`
	Total  int           `json:"total_lines"`
	Lines  []ListingLine `json:"lines"`
}

// ListingHead is the number of lines a listing shows in full.
const listingHead = 1000

// ListingLine is one line of a listing, or a gap of Skipped lines left out
// (Number 0).
type ListingLine struct {
	Number   int              `json:"number"`
	Text     string           `json:"text"`
	Skipped  int              `json:"skipped,omitempty"`
	Findings []SiteDiagnostic `json:"findings,omitempty"`
}

// SiteDiagnostic is one row of diagnostics of the host.
type SiteDiagnostic struct {
	Line     int32  `json:"line"`
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

// SitePreference is one usage preference: a key=value of a Content-Signal
// or Content-Usage line.
type SitePreference struct {
	Line   int32    `json:"line"`
	Source string   `json:"source"`      // "content-signal" or "content-usage"
	Agents []string `json:"user_agents"` // the group's; empty when file-wide
	Path   string   `json:"path"`
	// Category and Value are as written: "ai-train", "no".
	Category string `json:"category"`
	Value    string `json:"value"`
	Allowed  *bool  `json:"allowed"` // nil when the value is not understood
}

// SiteCrawler is what a robots.txt says of one tracked crawler.
type SiteCrawler struct {
	Agent   string `json:"agent"`
	Kind    string `json:"kind"`
	Named   bool   `json:"named"`
	Verdict string `json:"verdict"`
}

// SiteSitemap is one sitemap line.
type SiteSitemap struct {
	URL   string `json:"url"`
	Line  int32  `json:"line"`
	Valid bool   `json:"valid"`
}

// siteData reads what a dataset holds of one host.
type siteData struct{ *scan.Dataset }

// Build computes the report on one host (a url_host_name, compared in
// lower case) and runs the checks on it. It fails with an error wrapping
// [ErrNoSite] when no crawl holds a capture of the host.
func Build(ctx context.Context, dr *scan.Dataset, hostName string, checks []*Check) (*SiteReport, error) {
	d := siteData{dr}
	hostName = strings.ToLower(strings.TrimSpace(hostName))
	r := &SiteReport{Host: hostName, Captures: []SiteCapture{}, Crawls: []*SiteCrawl{}, Findings: []Finding{}}
	for _, crawl := range d.Crawls() {
		sc, caps, err := d.siteCrawl(ctx, crawl, hostName)
		if err != nil {
			return nil, err
		}
		r.Captures = append(r.Captures, caps...)
		if sc != nil {
			r.Crawls = append(r.Crawls, sc)
		}
	}
	if len(r.Crawls) == 0 {
		return nil, fmt.Errorf("%w: %q", ErrNoSite, hostName)
	}
	if err := runChecks(r, checks); err != nil {
		return nil, err
	}
	return r, nil
}

// siteCrawl gathers what one crawl holds of the host; nil when nothing.
func (d siteData) siteCrawl(ctx context.Context, crawl, hostName string) (*SiteCrawl, []SiteCapture, error) {
	caps, err := d.siteCaptures(ctx, crawl, hostName)
	if err != nil || len(caps) == 0 {
		return nil, caps, err
	}
	best := 0
	for i := range caps {
		if siteDecidesBefore(&caps[i], &caps[best]) {
			best = i
		}
	}
	caps[best].Deciding = true
	sc := &SiteCrawl{Crawl: crawl, Capture: caps[best], Crawlers: []SiteCrawler{}, Sitemaps: []SiteSitemap{}, Preferences: []SitePreference{}, FileFindings: []SiteDiagnostic{}}
	steps := []func(context.Context, *SiteCrawl, string) error{d.siteHost, d.siteDiagnostics, d.siteAgents, d.siteSitemaps, d.sitePreferences, d.siteListing, d.siteReadings, d.siteDisagreements, d.siteTemplates, d.siteShared}
	for _, step := range steps {
		if err := step(ctx, sc, hostName); err != nil {
			return nil, nil, err
		}
	}
	return sc, caps, nil
}

// siteDecidesBefore reports whether the site capture a decides for its
// host before b, in the order of [schema.DecidesBefore] (a NULL fetch_time
// is noTime, below every real time).
func siteDecidesBefore(a, b *SiteCapture) bool {
	key := func(c *SiteCapture) schema.DecidingKey {
		return schema.DecidingKey{Redirect: c.Outcome == robots.OutcomeRedirect.String(), Fetched: c.fetch, ID: c.CaptureID}
	}
	return schema.DecidesBefore(key(a), key(b))
}

// siteColumns are the captures columns the site report reads.
var siteColumns = []string{
	"capture_id", "url", "url_host_name", "fetch_time", "fetch_status", "content_mime_type",
	"payload_length", "payload_length_real", "content_digest", "content_truncated", "oversize", "warc_filename", "warc_record_offset",
	"warc_record_length", "fetch_redirect", "outcome", "rule_count", "error_count", "warning_count", "info_count",
}

// siteCaptures returns the captures of the host in one crawl, by fetch time.
func (d siteData) siteCaptures(ctx context.Context, crawl, hostName string) ([]SiteCapture, error) {
	var mu sync.Mutex
	out := []SiteCapture{}
	spec := scan.Spec{Table: "captures", Crawl: crawl, Columns: siteColumns}
	err := d.Scan(ctx, spec, func(_ int, rec arrow.Record) error {
		caps, err := siteCaptureRows(rec, crawl, hostName)
		mu.Lock()
		defer mu.Unlock()
		out = append(out, caps...)
		return err
	})
	slices.SortFunc(out, func(a, b SiteCapture) int {
		return cmp.Or(cmp.Compare(a.fetch, b.fetch), strings.Compare(a.CaptureID, b.CaptureID))
	})
	return out, err
}

func siteCaptureRows(rec arrow.Record, crawl, hostName string) ([]SiteCapture, error) {
	cs := scan.Columns{Rec: rec}
	hosts := cs.Str("url_host_name")
	if cs.Err != nil {
		return nil, cs.Err
	}
	var out []SiteCapture
	for i := range hosts.Len() {
		if hosts.Value(i) == hostName {
			c, err := siteCaptureRow(rec, i)
			if err != nil {
				return nil, err
			}
			c.Crawl = crawl
			out = append(out, c)
		}
	}
	return out, nil
}

// siteCaptureRow copies row i of a captures record.
func siteCaptureRow(rec arrow.Record, i int) (SiteCapture, error) {
	cs := scan.Columns{Rec: rec}
	str := func(name string) string { return strings.Clone(scan.StrOrEmpty(cs.Str(name), i)) }
	c := SiteCapture{
		CaptureID: str("capture_id"), URL: str("url"), ContentType: str("content_mime_type"),
		Digest: str("content_digest"), Truncated: str("content_truncated"), Redirect: str("fetch_redirect"),
		Outcome: str("outcome"), WARCFilename: str("warc_filename"),
	}
	status, ts := cs.I32("fetch_status"), cs.Timestamp("fetch_time")
	length, real, over := cs.I64("payload_length"), cs.I64("payload_length_real"), cs.Boolean("oversize")
	off, n := cs.I64("warc_record_offset"), cs.I64("warc_record_length")
	rules, errs, warns, infos := cs.I32("rule_count"), cs.I32("error_count"), cs.I32("warning_count"), cs.I32("info_count")
	if cs.Err != nil {
		return c, cs.Err
	}
	if !status.IsNull(i) {
		c.Status = status.Value(i)
	}
	if c.fetch = scan.Micros(ts, i); c.fetch != scan.NoTime {
		t := time.UnixMicro(c.fetch).UTC()
		c.FetchTime = &t
	}
	c.Length, c.RealLength, c.Oversize = length.Value(i), scan.RealLength(real, length, i), over.Value(i)
	c.WARCOffset, c.WARCLength = off.Value(i), n.Value(i)
	c.Rules, c.Errors, c.Warnings, c.Infos = rules.Value(i), errs.Value(i), warns.Value(i), infos.Value(i)
	return c, nil
}

// hostRows scans the rows of one table that belong to the deciding
// capture, and calls fn with each.
func (d siteData) hostRows(ctx context.Context, table string, sc *SiteCrawl, columns, dict []string, fn func(cs *scan.Columns, i int)) error {
	return d.captureRows(ctx, table, sc.Crawl, sc.Capture.CaptureID, columns, dict, fn)
}

// captureRows scans the rows of one table that belong to a capture, and
// calls fn with each. capture_id and the columns in dict are read as
// dictionaries: a record whose capture_id dictionary lacks the capture is
// skipped without looking at its rows.
func (d siteData) captureRows(ctx context.Context, table, crawl, id string, columns, dict []string, fn func(cs *scan.Columns, i int)) error {
	var mu sync.Mutex
	spec := scan.Spec{
		Table: table, Crawl: crawl, Columns: append([]string{"capture_id"}, columns...),
		Dict: append([]string{"capture_id"}, dict...),
	}
	return d.Scan(ctx, spec, func(_ int, rec arrow.Record) error {
		cs := &scan.Columns{Rec: rec}
		ids := cs.Dict("capture_id")
		if cs.Err != nil {
			return cs.Err
		}
		want := ids.Find(id)
		if want < 0 {
			return nil
		}
		mu.Lock()
		defer mu.Unlock()
		for i, x := range ids.Index {
			if x == want {
				fn(cs, i)
			}
		}
		return cs.Err
	})
}

func (d siteData) siteDiagnostics(ctx context.Context, sc *SiteCrawl, _ string) error {
	cols, dict := []string{"line", "code", "severity", "message"}, []string{"code", "severity"}
	err := d.hostRows(ctx, "diagnostics", sc, cols, dict, func(cs *scan.Columns, i int) {
		sc.findings = append(sc.findings, SiteDiagnostic{
			Line: cs.I32("line").Value(i), Code: strings.Clone(cs.Dict("code").Value(i)),
			Severity: strings.Clone(cs.Dict("severity").Value(i)), Message: strings.Clone(cs.Str("message").Value(i)),
		})
	})
	slices.SortStableFunc(sc.findings, func(a, b SiteDiagnostic) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(schema.SeverityRank(a.Severity), schema.SeverityRank(b.Severity)), strings.Compare(a.Code, b.Code))
	})
	for _, f := range sc.findings {
		if f.Line == 0 {
			sc.FileFindings = append(sc.FileFindings, f)
		}
	}
	return err
}

// siteAgents reads the verdicts of the host's effective capture: the
// deciding one, or the end of its redirects (read by siteHost before).
func (d siteData) siteAgents(ctx context.Context, sc *SiteCrawl, _ string) error {
	cols, dict := []string{"agent", "named", "verdict"}, []string{"agent", "verdict"}
	id := sc.Capture.CaptureID
	if sc.redirected() {
		id, sc.CrawlersFrom = sc.Host.EffectiveID, sc.Host.EffectiveURL
	}
	list, err := d.CrawlerList(sc.Crawl)
	if err != nil {
		return err
	}
	err = d.captureRows(ctx, "agents", sc.Crawl, id, cols, dict, func(cs *scan.Columns, i int) {
		agent := strings.Clone(cs.Dict("agent").Value(i))
		sc.Crawlers = append(sc.Crawlers, SiteCrawler{Agent: agent, Kind: list.Kind(agent), Named: cs.Boolean("named").Value(i), Verdict: strings.Clone(cs.Dict("verdict").Value(i))})
	})
	// The crawlers in the order of the crawl's list; others last.
	slices.SortStableFunc(sc.Crawlers, func(a, b SiteCrawler) int { return cmp.Compare(list.Order(a.Agent), list.Order(b.Agent)) })
	return err
}

func (d siteData) siteSitemaps(ctx context.Context, sc *SiteCrawl, _ string) error {
	err := d.hostRows(ctx, "sitemaps", sc, []string{"url", "line", "valid"}, nil, func(cs *scan.Columns, i int) {
		sc.Sitemaps = append(sc.Sitemaps, SiteSitemap{URL: strings.Clone(cs.Str("url").Value(i)), Line: cs.I32("line").Value(i), Valid: cs.Boolean("valid").Value(i)})
	})
	slices.SortFunc(sc.Sitemaps, func(a, b SiteSitemap) int { return cmp.Compare(a.Line, b.Line) })
	return err
}

// sitePreferences reads the usage preferences of the deciding capture (none
// in a dataset written before the preferences table, schema 1.2).
func (d siteData) sitePreferences(ctx context.Context, sc *SiteCrawl, _ string) error {
	cols := []string{"line", "source", "user_agents", "path", "category", "value", "allowed"}
	err := d.hostRows(ctx, "preferences", sc, cols, nil, func(cs *scan.Columns, i int) {
		p := SitePreference{Line: cs.I32("line").Value(i), Source: strings.Clone(cs.Str("source").Value(i)),
			Agents: listValues(cs.List("user_agents"), i), Path: strings.Clone(cs.Str("path").Value(i)),
			Category: strings.Clone(cs.Str("category").Value(i)), Value: strings.Clone(cs.Str("value").Value(i))}
		if allowed := cs.Boolean("allowed"); allowed != nil && allowed.IsValid(i) {
			v := allowed.Value(i)
			p.Allowed = &v
		}
		sc.Preferences = append(sc.Preferences, p)
	})
	slices.SortStableFunc(sc.Preferences, func(a, b SitePreference) int { return cmp.Compare(a.Line, b.Line) })
	return err
}

// listValues copies the strings of row i of a list column.
func listValues(l *array.List, i int) []string {
	out := []string{}
	if l == nil || l.IsNull(i) {
		return out
	}
	start, end := l.ValueOffsets(i)
	vals, ok := l.ListValues().(*array.String)
	for j := start; ok && j < end; j++ {
		out = append(out, strings.Clone(vals.Value(int(j))))
	}
	return out
}

// siteListing cuts the deciding capture's body into lines and puts each
// finding at its line.
func (d siteData) siteListing(ctx context.Context, sc *SiteCrawl, _ string) error {
	dg := sc.Capture.Digest
	if dg == "" {
		return nil
	}
	texts, err := d.FindBodies(ctx, sc.Crawl, []string{dg})
	if err != nil {
		return err
	}
	text, ok := texts[dg]
	if !ok {
		return nil
	}
	sc.Listing, sc.text = newListing(dg, text, sc.findings), text
	return nil
}

// newListing returns the listing of a text with the findings at their
// lines; findings past the last line are put on it.
func newListing(digest, text string, findings []SiteDiagnostic) *Listing {
	byLine := map[int][]SiteDiagnostic{}
	for _, f := range findings {
		if f.Line > 0 {
			byLine[int(f.Line)] = append(byLine[int(f.Line)], f)
		}
	}
	f := robots.ParseString(text)
	l := &Listing{Digest: digest, Total: f.Stats.Lines, Lines: []ListingLine{}}
	gap := 0
	for line := range f.Lines() {
		if line.Number > l.Total && line.Text == "" {
			break // the empty line after the final end of line
		}
		fs := byLine[line.Number]
		delete(byLine, line.Number)
		if line.Number > listingHead && len(fs) == 0 {
			gap++
			continue
		}
		if gap > 0 {
			l.Lines = append(l.Lines, ListingLine{Skipped: gap})
			gap = 0
		}
		l.Lines = append(l.Lines, ListingLine{Number: line.Number, Text: line.Text, Findings: fs})
	}
	if gap > 0 {
		l.Lines = append(l.Lines, ListingLine{Skipped: gap})
	}
	for _, fs := range byLine { // lines the text does not have (should not happen)
		l.Lines = append(l.Lines, ListingLine{Number: int(fs[0].Line), Findings: fs})
	}
	return l
}

// siteShared counts the other hosts of the crawl with a capture of the
// same non-empty body.
func (d siteData) siteShared(ctx context.Context, sc *SiteCrawl, hostName string) error {
	dg := sc.Capture.Digest
	if dg == "" || sc.Capture.Length == 0 {
		return nil
	}
	var mu sync.Mutex
	h := scan.NewHasher()
	others := map[uint64]struct{}{}
	spec := scan.Spec{Table: "captures", Crawl: sc.Crawl, Columns: []string{"url_host_name", "content_digest"}}
	return d.Scan(ctx, spec, func(_ int, rec arrow.Record) error {
		cs := scan.Columns{Rec: rec}
		hosts, digests := cs.Str("url_host_name"), cs.Str("content_digest")
		if cs.Err != nil {
			return cs.Err
		}
		mu.Lock()
		defer mu.Unlock()
		for i := range hosts.Len() {
			if scan.StrOrEmpty(digests, i) == dg && hosts.Value(i) != hostName {
				others[h.Sum(hosts.Value(i))] = struct{}{}
			}
		}
		sc.SharedWith = int64(len(others))
		return nil
	})
}

// siteHost reads the host's row of the hosts table, and the URL of its
// effective capture when redirects led to another one.
func (d siteData) siteHost(ctx context.Context, sc *SiteCrawl, hostName string) error {
	var mu sync.Mutex
	spec := scan.Spec{Table: "hosts", Crawl: sc.Crawl, Columns: []string{"url_host_name", "url_host_registered_domain", "redirect_hops",
		"redirect_result", "effective_capture_id", "effective_outcome", "fetch_class"}}
	err := d.Scan(ctx, spec, func(_ int, rec arrow.Record) error {
		cs := scan.Columns{Rec: rec}
		hosts, domains, hops := cs.Str("url_host_name"), cs.Str("url_host_registered_domain"), cs.I32("redirect_hops")
		results, effective, outcomes, classes := cs.Str("redirect_result"), cs.Str("effective_capture_id"), cs.Str("effective_outcome"), cs.Str("fetch_class")
		if cs.Err != nil {
			return cs.Err
		}
		for i := range hosts.Len() {
			if hosts.Value(i) != hostName {
				continue
			}
			h := &SiteHost{RegisteredDomain: strings.Clone(scan.StrOrEmpty(domains, i)), RedirectHops: hops.Value(i),
				RedirectResult: strings.Clone(results.Value(i)), EffectiveID: strings.Clone(scan.StrOrEmpty(effective, i)),
				EffectiveOutcome: strings.Clone(outcomes.Value(i)), FetchClass: strings.Clone(classes.Value(i))}
			mu.Lock()
			sc.Host = h
			mu.Unlock()
		}
		return nil
	})
	if err != nil || !sc.redirected() {
		return err
	}
	return d.Scan(ctx, scan.Spec{Table: "captures", Crawl: sc.Crawl, Columns: []string{"capture_id", "url", "content_digest"}}, func(_ int, rec arrow.Record) error {
		cs := scan.Columns{Rec: rec}
		ids, urls, digests := cs.Str("capture_id"), cs.Str("url"), cs.Str("content_digest")
		if cs.Err != nil {
			return cs.Err
		}
		for i := range ids.Len() {
			if ids.Value(i) == sc.Host.EffectiveID {
				mu.Lock()
				sc.Host.EffectiveURL = strings.Clone(urls.Value(i))
				sc.Host.EffectiveDigest = strings.Clone(scan.StrOrEmpty(digests, i))
				mu.Unlock()
			}
		}
		return nil
	})
}

// effectiveDigest is the content digest of the robots.txt that answers for
// the host, redirects followed: its effective capture's, else its deciding
// capture's.
func (sc *SiteCrawl) effectiveDigest() string {
	if sc.redirected() {
		return sc.Host.EffectiveDigest
	}
	return sc.Capture.Digest
}

// redirected reports whether the host's redirects led to another capture
// than its deciding one (the hosts table's effective capture).
func (sc *SiteCrawl) redirected() bool {
	h := sc.Host
	return h != nil && h.EffectiveID != "" && h.EffectiveID != sc.Capture.CaptureID
}
