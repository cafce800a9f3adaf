package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 13: two ingests of the same crawl into the same dataset at once.
// The first was failing (exit 1: the second removed its segment being
// written). Now the second refuses at once, naming the first, and the first
// publishes the dataset a lone run publishes.
func TestIssue13ConcurrentIngestRefused(t *testing.T) {
	inputs := makeInputs(t, t.TempDir(), 6, 800)
	want := t.TempDir()
	runBinary(t, ingestArgs(want, nil, inputs)...)

	dir := t.TempDir()
	first := exec.Command(binary(t), ingestArgs(dir, nil, inputs)...)
	var firstOut strings.Builder
	first.Stdout, first.Stderr = &firstOut, &firstOut
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	// Once the first has committed a segment it is surely under way.
	committed := filepath.Join(dir, ".work", "resume-test", "segments", "*.json")
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(5 * time.Millisecond) {
		if m, _ := filepath.Glob(committed); len(m) > 0 || time.Now().After(deadline) {
			break
		}
	}
	second, err := exec.Command(binary(t), ingestArgs(dir, nil, inputs)...).CombinedOutput()
	firstErr := first.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Errorf("second run: %v, want exit status 1\n%s", err, second)
	}
	host, _ := os.Hostname()
	msg := fmt.Sprintf("another ingest of crawl resume-test into %s is running (pid %d on host %s since ", dir, first.Process.Pid, host)
	if !strings.Contains(string(second), msg) {
		t.Errorf("second run says:\n%s\nwant %q", second, msg)
	}
	if firstErr != nil {
		t.Fatalf("first run: %v\n%s", firstErr, firstOut.String())
	}
	if got, want := fingerprint(t, dir), fingerprint(t, want); got != want {
		t.Errorf("dataset differs from a lone run's:\n got %s\nwant %s", got, want)
	}
	if _, err := os.Stat(filepath.Join(dir, ".work")); !os.IsNotExist(err) {
		t.Errorf("work folder left behind: %v", err)
	}
}
