-- vocabulary.sql: the vocabularies of package schema (schema/vocabulary.go) as DuckDB macros.
--
-- Every notebook repeats this block after its views, so each runs alone; in an
-- interactive session, read it after 00_load.sql's views (00_load.sql holds it too):
--
--   duckdb -cmd "SET VARIABLE dataset = '/path/to/robocensus-data'" -cmd ".read notebooks/vocabulary.sql"
--
-- Shows: nothing; it defines the macros the notebooks use.

-- Vocabulary: generated from package schema by `go test ./notebooks -update`; edit schema/vocabulary.go, not this block.
-- deciding_captures(t): the rows of the captures table or view t that decide for their host in
-- their crawl: not a redirect if it has one, then the latest fetched, then the smallest capture_id.
CREATE OR REPLACE MACRO deciding_captures(t) AS TABLE
SELECT * EXCLUDE (rn) FROM (
    SELECT c.*, row_number() OVER (PARTITION BY crawl, url_host_name ORDER BY (outcome = 'redirect'), fetch_time DESC NULLS LAST, capture_id) AS rn
    FROM query_table(t) c)
WHERE rn = 1;
-- End of the vocabulary.
