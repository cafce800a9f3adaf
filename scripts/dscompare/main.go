// Command dscompare tells whether two robocensus datasets hold the same
// data, table by table, as DuckDB reads them: the same columns with the
// same types, and the same rows, compared as multisets (EXCEPT ALL both
// ways), so the order of rows and the way they are split into files, row
// groups and pages do not count. The inputs table's started and finished
// columns, the clock of the run, are left out.
//
//	go run ./scripts/dscompare DATASET_A DATASET_B
//
// It prints one line a table and exits 1 when a table differs or exists
// in one dataset only, 2 on a usage error. A change meant to leave ingest's
// output alone (a faster writer, another page layout) is checked by
// ingesting the same inputs with the binaries before and after, then
// comparing the two datasets (scripts/bench-ingest.sh does it with
// COMPARE=REV). It needs cgo and gcc, as DuckDB does.
package main

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// clockColumns are columns that differ between two runs over the same
// inputs by design.
var clockColumns = map[string][]string{"inputs": {"started", "finished"}}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: dscompare DATASET_A DATASET_B")
		os.Exit(2)
	}
	same, err := compare(os.Args[1], os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, "dscompare:", err)
		os.Exit(2)
	}
	if !same {
		os.Exit(1)
	}
}

// compare prints, for each table of either dataset, its row counts and
// the rows of each not in the other, and reports whether all are equal.
func compare(a, b string) (bool, error) {
	if !slices.Contains(sql.Drivers(), "duckdb") {
		return false, fmt.Errorf("built without cgo: DuckDB needs cgo and gcc")
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return false, err
	}
	defer db.Close()
	tables, err := tablesOf(a, b)
	if err != nil {
		return false, err
	}
	same := true
	for _, table := range tables {
		ra, rb := scan(a, table), scan(b, table)
		if ra == "" || rb == "" {
			fmt.Printf("%-12s only in %s\n", table, map[bool]string{true: b, false: a}[ra == ""])
			same = false
			continue
		}
		sel := "SELECT *"
		if cols := clockColumns[table]; len(cols) > 0 {
			sel += " EXCLUDE (" + strings.Join(cols, ", ") + ")"
		}
		var na, nb, aNotB, bNotA int64
		var typesA, typesB string
		for _, q := range []struct {
			query string
			into  any
		}{
			{"SELECT count(*) FROM " + ra, &na},
			{"SELECT count(*) FROM " + rb, &nb},
			{"SELECT count(*) FROM (" + sel + " FROM " + ra + " EXCEPT ALL " + sel + " FROM " + rb + ")", &aNotB},
			{"SELECT count(*) FROM (" + sel + " FROM " + rb + " EXCEPT ALL " + sel + " FROM " + ra + ")", &bNotA},
			{"SELECT string_agg(column_name || ' ' || column_type, ', ') FROM (DESCRIBE SELECT * FROM " + ra + ")", &typesA},
			{"SELECT string_agg(column_name || ' ' || column_type, ', ') FROM (DESCRIBE SELECT * FROM " + rb + ")", &typesB},
		} {
			if err := db.QueryRow(q.query).Scan(q.into); err != nil {
				return false, fmt.Errorf("%s: %w", table, err)
			}
		}
		verdict := "same"
		if na != nb || aNotB != 0 || bNotA != 0 || typesA != typesB {
			verdict, same = "DIFFERENT", false
		}
		fmt.Printf("%-12s %-9s rows %d and %d, %d only in A, %d only in B, columns %s\n", table, verdict, na, nb, aNotB, bNotA,
			map[bool]string{true: "same", false: "DIFFERENT: " + typesA + " | " + typesB}[typesA == typesB])
	}
	return same, nil
}

// tablesOf returns the names of the tables of either dataset: its folders
// that hold Parquet files.
func tablesOf(dirs ...string) ([]string, error) {
	var tables []string
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && !slices.Contains(tables, e.Name()) {
				tables = append(tables, e.Name())
			}
		}
	}
	slices.Sort(tables)
	return tables, nil
}

// scan returns the DuckDB scan of a table's Parquet files in a dataset, or
// "" when it has none.
func scan(dataset, table string) string {
	glob := filepath.Join(dataset, table, "**", "*.parquet")
	if files, _ := filepath.Glob(filepath.Join(dataset, table, "*", "*.parquet")); len(files) == 0 {
		return ""
	}
	return "read_parquet('" + strings.ReplaceAll(glob, "'", "''") + "', hive_partitioning = true, union_by_name = true)"
}
