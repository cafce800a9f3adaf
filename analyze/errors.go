package analyze

import "errors"

// Errors of this package. Reading errors of the Parquet files wrap the
// errors of package schema.
var (
	// ErrNoDataset means the folder given to Open holds no partition of the
	// captures table.
	ErrNoDataset = errors.New("analyze: not a robocensus dataset")
	// ErrNoSite means the dataset holds no capture of the host asked for.
	ErrNoSite = errors.New("analyze: no capture of this host")
	// ErrNotReaderAt means a file of the fs.FS given to Open cannot be read
	// at an offset (it does not implement io.ReaderAt).
	ErrNotReaderAt = errors.New("analyze: file does not implement io.ReaderAt")
	// ErrBadOption means an Option was given an invalid argument.
	ErrBadOption = errors.New("analyze: invalid option")
	// ErrBadFormat means a format name other than html, md and json.
	ErrBadFormat = errors.New("analyze: unknown format")
)
