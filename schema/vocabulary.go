package schema

// The vocabularies of the dataset that ingest, analyze and the notebooks
// share, each defined here once: Go code imports these, and the notebooks
// get them as SQL macros from notebooks/vocabulary.sql, which the notebooks
// test generates from these definitions (go test ./notebooks -update) and
// fails on when stale. internal/archtest fails on a second spelling of one
// of them in the repository's Go or SQL.

// DecidingKey is what the deciding-capture order reads of a capture.
type DecidingKey struct {
	Redirect bool   // its outcome is redirect
	Fetched  int64  // fetch_time in Unix microseconds; a NULL time must be below every real one (math.MinInt64)
	ID       string // capture_id
}

// DecidesBefore reports whether the capture a decides for its host (in one
// crawl) before the capture b: a capture that is not a redirect before a
// redirect, then the latest fetched (a NULL fetch_time last), then the
// smallest capture_id. A host's deciding capture is the first of its
// captures in this order; [DecidingOrderSQL] is the same order in SQL.
func DecidesBefore(a, b DecidingKey) bool {
	if a.Redirect != b.Redirect {
		return !a.Redirect
	}
	if a.Fetched != b.Fetched {
		return a.Fetched > b.Fetched
	}
	return a.ID < b.ID
}

// DecidingOrderSQL is the order of [DecidesBefore] as an SQL ORDER BY list
// over the captures table's columns: a host's deciding capture in a crawl
// is the first row of
//
//	row_number() OVER (PARTITION BY crawl, url_host_name ORDER BY ...)
//
// The notebooks use it through the macro deciding_captures(t).
const DecidingOrderSQL = "(outcome = 'redirect'), fetch_time DESC NULLS LAST, capture_id"
