package site

import (
	"strings"
	"testing"

	"github.com/robocensus/robocensus/robots"
)

// The fetch check says who cut a file: the crawler (WARC-Truncated) or
// robocensus's own caps, which the crawler had nothing to do with.
func TestFetchTruncationCause(t *testing.T) {
	f := func(reason, want string) {
		t.Helper()
		var got []string
		p := &Pass{Latest: &SiteCrawl{Crawl: "c", Capture: SiteCapture{Outcome: "rules", Truncated: reason}},
			Report: func(f Finding) { got = append(got, f.Message) }}
		if err := runFetch(p); err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || !strings.Contains(got[0], want) {
			t.Errorf("%s: %q, want it to contain %q", reason, got, want)
		}
	}
	f("length", "the crawler cut the file at its size limit (WARC-Truncated: length)")
	f("disconnect", "the connection broke before the end of the file (WARC-Truncated: disconnect)")
	f("body-cap", "robocensus stored only the first part of the file (its own cap on stored bytes, body-cap)")
	f("record-cap", "robocensus stopped reading the record at its own record-size cap (record-cap)")
	f("input-end", "the input ended inside this record (input-end)")
	f("odd", "the crawler cut the file (WARC-Truncated: odd)")
	for _, r := range robots.StoredTruncationReasons() {
		var msg string
		p := &Pass{Latest: &SiteCrawl{Capture: SiteCapture{Truncated: r}}, Report: func(f Finding) { msg = f.Message }}
		runFetch(p)
		if strings.Contains(msg, "crawler cut") {
			t.Errorf("%s blamed on the crawler: %q", r, msg)
		}
	}
}

// The Markdown crawl report lists the crawlers the HTML shows by default,
// in its order (the top AI crawlers, then the search crawlers), not every
// tracked crawler, and points to the JSON for the rest.
