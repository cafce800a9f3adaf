package analyze

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"

	"github.com/robocensus/robocensus/robots"
)

// Report computes the crawl report: the figures of every crawl partition,
// and their trends when there are several.
func (d *Dataset) Report(ctx context.Context) (*Report, error) {
	r := &Report{Top: d.cfg.top}
	for _, label := range d.crawls {
		c, err := d.crawl(ctx, label)
		if err != nil {
			return nil, err
		}
		r.Crawls = append(r.Crawls, c)
	}
	r.Trends = trends(r.Crawls, d.cfg.top)
	return r, nil
}

// crawl computes the figures of one crawl partition in passes over its
// tables: captures first, which indexes captures and hosts; then
// diagnostics, rules and sitemaps, which mark captures; then captures again
// for the ranked lists; then agents; then the few bodies shown.
func (d *Dataset) crawl(ctx context.Context, label string) (*Crawl, error) {
	s := newCrawlState(d, label)
	steps := []func(context.Context) error{
		s.capturesPass, s.diagnosticsPass, s.rulesPass, s.sitemapsPass,
		s.finishMarks, s.rankingPass, s.agentsPass, s.bodiesPass, s.inputsPass,
	}
	for _, step := range steps {
		if err := step(ctx); err != nil {
			return nil, err
		}
	}
	return s.out, nil
}

// capture is what the passes keep of one capture: 48 bytes.
type capture struct {
	codes    [2]uint64 // bit i: a diagnostic of code i (set atomically)
	digest   uint64    // hash of payload_digest, 0 when NULL
	errors   int32
	warnings int32
	aiBlocks uint32 // AI crawlers fully disallowed (agents pass, atomic)
	flags    uint32 // cap* bits (set atomically after the captures pass)
	outcome  uint8  // index in crawlState.outcomes
}

// Flags of a capture.
const (
	capRead              = 1 << iota // status 2xx or NULL: crawlers read the body
	capNoRules                       // rule_count = 0
	capNonEmpty                      // payload_length > 0
	capRedirect                      // outcome redirect
	capEndAnchor                     // a rule ends in '$'
	capDeciding                      // the deciding capture of its host
	capUsable                        // a usable robots.txt
	capAINamed                       // names an AI crawler
	capAINamedDisallowed             // names an AI crawler and disallows it fully
)

// host is what the captures pass keeps of one host: its deciding capture
// so far, with what orders it (its ID as a captureKey).
type host struct {
	fetch    int64 // µs, noTime when NULL
	best     uint32
	redirect bool
	id       captureKey
}

// statusKey counts captures by outcome and status.
type statusKey struct {
	outcome uint8
	status  int32
}

// crawlState is the state of the passes over one crawl.
type crawlState struct {
	d     *Dataset
	label string
	out   *Crawl
	hash  hasher

	mu       sync.Mutex // guards what the captures passes write
	ids      map[uint64]uint32
	caps     []capture
	hostIdx  map[uint64]uint32
	hosts    []host
	keys     captureKeys
	outcomes []string
	statuses map[statusKey]int64
	sizes    []int64
	agents   map[string]int64 // user-agent value -> captures
	names    []string         // reused by countAgents
	codes    *codeTable
	farms    map[uint64]int64 // digest hash -> hosts, after finishMarks
	ranks    *rankings
}

// knownOutcomes are the values of captures.outcome (DESIGN.md), in the
// order the report lists them.
var knownOutcomes = []string{
	robots.OutcomeRules.String(), robots.OutcomeNoRules.String(), robots.OutcomeNotRobots.String(),
	robots.OutcomeRedirect.String(), robots.OutcomeAllowAll.String(), robots.OutcomeDisallowAll.String(),
	robots.OutcomeUnknown.String(),
}

func newCrawlState(d *Dataset, label string) *crawlState {
	return &crawlState{
		d: d, label: label, out: &Crawl{Crawl: label}, hash: newHasher(),
		ids: map[uint64]uint32{}, hostIdx: map[uint64]uint32{},
		outcomes: slices.Clone(knownOutcomes), statuses: map[statusKey]int64{},
		agents: map[string]int64{}, codes: newCodeTable(),
	}
}

// capturesColumns are the columns the first captures pass reads.
var capturesColumns = []string{
	"capture_id", "url_host_name", "fetch_time", "fetch_status", "payload_length",
	"payload_digest", "oversize", "outcome", "rule_count", "sitemap_count",
	"wildcard_rule_count", "error_count", "warning_count", "user_agents",
}

