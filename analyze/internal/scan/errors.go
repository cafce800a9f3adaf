package scan

import "errors"

// Errors of reading a dataset. Reading errors of the Parquet files wrap
// the errors of package schema.
var (
	// ErrNoDataset means the folder given to Open holds no partition of the
	// captures table.
	ErrNoDataset = errors.New("analyze: not a robocensus dataset")
	// ErrNotReaderAt means a file of the fs.FS given to Open cannot be read
	// at an offset (it does not implement io.ReaderAt).
	ErrNotReaderAt = errors.New("analyze: file does not implement io.ReaderAt")
	// ErrBadOption means an option was given an invalid argument.
	ErrBadOption = errors.New("analyze: invalid option")
)
