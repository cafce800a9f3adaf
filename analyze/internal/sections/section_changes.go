package sections

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/robocensus/robocensus/analyze/internal/engine"
	"github.com/robocensus/robocensus/analyze/internal/render"
	"github.com/robocensus/robocensus/analyze/internal/scan"
)

// changesSection compares each crawl of the report with the crawl before
// it in the report, host by host (url_host_name): hosts that appeared and
// disappeared, and of the hosts in both, those whose robots.txt started
// or stopped disallowing each AI crawler of schema.FollowedAICrawlers that both
// crawls' crawler lists track (fully,
// partially), whose robots.txt changed (content digest) and whose fetch
// class changed (hosts table). A host's robots.txt is its effective
// capture's, redirects followed (effective.go), as in the crawlers section
// and the site report's change check: a host that redirects to a file
// that starts blocking GPTBot starts blocking GPTBot.
//
// Per-host state does not stay in memory: each host is written as a
// record of its name and 12 bytes (digest hash, verdict bits, fetch class,
// flags) to runs sorted by name in the report's temporary folder, at most
// changesRunBytes held at once; at the end of the crawl the runs are
// merged, joined with the previous crawl's merged file and written as this
// crawl's file for the next. See stateRecordBytes.
var changesSection = &Section{
	Name: changesName,
	Doc:  "what changed since the previous crawl of the report: hosts that started or stopped blocking AI crawlers, whose robots.txt or fetch class changed, that appeared or disappeared",

	Title: "Changes",

	Needs: []engine.Need{
		{Table: engine.HostsTable, Columns: []string{"url_host_name", "fetch_class"}},
		{Table: engine.HostAgentsTable, Columns: []string{"agent", "verdict"}},
		{Table: engine.EffectiveHostsTable},
	},
	New:      func(p engine.Params) Accumulator { return newChangesAcc(p) },
	Shared:   true,
	Markdown: mdChanges,
	When:     func(p engine.Params) bool { return p.Carry != nil && (p.Previous != "" || p.Next) },
}

// Changes is what changed since the previous crawl of the report, host
// by host. Each HostChange counts hosts of a set and gives the first Top
// of their names in byte order.
type Changes struct {
	Previous      string `json:"previous"`       // the previous crawl's label
	PreviousHosts int64  `json:"previous_hosts"` // its hosts
	Hosts         int64  `json:"hosts"`          // this crawl's hosts
	Common        int64  `json:"common_hosts"`   // hosts of both crawls
	// Appeared are hosts of this crawl that the previous one has not, of
	// this crawl's hosts; Disappeared the reverse, of the previous
	// crawl's hosts.
	Appeared    HostChange `json:"appeared"`
	Disappeared HostChange `json:"disappeared"`
	// Body counts the hosts of both crawls whose effective captures have
	// different content digests, of those whose effective captures have
	// one in both crawls.
	Body HostChange `json:"robots_txt_changed"`
	// FetchClass counts the hosts of both crawls whose fetch class (hosts
	// table) differs, of those with a row of hosts in both crawls.
	FetchClass HostChange `json:"fetch_class_changed"`
	// Crawlers are the AI crawlers followed, each over the hosts of both
	// crawls.
	Crawlers []CrawlerChanges `json:"crawlers"`
}

// HostChange is a set of hosts: how many, of how many, and the first of
// their names.
type HostChange struct {
	Hosts    Ratio    `json:"hosts"`
	Examples []string `json:"examples"`
}

// CrawlerChanges are the hosts whose verdict for one AI crawler changed:
// started being disallowed fully (not disallowed before, disallowed
// now), stopped (the reverse), and likewise for partially. A host that
// went from disallowed to partially disallowed stopped disallowing and
// started partially.
type CrawlerChanges struct {
	Agent              string     `json:"agent"`
	StartedDisallowing HostChange `json:"started_disallowing"`
	StoppedDisallowing HostChange `json:"stopped_disallowing"`
	StartedPartially   HostChange `json:"started_partially"`
	StoppedPartially   HostChange `json:"stopped_partially"`
}

// changesName is the section's name, under which it hands on its state.
const changesName = "changes"

// changesRunBytes is the most per-host state the section holds in memory
// before it writes a sorted run to disk.
var changesRunBytes = 16 << 20

// The verdict bits of a host: for crawler k of schema.FollowedAICrawlers, bit
// 2k when its effective capture disallows it fully, bit 2k+1 partially.
// They are kept in the host's tally, then in its state.
func fullBit(k int) uint16    { return 1 << (2 * k) }
func partialBit(k int) uint16 { return 1 << (2*k + 1) }

