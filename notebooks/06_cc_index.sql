-- 06_cc_index.sql: join the dataset with Common Crawl's columnar index.
--
--   duckdb -cmd "SET VARIABLE dataset = '/path/to/robocensus-data'" \
--          -cmd "SET VARIABLE cc_index = '/path/to/cc-index/table/cc-main/warc/crawl=CC-MAIN-2025-05/subset=robotstxt/*.parquet'" \
--          -f notebooks/06_cc_index.sql
--
-- The captures table spells the columns it shares with the index as the
-- index does (schema 2.0: url_surtkey, url_host_name, url_host_tld,
-- url_host_registered_domain, url_protocol, url_port, fetch_time,
-- fetch_status, fetch_redirect, content_mime_type, content_mime_detected,
-- content_charset, content_digest, content_truncated, warc_filename,
-- warc_record_offset, warc_record_length, warc_segment), so a capture of a
-- Common Crawl robotstxt WARC joins the index row of the same record on
-- warc_filename and warc_record_offset, and the rest of the index (the
-- pages of the crawl: subset 'warc') on url_surtkey, url_host_name or
-- url_host_registered_domain. Two differences: the index's content_digest
-- is the base32 SHA-1 without robocensus's "sha1:" prefix, and its
-- content_charset is detected from HTML pages (NULL for robots.txt
-- captures) where robocensus keeps the charset the server declared. The
-- index is public (s3://commoncrawl/cc-index/table/cc-main/warc/, or
-- https://data.commoncrawl.org/ with the httpfs extension); point cc_index
-- at a local copy of the partition you need.
-- Shows: how many captures the index knows and whether both agree on each
-- shared column, and the index's rows per segment and registered domain
-- next to the census's.

-- Crawls published with schema 1.x name three captures columns differently (payload_digest, truncated,
-- redirect_location) and lack the newer Common Crawl columns: the view gives every crawl the 2.0 names,
-- an old crawl's values under them, and NULL in the columns it lacks.
CREATE OR REPLACE VIEW captures AS SELECT * EXCLUDE (payload_digest, truncated, redirect_location) REPLACE (coalesce(content_digest, payload_digest) AS content_digest, coalesce(content_truncated, truncated) AS content_truncated, coalesce(fetch_redirect, redirect_location) AS fetch_redirect) FROM (SELECT * FROM read_parquet(coalesce(getvariable('dataset'), 'robocensus-data') || '/captures/**/*.parquet', hive_partitioning = true, hive_types = {'crawl': VARCHAR}, union_by_name = true) UNION ALL BY NAME SELECT NULL::VARCHAR AS payload_digest, NULL::VARCHAR AS truncated, NULL::VARCHAR AS redirect_location, NULL::VARCHAR AS content_digest, NULL::VARCHAR AS content_truncated, NULL::VARCHAR AS fetch_redirect, NULL::VARCHAR AS url_surtkey, NULL::VARCHAR AS url_host_tld, NULL::VARCHAR AS url_host_registered_domain, NULL::VARCHAR AS url_protocol, NULL::INTEGER AS url_port, NULL::VARCHAR AS content_charset, NULL::VARCHAR AS warc_segment, NULL::BIGINT AS payload_length_real WHERE false);
CREATE OR REPLACE VIEW cc_index AS SELECT * FROM read_parquet(coalesce(getvariable('cc_index'), 'cc-index/*.parquet'), hive_partitioning = true, union_by_name = true);

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

-- Captures found in the index, per crawl, and whether the shared columns agree.
SELECT c.crawl, count(*) AS captures, count(i.url) AS in_index,
       count(*) FILTER (WHERE i.url IS NOT NULL AND i.url_surtkey IS DISTINCT FROM c.url_surtkey) AS surtkey_differs,
       count(*) FILTER (WHERE i.url IS NOT NULL AND i.warc_segment IS DISTINCT FROM c.warc_segment) AS segment_differs,
       count(*) FILTER (WHERE i.url IS NOT NULL AND i.fetch_redirect IS DISTINCT FROM c.fetch_redirect) AS redirect_differs,
       count(*) FILTER (WHERE i.url IS NOT NULL AND i.content_truncated IS DISTINCT FROM c.content_truncated) AS truncated_differs,
       count(*) FILTER (WHERE i.url IS NOT NULL AND 'sha1:' || i.content_digest IS DISTINCT FROM c.content_digest) AS digest_differs
FROM captures c LEFT JOIN cc_index i
    ON i.warc_filename = c.warc_filename AND i.warc_record_offset = c.warc_record_offset
GROUP BY c.crawl ORDER BY c.crawl;

-- The joined rows: what the index says next to what robocensus found.
SELECT c.url_surtkey, c.url_protocol, c.url_port, c.fetch_status, i.fetch_status AS index_status, c.outcome,
       c.content_digest, i.content_digest AS index_digest, c.content_charset, i.content_charset AS index_charset,
       c.warc_record_length, i.warc_record_length AS index_length
FROM captures c JOIN cc_index i
    ON i.warc_filename = c.warc_filename AND i.warc_record_offset = c.warc_record_offset AND i.url_surtkey = c.url_surtkey
ORDER BY c.url_surtkey LIMIT 50;

-- Per segment: the census's captures and the index's rows of each subset.
SELECT c.crawl, c.warc_segment, count(DISTINCT c.capture_id) AS captures,
       count(i.url) FILTER (WHERE i.subset = 'robotstxt') AS index_robotstxt,
       count(i.url) FILTER (WHERE i.subset <> 'robotstxt') AS index_other
FROM captures c LEFT JOIN cc_index i ON i.warc_segment = c.warc_segment AND i.url_surtkey = c.url_surtkey
WHERE c.warc_segment IS NOT NULL
GROUP BY ALL ORDER BY c.crawl, c.warc_segment;

-- Per top-level label and registered domain: hosts in the census and rows in the index.
SELECT c.crawl, c.url_host_tld, c.url_host_registered_domain, count(DISTINCT c.url_host_name) AS hosts,
       (SELECT count(*) FROM cc_index i WHERE i.url_host_registered_domain = c.url_host_registered_domain) AS index_rows
FROM captures c
GROUP BY ALL ORDER BY hosts DESC, c.url_host_registered_domain LIMIT 50;
