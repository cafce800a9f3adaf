package schema

import "errors"

// Errors returned by this package. They are wrapped with context
// (fmt.Errorf("...: %w", err)), so test for them with [errors.Is].
var (
	// ErrNoVersion means a Parquet file carries no
	// robocensus.schema_version key: it was not written by this package.
	ErrNoVersion = errors.New("schema: file has no robocensus.schema_version")

	// ErrUnknownVersion means a file's schema version is malformed or has a
	// major version this package does not read (see [Version]).
	ErrUnknownVersion = errors.New("schema: unknown schema version")

	// ErrUnknownTable means a table name is not one of [Tables].
	ErrUnknownTable = errors.New("schema: unknown table")

	// ErrWrongTable means a file holds another table than the one asked for
	// (see [WithTable]).
	ErrWrongTable = errors.New("schema: file holds another table")

	// ErrNoColumn means a column asked for with [WithColumns] is not in the
	// file.
	ErrNoColumn = errors.New("schema: no such column")

	// ErrRenamedColumns means a [Reader] was asked to read a file of an
	// older major version whose table has columns renamed since (see
	// [RenamedColumns]).
	ErrRenamedColumns = errors.New("schema: file of an older schema version with columns renamed since")

	// ErrBadCrawl means a crawl label cannot name a Hive partition (see
	// [CheckCrawl]).
	ErrBadCrawl = errors.New("schema: bad crawl label")

	// ErrBadOption means a [WriterOption] or [ReaderOption] was given an
	// invalid argument.
	ErrBadOption = errors.New("schema: bad option")

	// ErrClosed means a [Writer] or [ArrowReader] was used after Close.
	ErrClosed = errors.New("schema: use after close")
)
