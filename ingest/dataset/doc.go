// Package dataset publishes a crawl's partition of the dataset: it owns
// everything between rows and the files researchers query. It writes rows
// to part files ([Rows], [PartWriter]) in a [Segment] of the crawl's work
// folder ([Work]), commits segments, shares the inputs among shards
// ([Shard]), keeps two runs of one crawl and shard apart ([LockRun]) and
// two publications of one crawl apart (the finalize lock), merges the
// segments' parts, stages the hosts table (computed by package hosts)
// and swaps the partition in at once ([Work.Finalize]),
// and on a rerun keeps the published rows of the inputs read to their end
// ([Work.Rerun]).
//
// It must not read inputs nor parse robots.txt: it takes rows built by the
// pipeline (package ingest) and the inputs rows that account for them, and
// it knows an input only by its name. It imports schema (the tables),
// robots (the agents table's access values) and ingest/hosts (the hosts
// table) of this repository.
package dataset
