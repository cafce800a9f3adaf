package ingest

import (
	"cmp"
	"slices"
	"strconv"
	"testing"

	"github.com/robocensus/robocensus/ingest/dataset"
	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// censusFiles are hand-written robots.txt files, each with the difference
// between parsers its host name says, and one with none.
var censusFiles = []struct{ host, body string }{
	{"allow-order.example", "User-agent: *\nDisallow: /\nAllow: /public/\n"},
	{"empty-agent.example", "User-agent:\nDisallow: /\n\nUser-agent: *\nAllow: /\n"},
	{"empty-query.example", "User-agent: *\nDisallow: /?\n"},
	{"blank-line.example", "User-agent: GPTBot\n\nDisallow: /\n"},
	{"wildcard.example", "User-agent: *\nDisallow: /*\n"},
	{"version.example", "User-agent: GPTBot/1.0\nDisallow: /\n"},
	{"plain.example", "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n"},
}

func ingestCensus(t *testing.T) func(query, want string) {
	records := []string{ccFile()[0]}
	for _, f := range censusFiles {
		records = append(records, robots200(f.host, f.body))
	}
	records = append(records, response("https://busy.example/robots.txt", "HTTP/1.1 429 Too Many Requests", "Content-Type: text/plain\r\n", "User-agent: *\nAllow: /\n"))
	return ingestRecords(t, "census", records...)
}

// The readings table holds a row per tracked crawler whose root verdict or
// full block another parser's reading changes, with the class the
// deciding lines explain, and nothing for a file all parsers read alike.
func TestRunReadingsCensus(t *testing.T) {
	f := ingestCensus(t)
	all := strconv.Itoa(len(robots.TrackedCrawlers()))
	f(`SELECT string_agg(url_host_name || ' ' || semantics || ' ' || class || ' ' || n, '; ' ORDER BY url_host_name, semantics) FROM (
		SELECT url_host_name, semantics, class, count(DISTINCT agent) n FROM readings GROUP BY ALL)`,
		"allow-order.example python-legacy allow-order "+all+"; "+
			"blank-line.example python-legacy blank-line-ends-group 1; "+
			"busy.example crawler-commons status "+all+"; busy.example python status "+all+"; "+
			"busy.example python-legacy status "+all+"; busy.example rfc9309 status "+all+"; "+
			"empty-agent.example python empty-user-agent "+all+"; empty-agent.example python-legacy empty-user-agent "+all+"; "+
			"empty-query.example python-legacy url-normalisation "+all+"; "+
			"version.example python agent-matching 1; version.example python-legacy agent-matching 1; version.example rfc9309 agent-matching 1; "+
			"wildcard.example python-legacy wildcards "+all)
	// GPTBot's rows: the reading's root verdict, full block and deciding
	// line, then Google's, then the path where they differ.
	f(`SELECT string_agg(url_host_name || ' ' || semantics || ' ' || root_allowed || ' ' || blocked || ' ' || coalesce(line::VARCHAR, '-') || ' ' ||
		google_root_allowed || ' ' || google_blocked || ' ' || coalesce(google_line::VARCHAR, '-') || ' ' || path, '; ' ORDER BY url_host_name, semantics) FROM readings WHERE agent = 'GPTBot'`,
		"allow-order.example python-legacy false true 2 false false 3 /public/; "+
			"blank-line.example python-legacy true false - false true 3 /; "+
			"busy.example crawler-commons true false - false true - /; busy.example python true false - false true - /; "+
			"busy.example python-legacy true false - false true - /; busy.example rfc9309 true false - false true - /; "+
			"empty-agent.example python false true 2 true false 5 /; empty-agent.example python-legacy false true 2 true false 5 /; "+
			"empty-query.example python-legacy false true 2 true false - /; "+
			"version.example python true false - false true 2 /; version.example python-legacy true false - false true 2 /; version.example rfc9309 true false - false true 2 /; "+
			"wildcard.example python-legacy true false - false true 2 /")
	f(`SELECT count(*) FROM readings WHERE url_host_name = 'plain.example'`, "0")
}

// Each reading is given what a crawler using that parser passes it:
// Python's robotparser the crawler's name ("AI2Bot", which "User-agent:
// AI2Bot" names for Python as for Google, who cuts both to "AI"), RFC 9309
// the product token, which "AI2Bot" is not (a digit), so that RFC 9309
// alone differs.
func TestRunReadingsAgentNames(t *testing.T) {
	f := ingestRecords(t, "names", robots200("ai2.example", "User-agent: AI2Bot\nDisallow: /\n"))
	f(`SELECT string_agg(semantics || ' ' || root_allowed || ' ' || google_root_allowed || ' ' || class, '; ' ORDER BY semantics) FROM readings WHERE agent = 'AI2Bot'`,
		"rfc9309 true false agent-matching")
}

// The census judges once for all the crawlers no user-agent value of a
// file relates to; on real files that gives the rows judging each crawler
// alone gives. The egonkm corpus's first 3,000 bodies, with the 429 and
// 503 statuses too.
func TestCensusSharedVerdictsOnCorpus(t *testing.T) {
	path := testutil.Corpus(t, "robots", "egonkm-robots-txt", "robots.tar.gz")
	bodies := testutil.TarBodies(t, path)
	bodies = bodies[:min(len(bodies), 3000)]
	m := newRowMaker(robots.TrackedCrawlers())
	each := newCensus()
	each.judgeEach = true
	var shared, alone dataset.Rows
	rows := 0
	for i, b := range bodies {
		status := [...]int{200, 200, 200, 200, 200, 200, 200, 200, 429, 503}[i%10]
		f := robots.ParseResponse(robots.Response{Status: status}, b.Data)
		shared.Reset()
		alone.Reset()
		m.addAgents(&shared, b.Name, "h", f)
		m.census.add(m, &shared, b.Name, "h", f, shared.Agents.Via)
		each.add(m, &alone, b.Name, "h", f, shared.Agents.Via)
		if !slices.Equal(sortedReadings(shared.Readings), sortedReadings(alone.Readings)) {
			t.Fatalf("%s: shared verdicts give %d rows, judging each crawler %d:\n%v\n%v", b.Name, len(shared.Readings), len(alone.Readings), shared.Readings, alone.Readings)
		}
		rows += len(shared.Readings)
	}
	if rows == 0 {
		t.Fatal("no differences at all: the comparison proves nothing")
	}
	t.Logf("%d bodies, %d readings rows alike", len(bodies), rows)
}

// The census gives the same rows whether it skips the readings that read
// as Google or asks Google's reading in their place
// (robots.File.ReadsAsGoogle and AgentsReadAsGoogle, PythonReadsAsGoogle
// and PythonTokenAsGoogle) or builds and asks every reading for every
// crawler: the whole egonkm corpus, with the 429 and 503 statuses too.
func TestCensusSkipsOnlyAlikeReadingsOnCorpus(t *testing.T) {
	path := testutil.Corpus(t, "robots", "egonkm-robots-txt", "robots.tar.gz")
	bodies := testutil.TarBodies(t, path)
	m := newRowMaker(robots.TrackedCrawlers())
	every := newCensus()
	every.askEvery = true
	rows := 0
	for i, b := range bodies {
		f := robots.ParseResponse(robots.Response{Status: [...]int{200, 200, 200, 200, 200, 200, 200, 200, 429, 503}[i%10]}, b.Data)
		skipping, asking := censusRows(m, m.census, b.Name, f), censusRows(m, every, b.Name, f)
		if !slices.Equal(skipping, asking) {
			t.Fatalf("%s: skipping the readings alike gives %d rows, asking every reading %d:\n%v\n%v", b.Name, len(skipping), len(asking), skipping, asking)
		}
		rows += len(skipping)
	}
	if rows == 0 {
		t.Fatal("no differences at all: the comparison proves nothing")
	}
	t.Logf("%d bodies, %d readings rows alike", len(bodies), rows)
}

// censusRows returns the readings rows census c gives capture name of f.
func censusRows(m *rowMaker, c *census, name string, f *robots.File) []schema.Reading {
	var rs dataset.Rows
	m.addAgents(&rs, name, "h", f)
	c.add(m, &rs, name, "h", f, rs.Agents.Via)
	return rs.Readings
}

func sortedReadings(rs []schema.Reading) []schema.Reading {
	out := slices.Clone(rs)
	slices.SortFunc(out, func(a, b schema.Reading) int {
		return cmp.Or(cmp.Compare(a.Semantics, b.Semantics), cmp.Compare(a.Agent, b.Agent))
	})
	return out
}

// A crawl delay over 300 seconds, with which crawler-commons disallows
// everything, is its own class; a misspelled user-agent line, which Google
// reads and the other parsers do not, is key-spelling, though the rule
// that decides is spelt right (issue 31).
func TestRunReadingsCrawlDelayAndMisspelledAgent(t *testing.T) {
	f := ingestRecords(t, "delay",
		robots200("slow.example", "User-agent: *\nCrawl-delay: 3600\nDisallow: /private/\n"),
		robots200("typo.example", "Useragent: GPTBot\nDisallow: /\n"))
	all := strconv.Itoa(len(robots.TrackedCrawlers()))
	f(`SELECT string_agg(url_host_name || ' ' || semantics || ' ' || class || ' ' || n, '; ' ORDER BY url_host_name, semantics) FROM (
		SELECT url_host_name, semantics, class, count(DISTINCT agent) n FROM readings GROUP BY ALL)`,
		"slow.example crawler-commons crawl-delay "+all+"; "+
			"typo.example python key-spelling 1; typo.example python-legacy key-spelling 1; typo.example rfc9309 key-spelling 1")
}
