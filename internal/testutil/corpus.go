// Package testutil holds helpers shared by the tests of this repository:
// locating the shared corpus and reading its archives. Only tests import it.
package testutil

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// CorpusEnv names the directory of the shared corpus when it is not at
// ../shared/corpus beside the checkout.
const CorpusEnv = "ROBOCENSUS_CORPUS"

// RequireCorpusEnv, when set to 1, turns a missing corpus from a skip into a
// failure. CI sets it; a fresh clone without the corpus skips.
const RequireCorpusEnv = "ROBOCENSUS_REQUIRE_CORPUS"

// CorpusSkipPrefix starts the message of every test skipped for want of
// the shared corpus, so that scripts/test.sh can count them at the end of
// a run.
const CorpusSkipPrefix = "corpus test skipped: "

// RepoRoot returns the root of this repository (the folder of go.mod).
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// CorpusDir returns the shared corpus folder, whether or not it exists.
func CorpusDir() string {
	if d := os.Getenv(CorpusEnv); d != "" {
		return d
	}
	return filepath.Join(RepoRoot(), "..", "shared", "corpus")
}

// Corpus returns the path of elem inside the shared corpus. When it is
// missing the test is skipped with a clear message, or fails when
// ROBOCENSUS_REQUIRE_CORPUS=1.
func Corpus(tb testing.TB, elem ...string) string {
	tb.Helper()
	p := filepath.Join(append([]string{CorpusDir()}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		msg := CorpusSkipPrefix + "shared corpus file " + p + " is not available (set " + CorpusEnv + " to the corpus folder): " + err.Error()
		if os.Getenv(RequireCorpusEnv) == "1" {
			tb.Fatal(msg)
		}
		tb.Skip(msg)
	}
	return p
}
