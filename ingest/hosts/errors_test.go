package hosts

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/schema"
)

// TestErrorPrefix checks that the sentinels of the package, and the errors
// Build returns, name the package once at the start of their text:
// "hosts: ...", never "ingest: " nor "hosts: hosts: ...".
func TestErrorPrefix(t *testing.T) {
	sentinels := map[string]error{
		"errSpillCorrupt": errSpillCorrupt,
	}
	testutil.CheckSentinels(t, ".", sentinels, func(name string, err error) {
		checkHostsPrefix(t, name, err)
		checkHostsPrefix(t, name+" met in a round of redirects", prefixed("redirects, round 1: ", err))
	})
	write := func([]schema.Host) error { return nil }
	missing := filepath.Join(t.TempDir(), "absent.parquet")
	checkHostsPrefix(t, "Build's error for a missing part", Build(t.TempDir(), []string{missing}, write))
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	checkHostsPrefix(t, "Build's error for a spill folder it cannot make", Build(filepath.Join(file, "spill"), nil, write))
}

func checkHostsPrefix(t *testing.T, what string, err error) {
	t.Helper()
	testutil.CheckErrorPrefix(t, what, err, "hosts: ", "ingest: ")
}
