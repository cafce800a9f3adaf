package sections

import (
	"github.com/apache/arrow/go/v15/arrow"

	"github.com/robocensus/robocensus/analyze/internal/engine"
	"github.com/robocensus/robocensus/analyze/internal/render"
	"github.com/robocensus/robocensus/analyze/internal/scan"
)

// inputsSection sums the inputs table: what ingest read to make the crawl.
var inputsSection = &Section{
	Name:  "inputs",
	Doc:   "the inputs read: files, bytes, records, captures, records skipped, damage recovered from, inputs not read to their end",
	Title: "Inputs",
	Needs: []engine.Need{
		{Table: engine.InputsTable, Columns: []string{"bytes", "records", "captures", "skipped", "damage_events", "error"}},
	},
	New:      func(engine.Params) Accumulator { return &inputsAcc{} },
	Markdown: mdInputs,
}

// inputsAcc is what one worker sums of the inputs.
type inputsAcc struct {
	Inputs
}

// Add sums a record of inputs.
func (a *inputsAcc) Add(_ engine.Table, rec arrow.Record) error {
	cs := scan.Columns{Rec: rec}
	bytes, records, captures := cs.I64("bytes"), cs.I64("records"), cs.I64("captures")
	skipped, damage, errs := cs.I64("skipped"), cs.I64("damage_events"), cs.Str("error")
	if cs.Err != nil {
		return cs.Err
	}
	in := &a.Inputs
	for i := range int(rec.NumRows()) {
		in.Inputs++
		if !errs.IsNull(i) {
			in.Failed++
		}
		in.Bytes += bytes.Value(i)
		in.Records += records.Value(i)
		in.Captures += captures.Value(i)
		in.Skipped += skipped.Value(i)
		in.Damage += damage.Value(i)
	}
	return nil
}

func (a *inputsAcc) Merge(other engine.Accumulator) {
	in, o := &a.Inputs, other.(*inputsAcc).Inputs
	in.Inputs, in.Failed, in.Bytes = in.Inputs+o.Inputs, in.Failed+o.Failed, in.Bytes+o.Bytes
	in.Records, in.Captures = in.Records+o.Records, in.Captures+o.Captures
	in.Skipped, in.Damage = in.Skipped+o.Skipped, in.Damage+o.Damage
}

func (a *inputsAcc) Finish(out *Crawl) { out.Inputs = a.Inputs }

func mdInputs(m *render.Markdown, c *Crawl, _ int) {
	m.Heading(3, "Inputs")
	in := c.Inputs
	m.Para("%s inputs (%s not read to their end), %s read; %s records: %s captures, %s skipped; %s damaged spots recovered from.",
		render.Int(in.Inputs), render.Int(in.Failed), render.Bytes(in.Bytes), render.Int(in.Records), render.Int(in.Captures), render.Int(in.Skipped), render.Int(in.Damage))
}
