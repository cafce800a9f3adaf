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
// A dataset's root is a folder, or an s3:// URL of S3-compatible object
// storage (package objstore, settings from [ConfigureS3]): the same logic
// publishes into a bucket through a local folder of the run's own, with
// locks put with If-None-Match, segments and partitions committed by the
// object written last, and the partition's listing read by
// [PublishedFiles] (bucket.go).
//
// It must not read inputs nor parse robots.txt: it takes rows built by the
// pipeline (package ingest) and the inputs rows that account for them, and
// it knows an input only by its name. It imports schema (the tables),
// robots (the agents table's access values), ingest/hosts (the hosts
// table) and ingest/objstore (buckets) of this repository.
//
// In the data flow it comes after ingest and before analyze: package ingest
// hands it rows, and what it publishes is what analyze and the notebooks
// read. At publication it also has package ingest/hosts compute the
// hosts table (each host's deciding and effective captures) from the
// captures, and stages its rows in parts.
//
// To add a table: its row type in package schema, a field of [Rows] (which
// ingest fills), and its writer in [PartWriter] and writeEmpty (parts.go:
// every table of a published crawl has a file, with rows or without);
// merging and publishing take every table of schema.Tables. The tests
// write partitions to temporary folders and read them back.
package dataset
