package ingest

import "errors"

// The errors that this package makes start with "ingest: ", once. Those of
// ingest/dataset, ingest/archive and ingest/remote that Run passes on keep
// their own prefix ("dataset: ...", "archive: ..."), never "ingest: " in
// front of it; an input's error goes to the inputs table, not to Run's.

// errNoDatasetFolder is the error of Run given no Config.Dir.
var errNoDatasetFolder = errors.New("ingest: no dataset folder")
