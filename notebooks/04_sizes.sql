-- 04_sizes.sql: how big robots.txt files are, and the 500 KiB limit.
--
--   duckdb -cmd "SET VARIABLE dataset = '/path/to/robocensus-data'" -f notebooks/04_sizes.sql
--
-- Shows: the distribution of file sizes over the captures whose body
-- crawlers read (status 2xx or none): buckets, quantiles, the files over
-- Google's 500 KiB (512,000 bytes) limit, empty files, files the crawler cut
-- (WARC-Truncated) and files robocensus stored cut (content_truncated one
-- of stored_truncation_reasons()). A file's size is its real size,
-- payload_length_real, not payload_length, the bytes stored (at most 1 MiB);
-- crawls published before schema 2.1 have only the bytes stored.

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

-- The read captures with their real size, as robocensus report takes it.
CREATE OR REPLACE TEMP VIEW read_sizes AS
SELECT *, coalesce(payload_length_real, payload_length) AS size
FROM captures WHERE fetch_status IS NULL OR fetch_status BETWEEN 200 AND 299;

-- Buckets, as robocensus report draws them.
SELECT crawl, CASE
        WHEN size = 0 THEN '0 B'
        WHEN size < 1024 THEN '1 B - 1 KiB'
        WHEN size < 4096 THEN '1 - 4 KiB'
        WHEN size < 16384 THEN '4 - 16 KiB'
        WHEN size < 65536 THEN '16 - 64 KiB'
        WHEN size < 262144 THEN '64 - 256 KiB'
        WHEN size <= 512000 THEN '256 - 500 KiB'
        ELSE 'over 500 KiB' END AS bucket,
       min(size) AS from_bytes, count(*) AS captures,
       round(100 * count(*) / sum(count(*)) OVER (PARTITION BY crawl), 2) AS pct
FROM read_sizes
GROUP BY crawl, bucket ORDER BY crawl, from_bytes;

-- Quantiles (quantile_disc: real file sizes) and totals.
SELECT crawl, count(*) AS captures,
       quantile_disc(size, 0.5) AS median, quantile_disc(size, 0.9) AS p90,
       quantile_disc(size, 0.99) AS p99, max(size) AS largest,
       count(*) FILTER (WHERE oversize) AS over_500_kib, count(*) FILTER (WHERE size = 0) AS empty,
       count(*) FILTER (WHERE NOT list_contains(stored_truncation_reasons(), content_truncated)) AS crawler_truncated,
       count(*) FILTER (WHERE list_contains(stored_truncation_reasons(), content_truncated)) AS stored_truncated
FROM read_sizes
GROUP BY crawl ORDER BY crawl;

-- The largest files (real size and bytes stored), and how many lines and rules they hold.
SELECT crawl, url_host_name, coalesce(payload_length_real, payload_length) AS size, payload_length AS stored,
       oversize, line_count, rule_count, content_truncated
FROM captures ORDER BY size DESC LIMIT 20;
