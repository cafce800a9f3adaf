package schema_test

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// TestDecidingOrderSQL sorts the same captures of one host with
// DecidesBefore and with DecidingOrderSQL in DuckDB: redirects and not,
// equal and NULL fetch times, capture_ids that only tie-break.
func TestDecidingOrderSQL(t *testing.T) {
	if !strings.Contains(schema.DecidingOrderSQL, "'"+robots.OutcomeRedirect.String()+"'") {
		t.Fatalf("DecidingOrderSQL %q does not name the outcome %q", schema.DecidingOrderSQL, robots.OutcomeRedirect)
	}
	t1, t2 := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC).UnixMicro(), time.Date(2025, 1, 3, 0, 0, 0, 0, time.UTC).UnixMicro()
	keys := []schema.DecidingKey{
		{Redirect: true, Fetched: t2, ID: "a"},
		{Redirect: false, Fetched: t1, ID: "c"},
		{Redirect: false, Fetched: t1, ID: "b"},
		{Redirect: false, Fetched: math.MinInt64, ID: "a"},
		{Redirect: true, Fetched: math.MinInt64, ID: "0"},
		{Redirect: false, Fetched: t2, ID: "z"},
		{Redirect: true, Fetched: t2, ID: "0"},
	}
	want := slices.Clone(keys)
	slices.SortFunc(want, func(a, b schema.DecidingKey) int {
		if schema.DecidesBefore(a, b) {
			return -1
		}
		return 1
	})
	var wantIDs []string
	for _, k := range want {
		wantIDs = append(wantIDs, label(k))
	}

	db := testutil.OpenDuckDB(t)
	if _, err := db.Exec(`CREATE TABLE captures (capture_id VARCHAR, outcome VARCHAR, fetch_time TIMESTAMP)`); err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		outcome, fetch := robots.OutcomeRules.String(), any(nil)
		if k.Redirect {
			outcome = robots.OutcomeRedirect.String()
		}
		if k.Fetched != math.MinInt64 {
			fetch = time.UnixMicro(k.Fetched).UTC()
		}
		if _, err := db.Exec(`INSERT INTO captures VALUES (?, ?, ?)`, k.ID, outcome, fetch); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := db.Query(`SELECT capture_id || '/' || CASE WHEN outcome = 'redirect' THEN 'r' ELSE '' END FROM captures ORDER BY ` + schema.DecidingOrderSQL)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		got = append(got, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, wantIDs) {
		t.Errorf("SQL order %q, Go order %q", got, wantIDs)
	}
	if wantIDs[0] != "z/" || wantIDs[len(wantIDs)-1] != "0/r" {
		t.Errorf("Go order %q: want z/ first (latest, not a redirect) and 0/r last (a redirect without a time)", wantIDs)
	}
}

// label names a key as the SQL query does: its ID, "/", and "r" for a
// redirect.
func label(k schema.DecidingKey) string {
	if k.Redirect {
		return k.ID + "/r"
	}
	return k.ID + "/"
}

// TestFetchClassOrders checks that the two orders of the fetch classes
// hold the same seven classes, each once, and that the usable ones are
// the best two.
func TestFetchClassOrders(t *testing.T) {
	best, columns := schema.FetchClassesBestFirst(), schema.FetchClassColumns()
	if len(best) != 7 || len(columns) != len(best) {
		t.Fatalf("%d classes best first and %d columns, want 7 each", len(best), len(columns))
	}
	for _, c := range best {
		if n := strings.Count(" "+strings.Join(columns, " ")+" ", " "+c+" "); n != 1 {
			t.Errorf("class %q is %d times in FetchClassColumns %q, want once", c, n, columns)
		}
	}
	if usable := schema.UsableFetchClasses(); !slices.Equal(usable, best[:2]) {
		t.Errorf("UsableFetchClasses %q, want the best two %q", usable, best[:2])
	}
	for _, c := range best {
		if schema.IsUsableFetchClass(c) != slices.Contains(schema.UsableFetchClasses(), c) {
			t.Errorf("IsUsableFetchClass(%q) disagrees with UsableFetchClasses", c)
		}
	}
}

// TestSQLStrings quotes each value and doubles a single quote inside one;
// NotRobotsCodesSQL lists the codes of robots.NotRobotsCodes.
func TestSQLStrings(t *testing.T) {
	if got, want := schema.SQLStrings([]string{"a-b", "it's"}), `['a-b', 'it''s']`; got != want {
		t.Errorf("SQLStrings = %s, want %s", got, want)
	}
	var quoted []string
	for _, c := range robots.NotRobotsCodes() {
		quoted = append(quoted, "'"+c.String()+"'")
	}
	if got, want := schema.NotRobotsCodesSQL(), "["+strings.Join(quoted, ", ")+"]"; len(quoted) != 3 || got != want {
		t.Errorf("NotRobotsCodesSQL = %s, want %s (3 codes)", got, want)
	}
}

// TestFollowedAICrawlers checks that robots' list tracks each followed
// crawler as an AI crawler, each once, and that the SQL rows number them
// from 1 in order.
func TestFollowedAICrawlers(t *testing.T) {
	followed := schema.FollowedAICrawlers()
	for i, name := range followed {
		if slices.Index(followed, name) != i {
			t.Errorf("%s is followed twice", name)
		}
		k := slices.IndexFunc(robots.TrackedCrawlers(), func(c robots.Crawler) bool { return c.Token == name })
		if k < 0 || robots.TrackedCrawlers()[k].Kind != robots.CrawlerAI {
			t.Errorf("%s is not an AI crawler of robots.TrackedCrawlers", name)
		}
	}
	got := schema.FollowedAICrawlersSQL()
	if len(followed) != 7 || !strings.HasPrefix(got, "(1, 'GPTBot'), (2, ") ||
		!strings.HasSuffix(got, ", (7, 'Applebot-Extended')") || strings.Count(got, "), (") != 6 {
		t.Errorf("FollowedAICrawlersSQL = %s, want the rows (1, 'GPTBot') to (7, 'Applebot-Extended')", got)
	}
}

// The difference classes are robots.Explainer's, the same names in the
// same order: the census stores the names robots gives its classes.
func TestDifferenceClassesAreTheEngines(t *testing.T) {
	var want, got []string
	for _, c := range robots.DifferenceClasses() {
		want = append(want, c.String())
	}
	for _, c := range schema.DifferenceClasses() {
		got = append(got, c.Name)
	}
	if !slices.Equal(got, want) {
		t.Errorf("schema.DifferenceClasses names\n %q\nrobots.DifferenceClasses names\n %q", got, want)
	}
}
