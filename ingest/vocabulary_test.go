package ingest_test

import (
	"slices"
	"testing"

	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/robots"
)

// TestStoredTruncationReasons fails when the reasons the archive reader
// writes in Capture.Truncated (archive may import nothing of this
// repository, so it spells them itself) are not robots'
// StoredTruncationReasons, the one definition that the engine, the reports
// and the notebooks read.
func TestStoredTruncationReasons(t *testing.T) {
	written := []string{archive.TruncatedBodyCap, archive.TruncatedRecordCap, archive.TruncatedInput}
	if want := robots.StoredTruncationReasons(); !slices.Equal(written, want) {
		t.Errorf("archive writes the reasons %q, robots.StoredTruncationReasons are %q", written, want)
	}
}
