-- 09_classic_mistakes.sql: the 2.4-million-site survey's eleven classic mistakes, measured again.
--
--   duckdb -cmd "SET VARIABLE dataset = '/path/to/robocensus-data'" -f notebooks/09_classic_mistakes.sql
--
-- A survey of the robots.txt files of 2.4 million DMOZ sites (about 75,000
-- files) found over 5% malformed and over 2% unreadable by any crawler, and
-- listed eleven classic mistakes. robots.Mistakes() (robots/survey.go) maps
-- each to the diagnostic codes that detect it; this notebook measures them
-- per crawl over the captures with a 2xx or no status (the files crawlers
-- read), with the definitions of robots.Malformed and robots.Unreadable:
--   malformed:  error_count > 0
--   unreadable: a binary-content, html-content or bom-utf16 finding, or no
--               group and no sitemap with a no-rules finding.
-- Mistake 7 (paths in the wrong case) has no code: it needs the site's URLs.
-- Mistake 9 (an Allow line) is allow_count > 0. Domain farms are bodies
-- served by several hosts.

-- The dataset's tables as views; crawl stays a VARCHAR even when labels look like dates.
-- Crawls published with schema 1.x name three captures columns differently (payload_digest, truncated,
-- redirect_location) and lack the newer Common Crawl columns: the view gives every crawl the 2.0 names,
-- an old crawl's values under them, and NULL in the columns it lacks.
CREATE OR REPLACE VIEW captures AS SELECT * EXCLUDE (payload_digest, truncated, redirect_location) REPLACE (coalesce(content_digest, payload_digest) AS content_digest, coalesce(content_truncated, truncated) AS content_truncated, coalesce(fetch_redirect, redirect_location) AS fetch_redirect) FROM (SELECT * FROM read_parquet(coalesce(getvariable('dataset'), 'robocensus-data') || '/captures/**/*.parquet', hive_partitioning = true, hive_types = {'crawl': VARCHAR}, union_by_name = true) UNION ALL BY NAME SELECT NULL::VARCHAR AS payload_digest, NULL::VARCHAR AS truncated, NULL::VARCHAR AS redirect_location, NULL::VARCHAR AS content_digest, NULL::VARCHAR AS content_truncated, NULL::VARCHAR AS fetch_redirect, NULL::VARCHAR AS url_surtkey, NULL::VARCHAR AS url_host_tld, NULL::VARCHAR AS url_host_registered_domain, NULL::VARCHAR AS url_protocol, NULL::INTEGER AS url_port, NULL::VARCHAR AS content_charset, NULL::VARCHAR AS warc_segment, NULL::BIGINT AS payload_length_real WHERE false);
CREATE OR REPLACE VIEW diagnostics AS SELECT * FROM read_parquet(coalesce(getvariable('dataset'), 'robocensus-data') || '/diagnostics/**/*.parquet', hive_partitioning = true, hive_types = {'crawl': VARCHAR}, union_by_name = true);
CREATE OR REPLACE VIEW rules AS SELECT * FROM read_parquet(coalesce(getvariable('dataset'), 'robocensus-data') || '/rules/**/*.parquet', hive_partitioning = true, hive_types = {'crawl': VARCHAR}, union_by_name = true);
CREATE OR REPLACE VIEW sitemaps AS SELECT * FROM read_parquet(coalesce(getvariable('dataset'), 'robocensus-data') || '/sitemaps/**/*.parquet', hive_partitioning = true, hive_types = {'crawl': VARCHAR}, union_by_name = true);
CREATE OR REPLACE VIEW agents AS SELECT * FROM read_parquet(coalesce(getvariable('dataset'), 'robocensus-data') || '/agents/**/*.parquet', hive_partitioning = true, hive_types = {'crawl': VARCHAR}, union_by_name = true);
-- A body is stored once per input that served it: the view keeps one row per crawl and digest,
-- so that captures JOIN bodies USING (crawl, content_digest) gives one row per capture (schema 1.x: payload_digest).
CREATE OR REPLACE VIEW bodies AS SELECT DISTINCT ON (crawl, content_digest) * EXCLUDE (payload_digest) REPLACE (coalesce(content_digest, payload_digest) AS content_digest) FROM (SELECT * FROM read_parquet(coalesce(getvariable('dataset'), 'robocensus-data') || '/bodies/**/*.parquet', hive_partitioning = true, hive_types = {'crawl': VARCHAR}, union_by_name = true) UNION ALL BY NAME SELECT NULL::VARCHAR AS payload_digest, NULL::VARCHAR AS content_digest WHERE false);
CREATE OR REPLACE VIEW directives AS SELECT * FROM read_parquet(coalesce(getvariable('dataset'), 'robocensus-data') || '/directives/**/*.parquet', hive_partitioning = true, hive_types = {'crawl': VARCHAR}, union_by_name = true);
CREATE OR REPLACE VIEW preferences AS SELECT * FROM read_parquet(coalesce(getvariable('dataset'), 'robocensus-data') || '/preferences/**/*.parquet', hive_partitioning = true, hive_types = {'crawl': VARCHAR}, union_by_name = true);
CREATE OR REPLACE VIEW inputs AS SELECT * FROM read_parquet(coalesce(getvariable('dataset'), 'robocensus-data') || '/inputs/**/*.parquet', hive_partitioning = true, hive_types = {'crawl': VARCHAR}, union_by_name = true);

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

