-- 07_web_almanac.sql: the Web Almanac's robots.txt figures on our data.
--
--   duckdb -cmd "SET VARIABLE dataset = '/path/to/robocensus-data'" -f notebooks/07_web_almanac.sql
--
-- The HTTP Archive Web Almanac's SEO chapter (almanac.httparchive.org, e.g.
-- the 2024 edition, "Crawlability & indexability") reports, per site: the
-- HTTP status robots.txt answers with, robots.txt files that are empty or
-- over Google's 500 KiB limit, the share with a 'User-agent: *' group, and
-- the AI crawlers robots.txt files name. These queries compute the same
-- figures from a crawl of robots.txt captures, one row per host (its
-- robots.txt after redirects, as the Almanac follows them to the final
-- answer), to compare with the chapter's tables; its site list (CrUX)
-- differs from a Common Crawl crawl's. The 3xx rows are the hosts whose
-- redirects could not be followed within the crawl.

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

CREATE OR REPLACE VIEW hosts AS SELECT * FROM read_parquet(coalesce(getvariable('dataset'), 'robocensus-data') || '/hosts/**/*.parquet', hive_partitioning = true, hive_types = {'crawl': VARCHAR}, union_by_name = true);

-- One row per host and crawl (the hosts table, schema 1.3 and later): the
-- capture whose answer decides for it once redirects are followed, as the
-- Almanac follows them (effective_capture_id), or its deciding capture when
-- the chain is not resolved; host is the host's name, url_host_name the
-- capture's. This is how robocensus report counts hosts.
CREATE OR REPLACE VIEW effective AS
SELECT h.url_host_name AS host, c.*
FROM hosts h JOIN captures c ON c.crawl = h.crawl AND c.capture_id = coalesce(h.effective_capture_id, h.capture_id);

-- Status of the robots.txt answer, per host.
SELECT crawl, CASE
        WHEN fetch_status IS NULL THEN 'no status'
        WHEN fetch_status BETWEEN 200 AND 299 THEN '2xx'
        WHEN fetch_status BETWEEN 300 AND 399 THEN '3xx'
        WHEN fetch_status = 404 THEN '404'
        WHEN fetch_status BETWEEN 400 AND 499 THEN 'other 4xx'
        ELSE '5xx and other' END AS status,
       count(*) AS hosts, round(100 * count(*) / sum(count(*)) OVER (PARTITION BY crawl), 2) AS pct
FROM effective GROUP BY crawl, status ORDER BY crawl, status;

-- Of the hosts whose robots.txt answered 2xx: empty files, files over
-- 500 KiB, HTML served as robots.txt, a 'User-agent: *' line, a sitemap.
SELECT crawl, count(*) AS hosts_2xx,
       round(100 * avg((payload_length = 0 OR outcome = 'no-rules' AND line_count = 0)::INT), 2) AS pct_empty,
       round(100 * avg(oversize::INT), 2) AS pct_over_500_kib,
       round(100 * avg((outcome = 'not-robots')::INT), 2) AS pct_not_robots,
       round(100 * avg(list_contains(list_transform(user_agents, u -> trim(u)), '*')::INT), 2) AS pct_user_agent_star,
       round(100 * avg((sitemap_count > 0)::INT), 2) AS pct_with_sitemap
FROM effective WHERE fetch_status BETWEEN 200 AND 299 GROUP BY crawl ORDER BY crawl;

-- AI crawlers named, as the chapter counts them: share of 2xx robots.txt
-- naming each of the best-known AI user agents in a group.
SELECT h.crawl, a.agent, count(*) AS hosts_2xx, round(100 * avg(a.named::INT), 2) AS pct_named
FROM effective h JOIN agents a USING (crawl, capture_id)
WHERE h.fetch_status BETWEEN 200 AND 299
  AND a.agent IN ('GPTBot', 'CCBot', 'ChatGPT-User', 'Google-Extended', 'anthropic-ai', 'ClaudeBot',
                  'PerplexityBot', 'Bytespider', 'Amazonbot', 'Applebot-Extended', 'cohere-ai')
GROUP BY ALL ORDER BY h.crawl, pct_named DESC, a.agent;

-- Any AI crawler named: share of 2xx robots.txt naming at least one of them.
SELECT h.crawl, count(DISTINCT h.host) AS hosts_2xx,
       round(100 * count(DISTINCT h.host) FILTER (WHERE a.named) / count(DISTINCT h.host), 2) AS pct_naming_one
FROM effective h JOIN agents a USING (crawl, capture_id)
WHERE h.fetch_status BETWEEN 200 AND 299
  AND a.agent IN ('GPTBot', 'CCBot', 'ChatGPT-User', 'Google-Extended', 'anthropic-ai', 'ClaudeBot',
                  'PerplexityBot', 'Bytespider', 'Amazonbot', 'Applebot-Extended', 'cohere-ai')
GROUP BY h.crawl ORDER BY h.crawl;
