package engine

import (
	"iter"
	"math/bits"
	"slices"
	"strings"
	"sync"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"

	"github.com/robocensus/robocensus/analyze/internal/scan"
	"github.com/robocensus/robocensus/robots"
)

// capture is what the passes keep of one capture of a batch: 48 bytes.
type capture struct {
	id       uint64    // hash of capture_id
	codes    [2]uint64 // bit i: a diagnostic of code i (set atomically)
	digest   uint64    // hash of content_digest, 0 when NULL
	errors   int32
	warnings int32
	flags    uint32 // cap* bits (set atomically after the captures pass), and the outcome in the top byte
	weight   uint32 // the hosts it decides for, redirects followed (weightsPass)
}

// outcome returns the index of the capture's outcome in crawlState.outcomes.
func (c *capture) outcome() uint8 { return uint8(c.flags >> outcomeShift) }

// outcomeShift is where the outcome is in capture.flags.
const outcomeShift = 24

// Flags of a capture.
const (
	capRead         = 1 << iota // status 2xx or NULL: crawlers read the body
	capNoRules                  // rule_count = 0
	capNonEmpty                 // payload_length > 0
	capRedirect                 // outcome redirect
	capEndAnchor                // a rule ends in '$'
	capDeciding                 // the deciding capture of its host
	capUsable                   // a usable robots.txt
	capFed                      // fed as a host (once, whatever its rows)
	capFedEffective             // fed as an effective capture (once)
)

// host is what the captures pass keeps of one host: its deciding capture
// so far, with what orders it (its ID as a captureKey).
type host struct {
	fetch    int64 // µs, noTime when NULL
	best     uint32
	redirect bool
	id       scan.CaptureKey
}

// crawlState is what the passes over one crawl keep from batch to batch:
// counts, and maps whose size grows with distinct values (of sizes, user
// agents, typos, payload digests, agents), not with captures.
type crawlState struct {
	d        *scan.Dataset
	label    string
	hash     scan.Hasher
	batches  int
	captures int64 // rows of captures, from the footers
	hosts    bool  // the crawl has a hosts table (schema 1.3): redirects are followed

	mu       sync.Mutex // guards what the captures passes write
	outcomes []string
	codes    *CodeTable
	secs     *sectionRun
}

// knownOutcomes are the values of captures.outcome (DESIGN.md), in the
// order the report lists them.
var KnownOutcomes = []string{
	robots.OutcomeRules.String(), robots.OutcomeNoRules.String(), robots.OutcomeNotRobots.String(),
	robots.OutcomeRedirect.String(), robots.OutcomeAllowAll.String(), robots.OutcomeDisallowAll.String(),
	robots.OutcomeUnknown.String(),
}

func newCrawlState(d *scan.Dataset, label string, p Params, jobs []*Section, n int64, batches int) (*crawlState, error) {
	hosts, err := d.Rows("hosts", label)
	if err != nil {
		return nil, err
	}
	return &crawlState{
		d: d, label: label, hash: d.Hash, batches: batches, captures: n, hosts: hosts > 0,
		outcomes: slices.Clone(KnownOutcomes), codes: NewCodeTable(),
		secs: newSectionRun(jobs, p, d.Workers()),
	}, nil
}

// captureCols are the columns the captures pass reads to index captures.
type captureCols struct {
	ids, hosts, digest         *array.String
	outcome                    scan.DictColumn
	outcomeOf                  []uint8 // outcome number by index in the outcome dictionary
	fetch                      *array.Timestamp
	status, rules, errs, warns *array.Int32
	length                     *array.Int64
}

