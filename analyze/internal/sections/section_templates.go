package sections

import (
	"math/bits"
	"slices"
	"strings"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/bitutil"

	"github.com/robocensus/robocensus/analyze/internal/engine"
	"github.com/robocensus/robocensus/analyze/internal/render"
	"github.com/robocensus/robocensus/analyze/internal/scan"
	"github.com/robocensus/robocensus/robots"
)

// templatesSection is "Who wrote these files": from the templates table
// and agents.source and agents.cancelled (schema 2.3), the share of
// captures and of hosts (redirects followed: each effective capture
// counts for the hosts it decides for) carrying each template and
// version of robots.Templates' catalogue, per rank stratum when the
// report has a ranked host list; for each tracked AI crawler, whose lines
// shut it out of the whole site (a template's alone, the site's alone, or
// both); the hosts where the site's own lines cancel a template's block;
// and the age of the pasted ai.robots.txt block lists, their release date
// against the capture's fetch time.
//
// The tally of an effective capture holds a bit per entry of the
// catalogue it carries a block of, then a bit for a capture whose own
// lines cancel a template's block: templateTallyWords words. A template
// or version the binary's catalogue does not hold counts for nothing.
var templatesSection = &Section{
	Name:  "templates",
	Doc:   "who wrote these files: the templates of CDNs, CMSs and block lists each host carries, whose lines shut AI crawlers out, and how old the pasted block lists are",
	Title: "Who wrote these files",
	Needs: []engine.Need{
		{Table: engine.MarksTable},
		{Table: engine.TemplatesTable, Columns: []string{"capture_id", "template", "version"}},
		{Table: engine.HostRowsTable(engine.TemplatesTable), Columns: []string{"template", "version"}},
		{Table: engine.HostAgentsTable, Columns: []string{"agent", "verdict", "source", "cancelled"}},
		{Table: engine.EffectiveHostsTable, Columns: []string{"fetch_time"}},
	},
	New:        newTemplatesAcc,
	When:       func(p engine.Params) bool { return p.Has(engine.TemplatesTable) },
	TallyWords: templateTallyWords,
	TrendOrder: 2,
	Trends: []Trend{
		{Name: "hosts with a template", Ratio: func(c *Crawl) Ratio { return c.Templates.WithTemplate }},
		{Name: "hosts whose own lines cancel a template's block", Ratio: func(c *Crawl) Ratio { return c.Templates.Cancelling }},
		{Name: "hosts with a pasted ai.robots.txt list", Ratio: func(c *Crawl) Ratio { return c.Templates.Lists.Hosts }},
		{Name: "ai.robots.txt lists over a year old", Ratio: func(c *Crawl) Ratio { return c.Templates.Lists.OverYear }},
		{Name: "median age of ai.robots.txt lists (days)", Count: func(c *Crawl) int64 { return c.Templates.Lists.MedianDays }},
	},
	Markdown: func(m *render.Markdown, c *Crawl, _ int) { mdTemplates(m, &c.Templates) },
}

// Authorship is the section "Who wrote these files". Host shares are of
// the hosts with an effective capture (Hosts), capture shares of every
// capture of the crawl (Captures).
type Authorship struct {
	// HasTemplates is false for a crawl published before the templates
	// table (schema 2.2 and older): then nothing else is set.
	HasTemplates bool  `json:"has_templates"`
	Captures     int64 `json:"captures"`
	Hosts        int64 `json:"hosts"`
	// WithTemplate are the hosts whose file carries a block of any
	// template of the catalogue.
	WithTemplate Ratio `json:"with_template"`
	// Templates are the templates and versions found, most hosts first,
	// then most captures, then in catalogue order.
	Templates []TemplateShare `json:"templates"`
	// Strata are the hosts of each rank stratum carrying each template
	// (with a ranked host list only).
	Strata []TemplateStratum `json:"strata,omitempty"`
	// Crawlers are the tracked AI crawlers shut out of the whole site by
	// the most hosts (the report's top; first by name among equals):
	// whose lines do it.
	Crawlers []TemplateSources `json:"crawlers"`
	// Cancelling are the hosts where the site's own lines undo a
	// template's block for at least one crawler (agents.cancelled);
	// Cancelled the crawlers so let in, with the hosts each, most first;
	// Examples the first such hosts in byte order.
	Cancelling Ratio       `json:"cancelling"`
	Cancelled  []NameHosts `json:"cancelled"`
	Examples   []string    `json:"examples"`
	// Lists are the ages of the pasted ai.robots.txt block lists.
	Lists ListAges `json:"lists"`
}

