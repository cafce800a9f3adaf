package dataset

import (
	"path/filepath"

	"github.com/robocensus/robocensus/ingest/hosts"
	"github.com/robocensus/robocensus/schema"
)

// buildHosts computes the hosts table of a partition from the files of
// its captures, parts, and stages it in stage (package hosts computes it,
// in the stage's folder hosts-work).
func buildHosts(stage *Staging, parts []string) error {
	out := &hostsWriter{stage: stage}
	if err := hosts.Build(filepath.Join(stage.path, "hosts-work"), parts, out.add); err != nil {
		return err
	}
	return out.close()
}

// hostsPartRows is the number of hosts rows of a part file; a variable
// so that tests can make small parts.
var hostsPartRows = 2_000_000

// hostsWriter writes hosts rows to part files of hostsPartRows rows.
type hostsWriter struct {
	stage *Staging
	tw    *tableWriter[schema.Host]
	rows  int // in the part being written
	parts int
}

// add writes rows, FlushRows at a time, starting a new part file when the
// one being written is full.
func (w *hostsWriter) add(rows []schema.Host) error {
	for len(rows) > 0 {
		if w.tw == nil {
			tw, err := openTable[schema.Host](w.stage, schema.PartName(w.parts), schema.WithPageBufferSize(pipelinePageSize))
			if err != nil {
				return err
			}
			w.tw, w.parts = tw, w.parts+1
		}
		n := min(len(rows), FlushRows, hostsPartRows-w.rows)
		if err := w.tw.write(rows[:n]); err != nil {
			return err
		}
		rows, w.rows = rows[n:], w.rows+n
		if w.rows == hostsPartRows {
			err := w.tw.close()
			w.tw, w.rows = nil, 0
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// close writes the last part; a partition with no host gets one empty
// part, as every table does.
func (w *hostsWriter) close() error {
	var err error
	if w.tw != nil {
		err = w.tw.close()
	}
	if err == nil && w.parts == 0 {
		err = writeEmpty(w.stage, schema.TableName[schema.Host]())
	}
	return err
}
