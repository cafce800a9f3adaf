package schema

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/parquet-go/parquet-go"
)

// Table describes one table of the dataset.
type Table struct {
	// Name is the table's name and the top directory of its files, e.g.
	// "captures".
	Name string
	// Doc says in one line what a row is.
	Doc string
	// Parquet is the Parquet schema of the table's files, from the struct
	// tags of its row type.
	Parquet *parquet.Schema
	// Arrow is the Arrow schema an [ArrowReader] returns for the whole table.
	Arrow *arrow.Schema

	rowType reflect.Type
}

// tables lists every table in the order DESIGN.md gives them.
var tables = []Table{
	newTable[Capture]("captures", "one row per capture"),
	newTable[Diagnostic]("diagnostics", "one row per finding in a capture"),
	newTable[Rule]("rules", "one row per allow or disallow rule"),
	newTable[Sitemap]("sitemaps", "one row per sitemap line"),
	newTable[Agent]("agents", "one row per capture and tracked crawler"),
	newTable[Input]("inputs", "one row per input given to ingest"),
	newTable[Body]("bodies", "one row per distinct robots.txt text read by crawlers"),
	newTable[Directive]("directives", "one row per line of an extension directive (crawl-delay, content-signal, license, ...)"),
	newTable[Preference]("preferences", "one row per usage preference stated (Content-Signal, Content-Usage)"),
	newTable[Host]("hosts", "one row per host, with its deciding and effective captures after redirects, and its fetch class"),
	newTable[Reading]("readings", "one row per capture, tracked crawler and other parser's reading whose root or full-block verdict differs from Google's"),
	newTable[TemplateBlock]("templates", "one row per template block found in a capture (template, version, lines, state)"),
}

func newTable[T Row](name, doc string) Table {
	var zero T
	s := parquet.SchemaOf(zero)
	return Table{Name: name, Doc: doc, Parquet: s, Arrow: arrowSchema(s), rowType: reflect.TypeFor[T]()}
}

// Tables returns every table of the dataset, in DESIGN.md order. The
// schemas are shared and must not be modified.
func Tables() []Table { return slices.Clone(tables) }

// TableOf returns the table whose rows are T.
func TableOf[T Row]() Table {
	rt := reflect.TypeFor[T]()
	for _, t := range tables {
		if t.rowType == rt {
			return t
		}
	}
	panic("schema: no table for " + rt.String()) // unreachable: Row lists exactly these types
}

// TableName returns the name of the table whose rows are T, e.g.
// TableName[Capture]() is "captures".
func TableName[T Row]() string { return TableOf[T]().Name }

// LookupTable returns the table called name, or an error wrapping
// [ErrUnknownTable].
func LookupTable(name string) (Table, error) {
	for _, t := range tables {
		if t.Name == name {
			return t, nil
		}
	}
	return Table{}, fmt.Errorf("%w: %q", ErrUnknownTable, name)
}

// PartitionKey is the Hive partition key of every table: files live in
// <table>/crawl=<label>/, and DuckDB's hive_partitioning adds a crawl column
// from the path. The files themselves have no crawl column.
const PartitionKey = "crawl"

// PartitionDir returns the directory of one partition of a table,
// root/<table>/crawl=<label>. It only joins strings: it touches no files and
// does not check its arguments (see [CheckCrawl]).
func PartitionDir(root, table, crawl string) string {
	return filepath.Join(root, table, PartitionKey+"="+crawl)
}

// PartName returns the file name of the n-th part of a partition,
// "part-00000.parquet" for 0. Parts are numbered from 0; the name sorts in
// order up to 99,999 parts.
func PartName(n int) string { return fmt.Sprintf("part-%05d.parquet", n) }

// Glob returns the pattern that reads every partition of a table in DuckDB,
// root/<table>/**/*.parquet, as in
//
//	SELECT * FROM read_parquet('<Glob>', hive_partitioning = true)
func Glob(root, table string) string {
	return filepath.Join(root, table, "**", "*.parquet")
}

// maxCrawlLen bounds a crawl label; Common Crawl's are 15 bytes.
const maxCrawlLen = 64

// CheckCrawl reports whether label can name a partition: 1 to 64 bytes of
// ASCII letters, digits, '-', '_' and '.', not starting with '.'. Such a
// label needs no escaping in a Hive path, on any file system, and DuckDB
// reads it back unchanged. The error wraps [ErrBadCrawl].
//
// Beware that DuckDB guesses the type of a partition value: if every label
// of a dataset looks like a date ("2025-11-22"), crawl becomes a DATE
// column. Pass hive_types = {'crawl': VARCHAR} to read_parquet to keep it a
// string.
func CheckCrawl(label string) error {
	if label == "" || len(label) > maxCrawlLen || label[0] == '.' {
		return fmt.Errorf("%w: %q: want 1 to %d bytes, not starting with '.'", ErrBadCrawl, label, maxCrawlLen)
	}
	for i := 0; i < len(label); i++ {
		if !crawlByte(label[i]) {
			return fmt.Errorf("%w: %q: byte %q at %d; want letters, digits, '-', '_', '.'", ErrBadCrawl, label, label[i], i)
		}
	}
	return nil
}

func crawlByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.'
}
