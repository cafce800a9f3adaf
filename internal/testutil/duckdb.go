package testutil

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// DuckDBSkipPrefix starts the message of every test skipped for want of
// DuckDB, so that scripts/test.sh can count them at the end of a run.
const DuckDBSkipPrefix = "DuckDB test skipped: "

// DuckDBSkipMessage is why a DuckDB test skips in a build without cgo: the
// DuckDB driver is C++ behind cgo, which needs a C compiler (gcc). With cgo
// (the default wherever a C compiler is found) DuckDB tests never skip.
const DuckDBSkipMessage = DuckDBSkipPrefix + "DuckDB needs cgo and a C compiler (gcc), and this test binary was built without cgo (CGO_ENABLED=0, or no C compiler found); see README, Set up"

// OpenDuckDB opens an in-memory DuckDB, closed when the test ends. In a
// build without cgo, which has no DuckDB, it skips the test with
// DuckDBSkipMessage.
func OpenDuckDB(tb testing.TB) *sql.DB {
	tb.Helper()
	if !duckDBBuilt {
		tb.Skip(DuckDBSkipMessage)
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// DuckDB opens an in-memory DuckDB with one view per table folder of the
// dataset at dir, over read_parquet(DIR/<table>/**/*.parquet,
// hive_partitioning = true) as a researcher would read it; the crawl
// column is kept a VARCHAR even when labels look like dates. Without cgo
// it skips the test (see OpenDuckDB).
func DuckDB(tb testing.TB, dir string) *sql.DB {
	tb.Helper()
	db := OpenDuckDB(tb)
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		glob := filepath.Join(dir, e.Name(), "**", "*.parquet")
		q := fmt.Sprintf("CREATE VIEW %s AS SELECT * FROM read_parquet('%s', hive_partitioning = true, hive_types = {'crawl': VARCHAR})",
			e.Name(), strings.ReplaceAll(glob, "'", "''"))
		if _, err := db.Exec(q); err != nil {
			tb.Fatalf("%s: %v", q, err)
		}
	}
	return db
}

// Query runs a query that returns one value and returns it as a string
// (NULL as "NULL").
func Query(tb testing.TB, db *sql.DB, query string, args ...any) string {
	tb.Helper()
	var v any
	if err := db.QueryRow(query, args...).Scan(&v); err != nil {
		tb.Fatalf("%s: %v", query, err)
	}
	switch x := v.(type) {
	case nil:
		return "NULL"
	case []byte:
		return string(x)
	}
	return fmt.Sprint(v)
}
