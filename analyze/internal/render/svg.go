package render

import (
	"fmt"
	"strings"
)

// Geometry of the inline SVG charts. The templates draw these structs; all
// text in them is escaped by html/template, and numbers are plain floats.

// barChart is a horizontal bar chart: one row per label, each bar made of
// segments, the value written after the bar.
type BarChart struct {
	Width, Height float64
	LabelWidth    float64 // the labels are right-aligned left of this x
	Rows          []barRow
	Grid          []gridLine
}

type barRow struct {
	Y, TextY float64
	Label    string
	Note     string
	NoteX    float64
	Segs     []seg
	HasMark  bool    // draw a tick on the row
	MarkX    float64 // its x
	MarkY1   float64
	MarkY2   float64
}

// seg is one rectangle; Class picks its colour in the stylesheet.
type seg struct {
	X, Y, W float64
	Class   string
	Title   string
}

type gridLine struct {
	X     float64
	Label string
}

const (
	barHeight = 16.0
	barGap    = 8.0
	chartTop  = 6.0
	gridSpace = 18.0 // room for the grid labels under the bars
)

// barInput is one row given to newBarChart: segments as values on the
// chart's scale, with their classes and titles.
type BarInput struct {
	Label  string
	Note   string
	Values []float64
	Class  []string
	Title  []string
	Marker *float64
}

// newBarChart lays out rows on a scale from 0 to top (at least the largest
// row), with grid lines at the given values, labelled by format.
func NewBarChart(width, labelWidth, top float64, rows []BarInput, grid []float64, format func(float64) string) *BarChart {
	for _, r := range rows {
		top = max(top, sum(r.Values))
	}
	if top == 0 {
		top = 1
	}
	plot := width - labelWidth - 110 // room for the notes
	scale := func(v float64) float64 { return labelWidth + 8 + plot*v/top }
	c := &BarChart{Width: width, LabelWidth: labelWidth}
	y := chartTop
	for _, r := range rows {
		row := barRow{Y: y, TextY: y + barHeight - 4, Label: r.Label, Note: r.Note}
		x := 0.0
		for i, v := range r.Values {
			row.Segs = append(row.Segs, seg{X: scale(x), Y: y, W: scale(x+v) - scale(x), Class: r.Class[i], Title: at(r.Title, i)})
			x += v
		}
		row.NoteX = scale(x) + 6
		if r.Marker != nil {
			row.HasMark, row.MarkX, row.MarkY1, row.MarkY2 = true, scale(*r.Marker), y-3, y+barHeight+3
		}
		c.Rows = append(c.Rows, row)
		y += barHeight + barGap
	}
	for _, g := range grid {
		if g <= top {
			c.Grid = append(c.Grid, gridLine{X: scale(g), Label: format(g)})
		}
	}
	c.Height = y + gridSpace
	return c
}

// columnChart is a vertical bar chart (the size histogram) with an
// optional marker line between two columns.
type ColumnChart struct {
	Width, Height float64
	Base          float64 // y of the axis
	Cols          []col
	Marker        *marker
}

type col struct {
	X, Y, W, H float64
	LabelX     float64
	Label      string
	Note       string
	NoteY      float64
	Class      string
}

type marker struct {
	X, Y1, Y2 float64
	Label     string
}

// newColumnChart lays out columns of the given heights (any scale), with a
// marker line before column markAt (-1: none).
func NewColumnChart(width, height float64, labels, notes []string, values []float64, classes []string, markAt int, markLabel string) *ColumnChart {
	top, base := 24.0, height-34
	maxV := 0.0
	for _, v := range values {
		maxV = max(maxV, v)
	}
	if maxV == 0 {
		maxV = 1
	}
	step := (width - 20) / float64(len(values))
	c := &ColumnChart{Width: width, Height: height, Base: base}
	for i, v := range values {
		h := (base - top) * v / maxV
		x := 10 + step*float64(i)
		c.Cols = append(c.Cols, col{
			X: x + 6, W: step - 12, Y: base - h, H: h, LabelX: x + step/2,
			Label: labels[i], Note: notes[i], NoteY: base - h - 6, Class: classes[i],
		})
	}
	if markAt >= 0 && markAt < len(values) {
		x := 10 + step*float64(markAt)
		c.Marker = &marker{X: x, Y1: top - 14, Y2: base + 4, Label: markLabel}
	}
	return c
}

// sparkline is a small line chart of one trend series.
type Sparkline struct {
	Width, Height float64
	Points        string
	Dots          []dot
}

type dot struct{ X, Y float64 }

// newSparkline draws values, scaled to their own range.
func NewSparkline(values []float64) *Sparkline {
	const w, h, pad = 140.0, 28.0, 4.0
	lo, hi := values[0], values[0]
	for _, v := range values {
		lo, hi = min(lo, v), max(hi, v)
	}
	s := &Sparkline{Width: w, Height: h}
	var pts []string
	for i, v := range values {
		x := pad + (w-2*pad)*float64(i)/float64(max(1, len(values)-1))
		y := h / 2
		if hi > lo {
			y = h - pad - (h-2*pad)*(v-lo)/(hi-lo)
		}
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x, y))
		s.Dots = append(s.Dots, dot{x, y})
	}
	s.Points = strings.Join(pts, " ")
	return s
}

func sum(v []float64) float64 {
	t := 0.0
	for _, x := range v {
		t += x
	}
	return t
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return ""
}