// capturesPass indexes the captures and hosts and counts what the captures
// table says by itself. Files are decoded in parallel; records are added
// one at a time.
func (s *crawlState) capturesPass(ctx context.Context) error {
	n, err := s.d.rows("captures", s.label)
	if err != nil {
		return err
	}
	s.caps, s.hosts = make([]capture, 0, n), make([]host, 0, n)
	s.ids, s.hostIdx = make(map[uint64]uint32, n), make(map[uint64]uint32, n)
	spec := scanSpec{table: "captures", crawl: s.label, columns: capturesColumns}
	err = s.d.scan(ctx, spec, func(_ int, rec arrow.Record) error {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.addCaptures(rec)
	})
	if err != nil {
		return err
	}
	s.finishCaptures()
	return nil
}

// addCaptures adds one record of the captures table.
func (s *crawlState) addCaptures(rec arrow.Record) error {
	cols, err := newCaptureCols(rec)
	if err != nil {
		return err
	}
	for i := range int(rec.NumRows()) {
		r := cols.row(i)
		s.addRow(&r)
		s.countAgents(cols.agents, i)
	}
	return nil
}

// captureCols are the columns the first captures pass reads.
type captureCols struct {
	ids, hosts, digest, outcome                *array.String
	fetch                                      *array.Timestamp
	status, rules, sitemaps, wild, errs, warns *array.Int32
	length                                     *array.Int64
	oversize                                   *array.Boolean
	agents                                     *array.List
}

func newCaptureCols(rec arrow.Record) (*captureCols, error) {
	cs := columnSet{rec: rec}
	c := &captureCols{
		ids: cs.str("capture_id"), hosts: cs.str("url_host_name"), digest: cs.str("payload_digest"),
		outcome: cs.str("outcome"), fetch: cs.timestamp("fetch_time"), status: cs.i32("fetch_status"),
		rules: cs.i32("rule_count"), sitemaps: cs.i32("sitemap_count"), wild: cs.i32("wildcard_rule_count"),
		errs: cs.i32("error_count"), warns: cs.i32("warning_count"), length: cs.i64("payload_length"),
		oversize: cs.boolean("oversize"), agents: cs.list("user_agents"),
	}
	return c, cs.err
}

// captureRow is one row of captures as the first pass reads it; its
// strings alias the record.
type captureRow struct {
	id, host, digest, outcome     string
	fetch, length                 int64
	status, rules, sitemaps, wild int32
	errors, warnings              int32
	oversize                      bool
}

func (c *captureCols) row(i int) captureRow {
	r := captureRow{
		id: c.ids.Value(i), host: c.hosts.Value(i), digest: strOrEmpty(c.digest, i), outcome: c.outcome.Value(i),
		fetch: micros(c.fetch, i), length: c.length.Value(i), rules: c.rules.Value(i), sitemaps: c.sitemaps.Value(i),
		wild: c.wild.Value(i), errors: c.errs.Value(i), warnings: c.warns.Value(i), oversize: c.oversize.Value(i),
	}
	if !c.status.IsNull(i) {
		r.status = c.status.Value(i)
	}
	return r
}

// addRow indexes one capture and counts what its row says by itself.
func (s *crawlState) addRow(r *captureRow) {
	c := capture{digest: s.hash.sum(r.digest), errors: r.errors, warnings: r.warnings, outcome: s.outcomeIndex(r.outcome)}
	c.flags = captureFlags(r.status, r.length, r.rules, s.outcomes[c.outcome])
	s.addCapture(r.id, r.host, c, r.fetch)
	s.statuses[statusKey{c.outcome, r.status}]++
	out := s.out
	out.Captures++
	if c.errors > 0 {
		out.WithErrors.N++
	}
	s.countFetchTime(r.fetch)
	if r.rules > 0 {
		out.Patterns.WithRules++
		if r.wild > 0 {
			out.Patterns.WildcardCaptures.N++
		}
	}
	if c.flags&capRead != 0 {
		s.countRead(r.length, r.oversize, r.sitemaps > 0)
	}
}

// captureFlags returns the flags a capture row gives by itself.
func captureFlags(status int32, length int64, rules int32, outcome string) uint32 {
	var f uint32
	if status == 0 || status >= 200 && status < 300 {
		f |= capRead
	}
	if rules == 0 {
		f |= capNoRules
	}
	if length > 0 {
		f |= capNonEmpty
	}
	if outcome == robots.OutcomeRedirect.String() {
		f |= capRedirect
	}
	return f
}

