package schema

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/parquet-go/parquet-go"
)

// A ColumnField is a column that [ReadColumns] reads into a field of R:
// the column's name and Parquet kind, and Set, which sets the field from a
// value of the column that is not NULL.
type ColumnField[R any] struct {
	Name string
	Kind parquet.Kind
	Set  func(*R, *parquet.Value)
}

// ReadColumns reads the columns of fields from the Parquet file of size
// bytes in r, a file of this major version of the schema, row group by
// row group, column by column, page by page, without assembling rows: a
// few columns of a wide table cost only their pages. For each row group it
// calls f with one R a row, each field set by its column (the zero value
// for NULL, as [Reader] reads it); rows is reused for the next row group.
// An error of f is returned as it is. A file of another major version,
// or without one of the columns with its kind, is an error wrapping
// [ErrRenamedColumns].
func ReadColumns[R any](r io.ReaderAt, size int64, fields []ColumnField[R], f func(rows []R) error) error {
	if v, err := ReadVersion(r, size); err != nil || !IsCurrentMajor(v) {
		return fmt.Errorf("schema: a file of schema %q: %w", v, errors.Join(err, ErrRenamedColumns))
	}
	pf, err := parquet.OpenFile(r, size)
	if err != nil {
		return fmt.Errorf("schema: opening file: %w", err)
	}
	columns := make([]int, len(fields))
	for i, c := range fields {
		leaf, ok := pf.Schema().Lookup(c.Name)
		if !ok || leaf.Node.Type().Kind() != c.Kind {
			return fmt.Errorf("schema: no %s column %s: %w", c.Kind, c.Name, ErrRenamedColumns)
		}
		columns[i] = leaf.ColumnIndex
	}
	var rows []R
	values := make([]parquet.Value, 1024)
	for _, rg := range pf.RowGroups() {
		rows = slices.Grow(rows[:0], int(rg.NumRows()))[:rg.NumRows()]
		clear(rows) // as Reader does: NULL reads as the zero value
		chunks := rg.ColumnChunks()
		for i, c := range fields {
			if err := readColumn(chunks[columns[i]], rows, values, c.Set); err != nil {
				return fmt.Errorf("schema: column %s: %w", c.Name, err)
			}
		}
		if err := f(rows); err != nil {
			return err
		}
	}
	return nil
}

// readColumn sets the field of each of rows, one a row of the row group,
// from the values of the column chunk that are not NULL.
func readColumn[R any](chunk parquet.ColumnChunk, rows []R, values []parquet.Value, set func(*R, *parquet.Value)) error {
	pages := chunk.Pages()
	defer pages.Close()
	row := 0
	for {
		page, err := pages.ReadPage()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		r := page.Values()
		for {
			n, err := r.ReadValues(values)
			if row+n > len(rows) {
				parquet.Release(page)
				return fmt.Errorf("more values than the row group's %d rows", len(rows))
			}
			for i := range values[:n] {
				if !values[i].IsNull() {
					set(&rows[row+i], &values[i])
				}
			}
			row += n
			if err == io.EOF {
				break
			}
			if err != nil {
				parquet.Release(page)
				return err
			}
		}
		parquet.Release(page)
	}
	if row != len(rows) {
		return fmt.Errorf("%d values for the row group's %d rows", row, len(rows))
	}
	return nil
}
