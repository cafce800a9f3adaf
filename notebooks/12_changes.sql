-- 12_changes.sql: what changed host by host between consecutive crawls: hosts that appeared and disappeared, AI crawlers hosts started or stopped disallowing, robots.txt files and fetch classes that changed.
--
--   duckdb -cmd "SET VARIABLE dataset = '/path/to/robocensus-data'" -cmd "SET VARIABLE top = 10" -f notebooks/12_changes.sql
--
-- The definitions of robocensus report's "Since the previous crawl"
-- section (analyze/internal/sections/section_changes.go), which a test checks against these
-- queries. Crawls are ordered by time as the report orders them: a Common
-- Crawl label by the Monday of its ISO week, a label that is a date by
-- that date, any other by the earliest fetch time of its captures; ties by
-- label. Each crawl is compared with the one before it (the report with
-- --crawl compares the crawls it picks). A host is a url_host_name; its
-- robots.txt is the capture that answers for it once redirects are
-- followed (its effective capture), whose agents rows give the verdicts,
-- as in the report's crawlers section and the site report: a host that
-- redirects to a file that starts blocking GPTBot starts blocking it. Of
-- the hosts of both crawls:
--   * a host started disallowing a crawler when its verdict is
--     'disallowed' and was not, and stopped when it was and is not; the
--     same for 'partially-disallowed' (a host that went from disallowed
--     to partially disallowed stopped disallowing and started partially);
--   * its robots.txt changed when both effective captures have a content
--     digest and they differ;
--   * its fetch class changed when it has a row of the hosts table in both
--     crawls and the classes differ.
-- The examples are the first `top` host names (default 10) in byte order.

-- The dataset's tables as views; crawl stays a VARCHAR even when labels look like dates.
CREATE OR REPLACE VIEW captures AS SELECT * FROM read_parquet(coalesce(getvariable('dataset'), 'robocensus-data') || '/captures/**/*.parquet', hive_partitioning = true, hive_types = {'crawl': VARCHAR}, union_by_name = true);
CREATE OR REPLACE VIEW agents AS SELECT * FROM read_parquet(coalesce(getvariable('dataset'), 'robocensus-data') || '/agents/**/*.parquet', hive_partitioning = true, hive_types = {'crawl': VARCHAR}, union_by_name = true);
CREATE OR REPLACE VIEW hosts AS SELECT * FROM read_parquet(coalesce(getvariable('dataset'), 'robocensus-data') || '/hosts/**/*.parquet', hive_partitioning = true, hive_types = {'crawl': VARCHAR}, union_by_name = true);

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

-- The crawls in time order, each with the one before it (NULL for the first).
CREATE OR REPLACE TABLE crawl_order AS
WITH c AS (
    SELECT crawl, min(fetch_time) AS first_fetch, regexp_extract(crawl, '^CC-MAIN-(\d{4})-(\d{2})$', ['y', 'w']) AS cc
    FROM captures GROUP BY crawl
), t AS (
    SELECT crawl, CASE
        WHEN cc.y <> '' AND try_cast(cc.w AS INTEGER) BETWEEN 1 AND 53 THEN
            make_date(try_cast(cc.y AS INTEGER), 1, 4) + to_days((try_cast(cc.w AS INTEGER) - 1) * 7 - (isodow(make_date(try_cast(cc.y AS INTEGER), 1, 4)) - 1)::INTEGER)
        WHEN regexp_matches(crawl, '^\d{4}-\d{2}-\d{2}$') THEN try_cast(crawl AS DATE)::TIMESTAMP
        ELSE first_fetch END AS crawl_time
    FROM c
), o AS (SELECT crawl, row_number() OVER (ORDER BY crawl_time NULLS FIRST, crawl) AS ord FROM t)
SELECT o.crawl, o.ord, p.crawl AS previous FROM o LEFT JOIN o p ON p.ord = o.ord - 1;