// addCapture indexes a capture and its host, and keeps the host's deciding
// capture: the first in the order of [host.decidesAfter].
func (s *crawlState) addCapture(id, hostName string, c capture, fetch int64) {
	ci := uint32(len(s.caps))
	s.caps = append(s.caps, c)
	s.ids[s.hash.sum(id)] = ci
	redirect := c.flags&capRedirect != 0
	hh := s.hash.sum(hostName)
	hi, ok := s.hostIdx[hh]
	if !ok {
		s.hostIdx[hh] = uint32(len(s.hosts))
		s.hosts = append(s.hosts, host{best: ci, fetch: fetch, redirect: redirect, id: s.keys.key(id)})
		return
	}
	if h := &s.hosts[hi]; h.decidesAfter(redirect, fetch, id, &s.keys) {
		*h = host{best: ci, fetch: fetch, redirect: redirect, id: s.keys.key(id)}
	}
}

// decidesAfter reports whether a capture of the host comes before its
// deciding capture so far. The order: captures that are not redirects
// first, then the latest fetch_time (NULL last), then the smallest
// capture_id.
func (h *host) decidesAfter(redirect bool, fetch int64, id string, keys *captureKeys) bool {
	if redirect != h.redirect {
		return !redirect
	}
	if fetch != h.fetch {
		return fetch > h.fetch
	}
	return id < keys.id(h.id)
}

// outcomeIndex interns an outcome value.
func (s *crawlState) outcomeIndex(o string) uint8 {
	if i := slices.Index(s.outcomes, o); i >= 0 {
		return uint8(i)
	}
	if len(s.outcomes) == 255 {
		return 254 // more than 250 unknown outcomes: lumped together
	}
	s.outcomes = append(s.outcomes, strings.Clone(o))
	return uint8(len(s.outcomes) - 1)
}

func (s *crawlState) countFetchTime(t int64) {
	if t == noTime {
		return
	}
	tt := time.UnixMicro(t).UTC()
	if s.out.FirstFetch == nil || tt.Before(*s.out.FirstFetch) {
		s.out.FirstFetch = &tt
	}
	if s.out.LastFetch == nil || tt.After(*s.out.LastFetch) {
		t2 := tt
		s.out.LastFetch = &t2
	}
}

// countRead counts a capture whose body crawlers read.
func (s *crawlState) countRead(length int64, oversize, sitemap bool) {
	out := s.out
	out.ReadCaptures++
	s.sizes = append(s.sizes, length)
	if oversize {
		out.Sizes.Oversize.N++
	}
	if sitemap {
		out.Sitemaps.Captures.N++
	}
}

// countAgents counts the user-agent values of capture i, lower-cased, each
// once.
func (s *crawlState) countAgents(agents *array.List, i int) {
	s.names = lowerValues(s.names[:0], agents, i)
	names := s.names
	if len(names) == 0 {
		return
	}
	s.out.UserAgents.Captures++
	for j, n := range names {
		if slices.Contains(names[:j], n) {
			continue
		}
		if _, ok := s.agents[n]; !ok {
			n = strings.Clone(n)
		}
		s.agents[n]++
	}
}

// finishCaptures marks the deciding captures and fills the figures the
// captures table gives.
func (s *crawlState) finishCaptures() {
	out := s.out
	out.Hosts = int64(len(s.hosts))
	out.WithErrors.Of = out.Captures
	for _, h := range s.hosts {
		s.caps[h.best].flags |= capDeciding
	}
	s.hosts, s.hostIdx, s.keys = nil, nil, captureKeys{} // from here on, the flags say which captures decide
	out.Outcomes = s.outcomeShares()
	out.Sizes = sizeFigures(s.sizes, out.Sizes.Oversize.N)
	s.sizes = nil
	out.Sitemaps.Captures.Of = out.ReadCaptures
	out.Patterns.WildcardCaptures.Of = out.Patterns.WithRules
	out.UserAgents.Distinct = int64(len(s.agents))
	out.UserAgents.Top = topNames(s.agents, out.UserAgents.Captures, s.d.cfg.top)
	s.agents = nil
}

// outcomeShares returns the outcome distribution: every known outcome in
// DESIGN.md order (zero counts included), then any other value found.
func (s *crawlState) outcomeShares() []OutcomeShare {
	out := make([]OutcomeShare, len(s.outcomes))
	for i, o := range s.outcomes {
		out[i] = OutcomeShare{Outcome: o, Captures: Ratio{Of: s.out.Captures}, Statuses: []StatusCount{}}
	}
	for k, n := range s.statuses {
		o := &out[k.outcome]
		o.Captures.N += n
		o.Statuses = append(o.Statuses, StatusCount{Status: k.status, Captures: n})
	}
	for i := range out {
		slices.SortFunc(out[i].Statuses, func(a, b StatusCount) int {
			return cmp.Or(cmp.Compare(b.Captures, a.Captures), cmp.Compare(a.Status, b.Status))
		})
	}
	return out
}

