package analyze

import (
	"context"
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
	cs := columnSet{rec: rec}
	ids, hosts, fetch := cs.str("capture_id"), cs.str("url_host_name"), cs.timestamp("fetch_time")
	status, length, digest := cs.i32("fetch_status"), cs.i64("payload_length"), cs.str("payload_digest")
	oversize, outcome, rules := cs.boolean("oversize"), cs.str("outcome"), cs.i32("rule_count")
	sitemaps, wild := cs.i32("sitemap_count"), cs.i32("wildcard_rule_count")
	errs, warns, agents := cs.i32("error_count"), cs.i32("warning_count"), cs.list("user_agents")
	if cs.err != nil {
		return cs.err
	}
	out := s.out
	for i := range int(rec.NumRows()) {
		st := int32(0)
		if !status.IsNull(i) {
			st = status.Value(i)
		}
		c := capture{
			digest: s.hash.sum(strOrEmpty(digest, i)),
			errors: errs.Value(i), warnings: warns.Value(i), outcome: s.outcomeIndex(outcome.Value(i)),
		}
		c.flags = captureFlags(st, length.Value(i), rules.Value(i), s.outcomes[c.outcome])
		at := micros(fetch, i)
		s.addCapture(ids.Value(i), hosts.Value(i), c, at)
		s.statuses[statusKey{c.outcome, st}]++
		out.Captures++
		if c.errors > 0 {
			out.WithErrors.N++
		}
		s.countFetchTime(at)
		if rules.Value(i) > 0 {
			out.Patterns.WithRules++
			if wild.Value(i) > 0 {
				out.Patterns.WildcardCaptures.N++
			}
		}
		if c.flags&capRead != 0 {
			s.countRead(length.Value(i), oversize.Value(i), sitemaps.Value(i) > 0)
		}
		s.countAgents(agents, i)
	}
	return nil
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
