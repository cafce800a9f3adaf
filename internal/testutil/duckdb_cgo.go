//go:build cgo

package testutil

import _ "github.com/duckdb/duckdb-go/v2" // the real DuckDB, for tests only

// duckDBBuilt says that this build has the DuckDB driver, which needs cgo.
const duckDBBuilt = true
