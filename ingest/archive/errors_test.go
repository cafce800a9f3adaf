package archive

import (
	"errors"
	"fmt"
	"slices"
	"strings"
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
	names := make([]string, 0, len(sentinels))
	for name := range sentinels {
		names = append(names, name)
	}
	slices.Sort(names)
	if declared := testutil.ErrorVars(t, "."); !slices.Equal(declared, names) {
		t.Fatalf("the package declares the sentinels %v; this test checks %v", declared, names)
	}
	for _, name := range names {
		checkArchivePrefix(t, name, sentinels[name])
	}
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
	if err == nil {
		t.Errorf("%s: no error", what)
		return
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "archive: ") || strings.Count(msg, "archive: ") != 1 || strings.Contains(msg, "ingest: ") {
		t.Errorf("%s: %q, want it to start with \"archive: \" once", what, msg)
	}
}