// changesAcc gathers the per-host state of one crawl; every worker shares
// it (Shared).
type changesAcc struct {
	p        engine.Params
	followed []string // schema.FollowedAICrawlers, "" for those the crawl's list does not track
	prev     string   // the previous crawl's state file, "" for none
	// prevFollowed is the previous crawl's followed.
	prevFollowed []string

	mu   sync.Mutex
	buf  engine.StateBuffer
	runs []string // run files, each sorted by name
	err  error
}

// changesCarried is what the section hands on to the next crawl: its
// state file, and the followed AI crawlers its crawler list tracks.
type changesCarried struct {
	path     string
	followed []string
}

func newChangesAcc(p engine.Params) *changesAcc {
	a := &changesAcc{p: p, followed: p.CrawlerList().FollowedAI()}
	if c, ok := p.Carry.Take(changesName).(changesCarried); ok {
		a.prev, a.prevFollowed = c.path, c.followed
	}
	return a
}

// Add reads rows of the hosts table: each host's fetch class.
func (a *changesAcc) Add(_ engine.Table, rec arrow.Record) error {
	cs := scan.Columns{Rec: rec}
	hosts, classes := cs.Str("url_host_name"), cs.Str("fetch_class")
	if cs.Err != nil {
		return cs.Err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for i := range hosts.Len() {
		a.add(hosts.Value(i), engine.HostState{Class: fetchClassNumber(scan.StrOrEmpty(classes, i))})
	}
	return a.err
}

// fetchClassNumber numbers a fetch class from 1 (fetchClassColumns); 0
// for NULL or a class this version does not know.
func fetchClassNumber(class string) uint8 {
	return uint8(slices.Index(fetchClassColumns, class) + 1)
}

// AddHostRows sets the verdict bits of effective captures in their
// tallies. Workers call it at once: it writes only tallies, atomically.
func (a *changesAcc) AddHostRows(_ engine.Table, rec arrow.Record, runs []engine.HostRun) error {
	cs := scan.Columns{Rec: rec}
	agents, verdicts := cs.Dict("agent"), cs.Dict("verdict")
	if cs.Err != nil {
		return cs.Err
	}
	fv := newFollowedVerdicts(agents, verdicts, a.followed)
	for _, r := range runs {
		var bits uint16
		for i := r.From; i < r.To; i++ {
			k := fv.crawler[agents.Index[i]]
			switch {
			case k < 0:
			case verdicts.Index[i] == fv.full:
				bits |= fullBit(k)
			case verdicts.Index[i] == fv.partial:
				bits |= partialBit(k)
			}
		}
		if bits != 0 {
			r.Marks.Tally().Or(uint64(bits))
		}
	}
	return nil
}

// AddHosts keeps the state of each host an effective capture decides
// for: the capture's digest and verdict bits.
func (a *changesAcc) AddHosts(_ arrow.Record, hosts []engine.CaptureRow) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, h := range hosts {
		st := engine.HostState{Digest: h.Marks.DigestHash(), Verdicts: uint16(h.Marks.Tally().Load()), Flags: engine.StatePresent}
		for _, name := range h.Marks.Hosts() {
			a.add(name, st)
		}
	}
	return a.err
}

// add buffers the state of a host, and writes a run when the buffer is
// full; a.mu is held.
func (a *changesAcc) add(name string, st engine.HostState) {
	if a.err != nil {
		return
	}
	a.buf.Add(name, st)
	if a.buf.Size() >= changesRunBytes {
		a.err = a.spill()
	}
}

// spill writes the buffer as a run sorted by name.
func (a *changesAcc) spill() error {
	if len(a.buf.Entries) == 0 {
		return nil
	}
	dir, err := a.p.Carry.TempDir()
	if err != nil {
		return err
	}
	path, err := a.buf.WriteRun(dir)
	if err != nil {
		return err
	}
	a.runs = append(a.runs, path)
	return nil
}

// Merge is never called: the workers share one accumulator.
func (a *changesAcc) Merge(engine.Accumulator) {}

// Finish merges the crawl's runs, joins them with the previous crawl's
// state and hands this crawl's on; a failure is the report's.
func (a *changesAcc) Finish(out *Crawl) {
	err := a.err
	if err == nil {
		err = a.spill()
	}
	if err == nil {
		err = a.join(out)
	}
	for _, path := range append(a.runs, a.prev) {
		engine.RemoveFile(path)
	}
	if err != nil {
		a.p.Carry.Fail(fmt.Errorf("changes since the previous crawl (%s): %w", out.Crawl, err))
	}
}