// newCaptureCols returns the columns of a record of captures, with the
// outcomes numbered in s.outcomes.
func (s *crawlState) newCaptureCols(rec arrow.Record) (*captureCols, error) {
	cs := scan.Columns{Rec: rec}
	c := &captureCols{
		ids: cs.Str("capture_id"), hosts: cs.Str("url_host_name"), digest: cs.Str("content_digest"),
		outcome: cs.Dict("outcome"), fetch: cs.Timestamp("fetch_time"), status: cs.I32("fetch_status"),
		rules: cs.I32("rule_count"), errs: cs.I32("error_count"), warns: cs.I32("warning_count"),
		length: cs.I64("payload_length"),
	}
	if cs.Err != nil {
		return nil, cs.Err
	}
	for i := range c.outcome.Values.Len() {
		c.outcomeOf = append(c.outcomeOf, s.outcomeIndex(c.outcome.Values.Value(i)))
	}
	return c, nil
}

// captureRow is one row of captures as the captures pass reads it; its
// strings alias the record.
type captureRow struct {
	id, host, digest string
	fetch, length    int64
	status, rules    int32
	errors, warnings int32
	outcome          uint8 // index in crawlState.outcomes
}

func (c *captureCols) row(i int) captureRow {
	r := captureRow{
		id: c.ids.Value(i), host: c.hosts.Value(i), digest: scan.StrOrEmpty(c.digest, i), outcome: c.outcomeOf[c.outcome.Index[i]],
		fetch: scan.Micros(c.fetch, i), length: c.length.Value(i), rules: c.rules.Value(i),
		errors: c.errs.Value(i), warnings: c.warns.Value(i),
	}
	if !c.status.IsNull(i) {
		r.status = c.status.Value(i)
	}
	return r
}

// captureFlags returns the flags a capture row gives by itself.
func captureFlags(status int32, length int64, rules int32, outcome string) uint32 {
	var f uint32
	if readStatus(status) {
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

// readStatus reports whether crawlers read the body of a capture with a
// fetch_status (0 for NULL): 2xx or none.
func readStatus(status int32) bool { return status == 0 || status >= 200 && status < 300 }

// isRead is readStatus for row i of a fetch_status column.
func IsRead(status *array.Int32, i int) bool { return status.IsNull(i) || readStatus(status.Value(i)) }

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

// codeTable numbers the diagnostic codes of a crawl: the catalogue's first
// (the engine's and the readers'), then any other a dataset holds (one
// written by a later version) as they are found. It is safe for concurrent
// use.
type CodeTable struct {
	mu       sync.Mutex
	index    map[string]int
	Names    []string
	Severity []string
	ofCode   [256]int // number by robots.Code, -1 for none
}

func NewCodeTable() *CodeTable {
	t := &CodeTable{index: map[string]int{}}
	for i := range t.ofCode {
		t.ofCode[i] = -1
	}
	for _, c := range robots.Codes() {
		t.ofCode[c.Code] = t.add(c.Name, c.Severity.String())
	}
	return t
}

func (t *CodeTable) add(name, severity string) int {
	i := len(t.Names)
	t.index[name] = i
	t.Names = append(t.Names, name)
	t.Severity = append(t.Severity, severity)
	return i
}

// lookup returns the number of a code, adding it if new; cache is the
// caller's own copy of known numbers.
func (t *CodeTable) Lookup(cache map[string]int, name, severity string) int {
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
func (t *CodeTable) CatalogueCache() map[string]int {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := make(map[string]int, len(t.index))
	for k, v := range t.index {
		c[k] = v
	}
	return c
}

// codeNumbers yields the numbers of the codes of a capture: its bits,
// then extra (its codes past maxBitCodes), ascending.
func (c *capture) codeNumbers(extra []int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for word, set := range c.codes {
			for b := set; b != 0; b &= b - 1 {
				if !yield(word*64 + bits.TrailingZeros64(b)) {
					return
				}
			}
		}
		for _, ci := range extra {
			if !yield(ci) {
				return
			}
		}
	}
}

// maxBitCodes is the number of codes whose captures are marked with the
// per-capture bits; the catalogue and the reader's codes fit well below.
const maxBitCodes = 128
