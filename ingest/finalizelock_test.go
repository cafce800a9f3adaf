package ingest_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/ingest"
)

// Issue 27 item 2: a finalize lock that cannot be read fails the run with
// the file system's error; the run does not say that another run is
// publishing the crawl.
func TestRunFinalizeLockError(t *testing.T) {
	dir := t.TempDir()
	// A lock whose holder's record is a folder: nothing a run can judge.
	if err := os.MkdirAll(filepath.Join(dir, ".work", "c", "finalize.lock", "record"), 0o755); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	missing := filepath.Join(t.TempDir(), "nonexistent.warc.gz")
	_, err := ingest.Run(context.Background(), ingest.Config{
		Dir: dir, Crawl: "c", Workers: 1, Logger: slog.New(slog.NewTextHandler(&log, nil)),
	}, []string{missing})
	if err == nil || !strings.Contains(err.Error(), "finalize lock") || !strings.Contains(err.Error(), "record") {
		t.Errorf("run: %v, want the error reading the finalize lock", err)
	}
	if strings.Contains(log.String(), "another run is publishing") {
		t.Errorf("the log blames another run:\n%s", log.String())
	}
}