-- Each host's robots.txt, redirects followed: the capture that answers for it (the hosts
-- table's effective_capture_id, or its deciding capture when the chain is not resolved, or
-- for a crawl published before the hosts table), its digest and the host's fetch class. The
-- deciding capture: not a redirect if the host has one, then the latest fetched, then the
-- smallest capture_id. The digest is read by either name (payload_digest, or content_digest as
-- Common Crawl's index spells it), so that crawls published by different schema versions compare.
CREATE OR REPLACE TABLE host_state AS
WITH c AS (
    SELECT crawl, url_host_name, capture_id, outcome, fetch_time, coalesce(*COLUMNS('^(payload|content)_digest$')) AS digest
    FROM captures
), d AS (SELECT * FROM deciding_captures(c))
SELECT d.crawl, d.url_host_name AS host, e.capture_id, e.digest, h.fetch_class
FROM d
LEFT JOIN hosts h ON h.crawl = d.crawl AND h.url_host_name = d.url_host_name
JOIN c e ON e.crawl = d.crawl AND e.capture_id = coalesce(h.effective_capture_id, h.capture_id, d.capture_id);

-- Per host of two consecutive crawls: appeared, disappeared, its robots.txt or fetch class changed.
CREATE OR REPLACE TABLE host_changes AS
WITH p AS (SELECT o.crawl AS pair, s.* FROM crawl_order o JOIN host_state s ON s.crawl = o.previous),
     c AS (SELECT o.crawl AS pair, s.* FROM crawl_order o JOIN host_state s ON s.crawl = o.crawl WHERE o.previous IS NOT NULL)
SELECT o.previous, o.crawl, coalesce(c.host, p.host) AS host,
       p.host IS NULL AS appeared, c.host IS NULL AS disappeared,
       coalesce(p.digest <> c.digest, false) AS robots_txt_changed,
       coalesce(p.fetch_class <> c.fetch_class, false) AS fetch_class_changed,
       p.capture_id AS previous_capture_id, c.capture_id, p.digest AS previous_digest, c.digest,
       p.fetch_class AS previous_fetch_class, c.fetch_class
FROM p FULL JOIN c ON c.pair = p.pair AND c.host = p.host
JOIN crawl_order o ON o.crawl = coalesce(c.pair, p.pair);

-- Per host of both crawls and AI crawler whose verdict changed: before and after.
CREATE OR REPLACE TABLE verdict_changes AS
SELECT * FROM (
    SELECT h.previous, h.crawl, h.host, g.ord, g.agent,
           coalesce(pa.verdict, 'allowed') AS previous_verdict, coalesce(ca.verdict, 'allowed') AS verdict
    FROM host_changes h
    CROSS JOIN followed_ai_crawlers() g
    LEFT JOIN agents pa ON pa.crawl = h.previous AND pa.capture_id = h.previous_capture_id AND pa.agent = g.agent
    LEFT JOIN agents ca ON ca.crawl = h.crawl AND ca.capture_id = h.capture_id AND ca.agent = g.agent
    WHERE NOT h.appeared AND NOT h.disappeared
) WHERE previous_verdict <> verdict;

-- Per crawl: its hosts against the previous crawl's (NULL for the first crawl), with examples.
SELECT o.crawl, o.previous, s.previous_hosts, s.hosts, s.common_hosts, s.appeared, s.appeared_examples,
       s.disappeared, s.disappeared_examples, s.robots_txt_changed, s.with_digests, s.robots_txt_examples,
       s.fetch_class_changed, s.with_fetch_classes, s.fetch_class_examples
FROM crawl_order o
LEFT JOIN (
    SELECT crawl,
           count(*) FILTER (NOT appeared) AS previous_hosts,
           count(*) FILTER (NOT disappeared) AS hosts,
           count(*) FILTER (NOT appeared AND NOT disappeared) AS common_hosts,
           count(*) FILTER (appeared) AS appeared,
           coalesce(list(host ORDER BY host) FILTER (appeared), [])[:coalesce(getvariable('top'), 10)] AS appeared_examples,
           count(*) FILTER (disappeared) AS disappeared,
           coalesce(list(host ORDER BY host) FILTER (disappeared), [])[:coalesce(getvariable('top'), 10)] AS disappeared_examples,
           count(*) FILTER (robots_txt_changed) AS robots_txt_changed,
           count(*) FILTER (previous_digest IS NOT NULL AND digest IS NOT NULL) AS with_digests,
           coalesce(list(host ORDER BY host) FILTER (robots_txt_changed), [])[:coalesce(getvariable('top'), 10)] AS robots_txt_examples,
           count(*) FILTER (fetch_class_changed) AS fetch_class_changed,
           count(*) FILTER (previous_fetch_class IS NOT NULL AND fetch_class IS NOT NULL) AS with_fetch_classes,
           coalesce(list(host ORDER BY host) FILTER (fetch_class_changed), [])[:coalesce(getvariable('top'), 10)] AS fetch_class_examples
    FROM host_changes GROUP BY crawl
) s ON s.crawl = o.crawl
ORDER BY o.ord;

-- Per crawl and AI crawler: hosts of both crawls that started or stopped disallowing it, fully
-- or partially, with examples (NULL for the first crawl).
SELECT o.crawl, o.previous, g.agent,
       CASE WHEN o.previous IS NOT NULL THEN count(v.host) FILTER (v.verdict = 'disallowed') END AS started_disallowing,
       coalesce(list(v.host ORDER BY v.host) FILTER (v.verdict = 'disallowed'), [])[:coalesce(getvariable('top'), 10)] AS started_disallowing_examples,
       CASE WHEN o.previous IS NOT NULL THEN count(v.host) FILTER (v.previous_verdict = 'disallowed') END AS stopped_disallowing,
       coalesce(list(v.host ORDER BY v.host) FILTER (v.previous_verdict = 'disallowed'), [])[:coalesce(getvariable('top'), 10)] AS stopped_disallowing_examples,
       CASE WHEN o.previous IS NOT NULL THEN count(v.host) FILTER (v.verdict = 'partially-disallowed') END AS started_partially,
       coalesce(list(v.host ORDER BY v.host) FILTER (v.verdict = 'partially-disallowed'), [])[:coalesce(getvariable('top'), 10)] AS started_partially_examples,
       CASE WHEN o.previous IS NOT NULL THEN count(v.host) FILTER (v.previous_verdict = 'partially-disallowed') END AS stopped_partially,
       coalesce(list(v.host ORDER BY v.host) FILTER (v.previous_verdict = 'partially-disallowed'), [])[:coalesce(getvariable('top'), 10)] AS stopped_partially_examples
FROM crawl_order o
CROSS JOIN followed_ai_crawlers() g
LEFT JOIN verdict_changes v ON v.crawl = o.crawl AND v.agent = g.agent
GROUP BY o.ord, o.crawl, o.previous, g.ord, g.agent
ORDER BY o.ord, g.ord;

-- The per-host changes: every host of a crawl that changed since the previous crawl, with what
-- changed (no row when nothing changed, or the dataset has one crawl).
SELECT /* may be empty */ h.crawl, h.previous, h.host, h.appeared, h.disappeared, h.robots_txt_changed,
       h.previous_fetch_class, h.fetch_class, v.verdicts
FROM host_changes h
JOIN crawl_order o ON o.crawl = h.crawl
LEFT JOIN (
    SELECT crawl, host, string_agg(agent || ': ' || previous_verdict || ' -> ' || verdict, ', ' ORDER BY ord) AS verdicts
    FROM verdict_changes GROUP BY crawl, host
) v ON v.crawl = h.crawl AND v.host = h.host
WHERE h.appeared OR h.disappeared OR h.robots_txt_changed OR h.fetch_class_changed OR v.verdicts IS NOT NULL
ORDER BY o.ord, h.host;
