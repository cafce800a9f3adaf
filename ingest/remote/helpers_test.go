package remote

import "github.com/robocensus/robocensus/internal/testutil"

var testTar = testutil.BodiesTarGz
