package ingest

import (
	"testing"

	"github.com/robocensus/robocensus/ingest/dataset"
	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/robots"
)

// BenchmarkCensusAdd times the census alone (census.add) over the
// benchmark's 10,000 egonkm bodies, parsed beforehand: "us/capture" is its
// time per capture, "cpu-us/capture" the CPU time the process used per
// capture (testutil.ProcessCPU), which other processes on a shared machine
// disturb less. BenchmarkRunCensus measures the census within a whole
// ingest.
func BenchmarkCensusAdd(b *testing.B) {
	path := testutil.Corpus(b, "robots", "egonkm-robots-txt", "robots.tar.gz")
	bodies := testutil.TarBodies(b, path)
	bodies = bodies[:min(len(bodies), benchBodies)]
	m := newRowMaker(robots.TrackedCrawlers())
	files := make([]*robots.File, len(bodies))
	vias := make([][]robots.Via, len(bodies))
	var rs dataset.Rows
	for i, body := range bodies {
		files[i] = robots.ParseResponse(robots.Response{Status: 200}, body.Data)
		rs.Reset()
		m.addAgents(&rs, body.Name, "h", files[i])
		vias[i] = append([]robots.Via(nil), rs.Agents.Via...)
	}
	rows := 0
	cpu0 := testutil.ProcessCPU()
	for b.Loop() {
		rows = 0
		for i, f := range files {
			rs.Reset()
			m.census.add(m, &rs, bodies[i].Name, "h", f, vias[i])
			rows += len(rs.Readings)
		}
	}
	cpu := testutil.ProcessCPU() - cpu0
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(files)), "us/capture")
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N*len(files)), "cpu-us/capture")
	b.ReportMetric(float64(rows), "rows")
}
