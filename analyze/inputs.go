package analyze

import (
	"context"
	"sync"

	"github.com/apache/arrow/go/v15/arrow"
)

// inputsPass sums the inputs table of the crawl.
func (s *crawlState) inputsPass(ctx context.Context) error {
	var mu sync.Mutex
	in := &s.out.Inputs
	spec := scanSpec{table: "inputs", crawl: s.label, columns: []string{"bytes", "records", "captures", "skipped", "damage_events", "error"}}
	return s.d.scan(ctx, spec, func(_ int, rec arrow.Record) error {
		cs := columnSet{rec: rec}
		bytes, records, captures := cs.i64("bytes"), cs.i64("records"), cs.i64("captures")
		skipped, damage, errs := cs.i64("skipped"), cs.i64("damage_events"), cs.str("error")
		if cs.err != nil {
			return cs.err
		}
		mu.Lock()
		defer mu.Unlock()
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
	})
}
