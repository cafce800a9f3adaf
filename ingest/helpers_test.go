package ingest

import "github.com/robocensus/robocensus/internal/testutil"

// Builders of test inputs (see internal/testutil).
var (
	robotsBody = testutil.RobotsBody
	ccFile     = testutil.CCFile
	makeTar    = testutil.MixedTar
	testTar    = testutil.BodiesTarGz
	gz         = testutil.Gzip
	perRecord  = testutil.PerRecord
	robots200  = testutil.Robots200
	response   = testutil.Response
)
