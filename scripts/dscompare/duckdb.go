//go:build cgo

package main

// DuckDB's driver needs cgo; without it dscompare builds (for the
// cross-builds of every package) but says it cannot run.
import _ "github.com/duckdb/duckdb-go/v2"
