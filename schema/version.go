package schema

import (
	"fmt"
	"io"
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
const Version = "1.3"

// versionMajor is the major part of [Version], the only major version this
// package reads.
const versionMajor = 1

// Footer key/value metadata keys written on every file.
const (
	// VersionKey holds the schema [Version] the file was written with.
	VersionKey = "robocensus.schema_version"
	// TableKey holds the name of the table the file belongs to, e.g.
	// "captures", so a file read out of its directory still says what it
	// is.
	TableKey = "robocensus.table"
)

// CheckVersion returns nil if this package reads files of schema version v:
// "MAJOR.MINOR" with the major version of [Version]. Otherwise it returns an
// error wrapping [ErrNoVersion] (v is empty) or [ErrUnknownVersion].
func CheckVersion(v string) error {
	if v == "" {
		return ErrNoVersion
	}
	major, minor, ok := strings.Cut(v, ".")
	if !ok || !isDecimal(major) || !isDecimal(minor) {
		return fmt.Errorf("%w: %q is not MAJOR.MINOR", ErrUnknownVersion, v)
	}
	if n, err := strconv.Atoi(major); err != nil || n != versionMajor {
		return fmt.Errorf("%w: %q, this reader knows major version %d", ErrUnknownVersion, v, versionMajor)
	}
	return nil
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
