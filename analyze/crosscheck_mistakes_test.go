package analyze_test

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/robocensus/robocensus/analyze"
	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/robots"
)

// mistakesNotebook is the notebook that computes the survey's figures in
// SQL; the check runs its own queries.
const mistakesNotebook = "09_classic_mistakes.sql"

var _ = sectionCheck("mistakes", checkMistakes)

// checkMistakes checks the classic mistakes section
// (analyze/section_mistakes.go) with the queries of
// notebooks/09_classic_mistakes.sql: its read_files view, the survey's two
// shares (whose comparison columns must be robots.Survey's) and each
// mistake's read captures.
func checkMistakes(q *querier, c *analyze.Crawl, _ int) {
	const viewSQL, sharesSQL, mistakesSQL = "CREATE OR REPLACE VIEW read_files", "SELECT crawl, count(*) AS files", "WITH mistakes("
	stmts := notebookQueries(q, mistakesNotebook, viewSQL, sharesSQL, mistakesSQL)
	view, shares, mistakes := stmts[viewSQL], stmts[sharesSQL], stmts[mistakesSQL]
	if _, err := q.db.Exec(view); err != nil {
		q.t.Fatalf("%s: %v", view, err)
	}
	f, s := c.Mistakes, robots.Survey
	q.same("classic mistakes: malformed and unreadable, and the survey's figures",
		`SELECT files, malformed, unreadable, survey_pct_malformed_over, survey_pct_unreadable_over FROM (`+shares+`) WHERE crawl = ?`,
		[][]string{row(f.ReadCaptures, f.Malformed.N, f.Unreadable.N, 100*s.MalformedOver, 100*s.UnreadableOver)})
	var want [][]string
	for _, m := range f.Mistakes {
		if m.Measure != "" {
			want = append(want, row(m.Number, m.Captures.N))
		}
		if m.Captures.Of != f.ReadCaptures && m.Measure != "" {
			q.t.Errorf("mistake %d: denominator %d, not the read captures", m.Number, m.Captures.Of)
		}
	}
	q.same("classic mistakes: read captures showing each", `SELECT number, files FROM (`+mistakes+`) WHERE crawl = ? ORDER BY number`, want)
}

// notebookQueries returns the statements of a notebook that start with
// the prefixes given, keyed by prefix.
func notebookQueries(q *querier, name string, prefixes ...string) map[string]string {
	q.t.Helper()
	text, err := os.ReadFile(filepath.Join(testutil.RepoRoot(), "notebooks", name))
	if err != nil {
		q.t.Fatal(err)
	}
	out := map[string]string{}
	for _, stmt := range strings.Split(stripComments(string(text)), ";") {
		for _, prefix := range prefixes {
			if stmt = strings.TrimSpace(stmt); strings.HasPrefix(stmt, prefix) {
				out[prefix] = stmt
			}
		}
	}
	if len(out) != len(prefixes) {
		q.t.Fatalf("%s: found %d of the %d statements the check runs", name, len(out), len(prefixes))
	}
	return out
}

// stripComments drops the "--" comments of SQL text (the notebooks have
// none inside string literals).
func stripComments(text string) string {
	var b strings.Builder
	for line := range strings.Lines(text) {
		if i := strings.Index(line, "--"); i >= 0 {
			line = line[:i] + "\n"
		}
		b.WriteString(line)
	}
	return b.String()
}