// TemplateShare is one template in one version: the captures and hosts
// carrying a block of it.
type TemplateShare struct {
	Template string `json:"template"`
	Version  string `json:"version"`
	Title    string `json:"title"`
	Released string `json:"released,omitempty"` // when the version appeared
	Captures Ratio  `json:"captures"`
	Hosts    Ratio  `json:"hosts"`
}

// TemplateStratum is one rank stratum: its ranked hosts the crawl has,
// those carrying any template, and those carrying each template and
// version of the crawl's Templates (Hosts[i] of Templates[i]).
type TemplateStratum struct {
	Stratum      scan.Stratum `json:"stratum"`
	Ranked       int64        `json:"ranked"`
	WithTemplate Ratio        `json:"with_template"`
	Hosts        []int64      `json:"hosts"`
}

// TemplateSources says, for one AI crawler, how many hosts shut it out of
// the whole site, and whose lines do it (agents.source): a template's
// alone, the site's own alone, or both. The ratios are of Blocked.
type TemplateSources struct {
	Crawler  string `json:"crawler"`
	Blocked  int64  `json:"blocked"`
	Template Ratio  `json:"template"`
	Site     Ratio  `json:"site"`
	Both     Ratio  `json:"both"`
}

// NameHosts is a name and the hosts it counts.
type NameHosts struct {
	Name  string `json:"name"`
	Hosts int64  `json:"hosts"`
}

// ListAges are the ages of the pasted ai.robots.txt block lists. The age
// of a list is the days from its release's date (the release it matches,
// or comes nearest to) to its capture's fetch time; a host counts once
// per release its lists match.
type ListAges struct {
	// Hosts are the hosts carrying a list.
	Hosts Ratio `json:"hosts"`
	// Dated counts the lists whose age is known (the capture has a fetch
	// time); the figures below are over them.
	Dated      int64 `json:"dated"`
	MedianDays int64 `json:"median_days"` // rounded to the day, half away from zero; 0 when none is dated
	OverHalf   Ratio `json:"over_six_months"`
	OverYear   Ratio `json:"over_a_year"`
	// Oldest and Newest are the dates of the releases found.
	Oldest string `json:"oldest,omitempty"`
	Newest string `json:"newest,omitempty"`
}

// The ages of the shares of ListAges: over halfYearDays and over
// yearDays days.
const (
	halfYearDays = 182
	yearDays     = 365
)

// templateCatalogue is robots.Templates: the tally's bit k is its entry k.
var templateCatalogue = robots.Templates()

// templateKeys are the indices of templateCatalogue, by name then
// version.
var templateKeys = func() map[string]map[string]int {
	out := map[string]map[string]int{}
	for i, t := range templateCatalogue {
		if out[t.Name] == nil {
			out[t.Name] = map[string]int{}
		}
		out[t.Name][t.Version] = i
	}
	return out
}()

// cancelBit is the tally bit of a capture whose own lines cancel a
// template's block, after the catalogue's bits; templateTallyWords the
// words of the tally.
var (
	cancelBit          = len(templateCatalogue)
	templateTallyWords = cancelBit/64 + 1
)

// templateExamples is the number of example hosts of cancelled blocks.
const templateExamples = 5

// templatesAcc counts what one worker reads.
type templatesAcc struct {
	has      bool
	top      int // the AI crawlers listed
	crawlers *scan.CrawlerList
	ranks    *scan.Ranks
	strata   []scan.Stratum

	captures     int64
	capturesOf   []int64              // by catalogue entry
	runKeys      []int                // the entries of a capture's run of rows
	edges        map[edgeKey]struct{} // the entries of the captures at the ends of records
	hosts        int64
	hostsOf      []int64 // by catalogue entry
	withTemplate int64
	stratumHosts [][2]int64           // by stratum: ranked hosts, those with a template
	stratumOf    [][]int64            // by stratum, then catalogue entry
	blocked      map[string]*[4]int64 // by AI crawler: full blocks, then by source (sourceIndex)
	cancelling   int64
	cancelled    map[string]int64 // hosts by crawler
	examples     []string
	aiOf         []bool          // by index in a record's agent dictionary: a tracked AI crawler
	keys         []int           // the catalogue entries of a host's tally
	lists        int64           // hosts with a block list
	ages         map[int64]int64 // lists by age in days
}

