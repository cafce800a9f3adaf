package notebooks_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

var update = flag.Bool("update", false, "rewrite vocabulary.sql and every notebook's vocabulary block from package schema")

// The vocabulary block: the macros of vocabularyMacros between these two
// lines, in vocabulary.sql and at the top of every notebook (after the
// views), so that each notebook runs alone in the DuckDB CLI and through
// database/sql alike.
const (
	vocabularyBegin = "-- Vocabulary: generated from package schema by `go test ./notebooks -update`; edit schema/vocabulary.go, not this block."
	vocabularyEnd   = "-- End of the vocabulary."
)

// vocabularyMacros returns the vocabularies of package schema as DuckDB
// macros, each with a comment that says what it gives.
func vocabularyMacros() string {
	var b strings.Builder
	fmt.Fprintf(&b, `-- deciding_captures(t): the rows of the captures table or view t that decide for their host in
-- their crawl: not a redirect if it has one, then the latest fetched, then the smallest capture_id.
CREATE OR REPLACE MACRO deciding_captures(t) AS TABLE
SELECT * EXCLUDE (rn) FROM (
    SELECT c.*, row_number() OVER (PARTITION BY crawl, url_host_name ORDER BY %s) AS rn
    FROM query_table(t) c)
WHERE rn = 1;
`, schema.DecidingOrderSQL)
	fmt.Fprintf(&b, `-- not_robots_codes(): the whole-file findings that make a body with no rule not a robots.txt,
-- and a file unreadable by any crawler (robots.NotRobotsCodes).
CREATE OR REPLACE MACRO not_robots_codes() AS %s;
`, schema.NotRobotsCodesSQL())
	fmt.Fprintf(&b, `-- stored_truncation_reasons(): the content_truncated values robocensus's reader gives for a body
-- it stored only part of; any other value is the crawler's WARC-Truncated (robots.StoredTruncationReasons).
CREATE OR REPLACE MACRO stored_truncation_reasons() AS %s;
`, schema.SQLStrings(robots.StoredTruncationReasons()))
	fmt.Fprintf(&b, `-- fetch_classes(): the hosts table's fetch classes in the order of Common Crawl's table's columns
-- (schema.FetchClassColumns); fetch_classes_best_first(): best first, the order that picks a host's
-- class (schema.FetchClassesBestFirst); usable_fetch_classes(): those of a usable robots.txt.
CREATE OR REPLACE MACRO fetch_classes() AS %s;
CREATE OR REPLACE MACRO fetch_classes_best_first() AS %s;
CREATE OR REPLACE MACRO usable_fetch_classes() AS %s;
`, schema.SQLStrings(schema.FetchClassColumns()), schema.SQLStrings(schema.FetchClassesBestFirst()),
		schema.SQLStrings(schema.UsableFetchClasses()))
	fmt.Fprintf(&b, `-- followed_ai_crawlers(): the AI crawlers followed host by host, as in the report, a row
-- (ord, agent) each in the report's order (schema.FollowedAICrawlers).
CREATE OR REPLACE MACRO followed_ai_crawlers() AS TABLE
SELECT * FROM (VALUES %s) AS g(ord, agent);
`, schema.FollowedAICrawlersSQL())
	fmt.Fprintf(&b, `-- difference_classes(): why two parsers give a crawler different verdicts, the readings table's
-- class column, a row (ord, class, doc) each in the order the census tests them (schema.DifferenceClasses).
CREATE OR REPLACE MACRO difference_classes() AS TABLE
SELECT * FROM (VALUES %s) AS d(ord, class, doc);
`, schema.DifferenceClassesSQL())
	return b.String()
}

// vocabularyBlock is the block every notebook holds.
func vocabularyBlock() string {
	return vocabularyBegin + "\n" + vocabularyMacros() + vocabularyEnd + "\n"
}

// vocabularyFile is the text of vocabulary.sql.
func vocabularyFile() string {
	return `-- vocabulary.sql: the vocabularies of package schema (schema/vocabulary.go) as DuckDB macros.
--
-- Every notebook repeats this block after its views, so each runs alone; in an
-- interactive session, read it after 00_load.sql's views (00_load.sql holds it too):
--
--   duckdb -cmd "SET VARIABLE dataset = '/path/to/robocensus-data'" -cmd ".read notebooks/vocabulary.sql"
--
-- Shows: nothing; it defines the macros the notebooks use.

` + vocabularyBlock()
}

// TestVocabulary fails when vocabulary.sql or a notebook's vocabulary
// block is not what package schema gives today; go test ./notebooks
// -update rewrites them.
func TestVocabulary(t *testing.T) {
	checkGenerated(t, "vocabulary.sql", vocabularyFile())
	files, _ := filepath.Glob("[0-9][0-9]_*.sql")
	if len(files) < 8 {
		t.Fatalf("found %d notebooks, want 8", len(files))
	}
	for _, file := range files {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		want, err := withVocabulary(string(text))
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		checkGenerated(t, file, want)
	}
}

// withVocabulary returns a notebook's text with its vocabulary block
// replaced by today's.
func withVocabulary(text string) (string, error) {
	begin := strings.Index(text, vocabularyBegin+"\n")
	if begin < 0 {
		return "", fmt.Errorf("no vocabulary block: put the lines %q and %q after the views and run go test ./notebooks -update", vocabularyBegin, vocabularyEnd)
	}
	n := strings.Index(text[begin:], vocabularyEnd+"\n")
	if n < 0 {
		return "", fmt.Errorf("the vocabulary block has no end line %q", vocabularyEnd)
	}
	if strings.Count(text, vocabularyBegin) != 1 {
		return "", fmt.Errorf("more than one vocabulary block")
	}
	return text[:begin] + vocabularyBlock() + text[begin+n+len(vocabularyEnd)+1:], nil
}

// checkGenerated fails when file does not hold want, or writes it there
// with -update.
func checkGenerated(t *testing.T, file, want string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(file, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (go test ./notebooks -update writes it)", err)
	}
	if string(got) != want {
		t.Errorf("%s is stale: package schema's vocabulary changed; run go test ./notebooks -update", file)
	}
}
