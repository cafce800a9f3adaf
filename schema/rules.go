package schema

import "io"

// RulesWriter writes the rules table as [Writer][Rule] does, in a fraction
// of its time: the same schema, rows, row groups, encodings and row group
// statistics, written the way [AgentsWriter] writes the agents table. The
// rules table has some 30 rows a real robots.txt, and a general row writer
// spent a seventh of an ingest run on it (issue 12): a UTF-8 check, a
// dictionary lookup and min/max comparisons per string, for columns whose
// values come in runs. Here capture_id, url_host_name and user_agents are
// looked up once a run (the rows of a capture, the rules of a group), the
// directive once a row; min and max are taken over each dictionary, not
// over the values.
//
// Each column of a row group is one compressed page, but for pattern,
// compressed a page at a time as rows come: capture_id, url_host_name,
// directive and the user_agents elements dictionary-encoded (indices in the
// RLE/bit-packed hybrid), the rest PLAIN. The file's schema is the one
// [Writer][Rule] writes, so [Concat] merges the files of both. Until a row
// group is complete the writer holds its patterns compressed and the rest
// (some 40 bytes a row) uncompressed.
//
// TestRulesWriterSameAsWriter checks, with DuckDB and parquet-go, that both
// writers' files hold the same rows and the same row group statistics.
type RulesWriter struct {
	f columnFile

	// The row group being built.
	n                   int // rows
	ids, hosts, agents  dictBuilder
	directives          dictBuilder
	groupIndex, line    []int32
	reps, defs          []uint32 // levels of user_agents, one entry per element or empty list
	patterns            textColumn
	wildcard, anchor    []bool
	lastAgents          []string // the caller's user_agents of the row before, in this Write
	lastFrom, lastCount int      // where its indices are in agents.of
}

var rulesFooter = footerOf[Rule]()

// NewRulesWriter returns a writer of the rules table to w. The options are
// those of [NewWriter]; [WithPageBufferSize] sizes the pages of pattern
// (the other columns have one page a row group).
func NewRulesWriter(w io.Writer, opts ...WriterOption) *RulesWriter {
	r := &RulesWriter{}
	r.f.init(w, TableName[Rule](), rulesFooter, opts)
	r.reset()
	return r
}

func (r *RulesWriter) reset() {
	r.n = 0
	for _, d := range []*dictBuilder{&r.ids, &r.hosts, &r.agents, &r.directives} {
		d.reset()
	}
	r.groupIndex, r.line, r.reps, r.defs = r.groupIndex[:0], r.line[:0], r.reps[:0], r.defs[:0]
	r.wildcard, r.anchor = r.wildcard[:0], r.anchor[:0]
	r.lastAgents = nil
}

// Write writes rows and returns how many were written. The rows are not
// kept after Write returns, and never modified; strings that are not UTF-8
// are written repaired, as [Writer.Write] does.
func (r *RulesWriter) Write(rows []Rule) (int, error) {
	if err := r.f.check(); err != nil {
		return 0, err
	}
	defer func() { r.lastAgents = nil }() // the caller's
	for i := range rows {
		r.add(&rows[i])
		if r.n >= r.f.perGroup {
			if err := r.flush(); err != nil {
				return i + 1, err
			}
		}
	}
	return len(rows), nil
}

// add appends one row to the row group.
func (r *RulesWriter) add(row *Rule) {
	r.n++
	r.ids.add(row.CaptureID)
	r.hosts.add(row.URLHostName)
	r.directives.add(row.Directive)
	r.groupIndex = append(r.groupIndex, row.GroupIndex)
	r.line = append(r.line, row.Line)
	r.wildcard = append(r.wildcard, row.HasWildcard)
	r.anchor = append(r.anchor, row.HasEndAnchor)
	r.patterns.add(row.Pattern, &r.f)
	r.addAgents(row.UserAgents)
}

// addAgents appends the levels and indices of a user_agents list. The
// rules of a group share their list: the same slice as the row before's
// repeats its indices.
func (r *RulesWriter) addAgents(list []string) {
	if len(list) == 0 {
		r.reps, r.defs = append(r.reps, 0), append(r.defs, 0)
		return
	}
	for i := range list {
		r.reps, r.defs = append(r.reps, min(uint32(i), 1)), append(r.defs, 1)
	}
	if len(list) == len(r.lastAgents) && &list[0] == &r.lastAgents[0] {
		r.agents.of = append(r.agents.of, r.agents.of[r.lastFrom:r.lastFrom+r.lastCount]...)
		r.lastFrom = len(r.agents.of) - r.lastCount
		return
	}
	r.lastAgents, r.lastFrom, r.lastCount = list, len(r.agents.of), len(list)
	for _, a := range list {
		r.agents.add(a)
	}
}

// Flush ends the current row group, writing it to the output.
func (r *RulesWriter) Flush() error { return r.f.flushGroup(r.flush) }

// Close writes the last row group and the footer. It does not close the
// underlying writer. Calling Close again returns the result of the first
// call.
func (r *RulesWriter) Close() error { return r.f.close(r.flush, "robocensus RulesWriter") }

// Rows returns the number of rows written so far.
func (r *RulesWriter) Rows() int64 { return r.f.rows + int64(r.n) }

// flush writes the row group being built, its columns in the order of
// Rule's fields.
func (r *RulesWriter) flush() error {
	if r.n == 0 {
		return nil
	}
	f := &r.f
	f.beginGroup(r.n)
	f.add(f.dictChunk([]string{"capture_id"}, &r.ids, nil, nil))
	f.add(f.dictChunk([]string{"url_host_name"}, &r.hosts, nil, nil))
	f.add(f.int32Chunk("group_index", r.groupIndex))
	f.add(f.dictChunk([]string{"user_agents", "list", "element"}, &r.agents, r.reps, r.defs))
	f.add(f.dictChunk([]string{"directive"}, &r.directives, nil, nil))
	f.add(f.textChunk("pattern", &r.patterns))
	f.add(f.int32Chunk("line", r.line))
	f.add(f.boolChunk("has_wildcard", r.wildcard))
	f.add(f.boolChunk("has_end_anchor", r.anchor))
	err := f.endGroup()
	r.reset()
	return err
}
