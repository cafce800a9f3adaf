package analyze

import (
	"github.com/apache/arrow/go/v15/arrow"
)

// inputsSection sums the inputs table: what ingest read to make the crawl.
var inputsSection = &Section{
	Name:  "inputs",
	Doc:   "the inputs read: files, bytes, records, captures, records skipped, damage recovered from, inputs not read to their end",
	Title: "Inputs",
	Needs: []Need{
		{Table: InputsTable, Columns: []string{"bytes", "records", "captures", "skipped", "damage_events", "error"}},
	},
	New:      func(Params) Accumulator { return &inputsAcc{} },
	Markdown: mdInputs,
}

// inputsAcc is what one worker sums of the inputs.
type inputsAcc struct {
	Inputs
}

// Add sums a record of inputs.
func (a *inputsAcc) Add(_ Table, rec arrow.Record) error {
	cs := columnSet{rec: rec}
	bytes, records, captures := cs.i64("bytes"), cs.i64("records"), cs.i64("captures")
	skipped, damage, errs := cs.i64("skipped"), cs.i64("damage_events"), cs.str("error")
	if cs.err != nil {
		return cs.err
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

func (a *inputsAcc) Merge(other batchAcc) {
	in, o := &a.Inputs, other.(*inputsAcc).Inputs
	in.Inputs, in.Failed, in.Bytes = in.Inputs+o.Inputs, in.Failed+o.Failed, in.Bytes+o.Bytes
	in.Records, in.Captures = in.Records+o.Records, in.Captures+o.Captures
	in.Skipped, in.Damage = in.Skipped+o.Skipped, in.Damage+o.Damage
}

func (a *inputsAcc) Finish(out *Crawl) { out.Inputs = a.Inputs }

func mdInputs(m *mdWriter, c *Crawl, _ int) {
	m.heading(3, "Inputs")
	in := c.Inputs
	m.para("%s inputs (%s not read to their end), %s read; %s records: %s captures, %s skipped; %s damaged spots recovered from.",
		fmtInt(in.Inputs), fmtInt(in.Failed), fmtBytes(in.Bytes), fmtInt(in.Records), fmtInt(in.Captures), fmtInt(in.Skipped), fmtInt(in.Damage))
}
