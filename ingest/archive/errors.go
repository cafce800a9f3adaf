package archive

import (
	"errors"
	"fmt"
)

// Sentinel errors. [CaptureReader.Next] returns a non-EOF error only when the
// input cannot be read any further; such an error is an [*InputError] that
// wraps one of these (or the error of the underlying io.Reader), and it
// sticks: every later call returns it again. Damage that the readers recover
// from is never returned; it is recorded in [Counts.Damage], where
// [Damage.Kind] names it.
var (
	// ErrUnsupportedFormat means the input is in a format this package does
	// not read (for example an LZ4-compressed WARC, or a file that is none of
	// WARC, ARC, tar or a robots.txt body).
	ErrUnsupportedFormat = errors.New("archive: unsupported input format")

	// ErrDictionary means the dictionary frame at the start of a .warc.zst
	// file is malformed, too large (over [MaxZstdDictionary]) or not a
	// Zstandard dictionary, so no record of the file can be decoded.
	ErrDictionary = errors.New("archive: invalid zstd dictionary frame")

	// ErrInvalidOption is wrapped by the error of a constructor given an
	// option value out of range.
	ErrInvalidOption = errors.New("archive: invalid option")

	// ErrRead wraps a failure of the underlying reader or file (I/O error).
	ErrRead = errors.New("archive: read error")

	// ErrCorruptCompression is wrapped by damage from a corrupt gzip member
	// or zstd frame (bad header, corrupt data, checksum mismatch).
	ErrCorruptCompression = errors.New("archive: corrupt compressed data")

	// ErrTruncated is wrapped by damage from an input that ends inside a
	// compressed member, a record or a tar entry.
	ErrTruncated = errors.New("archive: input truncated")

	// ErrUnknownFormat is wrapped by every error of [Detect]: no reader of
	// this package takes the data (as opposed to a reader that fails on data
	// it takes, e.g. a bzip2 WARC). It wraps ErrUnsupportedFormat and adds
	// nothing to the message.
	ErrUnknownFormat = fmt.Errorf("%w", ErrUnsupportedFormat)

	// ErrBinary is the error of [Detect] for binary data (decompressed, when
	// it is compressed); it wraps ErrUnknownFormat.
	ErrBinary = fmt.Errorf("%w: binary data, neither a WARC, ARC or tar file nor a robots.txt body", ErrUnknownFormat)
)

// An InputError reports a failure at a position of an input file. Offset is
// the byte offset in File as stored (compressed bytes for compressed input).
type InputError struct {
	File   string
	Offset int64
	Err    error
}

// Error implements error.
func (e *InputError) Error() string {
	return fmt.Sprintf("%s: offset %d: %v", e.File, e.Offset, e.Err)
}

// Unwrap returns the underlying error, so errors.Is finds the sentinels.
func (e *InputError) Unwrap() error { return e.Err }

// errGap is returned inside the package when decompressed data stops at a
// discontinuity (a corrupt member, skipped garbage): the bytes after it do
// not continue the bytes before it.
var errGap = errors.New("archive: discontinuity in input")

// errTooLarge is returned inside the package when a header has no end
// within its limit.
var errTooLarge = errors.New("archive: header too large")

// memberError is returned by a source when the current compressed member is
// damaged (the source has recorded the Damage); the framer marks a
// discontinuity and goes on with the next member.
type memberError struct {
	kind string // a Damage kind
	err  error
}

func (e *memberError) Error() string { return e.kind + ": " + e.err.Error() }
func (e *memberError) Unwrap() error { return e.err }
