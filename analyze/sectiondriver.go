package analyze

import (
	"context"
	"slices"

	"github.com/apache/arrow/go/v15/arrow"
)

// sectionRun feeds the sections of one crawl: one accumulator per section
// and worker, added up when the passes end.
type sectionRun struct {
	secs []*Section
	accs [][]Accumulator // by section, then worker
}

func newSectionRun(secs []*Section, p Params, workers int) *sectionRun {
	r := &sectionRun{}
	for _, s := range secs {
		if s.New == nil {
			continue
		}
		accs := make([]Accumulator, workers)
		for w := range accs {
			accs[w] = s.New(p)
		}
		r.secs, r.accs = append(r.secs, s), append(r.accs, accs)
	}
	return r
}

// columns returns the columns of a table the sections need.
func (r *sectionRun) columns(table string) []string {
	var out []string
	for _, s := range r.secs {
		for _, n := range s.Needs {
			if n.Table != table || n.Marked {
				continue
			}
			for _, c := range n.Columns {
				if !slices.Contains(out, c) {
					out = append(out, c)
				}
			}
		}
	}
	return out
}

// tables returns the tables the sections need other than captures, in
// the order of their first need.
func (r *sectionRun) tables() []string {
	var out []string
	for _, s := range r.secs {
		for _, n := range s.Needs {
			if n.Table != "captures" && !n.Marked && !slices.Contains(out, n.Table) {
				out = append(out, n.Table)
			}
		}
	}
	return out
}

// add feeds a record of a table to the sections that need it.
func (r *sectionRun) add(table string, w int, rec arrow.Record) error {
	for i, s := range r.secs {
		if r.accs[i] == nil || !s.needs(table) {
			continue
		}
		if err := r.accs[i][w].Add(table, rec); err != nil {
			return err
		}
	}
	return nil
}

// scanTables reads once each table the sections need, other than
// captures, which the counting shard's captures pass feeds.
func (r *sectionRun) scanTables(ctx context.Context, d *Dataset, crawl string) error {
	for _, t := range r.tables() {
		spec := scanSpec{table: t, crawl: crawl, columns: r.columns(t)}
		if err := d.scan(ctx, spec, func(w int, rec arrow.Record) error { return r.add(t, w, rec) }); err != nil {
			return err
		}
	}
	return nil
}

// finish merges the workers' accumulators and writes the figures of the
// sections that need only the tables given (all when none is given), and
// lets their state go.
func (r *sectionRun) finish(out *Crawl, tables ...string) {
	for i, s := range r.secs {
		accs := r.accs[i]
		if accs == nil || len(tables) > 0 && !s.needsOnly(tables) {
			continue
		}
		for _, a := range accs[1:] {
			accs[0].Merge(a)
		}
		accs[0].Finish(out)
		r.accs[i] = nil
	}
}

// union returns a followed by the values of b not in a.
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, v := range b {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// needsOnly reports whether the section reads only the tables given, none
// of them marked.
func (s *Section) needsOnly(tables []string) bool {
	return !slices.ContainsFunc(s.Needs, func(n Need) bool { return n.Marked || !slices.Contains(tables, n.Table) })
}

// needs reports whether the section reads a table unmarked.
func (s *Section) needs(table string) bool {
	return slices.ContainsFunc(s.Needs, func(n Need) bool { return n.Table == table && !n.Marked })
}
