package engine

import (
	"iter"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/robocensus/robocensus/analyze/internal/scan"
	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// Params are the report's settings a section may use.
type Params struct {
	Top   int         // the length of the ranked lists
	Ranks *scan.Ranks // the ranked host list given (WithRanks), or nil

	// Previous is the label of the crawl before this one in the report
	// ("" for the first), and Next whether one follows: a section that
	// compares crawls hands its state on through carry (carry.go).
	Previous string
	Next     bool
	Carry    *Carry
	Crawlers *scan.CrawlerList // the crawl's crawler list; nil: the binary's

	// HasTable reports whether the crawl has files of a table of the
	// dataset (a crawl published before the table was added has none);
	// nil answers true.
	HasTable func(Table) bool
}

// Has reports whether the crawl has files of table t (see HasTable).
func (p Params) Has(t Table) bool { return p.HasTable == nil || p.HasTable(t) }

// crawlerList returns the crawler list the crawl was classified with.
func (p Params) CrawlerList() *scan.CrawlerList {
	if p.Crawlers == nil {
		return scan.DefaultCrawlerList()
	}
	return p.Crawlers
}

// A Need is a table a section reads, and its columns.
//
// Tables of the dataset are fed as records (Accumulator.Add), every row
// once, with at least the columns asked for:
//
//   - "captures", "diagnostics", "rules" and "agents" are fed from the
//     driver's own passes over the first host batch, which read them
//     anyway to mark captures: asking for them costs no pass. The string
//     columns capture_id, outcome, code, severity, directive, agent and
//     verdict are read as dictionaries (columnSet.dict).
//   - Any other table (sitemaps, inputs, hosts, ...) is read once per
//     crawl, before the batches' passes.
//
// Pseudo-tables carry what the driver's passes find of captures and
// hosts, host batch by host batch; "marks", "marked captures" and
// "deciding captures"
// are fed to the first accumulator of the section, one call at a time,
// through the interfaces below:
//
//   - "marks" ([MarksTable], [MarksAdder]): every capture once, with its
//     diagnostic codes, whether a rule of it is end-anchored, whether it
//     is read and non-empty, whether it decides for its host and is a
//     usable robots.txt, and a hash of its digest. No columns.
//   - "marked captures" ([MarkedCapturesTable], [MarkedCapturesAdder]):
//     every capture once, as its row of a record of captures with
//     capture_id and the Need's columns, and its marks. Read in the same
//     pass as "hosts".
//   - "deciding captures" ([DecidingTable], [HostsAdder]): every host
//     once, as its deciding capture (its own, redirects not followed): a
//     record of captures with url_host_name, capture_id and the Need's
//     columns, the rows that are deciding captures, and each one's marks.
//   - "effective captures" ([EffectiveTable], [HostsAdder]): every
//     capture that decides for at least one host once redirects are
//     followed (effective.go), once, in the same shape; [Marks.Weight]
//     is the number of hosts it decides for, which a per-host figure
//     counts it as. The per-host verdicts of the report use these.
//   - "effective hosts" ([EffectiveHostsTable], [HostsAdder]): the same,
//     with [Marks.Hosts], the names of the hosts each capture decides
//     for (kept per batch only when a section asks for them).
//   - "chosen hosts" ([ChosenTable], [Chooser]): for a ranking that needs
//     every host counted first. Once the last batch's marks are fed, the
//     driver calls Choose; the hosts whose deciding capture it accepts
//     are then fed again, as for "deciding captures" (AddChosen): those
//     of the last batch in its hosts pass, those of the batches before by
//     indexing each again. The marks of a batch indexed again carry no
//     codes or end anchors (its diagnostics and rules are not read).
//   - "host T" ([HostRowsTable]; "host agents", [HostAgentsTable], and
//     any other table T keyed by capture_id: "host directives", "host
//     preferences"), through [HostRowsAdder]: the rows of T of each
//     effective capture, in runs of one capture, with its marks and a
//     [Tally] the section keeps per capture; the effective captures fed
//     afterwards carry it. Each T is read once per batch for all the
//     sections that need it, after agents; "host agents" shares the
//     agents pass. The string columns of hostDictColumns are read as
//     dictionaries.
//
// The deciding and effective captures come from the host batches. The dataset's hosts
// table (one row per crawl and host, computed at publication) is a table
// like the others: a section that needs "hosts" gets its rows once per
// crawl (the strata section does).
type Need struct {
	Table   Table
	Columns []string
}

// A Table is a table a section may need: one of the dataset's (schema)
// or a pseudo-table the driver feeds. Only the values below, and those
// HostRowsTable returns, exist: a misspelled table does not compile.
type Table struct{ name string }

// String returns the table's name: "captures", "deciding captures", ...
func (t Table) String() string { return t.name }

// datasetTable returns the dataset's table whose rows are T.
func datasetTable[T schema.Row]() Table { return Table{schema.TableName[T]()} }

// The tables of the dataset a section may need.
var (
	CapturesTable    = datasetTable[schema.Capture]()
	DiagnosticsTable = datasetTable[schema.Diagnostic]()
	RulesTable       = datasetTable[schema.Rule]()
	SitemapsTable    = datasetTable[schema.Sitemap]()
	AgentsTable      = datasetTable[schema.Agent]()
	InputsTable      = datasetTable[schema.Input]()
	DirectivesTable  = datasetTable[schema.Directive]()
	PreferencesTable = datasetTable[schema.Preference]()
	HostsTable       = datasetTable[schema.Host]()
	ReadingsTable    = datasetTable[schema.Reading]()
	TemplatesTable   = datasetTable[schema.TemplateBlock]()
)

// The pseudo-tables of [Need].
var (
	MarksTable          = Table{"marks"}
	MarkedCapturesTable = Table{"marked captures"}
	DecidingTable       = Table{"deciding captures"}
	EffectiveTable      = Table{"effective captures"}
	EffectiveHostsTable = Table{"effective hosts"} // EffectiveTable, with Marks.Hosts
	ChosenTable         = Table{"chosen hosts"}
	HostAgentsTable     = HostRowsTable(AgentsTable)
)

// hostRowsPrefix starts the name of a "host T" pseudo-table.
const hostRowsPrefix = "host "

// HostRowsTable returns the pseudo-table of the rows of a table of each
// deciding capture.
func HostRowsTable(table Table) Table { return Table{hostRowsPrefix + table.name} }

// hostRowsOf returns the table of a "host T" pseudo-table, and whether
// it is one.
func hostRowsOf(pseudo Table) (Table, bool) {
	t, ok := strings.CutPrefix(pseudo.name, hostRowsPrefix)
	return Table{t}, ok
}

// isPseudo reports whether a Need's table is a pseudo-table.
func isPseudo(table Table) bool {
	_, host := hostRowsOf(table)
	return slices.Contains(PseudoTables, table) || host
}

// An Accumulator counts what one worker of the driver reads. Add gets a
// record of one of the tables the section needs, with at least the
// columns it asked for; records must not be kept (copy what is kept).
// Merge adds another worker's counts into this one. When every worker's
// accumulator is merged into the first, the Section's Finish gets it.
type Accumulator interface {
	Add(table Table, rec arrow.Record) error
	Merge(other Accumulator)
}

// A Section is what the engine runs of a section: the tables it reads
// (Needs), how it counts (New), and what is done with the counts once
// every worker's accumulator is merged into one (Finish). Shared makes
// New called once per crawl, its accumulator given to every worker at
// once (safe for concurrent use; Merge is never called); When, when set,
// says whether the section runs with these settings. Package sections
// makes one of each crawl-report section (sections.Section.job).
type Section struct {
	Name   string
	Needs  []Need
	New    func(p Params) Accumulator
	Finish func(acc Accumulator)
	Shared bool
	When   func(p Params) bool
	// TallyWords is the number of words of the tally the section keeps
	// per host when it needs a "host T" table (Marks.TallyWord): 0 is 1.
	// Each word costs 8 bytes per capture of a batch.
	TallyWords int
}

// A MarksAdder is the accumulator of a section that needs "marks".
type MarksAdder interface {
	AddMarks(m *Marks)
}

// A MarkedCapturesAdder is the accumulator of a section that needs
// "marked captures": rec holds rows of captures, and rows those of
// captures of the batch, each once.
type MarkedCapturesAdder interface {
	AddMarkedCaptures(rec arrow.Record, rows []CaptureRow) error
}

// A HostsAdder is the accumulator of a section that needs "deciding
// captures" or "effective captures": rec holds rows of captures, and
// hosts the rows that are deciding (or effective) captures.
type HostsAdder interface {
	AddHosts(rec arrow.Record, hosts []CaptureRow) error
}

// A Chooser is the accumulator of a section that needs "chosen hosts".
// Choose is called once, when every capture of the crawl has been fed as
// "marks": it returns which deciding captures to feed again (nil: none).
// AddChosen gets them: rec holds rows of captures, and hosts the rows of
// the deciding captures Choose accepted, each once.
type Chooser interface {
	Choose() func(*Marks) bool
	AddChosen(rec arrow.Record, hosts []CaptureRow) error
}

// A BodyReader is the accumulator of a section that shows a few bodies:
// before Finish, the driver reads the texts of the payload digests it
// lists from the bodies table (only the files holding one) and gives them
// to it; a digest the table does not hold has no text.
type BodyReader interface {
	Digests() []string
	Bodies(texts map[string]string)
}

// A HostRowsAdder is the accumulator of a section that needs "host T"
// pseudo-tables: rec holds rows of table T, and runs the rows of
// deciding captures. It may be called from several goroutines, each with
// its own accumulator; the tallies are shared.
type HostRowsAdder interface {
	AddHostRows(table Table, rec arrow.Record, runs []HostRun) error
}

// CaptureRow is one capture of a record of captures (for "hosts", a
// host as the row of its deciding capture), and what the driver marked
// on it.
type CaptureRow struct {
	Row   int
	Marks *Marks
}

// HostRun is the rows [From, To) of a record of a "host T" table, all of
// the deciding capture of one host.
type HostRun struct {
	From, To int
	Marks    *Marks
}

// Marks are what the driver's passes found of one capture: valid for the
// call that gives them.
type Marks struct {
	c     *capture
	hosts []string // for "effective hosts"
	codes *CodeTable
	extra []int // codes of the capture past maxBitCodes
	tally []uint64
}

// Codes yields the diagnostic codes the capture has a finding of, each
// once, with their severity.
func (m *Marks) Codes() iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		for ci := range m.c.codeNumbers(m.extra) {
			if !yield(m.codes.Names[ci], m.codes.Severity[ci]) {
				return
			}
		}
	}
}

