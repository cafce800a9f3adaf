package analyze

import (
	"cmp"
	"context"
	"maps"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"

	"github.com/robocensus/robocensus/robots"
)

// The passes over diagnostics, rules and sitemaps: each worker counts rows
// on its own and marks captures (atomically), and the counts are summed
// when the pass ends.

// maxBitCodes is the number of codes whose captures are counted with the
// per-capture bits; the catalogue and the reader's codes fit well below.
const maxBitCodes = 128

// diagWorker is what one worker of the diagnostics pass counts.
type diagWorker struct {
	cache map[string]int
	rows  []int64
	typos map[[2]string]int64    // {key, code} -> lines; keys alias records until cloned
	extra map[[2]uint64]struct{} // {code, capture index} for codes past maxBitCodes
}

// diagnosticsPass counts the findings of each code and marks which captures
// have one.
func (s *crawlState) diagnosticsPass(ctx context.Context) error {
	workers := make([]*diagWorker, s.d.workers())
	for i := range workers {
		workers[i] = &diagWorker{cache: s.codes.catalogueCache(), typos: map[[2]string]int64{}, extra: map[[2]uint64]struct{}{}}
	}
	spec := scanSpec{table: "diagnostics", crawl: s.label, columns: []string{"capture_id", "code", "severity", "message"}}
	err := s.d.scan(ctx, spec, func(w int, rec arrow.Record) error { return s.addDiagnostics(workers[w], rec) })
	if err != nil {
		return err
	}
	s.finishDiagnostics(workers)
	return nil
}

func (s *crawlState) addDiagnostics(w *diagWorker, rec arrow.Record) error {
	cs := columnSet{rec: rec}
	ids, codes, sev, msg := cs.str("capture_id"), cs.str("code"), cs.str("severity"), cs.str("message")
	if cs.err != nil {
		return cs.err
	}
	typoAccepted, typoIgnored := robots.TypoAccepted.String(), robots.TypoIgnored.String()
	var cache idCache
	for i := range int(rec.NumRows()) {
		code := codes.Value(i)
		ci := s.codes.lookup(w.cache, code, sev.Value(i))
		for ci >= len(w.rows) {
			w.rows = append(w.rows, 0)
		}
		w.rows[ci]++
		if code == typoAccepted || code == typoIgnored {
			k := [2]string{typoKeyOf(msg.Value(i)), code}
			if _, ok := w.typos[k]; !ok {
				k = [2]string{strings.Clone(k[0]), strings.Clone(k[1])}
			}
			w.typos[k]++
		}
		capIdx, ok := cache.lookup(s.hash, s.ids, ids.Value(i))
		switch {
		case !ok:
		case ci < maxBitCodes:
			atomic.OrUint64(&s.caps[capIdx].codes[ci/64], 1<<(ci%64))
		default:
			w.extra[[2]uint64{uint64(ci), uint64(capIdx)}] = struct{}{}
		}
	}
	return nil
}

// typoKeyOf returns the misspelled key a typo message names: the text
// between its first two double quotes, lower-cased.
func typoKeyOf(msg string) string {
	rest, ok := strings.CutPrefix(msg, `"`)
	if !ok {
		return ""
	}
	key, _, _ := strings.Cut(rest, `"`)
	return strings.ToLower(key)
}

// finishDiagnostics sums the workers' counts into the code figures.
func (s *crawlState) finishDiagnostics(workers []*diagWorker) {
	n := len(s.codes.names)
	rows, captures := make([]int64, n), make([]int64, n)
	typos, extra := map[[2]string]int64{}, map[[2]uint64]struct{}{}
	for _, w := range workers {
		for i, r := range w.rows {
			rows[i] += r
		}
		for k, v := range w.typos {
			typos[k] += v
		}
		for k := range w.extra {
			extra[k] = struct{}{}
		}
	}
	for k := range extra {
		captures[k[0]]++
	}
	for i := range s.caps {
		c := &s.caps[i]
		for word, bitsSet := range c.codes {
			for b := bitsSet; b != 0; b &= b - 1 {
				captures[word*64+bits.TrailingZeros64(b)]++
			}
		}
	}
	s.out.Diagnostics = s.codeShares(rows, captures)
	s.out.Typos = s.typoFigures(captures, rows, typos)
}