func newTemplatesAcc(p engine.Params) Accumulator {
	a := &templatesAcc{has: p.Has(engine.TemplatesTable), top: p.Top, crawlers: p.CrawlerList(), ranks: p.Ranks,
		capturesOf: make([]int64, len(templateCatalogue)), hostsOf: make([]int64, len(templateCatalogue)),
		blocked: map[string]*[4]int64{}, cancelled: map[string]int64{}, ages: map[int64]int64{}, edges: map[edgeKey]struct{}{}}
	if p.Ranks != nil {
		a.strata = p.Ranks.Strata()
		a.stratumHosts = make([][2]int64, len(a.strata))
		a.stratumOf = make([][]int64, len(a.strata))
		for i := range a.stratumOf {
			a.stratumOf[i] = make([]int64, len(templateCatalogue))
		}
	}
	return a
}

// AddMarks counts every capture of the crawl.
func (a *templatesAcc) AddMarks(*engine.Marks) { a.captures++ }

// Add counts the captures carrying each catalogue entry, from every row
// of the templates table. A capture's rows come one after the other: one
// inside a record counts once per entry at once; the first and the last
// capture of a record, whose rows may go on in a record another worker
// reads, count once their entries are gathered from every worker
// (edges, merged as sets).
func (a *templatesAcc) Add(_ engine.Table, rec arrow.Record) error {
	cs := scan.Columns{Rec: rec}
	ids, tpl, ver := cs.Str("capture_id"), cs.Str("template"), cs.Str("version")
	if cs.Err != nil {
		return cs.Err
	}
	n := int(rec.NumRows())
	for i := 0; i < n; { // one run of rows of a capture at a time
		j := i + 1
		for j < n && ids.Value(j) == ids.Value(i) {
			j++
		}
		edge := i == 0 || j == n
		a.runKeys = a.runKeys[:0]
		for r := i; r < j; r++ {
			if k := catalogueIndex(tpl.Value(r), ver.Value(r)); k >= 0 && !slices.Contains(a.runKeys, k) {
				a.runKeys = append(a.runKeys, k)
				if edge {
					a.edges[edgeKey{strings.Clone(ids.Value(i)), k}] = struct{}{}
				} else {
					a.capturesOf[k]++
				}
			}
		}
		i = j
	}
	return nil
}

// edgeKey is a catalogue entry of a capture whose rows may go on in
// another record.
type edgeKey struct {
	capture string
	entry   int
}

// catalogueIndex returns the index of a template's version in the
// catalogue, -1 when the binary's catalogue has none.
func catalogueIndex(template, version string) int {
	if k, ok := templateKeys[template][version]; ok {
		return k
	}
	return -1
}

// AddHostRows marks, in each effective capture's tally, the catalogue
// entries it carries (templates rows); agents rows go to addAgents.
func (a *templatesAcc) AddHostRows(table engine.Table, rec arrow.Record, runs []engine.HostRun) error {
	if table == engine.AgentsTable {
		return a.addAgents(rec, runs)
	}
	cs := scan.Columns{Rec: rec}
	tpl, ver := cs.Dict("template"), cs.Dict("version")
	if cs.Err != nil {
		return cs.Err
	}
	for _, r := range runs {
		for i := r.From; i < r.To; i++ {
			if k := catalogueIndex(tpl.Value(i), ver.Value(i)); k >= 0 {
				setBit(r.Marks, k)
			}
		}
	}
	return nil
}

// setBit sets bit k of a capture's tally.
func setBit(m *engine.Marks, k int) { m.TallyWord(k / 64).Or(1 << (k % 64)) }

