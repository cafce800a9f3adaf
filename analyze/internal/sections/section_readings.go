package sections

import (
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

// readingsSection is "Where crawlers disagree": from the readings table
// (the census of parsers, schema 2.2), per host after redirects (each
// effective capture counts for the hosts it decides for), the share of
// hosts whose root verdict, or full block, for the tracked AI crawlers,
// the search engines and a few crawlers by name, changes between Google's
// reading and each other parser's; and the difference classes ranked by
// the hosts they affect, with an example host each.
var readingsSection = &Section{
	Name:  "readings",
	Doc:   "where the verdict depends on the parser: hosts whose root or full-block verdict changes between Google's reading and another parser's, and why",
	Title: "Where crawlers disagree",
	Needs: []engine.Need{
		{Table: engine.HostRowsTable(engine.ReadingsTable), Columns: []string{"agent", "semantics", "root_allowed", "google_root_allowed", "blocked", "google_blocked", "class"}},
		{Table: engine.EffectiveHostsTable},
	},
	New:      newReadingsAcc,
	Markdown: func(m *render.Markdown, c *Crawl, _ int) { mdReadings(m, &c.Readings) },
}

// Disagreements is the section "Where crawlers disagree". Every share is
// of the hosts with an effective capture (Hosts).
type Disagreements struct {
	// HasReadings is false for a crawl published before the readings
	// table (schema 2.1 and older): then nothing else is set.
	HasReadings bool   `json:"has_readings"`
	Hosts       int64  `json:"hosts"`
	Google      string `json:"google"` // Google's parser, with its version
	// Readings has one entry per parser other than Google's that this
	// version of robocensus reads, in robots.AllSemantics order.
	Readings []ReadingChanges `json:"readings"`
	// Classes are the difference classes that changed a verdict of some
	// host, most hosts first.
	Classes []DisagreementClass `json:"classes"`
}

// ReadingChanges is what one parser's reading changes.
type ReadingChanges struct {
	Semantics string           `json:"semantics"`
	Parser    string           `json:"parser"` // with its version
	Crawlers  []VerdictChanges `json:"crawlers"`
}

// VerdictChanges counts the hosts where, for some crawler of a group (the
// AI crawlers, the search engines, or one crawler), the reading changes
// the root verdict (Root) or the full block (Block).
type VerdictChanges struct {
	Crawlers string `json:"crawlers"`
	Root     Ratio  `json:"root"`
	Block    Ratio  `json:"block"`
}

// DisagreementClass is one difference class, the hosts where it changed
// a verdict, and the first such host in byte order.
type DisagreementClass struct {
	Class   string `json:"class"`
	Doc     string `json:"doc"`
	Hosts   Ratio  `json:"hosts"`
	Example string `json:"example"`
}

// readingSubjects are the groups of crawlers of the section: the two
// kinds, then the crawlers followed by name.
var readingSubjects = [...]string{"AI crawlers", "search engines", "GPTBot", "CCBot", "Googlebot"}

// The tally of a host (one bit each):
//
//	per reading r (below readingsMax), per subject s: root changed at
//	bit 2*(r*len(readingSubjects)+s), full block changed the bit after;
//	then per difference class c, bit classShift+c.
const (
	subjectBits = 2 * len(readingSubjects)
	readingsMax = 4 // the readings of robots.AllSemantics but Google's; 4*10 bits leave 24 for the classes
	classShift  = readingsMax * subjectBits
)

// readingNames are the parsers the section reports, Google's left out.
var readingNames = func() []string {
	var out []string
	for _, s := range robots.AllSemantics()[1:] {
		out = append(out, s.String())
	}
	if len(out) > readingsMax || classShift+len(schema.DifferenceClasses()) > 64 {
		panic("analyze: the readings of a host do not fit in 64 bits") // a test runs this
	}
	return out
}()

// differenceClassNames are the names of schema.DifferenceClasses, in order.
var differenceClassNames = func() []string {
	var out []string
	for _, c := range schema.DifferenceClasses() {
		out = append(out, c.Name)
	}
	return out
}()

// readingsAcc counts what one worker reads.
type readingsAcc struct {
	has      bool
	crawlers *scan.CrawlerList
	hosts    int64
	changed  [readingsMax][len(readingSubjects)][2]int64 // hosts
	classes  []int64                                     // hosts, by class
	examples []string                                    // by class, the smallest host name
	semOf    []int                                       // reading by index in a record's semantics dictionary, -1 for none
	clsOf    []int                                       // class by index in a record's class dictionary, -1 for none
	subOf    []uint16                                    // subjects by index in a record's agent dictionary, a bit each
}

func newReadingsAcc(p engine.Params) Accumulator {
	return &readingsAcc{has: p.Has(engine.ReadingsTable), crawlers: p.CrawlerList(),
		classes: make([]int64, len(differenceClassNames)), examples: make([]string, len(differenceClassNames))}
}

func (a *readingsAcc) Add(engine.Table, arrow.Record) error { return nil }

// AddHostRows marks, in each effective capture's tally, the readings and
// subjects whose verdicts change, and the classes why.
//
//mutate:catch
func (a *readingsAcc) AddHostRows(_ engine.Table, rec arrow.Record, runs []engine.HostRun) error {
	cs := scan.Columns{Rec: rec}
	agent, sem, class := cs.Dict("agent"), cs.Dict("semantics"), cs.Dict("class")
	root, groot, blocked, gblocked := cs.Boolean("root_allowed"), cs.Boolean("google_root_allowed"), cs.Boolean("blocked"), cs.Boolean("google_blocked")
	if cs.Err != nil {
		return cs.Err
	}
	a.semOf = dictIndexes(a.semOf, sem.Values, readingNames)
	a.clsOf = dictIndexes(a.clsOf, class.Values, differenceClassNames)
	a.subOf = a.subOf[:0]
	for i := range agent.Values.Len() {
		a.subOf = append(a.subOf, a.subjectsOf(agent.Values.Value(i)))
	}
	for _, r := range runs {
		var set uint64
		for i := r.From; i < r.To; i++ {
			ri := a.semOf[sem.Index[i]]
			if ri < 0 {
				continue
			}
			for subs := a.subOf[agent.Index[i]]; subs != 0; subs &= subs - 1 {
				bit := 2 * (ri*len(readingSubjects) + bits.TrailingZeros16(subs))
				if root.Value(i) != groot.Value(i) {
					set |= 1 << bit
				}
				if blocked.Value(i) != gblocked.Value(i) {
					set |= 1 << (bit + 1)
				}
			}
			if c := a.clsOf[class.Index[i]]; c >= 0 {
				set |= 1 << (classShift + c)
			}
		}
		if set != 0 {
			r.Marks.Tally().Or(set)
		}
	}
	return nil
}

// dictIndexes returns, for each value of a dictionary, its index in
// names, -1 when it is none of them.
func dictIndexes(dst []int, values interface {
	Len() int
	Value(int) string
}, names []string) []int {
	dst = dst[:0]
	for i := range values.Len() {
		dst = append(dst, slices.Index(names, values.Value(i)))
	}
	return dst
}

// subjectsOf returns the subjects a crawler belongs to, a bit each: its
// kind's, and its own when it is followed by name.
//
//mutate:catch
func (a *readingsAcc) subjectsOf(agent string) uint16 {
	var subs uint16
	switch a.crawlers.Kind(agent) {
	case robots.CrawlerAI.String():
		subs |= 1 << 0
	case robots.CrawlerSearch.String():
		subs |= 1 << 1
	}
	if i := slices.Index(readingSubjects[2:], agent); i >= 0 {
		subs |= 1 << (2 + i)
	}
	return subs
}

// AddHosts counts every effective capture as the hosts it decides for, by
// its tally.
func (a *readingsAcc) AddHosts(_ arrow.Record, hosts []engine.CaptureRow) error {
	for _, h := range hosts {
		w := h.Marks.Weight()
		a.hosts += w
		b := h.Marks.Tally().Load()
		for ri := range readingNames {
			for s := range readingSubjects {
				for k := range 2 {
					if b&(1<<(2*(ri*len(readingSubjects)+s)+k)) != 0 {
						a.changed[ri][s][k] += w
					}
				}
			}
		}
		for c := range differenceClassNames {
			if b&(1<<(classShift+c)) != 0 {
				a.classes[c] += w
				if names := h.Marks.Hosts(); len(names) > 0 && (a.examples[c] == "" || names[0] < a.examples[c]) {
					a.examples[c] = strings.Clone(names[0])
				}
			}
		}
	}
	return nil
}

func (a *readingsAcc) Merge(other engine.Accumulator) {
	o := other.(*readingsAcc)
	a.hosts += o.hosts
	for ri := range a.changed {
		for s := range a.changed[ri] {
			for k := range 2 {
				a.changed[ri][s][k] += o.changed[ri][s][k]
			}
		}
	}
	for c := range a.classes {
		a.classes[c] += o.classes[c]
		if o.examples[c] != "" && (a.examples[c] == "" || o.examples[c] < a.examples[c]) {
			a.examples[c] = o.examples[c]
		}
	}
}

func (a *readingsAcc) Finish(out *Crawl) {
	if !a.has {
		out.Readings = Disagreements{}
		return
	}
	d := Disagreements{HasReadings: true, Hosts: a.hosts, Google: schema.ReadingParser(robots.SemanticsGoogle.String()),
		Readings: []ReadingChanges{}, Classes: []DisagreementClass{}}
	for ri, name := range readingNames {
		rc := ReadingChanges{Semantics: name, Parser: schema.ReadingParser(name)}
		for s, subject := range readingSubjects {
			rc.Crawlers = append(rc.Crawlers, VerdictChanges{Crawlers: subject,
				Root: Ratio{a.changed[ri][s][0], a.hosts}, Block: Ratio{a.changed[ri][s][1], a.hosts}})
		}
		d.Readings = append(d.Readings, rc)
	}
	for c, dc := range schema.DifferenceClasses() {
		if a.classes[c] > 0 {
			d.Classes = append(d.Classes, DisagreementClass{Class: dc.Name, Doc: dc.Doc, Hosts: Ratio{a.classes[c], a.hosts}, Example: a.examples[c]})
		}
	}
	slices.SortStableFunc(d.Classes, func(x, y DisagreementClass) int { return int(y.Hosts.N - x.Hosts.N) })
	out.Readings = d
}

// mdReadings writes the section in Markdown.
func mdReadings(m *render.Markdown, d *Disagreements) {
	m.Heading(3, "Where crawlers disagree")
	if !d.HasReadings {
		m.Para("This crawl has no readings: it was published before the census of parsers (dataset schema 2.2). Ingest it again to see where the verdict depends on the parser.")
		return
	}
	m.Para("Google's reading is that of %s. For each other parser, the hosts (of %s, redirects followed) where it changes the verdict for the root (/), or whether the crawler is blocked from the whole site, for at least one crawler of each group:",
		d.Google, render.Int(d.Hosts))
	var rows [][]string
	for _, r := range d.Readings {
		for _, c := range r.Crawlers {
			rows = append(rows, []string{r.Semantics, c.Crawlers, FormatRatio(c.Root), FormatRatio(c.Block)})
		}
	}
	m.Table([]string{"reading", "crawlers", " root verdict changes", " full block changes"}, rows)
	var parsers []string
	for _, r := range d.Readings {
		parsers = append(parsers, render.Code(r.Semantics)+": "+r.Parser)
	}
	m.Para("Parsers: %s.", strings.Join(parsers, "; "))
	if len(d.Classes) == 0 {
		m.Para("No parser changes a tracked crawler's root or full-block verdict on any host.")
		return
	}
	rows = rows[:0]
	for _, c := range d.Classes {
		rows = append(rows, []string{render.Code(c.Class), FormatRatio(c.Hosts), c.Example, c.Doc})
	}
	m.Para("Why, by difference class (a host counts once per class that changed a verdict of it):")
	m.Table([]string{"class", " hosts", "example", "what differs"}, rows)
}
