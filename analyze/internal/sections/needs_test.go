package sections

import (
	"fmt"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/analyze/internal/engine"
	"github.com/robocensus/robocensus/schema"
)

// TestSectionNeeds walks every section of the crawl report and checks
// that each table it needs is a table of the dataset or a pseudo-table
// the driver feeds, and each column one of that table's: a misspelled
// table would be fed nothing, and the section would count zero.
func TestSectionNeeds(t *testing.T) {
	for _, s := range CrawlSections {
		for _, n := range s.Needs {
			if err := needProblem(fmt.Sprint(n.Table), n.Columns); err != nil {
				t.Errorf("section %s: %v", s.Name, err)
			}
		}
	}
	for _, table := range append(engine.PseudoTables, engine.HostAgentsTable) {
		if err := needProblem(fmt.Sprint(table), nil); err != nil {
			t.Errorf("pseudo-table: %v", err)
		}
	}
}

// TestNeedProblem checks that needProblem rejects the misspellings of
// issue 29 and accepts the tables as they are spelled.
func TestNeedProblem(t *testing.T) {
	for _, bad := range []struct {
		table   string
		columns []string
	}{
		{"efective captures", nil},
		{"captures ", []string{"fetch_status"}},
		{"host agnts", []string{"agent"}},
		{"host ", nil},
		{"hosts agents", []string{"agent"}},
		{"host hosts", []string{"fetch_class"}}, // hosts is not keyed by capture_id
		{"captures", []string{"fetch_staus"}},
		{"deciding captures", []string{"eror_count"}},
		{"marks", []string{"fetch_status"}}, // marks have no columns
	} {
		if needProblem(bad.table, bad.columns) == nil {
			t.Errorf("needProblem(%q, %q) = nil, want an error", bad.table, bad.columns)
		}
	}
	for _, good := range []struct {
		table   string
		columns []string
	}{
		{"effective captures", nil},
		{"effective hosts", []string{"fetch_time"}},
		{"captures", []string{"fetch_status"}},
		{"host agents", []string{"agent", "verdict"}},
		{"host preferences", []string{"source"}},
		{"deciding captures", []string{"error_count"}},
		{"hosts", []string{"fetch_class"}},
	} {
		if err := needProblem(good.table, good.columns); err != nil {
			t.Errorf("needProblem(%q, %q) = %v, want nil", good.table, good.columns, err)
		}
	}
}

// needProblem returns what is wrong with a need of a table and columns
// (nil: nothing). The pseudo-tables are spelled out here, apart from the
// package's values, so that a misspelling of either is caught.
func needProblem(table string, columns []string) error {
	rowsOf := table // the dataset table whose columns are read
	switch table {
	case "marks":
		if len(columns) > 0 {
			return fmt.Errorf("table %q has no columns, got %q", table, columns)
		}
		return nil
	case "marked captures", "deciding captures", "effective captures", "effective hosts", "chosen hosts":
		rowsOf = "captures"
	default:
		if t, ok := strings.CutPrefix(table, "host "); ok {
			rowsOf = t
			if err := keyedByCapture(t); err != nil {
				return fmt.Errorf("table %q: %w", table, err)
			}
		}
	}
	st, err := schema.LookupTable(rowsOf)
	if err != nil {
		return fmt.Errorf("table %q is neither a pseudo-table nor a table of the dataset: %w", table, err)
	}
	for _, c := range columns {
		if len(st.Arrow.FieldIndices(c)) == 0 {
			return fmt.Errorf("table %q: %s has no column %q", table, rowsOf, c)
		}
	}
	return nil
}

// keyedByCapture returns an error unless the dataset's table has rows of
// a capture, in runs by capture_id (not captures itself, nor hosts).
func keyedByCapture(table string) error {
	st, err := schema.LookupTable(table)
	if err != nil {
		return err
	}
	if table == "captures" || table == "hosts" || len(st.Arrow.FieldIndices("capture_id")) == 0 {
		return fmt.Errorf("%s is not a table of rows of a capture", table)
	}
	return nil
}
