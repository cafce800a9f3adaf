-- 13_readings.sql: where crawlers disagree: the census of parsers (the readings table, schema 2.2).
--
--   duckdb -cmd "SET VARIABLE dataset = '/path/to/robocensus-data'" -f notebooks/13_readings.sql
--
-- A site writes one robots.txt; each crawler reads it with its own parser.
-- The readings table has a row per capture, tracked crawler and parser
-- other than Google's (semantics: python-legacy, Python's urllib.robotparser
-- of CPython 3.12 and earlier; rfc9309, RFC 9309 by its letter; ...) where
-- that parser gives the crawler another verdict for the root (root_allowed
-- against google_root_allowed) or another full block (blocked against
-- google_blocked) than Google's reading, with the deciding lines, the path
-- where they differ and the difference class that explains it
-- (difference_classes() lists them, in the order the census tests them).
-- A crawler without a row reads as Google reads it. A dataset published
-- before schema 2.2 has no readings files: ingest it again.
-- Shows, per host after redirects (as robocensus report counts them): the
-- share of hosts whose root or full-block verdict changes, per parser, for
-- the tracked AI crawlers, the search engines, GPTBot, CCBot and Googlebot;
-- the difference classes ranked by hosts, with an example host each; and
-- for CCBot, how often what crawler-commons let it fetch differs from
-- Google's reading, when the dataset has that reading.

-- The dataset's tables as views; crawl stays a VARCHAR even when labels look like dates.
CREATE OR REPLACE VIEW hosts AS SELECT * FROM read_parquet(coalesce(getvariable('dataset'), 'robocensus-data') || '/hosts/**/*.parquet', hive_partitioning = true, hive_types = {'crawl': VARCHAR}, union_by_name = true);
CREATE OR REPLACE VIEW readings AS SELECT * FROM read_parquet(coalesce(getvariable('dataset'), 'robocensus-data') || '/readings/**/*.parquet', hive_partitioning = true, hive_types = {'crawl': VARCHAR}, union_by_name = true);

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

-- The tracked crawlers and their kind (search or ai), from the crawler list
-- the agents files record in their footer (robocensus.crawlers).
CREATE OR REPLACE VIEW crawler_kinds AS
SELECT DISTINCT c->>'token' AS agent, c->>'kind' AS kind
FROM (SELECT unnest(from_json(decode(value), '["JSON"]')) AS c
      FROM parquet_kv_metadata(coalesce(getvariable('dataset'), 'robocensus-data') || '/agents/**/*.parquet')
      WHERE decode(key) = 'robocensus.crawlers');

-- The groups of crawlers the report follows: each kind, then three crawlers.
CREATE OR REPLACE VIEW reading_groups AS
SELECT 1 AS ord, 'AI crawlers' AS crawlers, agent FROM crawler_kinds WHERE kind = 'ai'
UNION ALL SELECT 2, 'search engines', agent FROM crawler_kinds WHERE kind = 'search'
UNION ALL SELECT * FROM (VALUES (3, 'GPTBot', 'GPTBot'), (4, 'CCBot', 'CCBot'), (5, 'Googlebot', 'Googlebot')) AS g(ord, crawlers, agent);

-- Per crawl, parser and group of crawlers: the hosts whose root verdict
-- (root_changes) or full block (block_changes) changes for at least one
-- crawler of the group, and their share of all hosts.
WITH totals AS (SELECT crawl, count(*) AS hosts FROM effective GROUP BY crawl),
     r AS (SELECT r.*, e.host FROM readings r JOIN effective e USING (crawl, capture_id)),
     groups AS (SELECT DISTINCT ord, crawlers FROM reading_groups),
     sems AS (SELECT DISTINCT crawl, semantics FROM readings)
SELECT s.crawl, s.semantics, g.crawlers, t.hosts,
       count(DISTINCT r.host) FILTER (r.root_allowed <> r.google_root_allowed) AS root_changes,
       round(100 * count(DISTINCT r.host) FILTER (r.root_allowed <> r.google_root_allowed) / t.hosts, 2) AS pct_root,
       count(DISTINCT r.host) FILTER (r.blocked <> r.google_blocked) AS block_changes,
       round(100 * count(DISTINCT r.host) FILTER (r.blocked <> r.google_blocked) / t.hosts, 2) AS pct_block
FROM sems s JOIN totals t USING (crawl) CROSS JOIN groups g
LEFT JOIN reading_groups m ON m.ord = g.ord
LEFT JOIN r ON r.crawl = s.crawl AND r.semantics = s.semantics AND r.agent = m.agent
GROUP BY s.crawl, s.semantics, g.ord, g.crawlers, t.hosts
ORDER BY s.crawl, s.semantics, g.ord;

-- The difference classes, by the hosts where they changed a verdict (a
-- host counts once per class), with the first such host as an example.
SELECT r.crawl, r.class, count(DISTINCT e.host) AS hosts, min(e.host) AS example, any_value(d.doc) AS what_differs
FROM readings r JOIN effective e USING (crawl, capture_id) JOIN difference_classes() d ON d.class = r.class
GROUP BY r.crawl, r.class, d.ord ORDER BY r.crawl, hosts DESC, d.ord;

-- GPTBot, CCBot and Googlebot, per parser: the hosts where the verdict
-- for the root goes from allowed to disallowed and back, and where the
-- crawler is blocked from the whole site for one parser only. For CCBot
-- under crawler-commons (the parser of Common Crawl's own crawler, when the
-- dataset has that reading) this is how often what CCBot was let fetch
-- differs from Google's reading.
SELECT r.crawl, r.agent, r.semantics,
       count(DISTINCT e.host) FILTER (r.google_root_allowed AND NOT r.root_allowed) AS root_now_disallowed,
       count(DISTINCT e.host) FILTER (NOT r.google_root_allowed AND r.root_allowed) AS root_now_allowed,
       count(DISTINCT e.host) FILTER (r.blocked AND NOT r.google_blocked) AS now_blocked,
       count(DISTINCT e.host) FILTER (NOT r.blocked AND r.google_blocked) AS no_longer_blocked
FROM readings r JOIN effective e USING (crawl, capture_id)
WHERE r.agent IN ('GPTBot', 'CCBot', 'Googlebot')
GROUP BY ALL ORDER BY r.crawl, r.agent, r.semantics;

-- GPTBot's verdict for the root, per parser and difference class: the
-- hosts where it changes, per host after redirects (the README's figures
-- for the python reading; a host counts once, its effective capture
-- having one row per parser).
SELECT r.crawl, r.semantics, r.class, count(DISTINCT e.host) AS hosts
FROM readings r JOIN effective e USING (crawl, capture_id) JOIN difference_classes() d ON d.class = r.class
WHERE r.agent = 'GPTBot' AND r.root_allowed <> r.google_root_allowed
GROUP BY r.crawl, r.semantics, r.class, d.ord ORDER BY r.crawl, r.semantics, hosts DESC, d.ord;
