// Package hosts computes the hosts table of a crawl's partition from its
// captures files: one row per host, with its deciding capture, the
// redirect chain followed from it across the partition, the effective
// capture and outcome at the chain's end, its registered domain and
// Common Crawl's fetch class (DESIGN.md, "Sites: the hosts table";
// hosts.go says how each is decided).
//
// [Build] reads eight columns of the captures files (schema.ReadColumns)
// and works in bounded memory and linear time, spilling buckets of
// captures to a folder it is given (build.go says how); it hands the rows
// on, and the caller writes them: package dataset stages them as the
// partition's hosts parts when it publishes the crawl.
//
//	err := hosts.Build(spillDir, capturesFiles, func(rows []schema.Host) error {
//		return write(rows) // rows are not reused once write returns
//	})
//
// [RegisteredDomain] and [IsIPAddress] are the host-name functions the
// table uses, which the pipeline uses for the captures' columns too.
//
// It imports schema (the tables, the column reader) and robots (the
// outcomes) of this repository, and reads no inputs.
package hosts
