package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --cpuprofile writes a profile of the run (gzip-compressed protocol
// buffers, as go tool pprof reads) and changes nothing else; a profile
// that cannot be written is a usage error before any work.
func TestCPUProfileFlag(t *testing.T) {
	dir := t.TempDir()
	inputs := makeInputs(t, dir, 1, 5)
	ds, prof := filepath.Join(dir, "ds"), filepath.Join(dir, "ingest.prof")
	if code, out, errs := runCLI(append([]string{"ingest", "-o", ds, "--crawl", "prof", "--cpuprofile", prof}, inputs...)...); code != 0 {
		t.Fatalf("ingest: exit %d\n%s%s", code, out, errs)
	}
	report := filepath.Join(dir, "report.prof")
	if code, out, errs := runCLI("report", "--format", "json", "--cpuprofile", report, ds); code != 0 || !bytes.Contains([]byte(out), []byte(`"prof"`)) {
		t.Fatalf("report: exit %d\n%.300s%s", code, out, errs)
	}
	lintProf := filepath.Join(dir, "lint.prof")
	if err := os.WriteFile(filepath.Join(dir, "robots.txt"), []byte("User-agent: *\nDisallow: /a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runCLI("lint", "--cpuprofile", lintProf, filepath.Join(dir, "robots.txt")); code != 0 || !strings.Contains(out, "[no-rules]") == strings.Contains(out, "[") {
		t.Fatalf("lint: exit %d\n%.300s%s", code, out, errs)
	}
	for _, p := range []string{prof, report, lintProf} {
		b, err := os.ReadFile(p)
		if err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
			t.Errorf("%s: not a gzip-compressed profile (%d bytes, %v)", p, len(b), err)
		}
	}
	bad := filepath.Join(dir, "no-such-dir", "x.prof")
	if code, _, errs := runCLI(append([]string{"ingest", "-o", filepath.Join(dir, "ds2"), "--crawl", "prof", "--cpuprofile", bad}, inputs...)...); code != exitUsage {
		t.Errorf("unwritable profile: exit %d, want %d\n%s", code, exitUsage, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "ds2")); !os.IsNotExist(err) {
		t.Errorf("a run whose profile cannot be written wrote its dataset (%v)", err)
	}
}
