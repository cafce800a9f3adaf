package schema

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/metadata"
)

// Version is the version of the dataset schema, "MAJOR.MINOR", written in
// the footer of every file under [VersionKey].
//
// The minor version grows when columns are added: readers of the same major
// version still read the file, by column name. The major version grows when
// a column is removed, renamed or changes type or meaning: readers refuse
// files of a major version they do not know ([CheckVersion]).
//
// Schema 2.0 spells the captures columns it shares with Common Crawl's
// columnar index as the index does, renaming three columns of schema 1.x
// (see [RenamedColumns]), and adds url_surtkey, url_host_tld,
// url_host_registered_domain, url_protocol, url_port, content_charset and
// warc_segment. This package still reads 1.x files: [NewArrowReader] gives
// their renamed columns the 2.0 names.
//
// Schema 2.1 adds payload_length_real to captures: the payload's real
// size beside payload_length, the bytes stored. Files of an older version
// lack it; [NewArrowReader] reads it from them as NULL, [Reader] as nil.
//
// Schema 2.2 adds the readings table (the census of parsers, [Reading]).
// Datasets of an older version have no such table.
//
// Schema 2.3 adds the templates table (who wrote the robots.txt,
// [TemplateBlock]) and the source and cancelled columns of agents (whose
// lines shut a crawler out). Datasets of an older version have no such
// table; [NewArrowReader] reads the new agents columns from their files
// as NULL.
const Version = "2.3"

// versionMajor and versionMinor are the parts of [Version]; oldestMajor
// is the oldest major version this package reads.
const (
	versionMajor = 2
	versionMinor = 3
	oldestMajor  = 1
)

// renamed1 lists, per table, the columns schema 2.0 renamed: the 2.0 name
// and the name in files of major version 1.
var renamed1 = map[string][][2]string{
	"captures": {
		{"content_digest", "payload_digest"},
		{"content_truncated", "truncated"},
		{"fetch_redirect", "redirect_location"},
	},
	"bodies": {{"content_digest", "payload_digest"}},
}

// RenamedColumns returns the columns of a table that schema 2.0 renamed,
// each as its 2.0 name and its name in files of major version 1 (schema
// 1.x): in captures, payload_digest became content_digest, truncated
// content_truncated and redirect_location fetch_redirect; in bodies,
// payload_digest became content_digest. Nil for the other tables.
func RenamedColumns(table string) [][2]string { return slices.Clone(renamed1[table]) }

// Footer key/value metadata keys written on every file.
const (
	// VersionKey holds the schema [Version] the file was written with.
	VersionKey = "robocensus.schema_version"
	// TableKey holds the name of the table the file belongs to, e.g.
	// "captures", so a file read out of its directory still says what it
	// is.
	TableKey = "robocensus.table"
)

// CrawlersKey holds, in the footer of an agents file written by ingest,
// the crawler list its rows were classified with, as
// robots.MarshalCrawlers writes it: the report of the crawl uses that list
// (kinds, operators, order). Files written before it have none.
const CrawlersKey = "robocensus.crawlers"

// CheckVersion returns nil if this package reads files of schema version v:
// "MAJOR.MINOR" with a major version from 1 to that of [Version].
// Otherwise it returns an error wrapping [ErrNoVersion] (v is empty) or
// [ErrUnknownVersion].
func CheckVersion(v string) error {
	_, err := versionMajorOf(v)
	return err
}

// versionMajorOf returns the major version of v, checked as CheckVersion
// does.
func versionMajorOf(v string) (int, error) {
	if v == "" {
		return 0, ErrNoVersion
	}
	major, minor, ok := strings.Cut(v, ".")
	if !ok || !isDecimal(major) || !isDecimal(minor) {
		return 0, fmt.Errorf("%w: %q is not MAJOR.MINOR", ErrUnknownVersion, v)
	}
	n, err := strconv.Atoi(major)
	if err != nil || n < oldestMajor || n > versionMajor {
		return 0, fmt.Errorf("%w: %q, this reader knows major versions %d to %d", ErrUnknownVersion, v, oldestMajor, versionMajor)
	}
	return n, nil
}

// IsCurrentMajor reports whether a schema version v that [CheckVersion]
// accepts has the major version of [Version], so that its files have the
// columns of the row types under their names. Files of an older major
// version hold the columns [RenamedColumns] lists under their old names.
func IsCurrentMajor(v string) bool {
	n, err := versionMajorOf(v)
	return err == nil && n == versionMajor
}

// olderThanCurrent reports whether a schema version v that [CheckVersion]
// accepts is older than [Version], so that its files may lack columns
// added since.
func olderThanCurrent(v string) bool {
	major, err := versionMajorOf(v)
	if err != nil || major != versionMajor {
		return err == nil
	}
	_, minor, _ := strings.Cut(v, ".")
	n, err := strconv.Atoi(minor)
	return err == nil && n < versionMinor
}

func isDecimal(s string) bool {
	if s == "" || len(s) > 9 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// ReadVersion reads the schema version from the footer of the Parquet file
// of the given size in r. It returns an error wrapping [ErrNoVersion] or
// [ErrUnknownVersion] (with the version found) for a file this package does
// not read, or the error of reading the footer. It reads only the footer.
func ReadVersion(r io.ReaderAt, size int64) (string, error) {
	pf, err := openParquet(r, size, nil)
	if err != nil {
		return "", err
	}
	defer pf.Close()
	v := footerValue(pf.MetaData(), VersionKey)
	return v, CheckVersion(v)
}

// openParquet reads the footer of a Parquet file; opts may be nil.
func openParquet(r io.ReaderAt, size int64, opts []file.ReadOption) (*file.Reader, error) {
	pf, err := file.NewParquetReader(io.NewSectionReader(r, 0, size), opts...)
	if err != nil {
		return nil, fmt.Errorf("schema: reading Parquet footer: %w", err)
	}
	return pf, nil
}

// footerValue returns the value of key in the file's key/value metadata, or
// "".
func footerValue(md *metadata.FileMetaData, key string) string {
	if v := md.KeyValueMetadata().FindValue(key); v != nil {
		return *v
	}
	return ""
}

// checkFooter checks the version and table keys of a file and returns its
// table.
func checkFooter(md *metadata.FileMetaData) (Table, error) {
	if err := CheckVersion(footerValue(md, VersionKey)); err != nil {
		return Table{}, err
	}
	return LookupTable(footerValue(md, TableKey))
}