// codeShares returns the prevalence of every catalogue code (found or not)
// and of every other code found: errors first, then by captures and code.
func (s *crawlState) codeShares(rows, captures []int64) []CodeShare {
	out := make([]CodeShare, len(rows))
	for i := range rows {
		name := s.codes.names[i]
		out[i] = CodeShare{
			Code: name, Severity: s.codes.severity[i], Summary: codeSummary(name),
			Captures: Ratio{captures[i], s.out.Captures}, Findings: rows[i],
		}
	}
	slices.SortFunc(out, func(a, b CodeShare) int {
		return cmp.Or(cmp.Compare(severityRank(a.Severity), severityRank(b.Severity)),
			cmp.Compare(b.Captures.N, a.Captures.N), strings.Compare(a.Code, b.Code))
	})
	return out
}

// typoFigures returns the typo prevalence and the misspelled keys.
func (s *crawlState) typoFigures(captures, rows []int64, typos map[[2]string]int64) Typos {
	acc := s.codes.index[robots.TypoAccepted.String()]
	ign := s.codes.index[robots.TypoIgnored.String()]
	out := Typos{
		Accepted: TypoShare{Captures: Ratio{captures[acc], s.out.Captures}, Lines: rows[acc]},
		Ignored:  TypoShare{Captures: Ratio{captures[ign], s.out.Captures}, Lines: rows[ign]},
		Keys:     []TypoKey{},
	}
	for k, n := range typos {
		out.Keys = append(out.Keys, TypoKey{Key: k[0], Code: k[1], Lines: n})
	}
	slices.SortFunc(out.Keys, func(a, b TypoKey) int {
		return cmp.Or(cmp.Compare(b.Lines, a.Lines), strings.Compare(a.Key, b.Key), strings.Compare(a.Code, b.Code))
	})
	out.Keys = out.Keys[:min(len(out.Keys), s.d.cfg.top)]
	return out
}

// ruleCounts is what one worker of the rules pass counts.
type ruleCounts struct {
	rules, allow, disallow, wildcard, endAnchor int64
}

// rulesPass counts rules, wildcards and end anchors, and marks the
// captures with an end-anchored rule.
func (s *crawlState) rulesPass(ctx context.Context) error {
	counts := make([]ruleCounts, s.d.workers())
	spec := scanSpec{table: "rules", crawl: s.label, columns: []string{"capture_id", "directive", "has_wildcard", "has_end_anchor"}}
	err := s.d.scan(ctx, spec, func(w int, rec arrow.Record) error { return s.addRules(&counts[w], rec) })
	if err != nil {
		return err
	}
	p := &s.out.Patterns
	var sum ruleCounts
	for _, c := range counts {
		sum.rules += c.rules
		sum.allow += c.allow
		sum.disallow += c.disallow
		sum.wildcard += c.wildcard
		sum.endAnchor += c.endAnchor
	}
	p.Rules, p.Allow, p.Disallow = sum.rules, sum.allow, sum.disallow
	p.WildcardRules, p.EndAnchorRules = Ratio{sum.wildcard, sum.rules}, Ratio{sum.endAnchor, sum.rules}
	return nil
}

func (s *crawlState) addRules(c *ruleCounts, rec arrow.Record) error {
	cs := columnSet{rec: rec}
	ids, dir, wild, end := cs.str("capture_id"), cs.str("directive"), cs.boolean("has_wildcard"), cs.boolean("has_end_anchor")
	if cs.err != nil {
		return cs.err
	}
	allow := robots.Allow.String()
	var cache idCache
	for i := range int(rec.NumRows()) {
		c.rules++
		if dir.Value(i) == allow {
			c.allow++
		} else {
			c.disallow++
		}
		if wild.Value(i) {
			c.wildcard++
		}
		if !end.Value(i) {
			continue
		}
		c.endAnchor++
		if ci, ok := cache.lookup(s.hash, s.ids, ids.Value(i)); ok {
			atomic.OrUint32(&s.caps[ci].flags, capEndAnchor)
		}
	}
	return nil
}

