package sections

import (
	"cmp"
	"slices"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/robocensus/robocensus/analyze/internal/engine"
	"github.com/robocensus/robocensus/analyze/internal/render"
	"github.com/robocensus/robocensus/analyze/internal/scan"
	"github.com/robocensus/robocensus/robots"
)

// sharedBodiesSection lists the robots.txt bodies served identically
// (same payload digest) by several hosts: CMS defaults, parked domains,
// domain farms. A host counts with its deciding capture when that is a
// usable, non-empty robots.txt with a digest. Its name, "farms", is its
// HTML id and the JSON key of its figures, both older than the name
// "shared bodies".
//
// The hosts serving each body are counted from the marks, by digest hash,
// batch by batch. Once every host is counted, Choose keeps the bodies
// served by as many hosts as the last one listed can be; the driver feeds
// their hosts again ("chosen hosts"), with the digest and the host name,
// and the list is ranked as they come: a body that does not rank among
// the first when its first host comes never will, so each body listed
// sees every one of its hosts for its sample.
var sharedBodiesSection = &Section{
	Name:  "farms",
	Doc:   "the bodies shared by many hosts",
	Title: "Shared bodies",
	Needs: []engine.Need{
		{Table: engine.MarksTable},
		{Table: engine.ChosenTable, Columns: []string{"content_digest"}},
	},
	New:    func(p engine.Params) Accumulator { return newSharedBodiesAcc(p.Top) },
	Shared: true, // fed only by the driver's marks and hosts, one call at a time
	Trends: []Trend{{Name: "hosts sharing their body", Ratio: func(c *Crawl) Ratio { return c.SharedBodies.SharedHosts }}},
	Markdown: func(m *render.Markdown, c *Crawl, _ int) {
		mdSharedBodies(m, &c.SharedBodies)
	},
}

// SharedBodies are the robots.txt bodies served identically by several
// hosts (in the JSON report, "farms").
type SharedBodies struct {
	// Hosts counts the hosts whose deciding capture is a usable, non-empty
	// robots.txt with a payload digest.
	Hosts int64 `json:"hosts"`
	// Bodies counts the digests served by two or more of them.
	Bodies int64 `json:"shared_bodies"`
	// SharedHosts counts the hosts serving one of those, of Hosts.
	SharedHosts Ratio `json:"shared_hosts"`
	// Top lists the most shared bodies.
	Top []SharedBody `json:"top"`
}

// SharedBody is one body served by several hosts.
type SharedBody struct {
	Digest string   `json:"content_digest"`
	Hosts  int64    `json:"hosts"`
	Sample []string `json:"sample_hosts"` // the first hosts, sorted
	Lines  int      `json:"lines"`        // lines of the body; 0 when not kept
	Head   []string `json:"head"`         // its first lines that are not blank
}

// bodySample is the number of hosts shown for each shared body.
const bodySample = 5

// headLines is the number of lines of a shared body shown.
const headLines = 4

// maxShownLine is the most bytes of a line the report shows.
const maxShownLine = 160

// sharedBodiesAcc counts the hosts of each body, then ranks the bodies
// chosen.
type sharedBodiesAcc struct {
	hosts  map[uint64]int64 // digest hash -> hosts, until Choose
	chosen map[uint64]int64 // the same, of the bodies that may be listed
	list   topN[SharedBody]
	out    SharedBodies
}

func newSharedBodiesAcc(top int) *sharedBodiesAcc {
	return &sharedBodiesAcc{
		hosts: map[uint64]int64{}, list: topN[SharedBody]{n: top, less: sharedBefore},
	}
}

// sharedBefore ranks the bodies: by hosts, then by digest.
//
//mutate:catch
func sharedBefore(a, b *SharedBody) bool {
	if a.Hosts != b.Hosts {
		return a.Hosts > b.Hosts
	}
	return a.Digest < b.Digest
}

// counts reports whether a host counts for its body: its deciding
// capture (its own file, redirects not followed) is a usable, non-empty
// robots.txt with a digest.
//
//mutate:catch
func counts(m *engine.Marks) bool {
	return m.Deciding() && m.UsableFile() && m.NonEmpty() && m.DigestHash() != 0
}

func (a *sharedBodiesAcc) Add(engine.Table, arrow.Record) error { return nil }

// AddMarks counts a deciding capture for its body.
func (a *sharedBodiesAcc) AddMarks(m *engine.Marks) {
	if counts(m) {
		a.hosts[m.DigestHash()]++
	}
}