// Has reports whether the capture has a finding of a catalogue code.
func (m *Marks) Has(code robots.Code) bool {
	i := m.codes.ofCode[code]
	switch {
	case i < 0:
		return false
	case i < maxBitCodes:
		return m.c.codes[i/64]&(1<<(i%64)) != 0
	}
	return slices.Contains(m.extra, int(i))
}

// Read reports whether crawlers read the capture's body: status 2xx or
// none.
func (m *Marks) Read() bool { return m.c.flags&capRead != 0 }

// HasRules reports whether the capture has a rule (rule_count > 0).
func (m *Marks) HasRules() bool { return m.c.flags&capNoRules == 0 }

// NonEmpty reports whether the capture's payload_length is over 0.
func (m *Marks) NonEmpty() bool { return m.c.flags&capNonEmpty != 0 }

// DigestHash returns a 64-bit hash of the capture's content_digest, 0
// when it is NULL: a key to count and compare bodies by without keeping
// their digests; the same digest hashes the same in every crawl of a
// report. Two digests of one hash (about 1 in 3·10⁷ for a million
// digests) count as one.
func (m *Marks) DigestHash() uint64 { return m.c.digest }

// EndAnchor reports whether a rule of the capture ends in '$'.
func (m *Marks) EndAnchor() bool { return m.c.flags&capEndAnchor != 0 }

