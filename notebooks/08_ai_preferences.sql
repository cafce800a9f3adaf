-- 08_ai_preferences.sql: AI usage preferences (Content-Signal, Content-Usage, License) next to blocking.
--
--   duckdb -cmd "SET VARIABLE dataset = '/path/to/robocensus-data'" -f notebooks/08_ai_preferences.sql
--
-- Since 2024 robots.txt files also state how their content may be used:
-- Cloudflare's Content-Signal (contentsignals.org: search, ai-input,
-- ai-train = yes|no), the IETF AI-preferences Content-Usage
-- (draft-ietf-aipref-attach and -vocab: [path] train-ai=y|n, ...), and the
-- RSL License: line. The preferences table holds one row per stated
-- key=value (allowed NULL when the value is not understood), the
-- directives table one row per line of these and the older extensions
-- (crawl-delay, host, clean-param, ...). Shows, per crawl over hosts with a
-- usable robots.txt: how many state each mechanism, the values stated per
-- category, how preferences sit with the verdict for GPTBot, and the older
-- extensions in a compact table.

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

CREATE OR REPLACE VIEW hosts AS SELECT * FROM read_parquet(coalesce(getvariable('dataset'), 'robocensus-data') || '/hosts/**/*.parquet', hive_partitioning = true, hive_types = {'crawl': VARCHAR}, union_by_name = true);

-- One row per host and crawl (the hosts table, schema 1.3 and later): the
-- capture whose answer decides for it once redirects are followed, as
-- Google follows them (effective_capture_id), or its deciding capture when
-- the chain is not resolved; host is the host's name, url_host_name the
-- capture's. A host that redirects to a robots.txt blocking GPTBot blocks
-- GPTBot. This is how robocensus report counts hosts.
CREATE OR REPLACE VIEW effective AS
SELECT h.url_host_name AS host, c.*
FROM hosts h JOIN captures c ON c.crawl = h.crawl AND c.capture_id = coalesce(h.effective_capture_id, h.capture_id);


-- Hosts with a usable robots.txt (as robocensus report counts them:
-- outcome rules or no-rules, or unknown: no HTTP status and a robots.txt,
-- not an HTML page without rules, which is not-robots).
CREATE OR REPLACE VIEW usable AS
SELECT * FROM effective WHERE outcome IN ('rules', 'no-rules', 'unknown');

-- Adoption: the share of usable hosts whose robots.txt states each mechanism.
SELECT h.crawl, m.mechanism, count(DISTINCT h.host) FILTER (d.capture_id IS NOT NULL) AS hosts, any_value(n.usable) AS usable_hosts,
       round(100 * count(DISTINCT h.host) FILTER (d.capture_id IS NOT NULL) / any_value(n.usable), 2) AS pct
FROM usable h
CROSS JOIN (VALUES ('content-signal'), ('content-usage'), ('license')) m(mechanism)
LEFT JOIN directives d ON d.crawl = h.crawl AND d.capture_id = h.capture_id AND d.key = m.mechanism
JOIN (SELECT crawl, count(*) AS usable FROM usable GROUP BY crawl) n ON n.crawl = h.crawl
GROUP BY ALL ORDER BY h.crawl, m.mechanism;

-- The values stated, per mechanism and category: hosts saying yes, no, or
-- something not understood; file-wide or for some crawlers only.
SELECT p.crawl, p.source, p.category,
       count(DISTINCT h.host) FILTER (p.allowed) AS hosts_yes,
       count(DISTINCT h.host) FILTER (NOT p.allowed) AS hosts_no,
       count(DISTINCT h.host) FILTER (p.allowed IS NULL) AS hosts_not_understood,
       count(DISTINCT h.host) FILTER (len(p.user_agents) = 0) AS hosts_file_wide
FROM preferences p JOIN usable h USING (crawl, capture_id)
GROUP BY ALL ORDER BY p.crawl, p.source, p.category;

-- Preferences and blocking: hosts that ask not to train AI models
-- (Content-Signal ai-train=no or Content-Usage train-ai=n, for the whole
-- site: file-wide or in the '*' group, path '/'; Content-Signal keys in any
-- case, as the engine reads them), by what their rules say to
-- GPTBot. "allowed" here is a host that asks not to be trained on yet lets
-- OpenAI's training crawler fetch everything.
WITH no_training AS (
    SELECT DISTINCT crawl, capture_id FROM preferences
    WHERE NOT allowed AND path = '/' AND (len(user_agents) = 0 OR list_contains(user_agents, '*'))
      AND ((source = 'content-signal' AND lower(category) = 'ai-train') OR (source = 'content-usage' AND category = 'train-ai')))
SELECT h.crawl, (n.capture_id IS NOT NULL) AS asks_no_training, a.verdict AS gptbot_verdict, count(*) AS hosts
FROM usable h
JOIN agents a ON a.crawl = h.crawl AND a.capture_id = h.capture_id AND a.agent = 'GPTBot'
LEFT JOIN no_training n ON n.crawl = h.crawl AND n.capture_id = h.capture_id
GROUP BY ALL ORDER BY h.crawl, asks_no_training DESC, gptbot_verdict;

-- The older extensions and the rest, compactly: hosts using each key, and
-- the share of its lines whose value follows the key's definition.
SELECT d.crawl, d.key, count(DISTINCT h.host) AS hosts, count(*) AS lines,
       round(100 * avg(d.valid::INT), 1) AS pct_valid
FROM directives d JOIN usable h USING (crawl, capture_id)
GROUP BY ALL ORDER BY d.crawl, hosts DESC, d.key;