// Choose counts the hosts and the shared bodies, and keeps the bodies
// served by at least as many hosts as the last listed.
func (a *sharedBodiesAcc) Choose() func(*engine.Marks) bool {
	var shared []int64
	for _, n := range a.hosts {
		a.out.Hosts += n
		if n >= 2 {
			shared = append(shared, n)
			a.out.Bodies++
			a.out.SharedHosts.N += n
		}
	}
	a.out.SharedHosts.Of = a.out.Hosts
	least := int64(2)
	if top := a.list.n; len(shared) > top {
		slices.SortFunc(shared, func(x, y int64) int { return cmp.Compare(y, x) })
		least = shared[top-1]
	}
	a.chosen = map[uint64]int64{} // a map of its own: a map deleted from keeps its size
	for h, n := range a.hosts {
		if n >= least {
			a.chosen[h] = n
		}
	}
	a.hosts = nil
	if len(a.chosen) == 0 || a.list.n == 0 {
		return nil
	}
	return func(m *engine.Marks) bool {
		_, ok := a.chosen[m.DigestHash()]
		return ok && counts(m)
	}
}

// AddChosen ranks the bodies of the hosts fed, and samples the hosts of
// those listed.
func (a *sharedBodiesAcc) AddChosen(rec arrow.Record, hosts []engine.CaptureRow) error {
	cs := scan.Columns{Rec: rec}
	digests, names := cs.Str("content_digest"), cs.Str("url_host_name")
	if cs.Err != nil {
		return cs.Err
	}
	for _, h := range hosts {
		digest, name := digests.Value(h.Row), names.Value(h.Row)
		i := slices.IndexFunc(a.list.items, func(b SharedBody) bool { return b.Digest == digest })
		if i < 0 {
			b := SharedBody{Digest: digest, Hosts: a.chosen[h.Marks.DigestHash()]}
			if !a.list.admits(&b) {
				continue
			}
			b.Digest, b.Head = strings.Clone(digest), []string{}
			a.list.add(b)
			i = slices.IndexFunc(a.list.items, func(b SharedBody) bool { return b.Digest == digest })
		}
		a.list.items[i].Sample = addSample(a.list.items[i].Sample, name)
	}
	return nil
}

// addSample adds a host name to a sample, which keeps the first names in
// order.
//
//mutate:catch
func addSample(sample []string, name string) []string {
	j, found := slices.BinarySearch(sample, name)
	if j < bodySample && !found {
		sample = slices.Insert(sample, j, strings.Clone(name))
		sample = sample[:min(len(sample), bodySample)]
	}
	return sample
}

func (a *sharedBodiesAcc) Merge(engine.Accumulator) {} // Shared: never called

// Digests lists the bodies whose texts the report shows.
func (a *sharedBodiesAcc) Digests() []string {
	var out []string
	for _, b := range a.list.items {
		out = append(out, b.Digest)
	}
	return out
}

// Bodies fills the line counts and first lines of the bodies listed.
func (a *sharedBodiesAcc) Bodies(texts map[string]string) {
	for i := range a.list.items {
		if text, ok := texts[a.list.items[i].Digest]; ok {
			a.list.items[i].Lines, a.list.items[i].Head = head(text)
		}
	}
}

func (a *sharedBodiesAcc) Finish(out *Crawl) {
	a.out.Top = []SharedBody{}
	if a.list.items != nil {
		a.out.Top = a.list.items
	}
	out.SharedBodies = a.out
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
			out = append(out, engine.Clip(l.Text, maxShownLine))
		}
	}
	return f.Stats.Lines, out
}

func mdSharedBodies(m *render.Markdown, f *SharedBodies) {
	m.Heading(3, "Bodies shared by many hosts")
	m.Para("%s of the hosts with a usable non-empty robots.txt serve one of %s bodies that other hosts serve too.", FormatRatio(f.SharedHosts), render.Int(f.Bodies))
	var rows [][]string
	for _, b := range f.Top {
		var sample, head []string
		for _, h := range b.Sample {
			sample = append(sample, render.Code(h))
		}
		for _, l := range b.Head {
			head = append(head, render.Code(l))
		}
		rows = append(rows, []string{render.Int(b.Hosts), strings.Join(sample, ", "), render.Code(b.Digest), render.Int(int64(b.Lines)), strings.Join(head, " ")})
	}
	if len(rows) > 0 {
		m.Table([]string{" hosts", "first hosts", "payload digest", " lines", "first lines"}, rows)
	}
}