-- One row per host and crawl: its deciding capture (not a redirect if it has one,
-- then the latest fetched, then the smallest capture_id), as robocensus report counts hosts.
CREATE OR REPLACE VIEW hosts AS
SELECT * FROM deciding_captures(captures);



-- The files crawlers read, one row per capture, with its codes.
CREATE OR REPLACE VIEW read_files AS
SELECT c.*, coalesce(d.codes, []) AS codes
FROM captures c
LEFT JOIN (SELECT crawl, capture_id, list(DISTINCT code) AS codes FROM diagnostics GROUP BY ALL) d USING (crawl, capture_id)
WHERE c.fetch_status IS NULL OR c.fetch_status BETWEEN 200 AND 299;

-- The survey's two shares, measured again (robocensus report's "Classic
-- mistakes" gives the same counts; the survey's figures are robots.Survey).
SELECT crawl, count(*) AS files,
       count(*) FILTER (error_count > 0) AS malformed,
       count(*) FILTER (list_has_any(codes, not_robots_codes())
           OR (group_count = 0 AND sitemap_count = 0 AND list_contains(codes, 'no-rules'))) AS unreadable,
       round(100 * malformed / files, 2) AS pct_malformed, round(100 * unreadable / files, 2) AS pct_unreadable,
       5.0 AS survey_pct_malformed_over, 2.0 AS survey_pct_unreadable_over
FROM read_files GROUP BY crawl ORDER BY crawl;

-- Each mistake: the share of read files showing it.
WITH mistakes(number, mistake, test) AS (VALUES
    (1, 'reversed syntax (Disallow: scooter)', 'reversed-syntax'),
    (2, 'several directories on one line', 'multiple-paths'),
    (3, 'file edited in DOS mode (CRLF)', 'crlf-line-endings'),
    (4, 'comment at the end of a line', 'end-of-line-comment'),
    (5, 'whitespace before a directive', 'leading-whitespace'),
    (6, 'missing file answered with a page', 'html-content'),
    (8, 'every file listed one by one', 'files-listed-one-by-one'),
    (10, 'path without a leading slash', 'path-not-absolute'),
    (11, 'binary file served', 'binary-content'))
SELECT f.crawl, m.number, m.mistake, count(*) FILTER (list_contains(f.codes, m.test)) AS files,
       round(100 * avg(list_contains(f.codes, m.test)::INT), 2) AS pct
FROM read_files f CROSS JOIN mistakes m
GROUP BY ALL
UNION ALL
SELECT crawl, 9, 'an Allow line', count(*) FILTER (allow_count > 0), round(100 * avg((allow_count > 0)::INT), 2)
FROM read_files GROUP BY crawl
ORDER BY 1, 2;

-- Domain farms: bodies served identically by several hosts, largest first.
SELECT crawl, content_digest, count(DISTINCT url_host_name) AS hosts
FROM read_files WHERE content_digest IS NOT NULL
GROUP BY ALL HAVING count(DISTINCT url_host_name) > 1
ORDER BY crawl, hosts DESC LIMIT 20;