// sitemapsPass counts the sitemap lines and the valid ones.
func (s *crawlState) sitemapsPass(ctx context.Context) error {
	var mu sync.Mutex
	spec := scanSpec{table: "sitemaps", crawl: s.label, columns: []string{"valid"}}
	return s.d.scan(ctx, spec, func(_ int, rec arrow.Record) error {
		valid, err := column[*array.Boolean](rec, "valid")
		if err != nil {
			return err
		}
		var lines, ok int64
		for i := range int(rec.NumRows()) {
			lines++
			if valid.Value(i) {
				ok++
			}
		}
		mu.Lock()
		defer mu.Unlock()
		s.out.Sitemaps.Lines += lines
		s.out.Sitemaps.Valid.N += ok
		s.out.Sitemaps.Valid.Of += lines
		return nil
	})
}

// contentErrors are the codes that make a capture without rules "not a
// robots.txt" (outcome not-robots when it has a 2xx status).
var contentErrors = []robots.Code{robots.HTMLContent, robots.BinaryContent, robots.BOMUTF16}

// finishMarks decides which captures are usable robots.txt files, counts
// the usable hosts and the captures with end anchors, and counts the hosts
// serving each body.
func (s *crawlState) finishMarks(context.Context) error {
	var contentMask [2]uint64
	for _, code := range contentErrors {
		i := s.codes.index[code.String()]
		contentMask[i/64] |= 1 << (i % 64)
	}
	rules, noRules, unknown := s.outcomeIdx(robots.OutcomeRules), s.outcomeIdx(robots.OutcomeNoRules), s.outcomeIdx(robots.OutcomeUnknown)
	s.farms = map[uint64]int64{}
	for i := range s.caps {
		c := &s.caps[i]
		notRobots := c.flags&capNoRules != 0 && (c.codes[0]&contentMask[0] != 0 || c.codes[1]&contentMask[1] != 0)
		if c.outcome == rules || c.outcome == noRules || c.outcome == unknown && !notRobots {
			c.flags |= capUsable
		}
		if c.flags&capEndAnchor != 0 && c.flags&capNoRules == 0 {
			s.out.Patterns.EndAnchorCaptures.N++
		}
		s.countHost(c)
	}
	s.out.Patterns.EndAnchorCaptures.Of = s.out.Patterns.WithRules
	s.finishFarmCounts()
	return nil
}

func (s *crawlState) outcomeIdx(o robots.Outcome) uint8 {
	return uint8(slices.Index(s.outcomes, o.String()))
}

// countHost counts a deciding capture: usable hosts, and hosts per body.
func (s *crawlState) countHost(c *capture) {
	const farm = capDeciding | capUsable | capNonEmpty
	if c.flags&(capDeciding|capUsable) == capDeciding|capUsable {
		s.out.UsableHosts++
	}
	if c.flags&farm == farm && c.digest != 0 {
		s.farms[c.digest]++
		s.out.Farms.Hosts++
	}
}

// finishFarmCounts counts the shared bodies and keeps only their counts.
func (s *crawlState) finishFarmCounts() {
	f := &s.out.Farms
	f.SharedHosts.Of = f.Hosts
	for d, n := range s.farms {
		if n < 2 {
			delete(s.farms, d)
			continue
		}
		f.SharedBodies++
		f.SharedHosts.N += n
	}
}

// inputsPass sums the inputs table of the crawl.
func (s *crawlState) inputsPass(ctx context.Context) error {
	var mu sync.Mutex
	in := &s.out.Inputs
	spec := scanSpec{table: "inputs", crawl: s.label, columns: []string{"bytes", "records", "captures", "skipped", "damage_events", "error"}}
	return s.d.scan(ctx, spec, func(_ int, rec arrow.Record) error {
		cs := columnSet{rec: rec}
		bytes, records, captures := cs.i64("bytes"), cs.i64("records"), cs.i64("captures")
		skipped, damage, errs := cs.i64("skipped"), cs.i64("damage_events"), cs.str("error")
		if cs.err != nil {
			return cs.err
		}
		mu.Lock()
		defer mu.Unlock()
		for i := range int(rec.NumRows()) {
			in.Inputs++
			if !errs.IsNull(i) {
				in.Failed++
			}
			in.Bytes += bytes.Value(i)
			in.Records += records.Value(i)
			in.Captures += captures.Value(i)
			in.Skipped += skipped.Value(i)
			in.Damage += damage.Value(i)
		}
		return nil
	})
}

