package analyze_test

import (
	"testing"

	"github.com/robocensus/robocensus/analyze"
	"github.com/robocensus/robocensus/internal/testutil/datasets"
	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

var _ = sectionCheck("preferences", checkPreferences)

// checkPreferences checks the AI usage preferences section
// (analyze/section_preferences.go) over the usable hosts' effective
// captures (setupSQL's effective table: redirects followed), as
// notebooks/08_ai_preferences.sql counts them.
func checkPreferences(q *querier, c *analyze.Crawl, _ int) {
	p := c.Preferences
	if p.UsableHosts != c.UsableHosts {
		q.t.Errorf("preferences: %d usable hosts, the report %d", p.UsableHosts, c.UsableHosts)
	}
	var want [][]string
	for _, m := range p.Mechanisms {
		want = append(want, row(m.Mechanism, m.Hosts.N, m.Hosts.Of))
	}
	q.same("preferences: mechanisms", `WITH d AS (SELECT d.*, h.host FROM directives d JOIN effective h USING (crawl, capture_id) WHERE h.usable AND d.crawl = ?)
		SELECT m.mechanism, count(DISTINCT d.host), (SELECT count(*) FROM effective WHERE crawl = ? AND usable)
		FROM (VALUES (1, 'content-signal'), (2, 'content-usage'), (3, 'license')) m(o, mechanism)
		LEFT JOIN d ON d.key = m.mechanism GROUP BY m.o, m.mechanism ORDER BY m.o`, want)
	checkPreferenceValues(q, &p)
	checkStances(q, &p)
	checkExtensions(q, &p)
}

func checkPreferenceValues(q *querier, p *analyze.UsagePreferences) {
	signal, usage := schema.SQLStrings(robots.Categories(robots.ContentSignal)), schema.SQLStrings(robots.Categories(robots.ContentUsage))
	var want [][]string
	for _, v := range p.Values {
		want = append(want, row(v.Source, v.Category, v.Yes.N, v.No.N, v.Other.N))
	}
	q.same("preferences: values", `WITH p AS (
			SELECT p.*, h.host, CASE WHEN source = 'content-signal' AND list_contains(`+signal+`, lower(category)) THEN lower(category)
				WHEN source = 'content-usage' AND list_contains(`+usage+`, category) THEN category ELSE 'other' END AS cat
			FROM preferences p JOIN effective h USING (crawl, capture_id)
			WHERE h.usable AND p.crawl = ? AND source IN ('content-signal', 'content-usage'))
		SELECT source, cat, count(DISTINCT host) FILTER (allowed), count(DISTINCT host) FILTER (NOT allowed),
			count(DISTINCT host) FILTER (allowed IS NULL)
		FROM p GROUP BY source, cat
		ORDER BY source, list_position(CASE source WHEN 'content-signal' THEN list_append(`+signal+`, 'other') ELSE list_append(`+usage+`, 'other') END, cat)`, want)
}

func checkStances(q *querier, p *analyze.UsagePreferences) {
	var want [][]string
	for _, s := range p.Blocking {
		want = append(want, row(s.Stance, s.Hosts, s.Allowed, s.Partial, s.Disallowed, s.NoVerdict))
	}
	q.same("preferences: stances and the training crawler's verdict", `WITH u AS (SELECT capture_id FROM effective WHERE crawl = ? AND usable),
		nt AS (SELECT DISTINCT capture_id FROM preferences WHERE crawl = ? AND NOT allowed AND path = '/'
			AND (len(user_agents) = 0 OR list_contains(user_agents, '*'))
			AND (source = 'content-signal' AND lower(category) = 'ai-train' OR source = 'content-usage' AND category = 'train-ai')),
		sp AS (SELECT DISTINCT capture_id FROM preferences WHERE crawl = ? AND source IN ('content-signal', 'content-usage')),
		g AS (SELECT capture_id, verdict FROM agents WHERE crawl = ? AND agent = '`+p.TrainingCrawler+`'),
		s AS (SELECT CASE WHEN nt.capture_id IS NOT NULL THEN 1 WHEN sp.capture_id IS NOT NULL THEN 2 ELSE 3 END AS stance, g.verdict
			FROM u LEFT JOIN nt USING (capture_id) LEFT JOIN sp USING (capture_id) LEFT JOIN g USING (capture_id))
		SELECT st.name, count(s.stance), count(s.stance) FILTER (s.verdict = 'allowed'),
			count(s.stance) FILTER (s.verdict = 'partially-disallowed'), count(s.stance) FILTER (s.verdict = 'disallowed'),
			count(s.stance) FILTER (s.verdict IS NULL)
		FROM (VALUES (1, 'asks no AI training'), (2, 'states other preferences'), (3, 'states no preference')) st(o, name)
		LEFT JOIN s ON s.stance = st.o GROUP BY st.o, st.name ORDER BY st.o`, want)
}

func checkExtensions(q *querier, p *analyze.UsagePreferences) {
	var keys []string
	for _, k := range robots.ExtensionKeys() {
		if k != "acap-" {
			keys = append(keys, k)
		}
	}
	order := schema.SQLStrings(append(append(keys, "acap-*"), "other"))
	var want [][]string
	for _, e := range p.Extensions {
		want = append(want, row(e.Key, e.Hosts.N, e.Lines, e.Valid.N))
	}
	q.same("preferences: extension directives", `SELECT CASE WHEN key LIKE 'acap-%' THEN 'acap-*' WHEN list_contains(`+schema.SQLStrings(keys)+`, key) THEN key ELSE 'other' END AS k,
			count(DISTINCT h.host), count(*), count(*) FILTER (valid)
		FROM directives d JOIN effective h USING (crawl, capture_id) WHERE h.usable AND d.crawl = ?
		GROUP BY k ORDER BY 2 DESC, list_position(`+order+`, k)`, want)
}

// The demo's sample shows both sections: signals.example asks not to be
// trained on and leaves GPTBot allowed, papers.example asks the same and
// disallows it; messy.example has a reversed-syntax line.
func TestDemoShowsPreferencesAndMistakes(t *testing.T) {
	c := datasets.Report(t, datasets.Demo(t)).Crawls[0]
	asks := c.Preferences.Blocking[0]
	if asks.Hosts != 2 || asks.Allowed != 1 || asks.Disallowed != 1 || len(c.Preferences.Values) == 0 {
		t.Errorf("demo preferences changed: %+v", c.Preferences)
	}
	if m := c.Mistakes.Mistakes[0]; m.Measure != "reversed-syntax" || m.Captures.N != 1 || c.Mistakes.Unreadable.N == 0 {
		t.Errorf("demo mistakes changed: %+v", c.Mistakes)
	}
}