// hasBit reports whether bit k of a tally's words is set.
func hasBit(tally []uint64, k int) bool { return tally[k/64]&(1<<(k%64)) != 0 }

// sourceIndex are the agents.source values counted, by their index in
// templatesAcc.blocked's counts (after the full blocks).
var sourceIndex = map[string]int{robots.SourceTemplate.String(): 1, robots.SourceSite.String(): 2, robots.SourceBoth.String(): 3}

// addAgents counts, from agents rows (one per capture and tracked
// crawler, each counting for the hosts its capture decides for), the
// full blocks of the AI crawlers by source and the crawlers whose
// template block the site's lines cancel; it marks the captures that
// cancel one.
//
//mutate:catch
func (a *templatesAcc) addAgents(rec arrow.Record, runs []engine.HostRun) error {
	cs := scan.Columns{Rec: rec}
	agent, verdict, source, cancelled := cs.Dict("agent"), cs.Dict("verdict"), cs.Dict("source"), cs.Boolean("cancelled")
	if cs.Err != nil {
		return cs.Err
	}
	full := verdict.Find(robots.AccessDisallowed.String())
	anyCancelled := countTrue(cancelled) > 0 // most records have none: no row to look at
	a.aiOf = a.aiOf[:0]
	for i := range agent.Values.Len() {
		a.aiOf = append(a.aiOf, a.crawlers.Kind(agent.Values.Value(i)) == robots.CrawlerAI.String())
	}
	for _, r := range runs {
		w := r.Marks.Weight()
		for i := r.From; i < r.To; i++ {
			if anyCancelled && cancelled.IsValid(i) && cancelled.Value(i) {
				a.cancelled[strings.Clone(agent.Value(i))] += w
				setBit(r.Marks, cancelBit)
			}
			if verdict.Index[i] != full || !a.aiOf[agent.Index[i]] {
				continue
			}
			counts := a.blocked[agent.Value(i)]
			if counts == nil {
				counts = new([4]int64)
				a.blocked[strings.Clone(agent.Value(i))] = counts
			}
			counts[0] += w
			if source.Values.IsValid(int(source.Index[i])) {
				counts[sourceIndex[source.Value(i)]] += w // "none" (index 0) cannot be a full block
			}
		}
	}
	return nil
}

// countTrue returns the number of values of a boolean column that are
// true (a null's value bit is not set by the Parquet reader).
func countTrue(col *array.Boolean) int {
	return bitutil.CountSetBits(col.Data().Buffers()[1].Bytes(), col.Data().Offset(), col.Len())
}

// AddHosts counts every effective capture as the hosts it decides for,
// by its tally: the entries it carries, per rank stratum too, whether its
// own lines cancel a template's block, and the ages of its block lists.
func (a *templatesAcc) AddHosts(rec arrow.Record, hosts []engine.CaptureRow) error {
	cs := scan.Columns{Rec: rec}
	fetch := cs.Timestamp("fetch_time")
	if cs.Err != nil {
		return cs.Err
	}
	tally := make([]uint64, templateTallyWords)
	for _, h := range hosts {
		w := h.Marks.Weight()
		a.hosts += w
		for k := range tally {
			tally[k] = h.Marks.TallyWord(k).Load()
		}
		carries := hasTemplate(tally)
		if carries {
			a.withTemplate += w
		}
		a.keys = entriesOf(a.keys[:0], tally)
		a.addRanked(h.Marks.Hosts(), a.keys, carries)
		if hasBit(tally, cancelBit) {
			a.cancelling += w
			for _, n := range h.Marks.Hosts() {
				a.examples = keepFirst(a.examples, n)
			}
		}
		list := false
		for _, k := range a.keys {
			a.hostsOf[k] += w
			if templateCatalogue[k].Name == robots.TemplateAIRobots {
				list = true
				a.addAge(k, scan.Micros(fetch, h.Row), w)
			}
		}
		if list {
			a.lists += w
		}
	}
	return nil
}

// entriesOf appends to dst the catalogue entries whose bits a tally has.
//
//mutate:catch
func entriesOf(dst []int, tally []uint64) []int {
	for wi, word := range tally {
		for ; word != 0; word &= word - 1 {
			if k := wi*64 + bits.TrailingZeros64(word); k < len(templateCatalogue) {
				dst = append(dst, k)
			}
		}
	}
	return dst
}

