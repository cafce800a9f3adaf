package dataset

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/robocensus/robocensus/internal/testutil"
)

// TestErrorPrefix checks that the sentinels of the package, and the errors
// its functions return, name the package once at the start of their text:
// "dataset: ...", never "ingest: ..." nor "dataset: dataset: ...".
func TestErrorPrefix(t *testing.T) {
	sentinels := map[string]error{
		"ErrRunning": ErrRunning,
	}
	testutil.CheckSentinels(t, ".", sentinels, func(name string, err error) { checkDatasetPrefix(t, name, err) })
	_, shardErr := ParseShard("3/2")
	checkDatasetPrefix(t, "ParseShard's error", shardErr)

	root := t.TempDir()
	release, err := LockRun(root, "c", Shard{}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	_, heldErr := LockRun(root, "c", Shard{}, time.Hour)
	release()
	checkDatasetPrefix(t, "LockRun's error for a held lock", heldErr)
	checkDatasetPrefix(t, "a RunningError naming no run", &RunningError{Crawl: "c", Dir: root})

	notFolder := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notFolder, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, openErr := OpenWork(notFolder, "c", Shard{})
	checkDatasetPrefix(t, "OpenWork's error for a dataset folder that is a file", openErr)
}

func checkDatasetPrefix(t *testing.T, what string, err error) {
	t.Helper()
	testutil.CheckErrorPrefix(t, what, err, "dataset: ", "ingest: ")
}
