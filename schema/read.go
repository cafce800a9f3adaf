package schema

import (
	"errors"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"
)

// Reader reads the rows of one table from one Parquet file written by this
// package, in file order, by column name: a file of an older minor version
// without a column gives that column's zero value. NULL reads as the zero
// value (see [Row]). It is the typed counterpart of [Writer], for programs
// that copy rows from one dataset to another; analysis reads with
// [NewArrowReader]. A Reader is not safe for concurrent use.
type Reader[T Row] struct {
	r   *parquet.GenericReader[T]
	err error
}

// NewReader returns a Reader of the file of size bytes in r. It fails when
// the file is not Parquet or its schema version is not one this package
// reads ([CheckVersion]), and, with an error wrapping [ErrRenamedColumns],
// when it is a file of an older major version of a table whose columns
// were renamed since ([RenamedColumns]): a Reader would read their values
// as zero values. [NewArrowReader] reads such files.
func NewReader[T Row](r io.ReaderAt, size int64) (*Reader[T], error) {
	v, err := ReadVersion(r, size)
	if err != nil {
		return nil, err
	}
	if table := TableName[T](); !IsCurrentMajor(v) && len(renamed1[table]) > 0 {
		return nil, fmt.Errorf("%w: a %s file of schema %s (this package writes %s)", ErrRenamedColumns, table, v, Version)
	}
	f, err := parquet.OpenFile(r, size)
	if err != nil {
		return nil, fmt.Errorf("schema: opening %s file: %w", TableName[T](), err)
	}
	return &Reader[T]{r: parquet.NewGenericReader[T](f)}, nil
}

// Read reads up to len(rows) rows into rows and returns how many. At the
// end of the file it returns io.EOF (possibly with n > 0). Errors stick.
func (r *Reader[T]) Read(rows []T) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	clear(rows)
	n, err := r.r.Read(rows)
	if err != nil && !errors.Is(err, io.EOF) {
		r.err = fmt.Errorf("schema: reading %s rows: %w", TableName[T](), err)
		return n, r.err
	}
	return n, err
}

// NumRows returns the number of rows of the file.
func (r *Reader[T]) NumRows() int64 { return r.r.NumRows() }

// Close releases the reader. It does not close r.
func (r *Reader[T]) Close() error { return r.r.Close() }