// bodyBatch is the batch size used to read the body column: at most this
// many bodies of up to 500 KiB each are decoded at once.
const bodyBatch = 64

// findBodies returns the texts of the given payload digests that the
// bodies table of a crawl holds. Each file's digest column is read first;
// the body column only of files holding a wanted digest.
func (d *Dataset) findBodies(ctx context.Context, crawl string, digests []string) (map[string]string, error) {
	found := map[string]string{}
	if len(digests) == 0 {
		return found, nil
	}
	want := map[string]bool{}
	for _, dg := range digests {
		want[dg] = true
	}
	files, err := d.files("bodies", crawl)
	if err != nil {
		return nil, err
	}
	var mu sync.Mutex
	for _, name := range files {
		hit, err := d.fileHasDigest(ctx, name, want)
		if err != nil || !hit {
			if err != nil {
				return nil, err
			}
			continue
		}
		spec := scanSpec{table: "bodies", columns: []string{"payload_digest", "body"}, batch: bodyBatch}
		err = d.scanFile(ctx, name, spec, func(rec arrow.Record) error {
			mu.Lock()
			defer mu.Unlock()
			return collectBodies(rec, want, found)
		})
		if err != nil {
			return nil, err
		}
	}
	return found, nil
}

// fileHasDigest reports whether a bodies file holds one of the digests.
func (d *Dataset) fileHasDigest(ctx context.Context, name string, want map[string]bool) (bool, error) {
	hit := false
	spec := scanSpec{table: "bodies", columns: []string{"payload_digest"}}
	err := d.scanFile(ctx, name, spec, func(rec arrow.Record) error {
		dg, err := column[*array.String](rec, "payload_digest")
		if err != nil {
			return err
		}
		for i := range dg.Len() {
			hit = hit || want[dg.Value(i)]
		}
		return nil
	})
	return hit, err
}

func collectBodies(rec arrow.Record, want map[string]bool, found map[string]string) error {
	cs := columnSet{rec: rec}
	dg, body := cs.str("payload_digest"), cs.str("body")
	if cs.err != nil {
		return cs.err
	}
	for i := range dg.Len() {
		if k := dg.Value(i); want[k] {
			if _, ok := found[k]; !ok {
				found[strings.Clone(k)] = strings.Clone(body.Value(i))
			}
		}
	}
	return nil
}

// headLines is the number of lines of a shared body shown.
const headLines = 4

// maxShownLine is the most bytes of a line the report shows.
const maxShownLine = 160

// bodiesPass fills the line counts and first lines of the shared bodies.
func (s *crawlState) bodiesPass(ctx context.Context) error {
	top := s.out.Farms.Top
	digests := make([]string, len(top))
	for i, f := range top {
		digests[i] = f.Digest
	}
	texts, err := s.d.findBodies(ctx, s.label, digests)
	if err != nil {
		return err
	}
	for i := range top {
		if text, ok := texts[top[i].Digest]; ok {
			top[i].Lines, top[i].Head = head(text)
		}
	}
	return nil
}

// head returns the number of lines of a robots.txt text, as the engine
// counts them, and its first lines that are not blank.
func head(text string) (int, []string) {
	f := robots.ParseString(text)
	out := []string{}
	for l := range f.Lines() {
		if len(out) == headLines {
			break
		}
		if strings.TrimSpace(l.Text) != "" {
			out = append(out, clip(l.Text, maxShownLine))
		}
	}
	return f.Stats.Lines, out
}

// clip cuts s to at most n bytes at a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 { // do not split a UTF-8 sequence
		cut--
	}
	return s[:cut] + "…"
}

// sortedKeys returns the keys of m, sorted.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
