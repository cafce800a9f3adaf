-- 11_ranks.sql: ranked sites (Tranco, Common Crawl's combined list) by Common Crawl's fetch classes, per top-k stratum.
--
--   duckdb -cmd "SET VARIABLE dataset = '/path/to/robocensus-data'" -cmd "SET VARIABLE ranks = 'tranco.csv'" -f notebooks/11_ranks.sql
--
-- A ranked host list has one "rank,host" (Tranco's CSV) or "rank<TAB>host"
-- line per host. Joined with the hosts table (one row per crawl and host,
-- redirects followed within the crawl), it gives Common Crawl's
-- robotstxt-status-counts-topk.csv for each crawl: per stratum (top 1k,
-- 10k, 50k, 100k, 1M, every ranked host), the ranked hosts with no
-- robots.txt capture, and the others by fetch class; then what the
-- robots.txt of those hosts, redirects followed (their effective
-- capture), say to some AI crawlers. robocensus report --ranks FILE shows
-- the same tables; a test checks that they agree.

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

-- The ranked list, one line per host: "rank,host", "rank<TAB>host" or "host<TAB>rank" (gzipped or not);
-- a header line is dropped (no number in it); a host listed twice keeps its best rank.
CREATE OR REPLACE TABLE ranks AS
WITH lines AS (
    SELECT regexp_split_to_array(trim(line), '\s*[,\t]\s*') AS f
    FROM read_csv(coalesce(getvariable('ranks'), 'ranks.csv'), columns = {'line': 'VARCHAR'}, header = false,
                  delim = chr(1), quote = '', escape = '', auto_detect = false)
    WHERE trim(line) <> '' AND NOT starts_with(trim(line), '#')
), fields AS (
    SELECT CASE WHEN TRY_CAST(f[1] AS INTEGER) IS NOT NULL THEN TRY_CAST(f[1] AS INTEGER) ELSE TRY_CAST(f[2] AS INTEGER) END AS rank,
           CASE WHEN TRY_CAST(f[1] AS INTEGER) IS NOT NULL THEN f[2] ELSE f[1] END AS host
    FROM lines WHERE len(f) = 2
)
SELECT rtrim(lower(host), '.') AS host, min(rank) AS rank FROM fields
WHERE rank >= 1 AND host <> '' GROUP BY ALL;
CREATE OR REPLACE TABLE strata AS
SELECT * FROM (VALUES (1, '1k', 1000), (2, '10k', 10000), (3, '50k', 50000), (4, '100k', 100000), (5, '1M', 1000000), (6, 'all ranked', NULL))
    AS s(ord, stratum, top)
WHERE top IS NULL OR top < (SELECT max(rank) FROM ranks);

-- Ranked hosts per stratum and crawl, in the columns of Common Crawl's table
-- (fetch_classes() lists the classes in that order).
SELECT c.crawl, s.stratum, count(*) AS ranked,
       count(*) FILTER (h.fetch_class IS NULL) AS no_capture,
       count(*) FILTER (h.fetch_class = fetch_classes()[1]) AS http_forbidden,
       count(*) FILTER (h.fetch_class = fetch_classes()[2]) AS http_defer_visits,
       count(*) FILTER (h.fetch_class = fetch_classes()[3]) AS http_allow_all,
       count(*) FILTER (h.fetch_class = fetch_classes()[4]) AS redirect_not_resolved,
       count(*) FILTER (h.fetch_class = fetch_classes()[5]) AS not_robots,
       count(*) FILTER (h.fetch_class = fetch_classes()[6]) AS robots_no_rules,
       count(*) FILTER (h.fetch_class = fetch_classes()[7]) AS robots_with_rules
FROM (SELECT DISTINCT crawl FROM hosts) c
CROSS JOIN strata s
JOIN ranks r ON s.top IS NULL OR r.rank <= s.top
LEFT JOIN hosts h ON h.crawl = c.crawl AND h.url_host_name = r.host
GROUP BY c.crawl, s.ord, s.stratum ORDER BY c.crawl, s.ord;

-- What the ranked hosts' robots.txt, redirects followed, say to AI crawlers:
-- of the hosts whose answer is a robots.txt, those disallowed everything or some paths.
SELECT h.crawl, s.stratum, g.agent, count(*) AS robots_txt,
       count(*) FILTER (a.verdict = 'disallowed') AS disallowed,
       count(*) FILTER (a.verdict = 'partially-disallowed') AS partially_disallowed
FROM hosts h
JOIN ranks r ON r.host = h.url_host_name
JOIN strata s ON s.top IS NULL OR r.rank <= s.top
CROSS JOIN followed_ai_crawlers() g
LEFT JOIN agents a ON a.crawl = h.crawl AND a.capture_id = h.effective_capture_id AND a.agent = g.agent
WHERE list_contains(usable_fetch_classes(), h.fetch_class)
GROUP BY h.crawl, s.ord, s.stratum, g.ord, g.agent ORDER BY h.crawl, s.ord, g.ord;
