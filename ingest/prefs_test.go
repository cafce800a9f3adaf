package ingest

import "testing"

// Extension directives and usage preferences reach the directives and
// preferences tables with their scope and value, and License is not an
// unknown directive.
func TestRunDirectivesAndPreferences(t *testing.T) {
	body := "Content-Signal: search=yes, ai-train=no\n" + // file-wide, before any user-agent
		"License: https://prefs.example/license.xml\n" +
		"\n" +
		"User-agent: GPTBot\n" +
		"User-agent: CCBot\n" +
		"Content-Usage: /articles/ train-ai=n\n" +
		"Crawl-delay: soon\n" +
		"Disallow: /private/\n" +
		"\n" +
		"User-agent: *\n" +
		"Content-Signal: ai-input=perhaps\n" +
		"Allow: /\n"
	f := ingestRecords(t, "prefs", robots200("prefs.example", body))
	f(`SELECT string_agg(line || ' ' || coalesce(group_index::VARCHAR, 'file') || ' ' || user_agents::VARCHAR || ' ' || key || '=' || value || ' ' || valid, '; ' ORDER BY line) FROM directives`,
		"1 file [] content-signal=search=yes, ai-train=no true; "+
			"2 file [] license=https://prefs.example/license.xml true; "+
			"6 0 [GPTBot, CCBot] content-usage=/articles/ train-ai=n true; "+
			"7 0 [GPTBot, CCBot] crawl-delay=soon false; "+
			"11 1 [*] content-signal=ai-input=perhaps false")
	f(`SELECT string_agg(line || ' ' || source || ' ' || user_agents::VARCHAR || ' ' || path || ' ' || category || '=' || value || ' ' || coalesce(allowed::VARCHAR, 'NULL'), '; ' ORDER BY line, category) FROM preferences`,
		"1 content-signal [] / ai-train=no false; "+
			"1 content-signal [] / search=yes true; "+
			"6 content-usage [GPTBot, CCBot] /articles/ train-ai=n false; "+
			"11 content-signal [*] / ai-input=perhaps NULL")
	f(`SELECT count(*) FROM diagnostics WHERE code = 'unknown-directive'`, "0")
	f(`SELECT string_agg(DISTINCT code, ' ' ORDER BY code) FROM diagnostics WHERE code LIKE 'usage-%' OR code LIKE '%-invalid'`,
		"crawl-delay-invalid usage-preference usage-preference-bad-value")
}
