// Package schema defines the tables of the robocensus dataset: one Go struct
// per table whose parquet struct tags are the column contract (DESIGN.md,
// "Dataset"), a typed [Writer] over an io.Writer, the schema [Version]
// stamped on every file, and an [ArrowReader] over an io.ReaderAt, so that
// programs can scan the dataset without a database. It opens no files:
// callers own paths, temporary files and renames. The tables with many rows
// a capture have writers of their own, with less work a row:
// [AgentsWriter], and [RulesWriter] and [DiagnosticsWriter], which write the
// rows, schema and row group statistics [Writer] would.
//
// It sits under both ends of the data flow: package ingest makes the rows
// and ingest/dataset writes and publishes their files, and package analyze
// and the notebooks read them. It also defines, once, the vocabularies
// that ingest, analyze and the notebooks share (vocabulary.go, such as
// [DecidesBefore], the order that picks a host's deciding capture). Of
// this repository it imports only package robots, whose verdicts
// [AgentsWriter] takes.
//
// # Dataset layout
//
// A dataset is a directory of Hive-partitioned Parquet files, one directory
// per table and, below it, one per crawl:
//
//	DIR/captures/crawl=CC-MAIN-2025-05/part-00000.parquet
//	DIR/captures/crawl=CC-MAIN-2025-05/part-00001.parquet
//	DIR/diagnostics/crawl=CC-MAIN-2025-05/part-00000.parquet
//	DIR/rules/...  DIR/sitemaps/...  DIR/agents/...  DIR/inputs/...
//
// [PartitionDir], [PartName] and [Glob] build these paths; [CheckCrawl] says
// which labels are safe. The crawl label is not stored in the files: DuckDB
// adds a crawl column from the directory name. A partition becomes visible
// only when complete, because its writer renames finished files into place.
//
// # Tables
//
// [Tables] lists them; each has a row type ([Row]):
//
//	table        row type      one row per
//	captures     Capture       capture (WARC/ARC record, tar entry, file)
//	diagnostics  Diagnostic    finding of the robots engine
//	rules        Rule          allow or disallow rule
//	sitemaps     Sitemap       sitemap line
//	agents       Agent         capture and tracked crawler
//	inputs       Input         input given to ingest
//	bodies       Body          distinct robots.txt text read by crawlers
//	directives   Directive     line of an extension directive (crawl-delay, license, ...)
//	preferences  Preference    usage preference (Content-Signal, Content-Usage pair)
//	hosts        Host          host, with its deciding and effective captures (computed at publication)
//	readings     Reading       capture, tracked crawler and other parser whose verdict differs from Google's
//	templates    TemplateBlock template block found in a capture (robots.File.Templates)
//
// capture_id joins every table to captures, and captures.input joins
// inputs.input. Column names follow Common Crawl's columnar index where they
// overlap (url, url_host_name, fetch_time, fetch_status, content_mime_type,
// warc_filename, warc_record_offset, ...), so the tables join with it too.
// The documentation of [Row] says how each Go type and tag maps to a Parquet
// and a DuckDB type, and which columns hold NULL.
//
// # Querying with DuckDB
//
// DuckDB reads the dataset as it is, with no import step:
//
//	CREATE VIEW captures AS
//	    SELECT * FROM read_parquet('DIR/captures/**/*.parquet', hive_partitioning = true);
//	CREATE VIEW agents AS
//	    SELECT * FROM read_parquet('DIR/agents/**/*.parquet', hive_partitioning = true);
//
//	-- share of sites that shut out GPTBot, per crawl
//	SELECT crawl, avg((verdict = 'disallowed')::INT) AS blocked
//	FROM agents WHERE agent = 'GPTBot' GROUP BY crawl ORDER BY crawl;
//
//	-- what the file says about itself
//	SELECT decode(key), decode(value) FROM parquet_kv_metadata('DIR/captures/**/*.parquet');
//
// DESCRIBE shows TIMESTAMP, INTEGER, BIGINT, BOOLEAN, VARCHAR and VARCHAR[]
// columns exactly as DESIGN.md lists them; the package tests check this with
// a real DuckDB. Timestamps are UTC. If every crawl label of a dataset looks
// like a date, DuckDB makes crawl a DATE: add hive_types = {'crawl':
// VARCHAR} to keep it a string.
//
// # Reading without a database
//
// [NewArrowReader] returns the rows of one file as Arrow records of at most
// [DefaultBatchSize] rows, reading only the columns asked for
// ([WithColumns]) and holding about one page per column plus one batch in
// memory. It refuses files of another major schema version or of another
// table ([WithTable]). [WithDictionary] reads string columns as Arrow
// dictionaries, one row group at a time: each row is an index in the
// distinct values of its row group, decoded once, which makes the
// repetitive columns of agents, diagnostics and rules several times
// cheaper to read.
//
// # Versions
//
// Every file carries robocensus.schema_version ([Version], "MAJOR.MINOR")
// and robocensus.table in its footer. Adding a column bumps the minor
// version; removing, renaming or retyping one bumps the major version, and
// readers refuse majors they do not know ([CheckVersion], [ReadVersion]).
// Schema 2.0 renamed three captures columns and one bodies column
// ([RenamedColumns]); [NewArrowReader] reads 1.x files under the 2.0
// names.
//
// # Adding a column
//
// A column is a field of its table's row type (tables.go), with its
// parquet tag; its doc says what it holds and when it is NULL. Then:
//
//  1. bump the minor version ([Version], versionMinor): readers of the
//     same major read older files by name, and [NewArrowReader] gives them
//     the new column as NULL;
//  2. the contract: the column's DuckDB type in DESIGN.md ("Dataset") and in
//     TestDuckDBDescribe's wantTypes, which fails until both agree, and an
//     entry under "Schema changes" in README;
//  3. a table with a writer of its own ([AgentsWriter], [RulesWriter],
//     [DiagnosticsWriter]) writes it there as well: the tests that compare
//     each with [Writer] fail until it does;
//  4. ingest fills it (ingest/rows.go; ingest's nulls test says which
//     columns hold NULL), and the notebooks' views (notebooks/00_load.sql)
//     read it, NULL for older crawls.
//
// Renaming, removing or retyping a column bumps the major version instead
// (see Versions). A new table is a row type and an entry of tables
// (layout.go), which [Tables] lists and ingest/dataset publishes.
//
// A vocabulary that ingest, analyze and the notebooks share (an order, a
// list of codes) is defined once in vocabulary.go; its SQL form reaches the
// notebooks through notebooks/vocabulary.sql, generated by go test
// ./notebooks -update, and internal/archtest fails on a second spelling.
//
// # Performance
//
// The writers' and [NewArrowReader]'s speed on synthetic captures, measured
// with go test ./schema -run '^$' -bench . : see README, Performance.
package schema