// hasTemplate reports whether a tally has the bit of a catalogue entry.
//
//mutate:catch
func hasTemplate(tally []uint64) bool {
	for k, word := range tally {
		if k == cancelBit/64 {
			word &^= 1 << (cancelBit % 64)
		}
		if word != 0 {
			return true
		}
	}
	return false
}

// addAge counts the age of a host's block list of catalogue entry k when
// the capture has a fetch time and the release a date.
func (a *templatesAcc) addAge(k int, fetched int64, w int64) {
	released, ok := releaseDay(templateCatalogue[k].Date)
	if !ok || fetched == scan.NoTime {
		return
	}
	a.ages[floorDiv(fetched, 86_400_000_000)-released] += w
}

// releaseDay returns a release date (YYYY-MM-DD, or YYYY-MM: its first
// day) as days since 1970-01-01.
func releaseDay(date string) (int64, bool) {
	t, err := time.Parse(time.DateOnly, date)
	if err != nil {
		if t, err = time.Parse("2006-01", date); err != nil {
			return 0, false
		}
	}
	return floorDiv(t.Unix(), 86400), true
}

// floorDiv divides rounding down.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// addRanked counts the ranked hosts among names, per stratum, and those
// carrying each catalogue entry of keys.
func (a *templatesAcc) addRanked(names []string, keys []int, carries bool) {
	if a.ranks == nil {
		return
	}
	for _, name := range names {
		rank := a.ranks.Rank(name)
		for s, st := range a.strata {
			if !st.In(rank) {
				continue
			}
			a.stratumHosts[s][0]++
			if !carries {
				continue
			}
			a.stratumHosts[s][1]++
			for _, k := range keys {
				a.stratumOf[s][k]++
			}
		}
	}
}

// keepFirst adds name to the sorted examples, keeping the first
// templateExamples.
//
//mutate:catch
func keepFirst(examples []string, name string) []string {
	i, found := slices.BinarySearch(examples, name)
	if found || i >= templateExamples {
		return examples
	}
	examples = slices.Insert(examples, i, strings.Clone(name))
	return examples[:min(len(examples), templateExamples)]
}

func (a *templatesAcc) Merge(other engine.Accumulator) {
	o := other.(*templatesAcc)
	a.captures += o.captures
	a.hosts += o.hosts
	a.withTemplate += o.withTemplate
	a.cancelling += o.cancelling
	a.lists += o.lists
	for k := range a.capturesOf {
		a.capturesOf[k] += o.capturesOf[k]
		a.hostsOf[k] += o.hostsOf[k]
	}
	for s := range a.stratumHosts {
		a.stratumHosts[s][0] += o.stratumHosts[s][0]
		a.stratumHosts[s][1] += o.stratumHosts[s][1]
		for k := range a.stratumOf[s] {
			a.stratumOf[s][k] += o.stratumOf[s][k]
		}
	}
	for name, c := range o.blocked {
		if a.blocked[name] == nil {
			a.blocked[name] = new([4]int64)
		}
		for i := range c {
			a.blocked[name][i] += c[i]
		}
	}
	for name, n := range o.cancelled {
		a.cancelled[name] += n
	}
	for _, n := range o.examples {
		a.examples = keepFirst(a.examples, n)
	}
	for d, n := range o.ages {
		a.ages[d] += n
	}
	for e := range o.edges {
		a.edges[e] = struct{}{}
	}
}

