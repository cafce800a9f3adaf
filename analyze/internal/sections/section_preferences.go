package sections

import (
	"cmp"
	"math/bits"
	"slices"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/robocensus/robocensus/analyze/internal/engine"
	"github.com/robocensus/robocensus/analyze/internal/render"
	"github.com/robocensus/robocensus/analyze/internal/scan"
	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// preferencesSection is what hosts with a usable robots.txt say of the use
// of their content (Content-Signal, Content-Usage, License), how that sits
// with what their rules say to OpenAI's training crawler, and the other
// extension directives. Its unit is the host: it reads the rows of the
// directives, preferences and agents tables of the usable hosts' effective
// captures (redirects followed; "host T" pseudo-tables; the agents rows
// come from the agents pass the crawlers section needs anyway), sets bits
// in its tally of the capture, and counts each usable capture by its tally,
// as the hosts it decides for, when the effective captures are fed.
var preferencesSection = &Section{
	Name:  "preferences",
	Doc:   "AI usage preferences and the other extension directives of the hosts with a usable robots.txt, and how they sit with blocking",
	Title: "AI preferences",
	Needs: []engine.Need{
		{Table: engine.HostRowsTable(engine.DirectivesTable), Columns: []string{"key", "valid"}},
		{Table: engine.HostRowsTable(engine.PreferencesTable), Columns: []string{"source", "category", "allowed", "path", "user_agents"}},
		{Table: engine.HostAgentsTable, Columns: []string{"agent", "verdict"}},
		{Table: engine.EffectiveTable},
	},
	New:        func(engine.Params) Accumulator { return &preferencesAcc{} },
	TrendOrder: 1, // after the shared bodies (Section.TrendOrder)
	Trends:     preferenceTrends(),
	Markdown:   func(m *render.Markdown, c *Crawl, _ int) { mdPreferences(m, &c.Preferences) },
}

// UsagePreferences is the section on usage preferences. Every share is of
// the hosts with a usable robots.txt (UsableHosts; see the package
// documentation), each counted once by its effective capture (redirects
// followed).
type UsagePreferences struct {
	UsableHosts int64 `json:"usable_hosts"`
	// Mechanisms: the hosts with at least one line of each (directives
	// key content-signal, content-usage, license), valid or not.
	Mechanisms []MechanismShare `json:"mechanisms"`
	// Values: for each source and category stated (the vocabulary's, any
	// case for Content-Signal, exactly for Content-Usage; "other" for the
	// rest), the hosts stating yes (y), no (n), and another value.
	Values []PreferenceValues `json:"values"`
	// Blocking: the hosts by what they ask and by what their rules say to
	// TrainingCrawler (agents.verdict).
	TrainingCrawler string             `json:"training_crawler"`
	Blocking        []PreferenceStance `json:"blocking"`
	// Extensions: every directives key found (ACAP's keys as "acap-*"),
	// most hosts first.
	Extensions []ExtensionUse `json:"extensions"`
}

// MechanismShare is the hosts with a line of one mechanism.
type MechanismShare struct {
	Mechanism string `json:"mechanism"`
	Hosts     Ratio  `json:"hosts"`
}

// PreferenceValues is the hosts stating each value of one category.
type PreferenceValues struct {
	Source   string `json:"source"`
	Category string `json:"category"`
	Yes      Ratio  `json:"yes"`
	No       Ratio  `json:"no"`
	Other    Ratio  `json:"other"` // preferences.allowed NULL: a value neither yes nor no
}

// PreferenceStance counts the hosts of one stance by the verdict of their
// rules for the training crawler; NoVerdict counts those without an agents
// row for it. The stances: "asks no AI training" (Content-Signal
// ai-train=no or Content-Usage train-ai=n, for the whole site: path "/",
// file-wide or in a group of '*'), "states other preferences" (a row of
// preferences, none of those), "states no preference".
type PreferenceStance struct {
	Stance     string `json:"stance"`
	Hosts      int64  `json:"hosts"`
	Allowed    int64  `json:"allowed"`
	Partial    int64  `json:"partially_disallowed"`
	Disallowed int64  `json:"disallowed"`
	NoVerdict  int64  `json:"no_verdict"`
}

// ExtensionUse is the use of one directives key.
type ExtensionUse struct {
	Key   string `json:"key"`
	Hosts Ratio  `json:"hosts"` // of UsableHosts
	Lines int64  `json:"lines"`
	Valid Ratio  `json:"valid"` // valid lines, of Lines
}

// trainingCrawler is the crawler whose verdict the blocking table gives:
// OpenAI's training crawler, the one most often named.
const trainingCrawler = "GPTBot"

// The stances, in the order the table shows them.
var stances = [...]string{"asks no AI training", "states other preferences", "states no preference"}

// prefMechanisms are the directives keys of the usage mechanisms.
var prefMechanisms = [...]string{"content-signal", "content-usage", "license"}

// prefSources are the preferences.source values, in the order shown.
var prefSources = [...]robots.PreferenceSource{robots.ContentSignal, robots.ContentUsage}

// prefLayout places what a usable host's rows say in its tally:
//
//	bit 0          a row of preferences
//	bit 1          asks no AI training (the first stance)
//	bits 2-3       the training crawler's verdict + 1 (0: no row)
//	bits 4-        a line of each directives key (extKeys, then other)
//	then           per source, per category (the vocabulary's, then other),
//	               3 bits: yes, no, other value
type prefLayout struct {
	extKeys    []string   // robots.ExtensionKeys, "acap-" as "acap-*"
	categories [][]string // by source: the vocabulary, then "other"
	keyShift   int
	catShift   []int // by source
}

const (
	bitStates     = 1 << 0
	bitNoTraining = 1 << 1
	verdictShift  = 2
)

var layout = newPrefLayout()

func newPrefLayout() *prefLayout {
	l := &prefLayout{keyShift: 4}
	for _, k := range robots.ExtensionKeys() {
		if k == "acap-" {
			k = "acap-*"
		}
		l.extKeys = append(l.extKeys, k)
	}
	next := l.keyShift + len(l.extKeys) + 1
	for _, src := range prefSources {
		l.categories = append(l.categories, append(robots.Categories(src), "other"))
		l.catShift = append(l.catShift, next)
		next += 3 * len(l.categories[len(l.categories)-1])
	}
	if next > 64 {
		panic("analyze: the preferences of a host do not fit in 64 bits") // a test runs this
	}
	return l
}

// keyBucket returns the bucket of a directives key: its index in extKeys,
// or len(extKeys) for a key this version does not know.
func (l *prefLayout) keyBucket(key string) int {
	if strings.HasPrefix(key, "acap-") {
		key = "acap-*"
	}
	if i := slices.Index(l.extKeys, key); i >= 0 {
		return i
	}
	return len(l.extKeys)
}

// keyName is the name of a key bucket.
func (l *prefLayout) keyName(b int) string {
	if b < len(l.extKeys) {
		return l.extKeys[b]
	}
	return "other"
}

// category returns the source index and category index of a preference,
// or -1 for a source this version does not know.
func (l *prefLayout) category(source, category string) (int, int) {
	si := slices.IndexFunc(prefSources[:], func(s robots.PreferenceSource) bool { return s.String() == source })
	if si < 0 {
		return -1, -1
	}
	cats := l.categories[si]
	for ci, c := range cats[:len(cats)-1] {
		if c == category || prefSources[si] == robots.ContentSignal && strings.EqualFold(c, category) {
			return si, ci
		}
	}
	return si, len(cats) - 1
}

// valueBit returns the bit of a source, category and value (0 yes, 1 no,
// 2 other).
func (l *prefLayout) valueBit(si, ci, v int) uint64 { return 1 << (l.catShift[si] + 3*ci + v) }

// preferencesAcc counts what one worker reads; the first also counts the
// hosts.
type preferencesAcc struct {
	usable   int64
	keyHosts [64]int64 // by key bucket
	keyLines [64]int64
	keyValid [64]int64
	values   [][][3]int64 // by source, category, value: hosts
	stances  [len(stances)][4]int64

	keyOf []int // key bucket by index in a record's key dictionary
}

func (a *preferencesAcc) Add(engine.Table, arrow.Record) error { return nil }

// AddHostRows keeps the rows of the usable hosts' effective captures.
func (a *preferencesAcc) AddHostRows(table engine.Table, rec arrow.Record, runs []engine.HostRun) error {
	switch table {
	case engine.DirectivesTable:
		return a.addDirectives(rec, runs)
	case engine.PreferencesTable:
		return a.addPreferences(rec, runs)
	}
	return a.addAgents(rec, runs)
}

// addDirectives counts the lines of each key and marks the keys used.
//
//mutate:catch
func (a *preferencesAcc) addDirectives(rec arrow.Record, runs []engine.HostRun) error {
	cs := scan.Columns{Rec: rec}
	keys, valid := cs.Dict("key"), cs.Boolean("valid")
	if cs.Err != nil {
		return cs.Err
	}
	a.keyOf = a.keyOf[:0]
	for i := range keys.Values.Len() {
		a.keyOf = append(a.keyOf, layout.keyBucket(keys.Values.Value(i)))
	}
	for _, r := range runs {
		if !r.Marks.Usable() {
			continue
		}
		var set uint64
		w := r.Marks.Weight()
		for i := r.From; i < r.To; i++ {
			b := a.keyOf[keys.Index[i]]
			a.keyLines[b] += w
			if valid.Value(i) {
				a.keyValid[b] += w
			}
			set |= 1 << (layout.keyShift + b)
		}
		r.Marks.Tally().Or(set)
	}
	return nil
}

// addPreferences marks the values stated and the ask not to train AI.
//
//mutate:catch
func (a *preferencesAcc) addPreferences(rec arrow.Record, runs []engine.HostRun) error {
	cs := scan.Columns{Rec: rec}
	source, category, path := cs.Dict("source"), cs.Dict("category"), cs.Dict("path")
	allowed, agents := cs.Boolean("allowed"), cs.List("user_agents")
	if cs.Err != nil {
		return cs.Err
	}
	var names []string
	for _, r := range runs {
		if !r.Marks.Usable() {
			continue
		}
		var set uint64
		for i := r.From; i < r.To; i++ {
			src, cat := source.Value(i), category.Value(i)
			si, ci := layout.category(src, cat)
			if si < 0 {
				continue
			}
			v := 2 // another value
			switch {
			case allowed.IsNull(i):
			case allowed.Value(i):
				v = 0
			default:
				v = 1
			}
			set |= bitStates | layout.valueBit(si, ci, v)
			names = scan.LowerValues(names[:0], agents, i)
			if v == 1 && schema.NoTraining(src, cat, false, path.Value(i), names) {
				set |= bitNoTraining
			}
		}
		if set != 0 {
			r.Marks.Tally().Or(set)
		}
	}
	return nil
}

// addAgents marks the training crawler's verdict.
//
//mutate:catch
func (a *preferencesAcc) addAgents(rec arrow.Record, runs []engine.HostRun) error {
	cs := scan.Columns{Rec: rec}
	agent, verdict := cs.Dict("agent"), cs.Dict("verdict")
	if cs.Err != nil {
		return cs.Err
	}
	want := agent.Find(trainingCrawler)
	if want < 0 {
		return nil
	}
	for _, r := range runs {
		if !r.Marks.Usable() {
			continue
		}
		for i := r.From; i < r.To; i++ {
			if agent.Index[i] != want {
				continue
			}
			if v := parseVerdict(verdict.Value(i)); v >= 0 {
				r.Marks.Tally().Or(uint64(v+1) << verdictShift)
			}
		}
	}
	return nil
}

// AddHosts counts the usable hosts by their tallies.
func (a *preferencesAcc) AddHosts(_ arrow.Record, hosts []engine.CaptureRow) error {
	a.grow()
	for _, h := range hosts {
		if h.Marks.Usable() {
			a.countHost(h.Marks.Tally().Load(), h.Marks.Weight())
		}
	}
	return nil
}

// countHost counts w usable hosts of one tally.
func (a *preferencesAcc) countHost(b uint64, w int64) {
	a.usable += w
	for kb := (b >> layout.keyShift) & (1<<(len(layout.extKeys)+1) - 1); kb != 0; kb &= kb - 1 {
		a.keyHosts[bits.TrailingZeros64(kb)] += w
	}
	for si, cats := range layout.categories {
		for ci := range cats {
			for v := range 3 {
				if b&layout.valueBit(si, ci, v) != 0 {
					a.values[si][ci][v] += w
				}
			}
		}
	}
	st := 2
	switch {
	case b&bitNoTraining != 0:
		st = 0
	case b&bitStates != 0:
		st = 1
	}
	a.stances[st][(b>>verdictShift)&3] += w
}

// grow makes the value counts.
func (a *preferencesAcc) grow() {
	if a.values != nil {
		return
	}
	for _, cats := range layout.categories {
		a.values = append(a.values, make([][3]int64, len(cats)))
	}
}

func (a *preferencesAcc) Merge(other engine.Accumulator) {
	o := other.(*preferencesAcc)
	a.grow()
	a.usable += o.usable
	for i := range a.keyHosts {
		a.keyHosts[i] += o.keyHosts[i]
		a.keyLines[i] += o.keyLines[i]
		a.keyValid[i] += o.keyValid[i]
	}
	for si := range o.values {
		for ci := range o.values[si] {
			for v := range 3 {
				a.values[si][ci][v] += o.values[si][ci][v]
			}
		}
	}
	for s := range a.stances {
		for v := range a.stances[s] {
			a.stances[s][v] += o.stances[s][v]
		}
	}
}

func (a *preferencesAcc) Finish(out *Crawl) {
	a.grow()
	p := UsagePreferences{UsableHosts: a.usable, TrainingCrawler: trainingCrawler}
	for _, m := range prefMechanisms {
		p.Mechanisms = append(p.Mechanisms, MechanismShare{Mechanism: m, Hosts: Ratio{a.keyHosts[layout.keyBucket(m)], a.usable}})
	}
	p.Values = []PreferenceValues{}
	for si, cats := range layout.categories {
		for ci, cat := range cats {
			n := a.values[si][ci]
			if n != [3]int64{} {
				p.Values = append(p.Values, PreferenceValues{Source: prefSources[si].String(), Category: cat,
					Yes: Ratio{n[0], a.usable}, No: Ratio{n[1], a.usable}, Other: Ratio{n[2], a.usable}})
			}
		}
	}
	for s, name := range stances {
		n := a.stances[s]
		p.Blocking = append(p.Blocking, PreferenceStance{Stance: name, Hosts: n[0] + n[1] + n[2] + n[3],
			NoVerdict: n[0], Allowed: n[1+vAllowed], Partial: n[1+vPartial], Disallowed: n[1+vDisallowed]})
	}
	p.Extensions = []ExtensionUse{}
	for b := range len(layout.extKeys) + 1 {
		if a.keyLines[b] > 0 {
			p.Extensions = append(p.Extensions, ExtensionUse{Key: layout.keyName(b), Hosts: Ratio{a.keyHosts[b], a.usable},
				Lines: a.keyLines[b], Valid: Ratio{a.keyValid[b], a.keyLines[b]}})
		}
	}
	slices.SortStableFunc(p.Extensions, func(x, y ExtensionUse) int { return cmp.Compare(y.Hosts.N, x.Hosts.N) })
	out.Preferences = p
}

// preferenceTrends follows each mechanism and the ask not to train AI.
func preferenceTrends() []Trend {
	var out []Trend
	for i, m := range prefMechanisms {
		out = append(out, Trend{Name: m + " stated (of usable hosts)", Ratio: func(c *Crawl) Ratio {
			if i < len(c.Preferences.Mechanisms) {
				return c.Preferences.Mechanisms[i].Hosts
			}
			return Ratio{}
		}})
	}
	return append(out, Trend{Name: "asks no AI training (of usable hosts)", Ratio: func(c *Crawl) Ratio {
		if len(c.Preferences.Blocking) > 0 {
			return Ratio{c.Preferences.Blocking[0].Hosts, c.Preferences.UsableHosts}
		}
		return Ratio{}
	}})
}

func mdPreferences(m *render.Markdown, p *UsagePreferences) {
	m.Heading(3, "AI usage preferences")
	var said []string
	for _, ms := range p.Mechanisms {
		said = append(said, render.Code(ms.Mechanism)+" "+FormatRatio(ms.Hosts))
	}
	m.Para("Of the %s hosts with a usable robots.txt, those with a line of each mechanism: %s. Preferences are not access rules: Google's parser ignores them.",
		render.Int(p.UsableHosts), strings.Join(said, ", "))
	if len(p.Values) > 0 {
		var rows [][]string
		for _, v := range p.Values {
			rows = append(rows, []string{render.Code(v.Source), render.Code(v.Category), render.Int(v.Yes.N), render.Int(v.No.N), render.Int(v.Other.N)})
		}
		m.Table([]string{"source", "category", " hosts: yes", " no", " other value"}, rows)
	}
	var rows [][]string
	for _, s := range p.Blocking {
		rows = append(rows, []string{render.Escape(s.Stance), render.Int(s.Hosts), render.Int(s.Allowed), render.Int(s.Partial), render.Int(s.Disallowed), render.Int(s.NoVerdict)})
	}
	m.Para("What they ask, and what their rules say to %s:", render.Code(p.TrainingCrawler))
	m.Table([]string{"hosts that", " hosts", " allowed", " partially disallowed", " disallowed", " no verdict"}, rows)
	if len(p.Extensions) > 0 {
		rows = rows[:0]
		for _, e := range p.Extensions {
			rows = append(rows, []string{render.Code(e.Key), render.Int(e.Hosts.N), render.Share(e.Hosts.Share()), render.Int(e.Lines), render.Share(e.Valid.Share())})
		}
		m.Para("Extension directives (crawl-delay and the rest):")
		m.Table([]string{"key", " hosts", " share", " lines", " valid"}, rows)
	}
}
