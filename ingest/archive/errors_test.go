package archive

import (
	"errors"
	"fmt"
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
)

// TestErrorPrefix checks that every sentinel of the package, and the
// errors made from one, name the package once at the start of their text:
// "archive: ...", never "ingest: ..." nor "archive: archive: ...".
func TestErrorPrefix(t *testing.T) {
	sentinels := map[string]error{
		"ErrUnsupportedFormat":  ErrUnsupportedFormat,
		"ErrDictionary":         ErrDictionary,
		"ErrInvalidOption":      ErrInvalidOption,
		"ErrRead":               ErrRead,
		"ErrCorruptCompression": ErrCorruptCompression,
		"ErrTruncated":          ErrTruncated,
		"ErrUnknownFormat":      ErrUnknownFormat,
		"ErrBinary":             ErrBinary,
		"errGap":                errGap,
		"errTooLarge":           errTooLarge,
	}
	testutil.CheckSentinels(t, ".", sentinels, func(name string, err error) { checkArchivePrefix(t, name, err) })
	optErr := CheckOptions(WithMaxBody(1))
	checkArchivePrefix(t, "an option error", optErr)
	_, detectErr := Detect([]byte{0, 1, 2, 3, 0xff, 0xfe, 0, 0, 1, 2})
	checkArchivePrefix(t, "Detect's error for binary data", detectErr)
	wrapped := &InputError{File: "in.warc.gz", Offset: 7, Err: fmt.Errorf("%w: %w", ErrRead, errors.New("disk gone"))}
	if got, want := wrapped.Error(), "in.warc.gz: offset 7: archive: read error: disk gone"; got != want {
		t.Errorf("InputError: %q, want %q", got, want)
	}
}

func checkArchivePrefix(t *testing.T, what string, err error) {
	t.Helper()
	testutil.CheckErrorPrefix(t, what, err, "archive: ", "ingest: ")
}
