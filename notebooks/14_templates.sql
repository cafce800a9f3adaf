-- 14_templates.sql: who wrote these files: the templates of CDNs, CMSs and block lists (schema 2.3).
--
--   duckdb -cmd "SET VARIABLE dataset = '/path/to/robocensus-data'" -f notebooks/14_templates.sql
--
-- Many robots.txt files are not written by their sites: Cloudflare's managed
-- block, WordPress's virtual file, Yoast's and WPForms' marked blocks, the
-- defaults of Shopify, Squarespace, Wix and Blogger, pasted releases of the
-- ai.robots.txt block list. The templates table has a row per template block
-- found in a capture (template, version, lines, state intact / edited /
-- extended / marked, similarity and missing agents of a block list, and the
-- version's release date); agents.source says whose lines shut each tracked
-- crawler out (template, site, both; none when not disallowed) and
-- agents.cancelled where the site's own lines undo a template's block. A
-- dataset published before schema 2.3 has no templates files and NULL source:
-- ingest it again.
-- Shows, per host after redirects (as robocensus report counts them): the
-- share of hosts and captures carrying each template and version; per AI
-- crawler, the share of its full blocks that come from templates; the hosts
-- where the site's lines cancel a template's block; and the release dates of
-- the pasted block lists, against the crawl's fetch dates.

-- The dataset's tables as views; crawl stays a VARCHAR even when labels look like dates.
CREATE OR REPLACE VIEW captures AS SELECT * FROM read_parquet(coalesce(getvariable('dataset'), 'robocensus-data') || '/captures/**/*.parquet', hive_partitioning = true, hive_types = {'crawl': VARCHAR}, union_by_name = true);
CREATE OR REPLACE VIEW agents AS SELECT * FROM read_parquet(coalesce(getvariable('dataset'), 'robocensus-data') || '/agents/**/*.parquet', hive_partitioning = true, hive_types = {'crawl': VARCHAR}, union_by_name = true);
CREATE OR REPLACE VIEW hosts AS SELECT * FROM read_parquet(coalesce(getvariable('dataset'), 'robocensus-data') || '/hosts/**/*.parquet', hive_partitioning = true, hive_types = {'crawl': VARCHAR}, union_by_name = true);
CREATE OR REPLACE VIEW templates AS SELECT * FROM read_parquet(coalesce(getvariable('dataset'), 'robocensus-data') || '/templates/**/*.parquet', hive_partitioning = true, hive_types = {'crawl': VARCHAR}, union_by_name = true);

-- Vocabulary: generated from package schema by `go test ./notebooks -update`; edit schema/vocabulary.go, not this block.
-- deciding_captures(t): the rows of the captures table or view t that decide for their host in
-- their crawl: not a redirect if it has one, then the latest fetched, then the smallest capture_id.
CREATE OR REPLACE MACRO deciding_captures(t) AS TABLE
SELECT * EXCLUDE (rn) FROM (
    SELECT c.*, row_number() OVER (PARTITION BY crawl, url_host_name ORDER BY (outcome = 'redirect'), fetch_time DESC NULLS LAST, capture_id) AS rn
    FROM query_table(t) c)
WHERE rn = 1;
-- not_robots_codes(): the whole-file findings that make a body with no rule not a robots.txt,
-- and a file unreadable by any crawler (robots.NotRobotsCodes).
CREATE OR REPLACE MACRO not_robots_codes() AS ['binary-content', 'html-content', 'bom-utf16'];
-- stored_truncation_reasons(): the content_truncated values robocensus's reader gives for a body
-- it stored only part of; any other value is the crawler's WARC-Truncated (robots.StoredTruncationReasons).
CREATE OR REPLACE MACRO stored_truncation_reasons() AS ['body-cap', 'record-cap', 'input-end'];
-- fetch_classes(): the hosts table's fetch classes in the order of Common Crawl's table's columns
-- (schema.FetchClassColumns); fetch_classes_best_first(): best first, the order that picks a host's
-- class (schema.FetchClassesBestFirst); usable_fetch_classes(): those of a usable robots.txt.
CREATE OR REPLACE MACRO fetch_classes() AS ['http-forbidden', 'http-defer-visits', 'http-allow-all', 'redirect-not-resolved', 'not-robots', 'robots-no-rules', 'robots-with-rules'];
CREATE OR REPLACE MACRO fetch_classes_best_first() AS ['robots-with-rules', 'robots-no-rules', 'not-robots', 'http-allow-all', 'http-forbidden', 'http-defer-visits', 'redirect-not-resolved'];
CREATE OR REPLACE MACRO usable_fetch_classes() AS ['robots-with-rules', 'robots-no-rules'];
-- followed_ai_crawlers(): the AI crawlers followed host by host, as in the report, a row
-- (ord, agent) each in the report's order (schema.FollowedAICrawlers).
CREATE OR REPLACE MACRO followed_ai_crawlers() AS TABLE
SELECT * FROM (VALUES (1, 'GPTBot'), (2, 'ClaudeBot'), (3, 'CCBot'), (4, 'Google-Extended'), (5, 'PerplexityBot'), (6, 'Bytespider'), (7, 'Applebot-Extended')) AS g(ord, agent);
-- difference_classes(): why two parsers give a crawler different verdicts, the readings table's
-- class column, a row (ord, class, doc) each in the order the census tests them (schema.DifferenceClasses).
CREATE OR REPLACE MACRO difference_classes() AS TABLE
SELECT * FROM (VALUES (1, 'status', 'the HTTP status decides, and the parsers read it differently (401 and 403 disallow everything for Python, 429 is a 4xx for RFC 9309)'), (2, 'body-encoding', 'no rule decides for the other parser although the status lets it read the body: it cannot read the body (Python: not UTF-8)'), (3, 'crawl-delay', 'the crawler''s crawl delay is over 300 seconds, and crawler-commons then disallows everything with no rule deciding'), (4, 'robots-txt-always-allowed', 'the URL is /robots.txt, which RFC 9309 and crawler-commons always allow and Google''s rules may disallow'), (5, 'rules-before-user-agent', 'a deciding rule stands before any user-agent line'), (6, 'empty-user-agent', 'a deciding rule''s group has an empty user-agent value, which Python''s parser takes to name every crawler'), (7, 'blank-line-ends-group', 'a blank line between the group''s user-agent lines and Google''s deciding rule ends the group for the other parser'), (8, 'key-spelling', 'a deciding line of either parser, or a user-agent line of its group, is a misspelled key, a key prefix or lacks its colon: Google reads it, the other parser does not'), (9, 'agent-matching', 'the deciding rules stand in groups of different user-agent lines: the parsers match the crawler''s name with them, or pick among the groups, differently'), (10, 'empty-disallow', 'an empty Disallow decides for the other parser (Python: it allows everything and, read first, overrides the rules after it)'), (11, 'url-normalisation', 'a deciding rule holds a question mark, semicolon or ''#'', or does not start with ''/'', and the parsers normalise it or the URL differently (Python 3.12 and earlier: "Disallow: /?" is "/")'), (12, 'percent-encoding', 'a deciding rule holds a percent-escape or a byte outside ASCII, which the parsers encode or decode differently'), (13, 'wildcards', 'a deciding rule holds ''*'' or ''$'', a wildcard or anchor for Google and a literal character for the other parser'), (14, 'allow-order', 'the deciding rules are an allow and a disallow of the same group: the first match in file order decides for the other parser, the longest for Google'), (15, 'other', 'none of the above')) AS d(ord, class, doc);
-- End of the vocabulary.

-- One row per host and crawl: the capture whose answer decides for it once
-- redirects are followed (effective_capture_id), or its deciding capture
-- when the chain is not resolved, as robocensus report counts hosts.
CREATE OR REPLACE VIEW effective AS
SELECT h.crawl, h.url_host_name AS host, coalesce(h.effective_capture_id, h.capture_id) AS capture_id FROM hosts h;

-- The tracked AI crawlers, from the crawler list the agents files record
-- in their footer (robocensus.crawlers).
CREATE OR REPLACE VIEW ai_crawlers AS
SELECT DISTINCT c->>'token' AS agent
FROM (SELECT unnest(from_json(decode(value), '["JSON"]')) AS c
      FROM parquet_kv_metadata(coalesce(getvariable('dataset'), 'robocensus-data') || '/agents/**/*.parquet')
      WHERE decode(key) = 'robocensus.crawlers')
WHERE c->>'kind' = 'ai';

-- Per crawl, template and version: the captures carrying it and the hosts
-- whose deciding capture carries it, each with its share of all captures or
-- hosts of the crawl, and how many of those hosts' blocks are intact.
WITH capture_totals AS (SELECT crawl, count(*) AS all_captures FROM captures GROUP BY crawl),
     host_totals AS (SELECT crawl, count(*) AS all_hosts FROM effective GROUP BY crawl),
     blocks AS (SELECT t.*, e.host FROM templates t LEFT JOIN effective e USING (crawl, capture_id))
SELECT b.crawl, b.template, b.version, any_value(b.released) AS released,
       count(DISTINCT b.capture_id) AS captures,
       round(100 * count(DISTINCT b.capture_id) / any_value(c.all_captures), 2) AS pct_captures,
       count(DISTINCT b.host) AS hosts,
       round(100 * count(DISTINCT b.host) / any_value(h.all_hosts), 2) AS pct_hosts,
       count(DISTINCT b.host) FILTER (b.state = 'intact') AS hosts_intact
FROM blocks b JOIN capture_totals c USING (crawl) JOIN host_totals h USING (crawl)
GROUP BY b.crawl, b.template, b.version
ORDER BY b.crawl, hosts DESC, b.template, b.version;

-- Per crawl: the hosts whose deciding file carries any template, and those
-- carrying two or more (a CDN's block over a CMS's default, a block list
-- pasted into a platform's file).
SELECT e.crawl, count(*) AS hosts,
       count(*) FILTER (n >= 1) AS with_template, round(100 * count(*) FILTER (n >= 1) / count(*), 2) AS pct_with_template,
       count(*) FILTER (n >= 2) AS with_two_or_more
FROM (SELECT e.crawl, e.host, count(DISTINCT t.template) AS n
      FROM effective e LEFT JOIN templates t USING (crawl, capture_id) GROUP BY ALL) e
GROUP BY e.crawl ORDER BY e.crawl;

-- Per crawl and AI crawler: the hosts that shut it out of the whole site,
-- and whose lines do it: a template's alone, the site's own alone, or both.
-- pct_template is the share of its full blocks a site did not write.
SELECT a.crawl, a.agent, count(DISTINCT e.host) AS full_blocks,
       count(DISTINCT e.host) FILTER (a.source = 'template') AS from_template,
       count(DISTINCT e.host) FILTER (a.source = 'site') AS from_site,
       count(DISTINCT e.host) FILTER (a.source = 'both') AS from_both,
       round(100 * count(DISTINCT e.host) FILTER (a.source = 'template') / count(DISTINCT e.host), 2) AS pct_template
FROM agents a JOIN effective e USING (crawl, capture_id) JOIN ai_crawlers USING (agent)
WHERE a.verdict = 'disallowed'
GROUP BY a.crawl, a.agent
ORDER BY a.crawl, full_blocks DESC, a.agent;

-- Per crawl: the hosts where the site's own lines cancel a template's
-- block (a group naming the crawler merged with the template's, and its
-- Allow: / as long as the Disallow: /), the crawlers so re-allowed, and an
-- example host. Zero is a figure too: few sites know their group does it.
SELECT e.crawl, count(DISTINCT e.host) FILTER (a.cancelled) AS hosts_cancelling,
       count(*) FILTER (a.cancelled) AS crawler_rows,
       coalesce(string_agg(DISTINCT a.agent, ', ' ORDER BY a.agent) FILTER (a.cancelled), '') AS crawlers,
       min(e.host) FILTER (a.cancelled) AS example
FROM effective e JOIN agents a USING (crawl, capture_id)
GROUP BY e.crawl ORDER BY e.crawl;

-- Per crawl: the pasted ai.robots.txt block lists, with the release each
-- matches (or comes nearest to), its release date, how far behind the
-- crawl's fetch dates that is, and the newest release's agents they lack.
-- A host counts once per release its lists match, as robocensus report
-- counts them ("Who wrote these files"): its median age is
-- median_days_old rounded half away from zero, and its shares over six
-- months and over a year are of the lists with a fetch time. A list older
-- than the first tagged release comes nearest to it, and its age can be
-- negative. A crawl without a pasted list gives a row of zeros.
WITH lists AS (
    SELECT DISTINCT t.crawl, e.host, t.version, t.released::DATE AS released, t.similarity, len(t.missing) AS missing,
           date_diff('day', t.released::DATE, c.fetch_time::DATE) AS age
    FROM templates t JOIN effective e USING (crawl, capture_id) JOIN captures c USING (crawl, capture_id)
    WHERE t.template = 'ai-robots-txt')
SELECT e.crawl, count(DISTINCT l.host) AS hosts_with_list,
       min(l.released) AS oldest_release, max(l.released) AS newest_release,
       median(l.age) AS median_days_old,
       count(*) FILTER (l.age > 182) AS over_six_months, count(*) FILTER (l.age > 365) AS over_a_year, count(l.age) AS dated,
       round(avg(l.similarity), 3) AS avg_similarity, median(l.missing) AS median_agents_missing,
       coalesce(string_agg(DISTINCT l.version, ', ' ORDER BY l.version), '') AS releases
FROM (SELECT DISTINCT crawl FROM effective) e LEFT JOIN lists l USING (crawl)
GROUP BY e.crawl ORDER BY e.crawl;
