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

// typosSection is the prevalence of misspelled keys: the captures with a
// typo Google accepts or ignores, their lines, and the keys most often
// misspelled (lower-cased, as the finding's message quotes them).
var typosSection = &Section{
	Name:  "typos",
	Doc:   "misspelled keys",
	Title: "Typos",
	Needs: []engine.Need{
		{Table: engine.DiagnosticsTable, Columns: []string{"code", "message"}},
		{Table: engine.MarksTable},
	},
	New: func(p engine.Params) Accumulator { return &typosAcc{top: p.Top, keys: map[[2]string]int64{}} },
	Trends: []Trend{
		{Name: "typo accepted", Ratio: func(c *Crawl) Ratio { return c.Typos.Accepted.Captures }},
		{Name: "typo ignored", Ratio: func(c *Crawl) Ratio { return c.Typos.Ignored.Captures }},
	},
	Markdown: mdTypos,
}

// typoCodes are the codes of misspelled keys: accepted, ignored.
var typoCodes = [2]robots.Code{robots.TypoAccepted, robots.TypoIgnored}

// typosAcc counts the typo findings, their keys and captures.
type typosAcc struct {
	top      int
	lines    [2]int64 // by typo code
	withTypo [2]int64 // captures, by typo code
	captures int64
	keys     map[[2]string]int64 // {key, code} -> lines
	kind     []int               // typo code by index in a record's code dictionary, -1 for others
}

// Add counts the typos of a record of diagnostics.
func (a *typosAcc) Add(_ engine.Table, rec arrow.Record) error {
	cs := scan.Columns{Rec: rec}
	codes, msg := cs.Dict("code"), cs.Str("message")
	if cs.Err != nil {
		return cs.Err
	}
	a.kind = a.kind[:0]
	for i := range codes.Values.Len() {
		a.kind = append(a.kind, typoKind(codes.Values.Value(i)))
	}
	for i, x := range codes.Index {
		t := a.kind[x]
		if t < 0 {
			continue
		}
		a.lines[t]++
		k := [2]string{typoKeyOf(msg.Value(i)), typoCodes[t].String()}
		if _, ok := a.keys[k]; !ok {
			k[0] = strings.Clone(k[0])
		}
		a.keys[k]++
	}
	return nil
}

// typoKind returns the index of a code in typoCodes, or -1.
func typoKind(code string) int {
	for t, c := range typoCodes {
		if code == c.String() {
			return t
		}
	}
	return -1
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

// AddMarks counts a capture, and whether it has each kind of typo.
func (a *typosAcc) AddMarks(m *engine.Marks) {
	a.captures++
	for name := range m.Codes() {
		if t := typoKind(name); t >= 0 {
			a.withTypo[t]++
		}
	}
}

func (a *typosAcc) Merge(other engine.Accumulator) {
	o := other.(*typosAcc)
	for t := range typoCodes {
		a.lines[t] += o.lines[t]
		a.withTypo[t] += o.withTypo[t]
	}
	a.captures += o.captures
	for k, n := range o.keys {
		a.keys[k] += n
	}
}

func (a *typosAcc) Finish(out *Crawl) {
	share := func(t int) TypoShare { return TypoShare{Captures: Ratio{a.withTypo[t], a.captures}, Lines: a.lines[t]} }
	ty := Typos{Accepted: share(0), Ignored: share(1), Keys: []TypoKey{}}
	for k, n := range a.keys {
		ty.Keys = append(ty.Keys, TypoKey{Key: k[0], Code: k[1], Lines: n})
	}
	slices.SortFunc(ty.Keys, func(a, b TypoKey) int {
		return cmp.Or(cmp.Compare(b.Lines, a.Lines), strings.Compare(a.Key, b.Key), strings.Compare(a.Code, b.Code))
	})
	ty.Keys = ty.Keys[:min(len(ty.Keys), a.top)]
	out.Typos = ty
}

func mdTypos(m *render.Markdown, c *Crawl, _ int) {
	t := &c.Typos
	m.Heading(3, "Typos")
	m.Para("Captures with a typo Google accepts: %s (%s lines); with a typo Google ignores: %s (%s lines).",
		FormatRatio(t.Accepted.Captures), render.Int(t.Accepted.Lines), FormatRatio(t.Ignored.Captures), render.Int(t.Ignored.Lines))
	var rows [][]string
	for _, k := range t.Keys {
		rows = append(rows, []string{render.Code(k.Key), k.Code, render.Int(k.Lines)})
	}
	if len(rows) > 0 {
		m.Table([]string{"key (lower case)", "code", " lines"}, rows)
	}
}