func (a *templatesAcc) Finish(out *Crawl) {
	if !a.has {
		out.Templates = Authorship{}
		return
	}
	for e := range a.edges {
		a.capturesOf[e.entry]++
	}
	clear(a.edges)
	t := Authorship{HasTemplates: true, Captures: a.captures, Hosts: a.hosts, WithTemplate: Ratio{a.withTemplate, a.hosts},
		Templates: []TemplateShare{}, Cancelling: Ratio{a.cancelling, a.hosts}, Examples: append([]string{}, a.examples...)}
	found := a.found()
	for _, k := range found {
		e := templateCatalogue[k]
		t.Templates = append(t.Templates, TemplateShare{Template: e.Name, Version: e.Version, Title: e.Title, Released: e.Date,
			Captures: Ratio{a.capturesOf[k], a.captures}, Hosts: Ratio{a.hostsOf[k], a.hosts}})
	}
	for s, st := range a.strata {
		row := TemplateStratum{Stratum: st, Ranked: a.stratumHosts[s][0], WithTemplate: Ratio{a.stratumHosts[s][1], a.stratumHosts[s][0]}, Hosts: []int64{}}
		for _, k := range found {
			row.Hosts = append(row.Hosts, a.stratumOf[s][k])
		}
		t.Strata = append(t.Strata, row)
	}
	t.Crawlers = a.crawlerSources()
	t.Cancelled = []NameHosts{}
	for name, n := range a.cancelled {
		t.Cancelled = append(t.Cancelled, NameHosts{name, n})
	}
	slices.SortFunc(t.Cancelled, func(x, y NameHosts) int {
		if x.Hosts != y.Hosts {
			return int(y.Hosts - x.Hosts)
		}
		return strings.Compare(x.Name, y.Name)
	})
	t.Lists = a.listAges(found)
	out.Templates = t
}

// found returns the catalogue entries some capture carries, most hosts
// first, then most captures, then in catalogue order.
func (a *templatesAcc) found() []int {
	var out []int
	for k := range templateCatalogue {
		if a.capturesOf[k] > 0 || a.hostsOf[k] > 0 {
			out = append(out, k)
		}
	}
	slices.SortStableFunc(out, func(x, y int) int {
		if a.hostsOf[x] != a.hostsOf[y] {
			return int(a.hostsOf[y] - a.hostsOf[x])
		}
		return int(a.capturesOf[y] - a.capturesOf[x])
	})
	return out
}

// crawlerSources returns the top AI crawlers shut out by some host, most
// hosts first, then by name.
func (a *templatesAcc) crawlerSources() []TemplateSources {
	out := []TemplateSources{}
	for name, c := range a.blocked {
		out = append(out, TemplateSources{Crawler: name, Blocked: c[0],
			Template: Ratio{c[1], c[0]}, Site: Ratio{c[2], c[0]}, Both: Ratio{c[3], c[0]}})
	}
	slices.SortFunc(out, func(x, y TemplateSources) int {
		if x.Blocked != y.Blocked {
			return int(y.Blocked - x.Blocked)
		}
		return strings.Compare(x.Crawler, y.Crawler)
	})
	return out[:min(len(out), a.top)]
}

// listAges returns the ages of the block lists, of the entries found.
func (a *templatesAcc) listAges(found []int) ListAges {
	l := ListAges{Hosts: Ratio{a.lists, a.hosts}}
	for _, k := range found {
		if e := templateCatalogue[k]; e.Name == robots.TemplateAIRobots && a.hostsOf[k] > 0 {
			if l.Oldest == "" || e.Date < l.Oldest {
				l.Oldest = e.Date
			}
			l.Newest = max(l.Newest, e.Date)
		}
	}
	days := make([]int64, 0, len(a.ages))
	for d, n := range a.ages {
		days = append(days, d)
		l.Dated += n
		if d > halfYearDays {
			l.OverHalf.N += n
		}
		if d > yearDays {
			l.OverYear.N += n
		}
	}
	l.OverHalf.Of, l.OverYear.Of = l.Dated, l.Dated
	slices.Sort(days)
	l.MedianDays = weightedMedian(days, a.ages, l.Dated)
	return l
}

// weightedMedian returns the median of the sorted days, each counted
// ages[d] times (n in all): the two middle values averaged when n is
// even, as DuckDB's median does, rounded half away from zero; 0 for
// none.
//
//mutate:catch
func weightedMedian(days []int64, ages map[int64]int64, n int64) int64 {
	if n == 0 {
		return 0
	}
	lo, hi := (n-1)/2, n/2 // the middle positions, 0-based
	var at, vlo, vhi int64
	for _, d := range days {
		next := at + ages[d]
		if lo >= at && lo < next {
			vlo = d
		}
		if hi >= at && hi < next {
			vhi = d
			break
		}
		at = next
	}
	if sum := vlo + vhi; sum < 0 {
		return -((-sum + 1) / 2)
	} else {
		return (sum + 1) / 2
	}
}

