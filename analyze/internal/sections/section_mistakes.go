package sections

import (
	"github.com/apache/arrow/go/v15/arrow"

	"github.com/robocensus/robocensus/analyze/internal/engine"
	"github.com/robocensus/robocensus/analyze/internal/render"
	"github.com/robocensus/robocensus/analyze/internal/scan"
	"github.com/robocensus/robocensus/robots"
)

// mistakesSection measures again the survey of 2.4 million DMOZ sites
// (robots.Survey): its eleven classic mistakes (robots.Mistakes) and its
// malformed and unreadable shares, over the read captures. It reads the
// "marked captures": each read capture's codes come from the batch's
// marks, its counts from its row of captures.
var mistakesSection = &Section{
	Name:  "mistakes",
	Doc:   "the survey's classic mistakes and its malformed and unreadable shares, measured again",
	Title: "Classic mistakes",
	Needs: []engine.Need{{Table: engine.MarkedCapturesTable,
		Columns: []string{"error_count", "allow_count", "group_count", "sitemap_count"}}},
	New:        func(engine.Params) Accumulator { return &mistakesAcc{mistakes: robots.Mistakes()} },
	TrendOrder: 1, // after the shared bodies (Section.TrendOrder)
	Trends: []Trend{
		{Name: "malformed (of read captures)", Ratio: func(c *Crawl) Ratio { return c.Mistakes.Malformed }},
		{Name: "unreadable (of read captures)", Ratio: func(c *Crawl) Ratio { return c.Mistakes.Unreadable }},
	},
	Markdown: func(m *render.Markdown, c *Crawl, _ int) { mdMistakes(m, c) },
}

// ClassicMistakes are the survey's figures measured again. Its shares are
// of the read captures (status 2xx or none), the files crawlers read, as
// the survey's were of the robots.txt files it found: the usable ones
// would leave out by definition the HTML and binary answers that mistakes
// 6 and 11 and the unreadable share are about.
type ClassicMistakes struct {
	ReadCaptures int64 `json:"read_captures"`
	// Malformed: robots.Malformed, error_count > 0.
	Malformed Ratio `json:"malformed"`
	// Unreadable: robots.UnreadableFindings over the capture's codes and
	// its group_count and sitemap_count.
	Unreadable Ratio          `json:"unreadable"`
	Survey     SurveyFigures  `json:"survey"`
	Mistakes   []MistakeShare `json:"mistakes"` // 1 to 11, in the survey's order
}

// SurveyFigures are the survey's own figures (robots.Survey), shown beside
// ours: "more than" MalformedOver and UnreadableOver of Files.
type SurveyFigures struct {
	Sites          int64   `json:"sites"`
	Files          int64   `json:"files"`
	MalformedOver  float64 `json:"malformed_over"`
	UnreadableOver float64 `json:"unreadable_over"`
}

// MistakeShare is one classic mistake and the read captures showing it.
type MistakeShare struct {
	Number int    `json:"number"`
	Name   string `json:"name"`
	// Measure says how it is measured: the code that is its own (the first
	// robots.Mistakes lists, whose doc cites the survey), "allow_count > 0"
	// for mistake 9, or "" when it is not measured (see Note).
	Measure  string `json:"measure"`
	Captures Ratio  `json:"captures"` // read captures showing it
	Note     string `json:"note,omitempty"`
}

// allowMistake is the survey's mistake measured by captures.allow_count
// instead of a code (robots.Mistakes says so in its note).
const allowMistake = 9

// mistakesAcc counts the read captures of one worker.
type mistakesAcc struct {
	mistakes                    []robots.Mistake
	read, malformed, unreadable int64
	shown                       [12]int64 // read captures by mistake number
}

func (a *mistakesAcc) Add(engine.Table, arrow.Record) error { return nil }

