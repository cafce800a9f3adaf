//go:build !cgo

package testutil

// duckDBBuilt says that this build, without cgo, has no DuckDB driver: the
// DuckDB tests skip (see OpenDuckDB), and the packages that import testutil
// still build and run their other tests.
const duckDBBuilt = false
