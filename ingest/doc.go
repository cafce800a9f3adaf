// Package ingest is the pipeline: [Run] turns inputs into a published
// partition of the dataset. Its stages are packages of their own, and the
// folders read as the data flow:
//
//	ingest/remote   input names and http(s) transfers: manifests, @lists,
//	                retries, Range resumption
//	ingest/archive  bytes to captures: WARC, ARC, tar and bodies,
//	                decompression, damage as data
//	ingest          captures to rows: readers and workers (pipeline.go),
//	                the robots engine's verdicts and diagnostics as rows
//	                (rows.go), folders of inputs (folder.go), what a run
//	                would do (plan.go), sizing from the memory limit
//	ingest/dataset  rows to a published partition: part files, segments,
//	                shards, locks, merging, reruns
//	schema          the tables' rows and their Parquet files
//	analyze         the reports, reading the published dataset
//
// ingest owns the run: which inputs are read, by how many goroutines, how
// memory is bounded, and when work is committed and published. It must not
// frame records, decode payloads or fetch bytes itself (archive and remote
// do), nor parse robots.txt (package robots does), nor define a table's
// columns (package schema does), nor lay out files on disk (dataset does).
//
// # Inputs
//
// Each input is a local file (read by archive.Open), an http(s) URL (read
// by remote.Open with the options of Config.FetchOptions) or a folder,
// which stands for the files below it (see folder.go): each file an input
// of its own, and a file no reader takes skipped with its reason. Names on
// a command line are expanded first by remote.ExpandInputs (manifests and
// @lists). Config.ReadOptions configure the archive readers.
//
// # Accounting
//
// Every record of every input ends in the inputs table: read as a capture,
// skipped for a reason, or counted in the damage of its input; an input
// that cannot be read to its end keeps its error in its row, and the run
// goes on (see [Run]).
//
// # Entry points and adding to it
//
// [Run] reads the inputs of a [Config] into the crawl's partition and
// returns its [Summary]; [Plan] says what a run would do without reading;
// [CaptureID] is the stable key of a capture's rows. A column of an
// existing table is filled in rows.go (captureRow and the add* methods of
// the row maker), once package schema has it (see its "Adding a column").
// A new table is a field of dataset.Rows filled here, and a writer in
// ingest/dataset's part files. A setting of a run is a field of [Config],
// documented there, with its flag in cmd/robocensus. Problems of the
// archive readers become diagnostic rows here, by their catalogue code.
package ingest