// mdTemplates writes the section in Markdown.
func mdTemplates(m *render.Markdown, t *Authorship) {
	m.Heading(3, "Who wrote these files")
	if !t.HasTemplates {
		m.Para("This crawl has no templates table: it was published before template recognition (dataset schema 2.3). Ingest it again to see who wrote its files.")
		return
	}
	m.Para("Many robots.txt files are written by a CDN, a CMS or a pasted block list rather than by their sites. Of %s hosts (redirects followed), %s carry a block of a known template.",
		render.Int(t.Hosts), FormatRatio(t.WithTemplate))
	if len(t.Templates) > 0 {
		var rows [][]string
		for _, s := range t.Templates {
			rows = append(rows, []string{render.Code(s.Template + "@" + s.Version), s.Title, s.Released, FormatRatio(s.Hosts), FormatRatio(s.Captures)})
		}
		m.Table([]string{"template", "who", "released", " hosts", " captures"}, rows)
	}
	mdTemplateStrata(m, t)
	mdTemplateSources(m, t)
	mdTemplateLists(m, &t.Lists)
}

// mdTemplateStrata writes the hosts of each rank stratum carrying each
// template.
func mdTemplateStrata(m *render.Markdown, t *Authorship) {
	if len(t.Strata) == 0 {
		return
	}
	header := []string{"stratum", " ranked hosts", " with a template"}
	for _, s := range t.Templates {
		header = append(header, " "+render.Code(s.Template+"@"+s.Version))
	}
	var rows [][]string
	for _, s := range t.Strata {
		row := []string{"top " + s.Stratum.Name, render.Int(s.Ranked), FormatRatio(s.WithTemplate)}
		for _, n := range s.Hosts {
			row = append(row, render.Int(n))
		}
		rows = append(rows, row)
	}
	m.Para("By rank stratum (the ranked hosts the crawl has, redirects followed):")
	m.Table(header, rows)
}

// mdTemplateSources writes whose lines shut the AI crawlers out, and the
// cancelled blocks.
func mdTemplateSources(m *render.Markdown, t *Authorship) {
	if len(t.Crawlers) > 0 {
		m.Para("Whose lines shut each AI crawler out of the whole site (the template blocks and the site's own lines each read alone, with Google's rules):")
		var rows [][]string
		for _, c := range t.Crawlers {
			rows = append(rows, []string{c.Crawler, render.Int(c.Blocked), FormatRatio(c.Template), FormatRatio(c.Site), FormatRatio(c.Both)})
		}
		m.Table([]string{"crawler", " hosts blocking it", " a template's alone", " the site's alone", " both"}, rows)
	}
	if t.Cancelling.N == 0 {
		m.Para("On no host do the site's own lines cancel a template's block.")
		return
	}
	var names []string
	for _, c := range t.Cancelled {
		names = append(names, c.Name+" ("+render.Int(c.Hosts)+")")
	}
	m.Para("On %s hosts the site's own lines cancel a template's block (a group naming the crawler merges with the template's, and its Allow: / is as long as the Disallow: /), letting in %s; for example %s.",
		FormatRatio(t.Cancelling), strings.Join(names, ", "), strings.Join(t.Examples, ", "))
}

// mdTemplateLists writes the ages of the pasted block lists.
func mdTemplateLists(m *render.Markdown, l *ListAges) {
	if l.Hosts.N == 0 {
		m.Para("No host carries a pasted ai.robots.txt block list.")
		return
	}
	m.Para("%s hosts carry a pasted ai.robots.txt block list, of releases from %s to %s.", FormatRatio(l.Hosts), l.Oldest, l.Newest)
	if l.Dated > 0 {
		m.Para("Of the %s lists dated against their capture's fetch time (a host counts once per release its lists match or come nearest to), the median is %s days old; %s are over six months old and %s over a year.",
			render.Int(l.Dated), render.Int(l.MedianDays), FormatRatio(l.OverHalf), FormatRatio(l.OverYear))
	}
}