// Deciding reports whether the capture is its host's deciding capture.
func (m *Marks) Deciding() bool { return m.c.flags&capDeciding != 0 }

// Usable reports whether the capture is a usable robots.txt (package
// documentation) that decides for at least one host, redirects followed.
func (m *Marks) Usable() bool { return m.c.flags&capUsable != 0 && m.c.weight > 0 }

// UsableFile reports whether the capture is a usable robots.txt, whether
// or not it decides for a host.
func (m *Marks) UsableFile() bool { return m.c.flags&capUsable != 0 }

// Weight is the number of hosts the capture decides for once redirects
// are followed (effective.go): 0 for most captures that are not their
// host's deciding capture, more than 1 for a capture other hosts
// redirect to.
func (m *Marks) Weight() int64 { return int64(m.c.weight) }

// Hosts are the names of the hosts the capture decides for, redirects
// followed, in byte order: given to the sections that need "effective
// hosts" only.
func (m *Marks) Hosts() []string { return m.hosts }

// Tally is the word the section that needs a "host T" table keeps for
// the host; nil for other sections.
func (m *Marks) Tally() *Tally { return m.TallyWord(0) }

// TallyWord is word k of the tally of a section that keeps several
// (Section.TallyWords); nil for other sections.
func (m *Marks) TallyWord(k int) *Tally {
	if k >= len(m.tally) {
		return nil
	}
	return (*Tally)(&m.tally[k])
}

// A Tally is a word a section keeps per host while the "host T" tables
// are fed, shared by the workers: change it with Add and Or only. It is
// made per capture of the batch once the batch's hosts are let go: 8
// bytes per capture and section that keeps one.
type Tally uint64

// Add adds n to the tally.
func (t *Tally) Add(n uint64) { atomic.AddUint64((*uint64)(t), n) }

// Or sets bits of the tally.
func (t *Tally) Or(bits uint64) { atomic.OrUint64((*uint64)(t), bits) }

// Load returns the tally.
func (t *Tally) Load() uint64 {
	if t == nil {
		return 0
	}
	return atomic.LoadUint64((*uint64)(t))
}

// pseudoTables are fed by the driver from what it marks in the batches,
// with the "host T" tables (isPseudo).
var PseudoTables = []Table{MarksTable, MarkedCapturesTable, DecidingTable, EffectiveTable, EffectiveHostsTable, ChosenTable}