// join walks this crawl's hosts and the previous crawl's in name order,
// counting what changed, and writes this crawl's state for the next.
func (a *changesAcc) join(out *Crawl) (err error) {
	cur, err := engine.OpenStateMerge(a.runs)
	if err != nil {
		return err
	}
	defer cur.Close()
	var prev *engine.StateMerge
	if a.prev != "" {
		if prev, err = engine.OpenStateMerge([]string{a.prev}); err != nil {
			return err
		}
		defer prev.Close()
	}
	var next *engine.StateWriter
	if a.p.Next {
		var dir string
		if dir, err = a.p.Carry.TempDir(); err != nil {
			return err
		}
		if next, err = engine.CreateStateFile(dir, "changes-state-*"); err != nil {
			return err
		}
		defer func() { // err is the result of join
			if cerr := next.Close(); err == nil {
				err = cerr
			}
			if err == nil {
				a.p.Carry.Put(changesName, changesCarried{path: next.Path, followed: a.followed})
			}
		}()
	}
	k := newChangeCounter(a.p.Top)
	curOK, prevOK := cur.NextPresent(), prev.NextPresent()
	for curOK || prevOK {
		c := 0
		switch {
		case !prevOK:
			c = -1
		case !curOK:
			c = 1
		default:
			c = bytes.Compare(cur.State.Name, prev.State.Name)
		}
		if c <= 0 && next != nil {
			if err := next.Write(&cur.State); err != nil {
				return err
			}
		}
		switch {
		case c < 0:
			k.appeared(&cur.State)
			curOK = cur.NextPresent()
		case c > 0:
			k.disappeared(&prev.State)
			prevOK = prev.NextPresent()
		default:
			k.common(&prev.State, &cur.State)
			curOK, prevOK = cur.NextPresent(), prev.NextPresent()
		}
	}
	if err := cur.Failed(); err != nil {
		return err
	}
	if err := prev.Failed(); err != nil {
		return err
	}
	if a.prev != "" {
		out.Changes = k.changes(a.p.Previous, bothFollowed(a.prevFollowed, a.followed))
	}
	return nil
}

// The categories of changes counted: four per AI crawler (started and
// stopped disallowing, started and stopped partially), then these.
const perCrawler = 4

const (
	catAppeared = iota // + perCrawler*followedCount
	catDisappeared
	catBody
	catClass
	globalCats // the number of categories that are not per crawler
)

// followedCount is the number of schema.FollowedAICrawlers: the verdict bits and
// the per-crawler categories are by index in it.
const followedCount = 7

// changeCounter counts the hosts of each category, and keeps the first
// top names of each as they come (in name order).
type changeCounter struct {
	top                      int
	n                        []int64
	examples                 [][]string
	cur, prev, both          int64
	bothDigests, bothClasses int64
}

func newChangeCounter(top int) *changeCounter {
	n := perCrawler*followedCount + globalCats
	return &changeCounter{top: top, n: make([]int64, n), examples: make([][]string, n)}
}

func (k *changeCounter) hit(cat int, name []byte) {
	k.n[cat]++
	if len(k.examples[cat]) < k.top {
		k.examples[cat] = append(k.examples[cat], string(name))
	}
}

// global returns the index of a category that is not per crawler.
func (k *changeCounter) global(cat int) int { return perCrawler*followedCount + cat }

func (k *changeCounter) appeared(st *engine.HostState) {
	k.cur++
	k.hit(k.global(catAppeared), st.Name)
}

func (k *changeCounter) disappeared(st *engine.HostState) {
	k.prev++
	k.hit(k.global(catDisappeared), st.Name)
}

// common counts a host of both crawls.
//
//mutate:catch
func (k *changeCounter) common(before, after *engine.HostState) {
	k.cur, k.prev, k.both = k.cur+1, k.prev+1, k.both+1
	if before.Digest != 0 && after.Digest != 0 {
		k.bothDigests++
		if before.Digest != after.Digest {
			k.hit(k.global(catBody), after.Name)
		}
	}
	if before.Class != 0 && after.Class != 0 {
		k.bothClasses++
		if before.Class != after.Class {
			k.hit(k.global(catClass), after.Name)
		}
	}
	for c := range followedCount {
		for i, bit := range [2]uint16{fullBit(c), partialBit(c)} {
			was, is := before.Verdicts&bit != 0, after.Verdicts&bit != 0
			switch {
			case is && !was:
				k.hit(perCrawler*c+2*i, after.Name) // started
			case was && !is:
				k.hit(perCrawler*c+2*i+1, after.Name) // stopped
			}
		}
	}
}