// AddMarkedCaptures counts rows of captures: the read ones.
func (a *mistakesAcc) AddMarkedCaptures(rec arrow.Record, rows []engine.CaptureRow) error {
	cs := scan.Columns{Rec: rec}
	errs, allows, groups, sitemaps := cs.I32("error_count"), cs.I32("allow_count"), cs.I32("group_count"), cs.I32("sitemap_count")
	if cs.Err != nil {
		return cs.Err
	}
	for _, r := range rows {
		k, i := r.Marks, r.Row
		if !k.Read() {
			continue
		}
		a.read++
		if errs.Value(i) > 0 { // robots.Malformed: the file's Stats.Errors
			a.malformed++
		}
		if robots.UnreadableFindings(k.Has, int(groups.Value(i)), int(sitemaps.Value(i))) {
			a.unreadable++
		}
		if allows.Value(i) > 0 {
			a.shown[allowMistake]++
		}
		for _, m := range a.mistakes {
			if m.Number > 0 && len(m.Codes) > 0 && k.Has(m.Codes[0]) {
				a.shown[m.Number]++
			}
		}
	}
	return nil
}

// Merge adds another worker's counts: only the first accumulator is fed
// "marked captures" (Need), so the others are empty.
//
//mutate:skip the others are empty: no test can see it go
func (a *mistakesAcc) Merge(other engine.Accumulator) {
	o := other.(*mistakesAcc)
	a.read, a.malformed, a.unreadable = a.read+o.read, a.malformed+o.malformed, a.unreadable+o.unreadable
	for i, n := range o.shown {
		a.shown[i] += n
	}
}

func (a *mistakesAcc) Finish(out *Crawl) {
	s := robots.Survey
	f := ClassicMistakes{
		ReadCaptures: a.read, Malformed: Ratio{a.malformed, a.read}, Unreadable: Ratio{a.unreadable, a.read},
		Survey:   SurveyFigures{Sites: s.Sites, Files: s.Files, MalformedOver: s.MalformedOver, UnreadableOver: s.UnreadableOver},
		Mistakes: []MistakeShare{},
	}
	for _, m := range a.mistakes {
		if m.Number == 0 {
			continue // domain farms: the shared bodies section
		}
		ms := MistakeShare{Number: m.Number, Name: m.Name, Captures: Ratio{a.shown[m.Number], a.read}}
		switch {
		case m.Number == allowMistake:
			ms.Measure = "allow_count > 0"
		case len(m.Codes) > 0:
			ms.Measure = m.Codes[0].String()
		default:
			ms.Captures, ms.Note = Ratio{}, m.Note
		}
		f.Mistakes = append(f.Mistakes, ms)
	}
	out.Mistakes = f
}

func mdMistakes(m *render.Markdown, c *Crawl) {
	f := &c.Mistakes
	m.Heading(3, "Classic mistakes")
	m.Para("The survey of %s DMOZ sites found about %s robots.txt files, over %s of them malformed and over %s unreadable by any crawler. Here, of the %s read captures (2xx or no status): malformed (a finding of severity error) %s; unreadable (binary, HTML or UTF-16, or no line a crawler can use) %s.",
		render.Int(f.Survey.Sites), render.Int(f.Survey.Files), render.Share(f.Survey.MalformedOver), render.Share(f.Survey.UnreadableOver),
		render.Int(f.ReadCaptures), FormatRatio(f.Malformed), FormatRatio(f.Unreadable))
	var rows [][]string
	for _, ms := range f.Mistakes {
		if ms.Measure == "" {
			rows = append(rows, []string{render.Int(int64(ms.Number)), render.Escape(ms.Name), "not measured", "", ""})
			continue
		}
		rows = append(rows, []string{render.Int(int64(ms.Number)), render.Escape(ms.Name), render.Code(ms.Measure), render.Int(ms.Captures.N), render.Share(ms.Captures.Share())})
	}
	m.Table([]string{" #", "mistake", "measured by", " read captures", " share"}, rows)
	m.Para("Domain farms, the survey's last observation: %s of the hosts with a usable, non-empty robots.txt serve a body other hosts serve too (shared bodies).", FormatRatio(c.SharedBodies.SharedHosts))
}
