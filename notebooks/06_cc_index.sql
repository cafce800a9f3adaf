-- 06_cc_index.sql: join the dataset with Common Crawl's columnar index.
--
--   duckdb -cmd "SET VARIABLE dataset = '/path/to/robocensus-data'" \
--          -cmd "SET VARIABLE cc_index = '/path/to/cc-index/table/cc-main/warc/crawl=CC-MAIN-2025-05/subset=robotstxt/*.parquet'" \
--          -f notebooks/06_cc_index.sql
--
-- The captures table uses the index's column names (url, url_host_name,
-- fetch_time, fetch_status, warc_filename, warc_record_offset,
-- warc_record_length), so a capture of a Common Crawl robotstxt WARC joins
-- the index row of the same record on warc_filename and warc_record_offset
-- (url as a check). The index is public (s3://commoncrawl/cc-index/table/
-- cc-main/warc/, or https://data.commoncrawl.org/ with the httpfs
-- extension); point cc_index at a local copy of the partition you need.
-- Shows: how many captures the index knows, and index columns (languages,
-- the index's own digest) next to robocensus's.

CREATE OR REPLACE VIEW captures AS SELECT * FROM read_parquet(coalesce(getvariable('dataset'), 'robocensus-data') || '/captures/**/*.parquet', hive_partitioning = true, hive_types = {'crawl': VARCHAR}, union_by_name = true);
CREATE OR REPLACE VIEW cc_index AS SELECT * FROM read_parquet(coalesce(getvariable('cc_index'), 'cc-index/*.parquet'), hive_partitioning = true, union_by_name = true);

-- Captures found in the index, per crawl.
SELECT c.crawl, count(*) AS captures, count(i.url) AS in_index,
       count(*) FILTER (WHERE i.url IS NOT NULL AND i.url <> c.url) AS url_differs
FROM captures c LEFT JOIN cc_index i
    ON i.warc_filename = c.warc_filename AND i.warc_record_offset = c.warc_record_offset
GROUP BY c.crawl ORDER BY c.crawl;

-- The joined rows: what the index says next to what robocensus found.
SELECT c.url_host_name, c.fetch_status, i.fetch_status AS index_status, c.outcome,
       c.payload_digest, i.content_digest AS index_digest, c.warc_record_length, i.warc_record_length AS index_length
FROM captures c JOIN cc_index i
    ON i.warc_filename = c.warc_filename AND i.warc_record_offset = c.warc_record_offset AND i.url = c.url
ORDER BY c.url_host_name LIMIT 50;