// changes returns the figures, for the followed AI crawlers of followed
// (schema.FollowedAICrawlers, "" for those not tracked by both crawls).
func (k *changeCounter) changes(previous string, followed []string) *Changes {
	set := func(cat int, of int64) HostChange {
		ex := k.examples[cat]
		if ex == nil {
			ex = []string{}
		}
		return HostChange{Hosts: Ratio{N: k.n[cat], Of: of}, Examples: ex}
	}
	ch := &Changes{
		Previous: previous, PreviousHosts: k.prev, Hosts: k.cur, Common: k.both,
		Appeared: set(k.global(catAppeared), k.cur), Disappeared: set(k.global(catDisappeared), k.prev),
		Body: set(k.global(catBody), k.bothDigests), FetchClass: set(k.global(catClass), k.bothClasses),
		Crawlers: []CrawlerChanges{},
	}
	for c, agent := range followed {
		if agent == "" {
			continue
		}
		ch.Crawlers = append(ch.Crawlers, CrawlerChanges{
			Agent:              agent,
			StartedDisallowing: set(perCrawler*c, k.both), StoppedDisallowing: set(perCrawler*c+1, k.both),
			StartedPartially: set(perCrawler*c+2, k.both), StoppedPartially: set(perCrawler*c+3, k.both),
		})
	}
	return ch
}

// bothFollowed returns cur with "" in place of the crawlers prev does
// not follow: a crawler one crawl's list does not track has no verdicts
// there to compare.
func bothFollowed(prev, cur []string) []string {
	out := make([]string, len(cur))
	for i, n := range cur {
		if i < len(prev) && prev[i] == n {
			out[i] = n
		}
	}
	return out
}

func mdChanges(m *render.Markdown, c *Crawl, _ int) {
	ch := c.Changes
	if ch == nil {
		return
	}
	m.Heading(3, "Since the previous crawl")
	m.Para("Host by host, compared with %s: %s hosts in both crawls; %s appeared%s and %s disappeared%s.",
		render.Code(ch.Previous), render.Int(ch.Common), FormatRatio(ch.Appeared.Hosts), mdExamples(ch.Appeared.Examples),
		FormatRatio(ch.Disappeared.Hosts), mdExamples(ch.Disappeared.Examples))
	m.Para("Of the hosts in both, the robots.txt changed for %s%s (content digest of the robots.txt that answers for it, redirects followed, of those with one in both crawls), the fetch class for %s%s (hosts table, of those with a row in both).",
		FormatRatio(ch.Body.Hosts), mdExamples(ch.Body.Examples), FormatRatio(ch.FetchClass.Hosts), mdExamples(ch.FetchClass.Examples))
	m.Para("Hosts in both crawls whose robots.txt (redirects followed) started or stopped disallowing each AI crawler everything (fully) or some paths (partially):")
	var rows [][]string
	var examples []string
	for _, cc := range ch.Crawlers {
		sets := cc.sets()
		row := []string{render.Code(cc.Agent)}
		for i, s := range sets {
			row = append(row, render.Int(s.Hosts.N))
			if len(s.Examples) > 0 {
				examples = append(examples, fmt.Sprintf("- %s %s: %s", render.Code(cc.Agent), crawlerChangeNames[i], mdHostList(s.Examples)))
			}
		}
		rows = append(rows, row)
	}
	m.Table([]string{"crawler", " started disallowing", " stopped disallowing", " started partially", " stopped partially"}, rows)
	if len(examples) > 0 {
		m.Para("%s", strings.Join(examples, "\n"))
	}
}

// crawlerChangeNames name the sets of CrawlerChanges.sets.
var crawlerChangeNames = [4]string{"started disallowing", "stopped disallowing", "started partially", "stopped partially"}

// sets returns the four sets, in the order of crawlerChangeNames.
func (cc CrawlerChanges) sets() [4]HostChange {
	return [4]HostChange{cc.StartedDisallowing, cc.StoppedDisallowing, cc.StartedPartially, cc.StoppedPartially}
}

// mdExamples writes " (e.g. a, b)" for a list of hosts, or nothing.
func mdExamples(hosts []string) string {
	if len(hosts) == 0 {
		return ""
	}
	return " (e.g. " + mdHostList(hosts) + ")"
}

func mdHostList(hosts []string) string {
	out := make([]string, len(hosts))
	for i, h := range hosts {
		out[i] = render.Code(h)
	}
	return strings.Join(out, ", ")
}
