package ingest

import (
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
)

// The agents table says through which group each verdict came, and a
// crawler with fallback tokens (Googlebot-Image, Applebot: Googlebot)
// takes the fallback's group when no group names it, not the '*' group.
func TestRunAgentsVia(t *testing.T) {
	records := []string{
		// Googlebot named: Googlebot-Image and Applebot fall back on it;
		// Googlebot-News has a group of its own; the rest take '*'.
		robots200("fallback.example", "User-agent: Googlebot\nDisallow: /\n\n"+
			"User-agent: Googlebot-News\nDisallow: /private/\n\n"+
			"User-agent: *\nAllow: /\n"),
		// Nobody named, a '*' group.
		robots200("star.example", "User-agent: *\nDisallow: /\n"),
		// No '*' group and no tracked crawler named: no group applies.
		robots200("none.example", "User-agent: SomeOtherBot\nDisallow: /\n"),
		// A 503: the status decides, whatever the body names.
		testutil.Response("https://down.example/robots.txt", "HTTP/1.1 503 Service Unavailable",
			"Content-Type: text/plain\r\n", "User-agent: Googlebot\nDisallow: /\n"),
	}
	f := ingestRecords(t, "via", records...)
	row := `SELECT string_agg(agent || ' ' || named || ' ' || verdict || ' ' || via, '; ' ORDER BY agent) FROM agents WHERE url_host_name = `
	f(row+`'fallback.example' AND agent IN ('Googlebot', 'Googlebot-Image', 'Googlebot-News', 'Applebot', 'Bingbot', 'GPTBot')`,
		"Applebot false disallowed fallback; "+
			"Bingbot false allowed star; "+
			"GPTBot false allowed star; "+
			"Googlebot true disallowed named; "+
			"Googlebot-Image false disallowed fallback; "+
			"Googlebot-News true partially-disallowed named")
	// Every tracked crawler without a fallback named: '*'.
	f(`SELECT count(*) FROM agents WHERE url_host_name = 'fallback.example' AND via = 'fallback'`, "2")
	f(`SELECT string_agg(DISTINCT via || ' ' || verdict, ', ') FROM agents WHERE url_host_name = 'star.example'`, "star disallowed")
	f(`SELECT string_agg(DISTINCT via || ' ' || verdict || ' ' || named, ', ') FROM agents WHERE url_host_name = 'none.example'`, "none allowed false")
	f(`SELECT string_agg(DISTINCT via || ' ' || verdict || ' ' || named, ', ') FROM agents WHERE url_host_name = 'down.example'`, "none disallowed false")
	// named keeps its meaning: a group names the crawler's own token.
	f(`SELECT count(*) FROM agents WHERE named <> (via = 'named')`, "0")
}