// sizeBounds are the upper bounds of the size buckets; the last bucket,
// over robots.MaxBytes, has none.
var sizeBounds = []struct {
	label string
	max   int64
}{
	{"0 B", 0}, {"1 B – 1 KiB", 1<<10 - 1}, {"1 – 4 KiB", 4<<10 - 1}, {"4 – 16 KiB", 16<<10 - 1},
	{"16 – 64 KiB", 64<<10 - 1}, {"64 – 256 KiB", 256<<10 - 1}, {"256 – 500 KiB", robots.MaxBytes},
	{"over 500 KiB", -1},
}

// sizeFigures sorts sizes and returns their distribution.
func sizeFigures(sizes []int64, oversize int64) Sizes {
	slices.Sort(sizes)
	n := int64(len(sizes))
	out := Sizes{Captures: n, Oversize: Ratio{oversize, n}, Empty: Ratio{Of: n}}
	lo := int64(0)
	for _, b := range sizeBounds {
		bucket := SizeBucket{Label: b.label, Min: lo, Max: b.max, Captures: Ratio{Of: n}}
		first, _ := slices.BinarySearch(sizes, lo)
		end := len(sizes)
		if b.max >= 0 {
			end, _ = slices.BinarySearch(sizes, b.max+1)
		}
		bucket.Captures.N = int64(end - first)
		out.Buckets = append(out.Buckets, bucket)
		lo = b.max + 1
	}
	out.Empty.N = out.Buckets[0].Captures.N
	if n > 0 {
		out.Median, out.P90, out.P99 = quantile(sizes, 0.5), quantile(sizes, 0.9), quantile(sizes, 0.99)
		out.Max = sizes[n-1]
	}
	for _, v := range sizes {
		out.Bytes += v
	}
	return out
}

// quantile returns the q-quantile of sorted values as DuckDB's
// quantile_disc does: the value at index ceil(n·q) - 1.
func quantile(sorted []int64, q float64) int64 {
	i := int(math.Ceil(float64(len(sorted))*q)) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// topNames returns the n names counted most often, then by name.
func topNames(counts map[string]int64, of int64, n int) []NameCount {
	out := make([]NameCount, 0, len(counts))
	for name, c := range counts {
		out = append(out, NameCount{Name: name, Captures: Ratio{c, of}})
	}
	slices.SortFunc(out, func(a, b NameCount) int {
		return cmp.Or(cmp.Compare(b.Captures.N, a.Captures.N), strings.Compare(a.Name, b.Name))
	})
	return out[:min(n, len(out))]
}

// codeTable numbers the diagnostic codes of a crawl: the catalogue's first,
// then the others (the reader's "ingest-" codes) as they are found. It is
// safe for concurrent use.
type codeTable struct {
	mu       sync.Mutex
	index    map[string]int
	names    []string
	severity []string
}

func newCodeTable() *codeTable {
	t := &codeTable{index: map[string]int{}}
	for _, c := range robots.Codes() {
		t.add(c.Name, c.Severity.String())
	}
	return t
}

func (t *codeTable) add(name, severity string) int {
	i := len(t.names)
	t.index[name] = i
	t.names = append(t.names, name)
	t.severity = append(t.severity, severity)
	return i
}

// lookup returns the number of a code, adding it if new; cache is the
// caller's own copy of known numbers.
func (t *codeTable) lookup(cache map[string]int, name, severity string) int {
	if i, ok := cache[name]; ok {
		return i
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	i, ok := t.index[name]
	if !ok {
		name = strings.Clone(name)
		i = t.add(name, strings.Clone(severity))
	}
	cache[name] = i
	return i
}

// catalogueCache returns a cache filled with the catalogue codes.
func (t *codeTable) catalogueCache() map[string]int {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := make(map[string]int, len(t.index))
	for k, v := range t.index {
		c[k] = v
	}
	return c
}

// severityRank orders severities: errors first.
func severityRank(s string) int {
	switch s {
	case "error":
		return 0
	case "warning":
		return 1
	case "info":
		return 2
	}
	return 3
}

// codeSummary returns the catalogue's one-line summary of a code.
func codeSummary(name string) string {
	if c, ok := robots.LookupCode(name); ok {
		return c.Info().Summary
	}
	if p, ok := strings.CutPrefix(name, "ingest-"); ok {
		return "the reader met a problem with the record: " + p
	}
	return ""
}
