package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/ingest"
	"github.com/robocensus/robocensus/internal/sysmem"
)

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"512MiB": 512 << 20, "8GiB": 8 << 30, "8G": 8 << 30, "1tib": 1 << 40,
		"1048576": 1 << 20, "300 MiB": 300 << 20, "64KB": 64 << 10} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "lots", "-1GiB", "0", "8 PiB", "1.5GiB", "99999999999TiB"} {
		if got, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) = %d, want an error", in, got)
		}
	}
}

// cgroupTree lays out /proc and /sys as a Linux machine of 128 GiB whose
// process sits in a cgroup (v2) limited to limit bytes ("max": none).
func cgroupTree(t *testing.T, limit string) sysmem.Memory {
	t.Helper()
	root := t.TempDir()
	for name, text := range map[string]string{
		"proc/meminfo":     "MemTotal:       134217728 kB\n",
		"proc/self/cgroup": "0::/jobs/robocensus\n",
		"sys/fs/cgroup/jobs/robocensus/memory.max": limit + "\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return sysmem.Read(os.DirFS(root))
}

// The memory bound of ingest and report (issue 28): GOMEMLIMIT wins, then
// --memory, then the default, which for ingest follows the workers asked
// for, capped by the cgroup's limit, and for report is three quarters of
// what the process may use.
func TestIssue28MemoryBound(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	inputs := []string{"a.warc.gz"}
	for _, tc := range []struct {
		cores            int
		cgroup           string
		wantIngest       int64 // 0: the workers' need
		wantReport       int64
		wantSourceCgroup bool
	}{
		{2, "max", 0, 96 << 30, false},
		{16, "max", 0, 96 << 30, false},
		{64, "max", 0, 96 << 30, false},
		{16, "2147483648", 1536 << 20, 1536 << 20, true},
		{64, "8589934592", 6 << 30, 6 << 30, true},
		{2, "8589934592", 0, 6 << 30, true},
	} {
		mem := cgroupTree(t, tc.cgroup)
		cfg := ingest.Config{Workers: tc.cores}
		want := tc.wantIngest
		if want == 0 {
			want = ingest.MemoryNeed(cfg, inputs)
		}
		got := chooseMemory(0, mem, func(m sysmem.Memory) memoryBound { return ingestMemory(cfg, inputs, m) })
		if got.bytes != want || strings.Contains(got.from, "cgroup") != tc.wantSourceCgroup {
			t.Errorf("ingest -j %d, cgroup %s: bound %d MiB from %q, want %d MiB", tc.cores, tc.cgroup, got.bytes>>20, got.from, want>>20)
		}
		if r := chooseMemory(0, mem, reportMemory); r.bytes != tc.wantReport {
			t.Errorf("report, cgroup %s: bound %d MiB from %q, want %d MiB", tc.cgroup, r.bytes>>20, r.from, tc.wantReport>>20)
		}
		if f := chooseMemory(memoryFlag(3<<30), mem, reportMemory); f.bytes != 3<<30 || f.from != "--memory" {
			t.Errorf("--memory 3GiB: %+v", f)
		}
	}
}

// ingest -j 16 runs 16 workers on a machine with the memory, where the
// former fixed 240 MiB bound ran 3; --memory sets a bound that lowers them,
// and the run says so at info level; GOMEMLIMIT wins over --memory.
func TestIssue28IngestRunsTheWorkersAsked(t *testing.T) {
	dir := t.TempDir()
	inputs := makeInputs(t, dir, 2, 20)
	sizing := regexp.MustCompile(`msg=sizing workers=(\d+) readers=(\d+) queue=(\d+) bound_mib=(\d+)`)
	run := func(env []string, extra ...string) (workers string, out string) {
		t.Helper()
		cmd := exec.Command(binary(t), append(append([]string{"ingest", "-v", "-j", "16", "-o", filepath.Join(dir, "ds"), "--fresh"}, extra...), inputs...)...)
		cmd.Env = append(os.Environ(), env...)
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("ingest %q: %v\n%s", extra, err, b)
		}
		m := sizing.FindStringSubmatch(string(b))
		if m == nil {
			t.Fatalf("no sizing logged:\n%s", b)
		}
		return m[1], string(b)
	}
	avail := sysmem.Available()
	if need := ingest.MemoryNeed(ingest.Config{Workers: 16}, inputs); avail.Bytes > 0 && need > avail.Bytes/4*3 {
		t.Skipf("this machine (%v) has not the memory of 16 workers (%d MiB)", avail, need>>20)
	}
	if w, out := run([]string{"GOMEMLIMIT="}); w != "16" {
		t.Errorf("-j 16 by default: %s workers\n%s", w, out)
	}
	w, out := run([]string{"GOMEMLIMIT="}, "--memory", "300MiB")
	if w != "1" || !strings.Contains(out, "level=INFO msg=\"workers and readers lowered to fit the memory bound") ||
		!strings.Contains(out, "asked_workers=16") || !strings.Contains(out, "bound_mib=300") {
		t.Errorf("--memory 300MiB: %s workers, or the lowering not said at info level\n%s", w, out)
	}
	if w, out := run([]string{"GOMEMLIMIT=4GiB"}, "--memory", "300MiB"); w != "16" || !strings.Contains(out, "bound_mib=4096") {
		t.Errorf("GOMEMLIMIT=4GiB with --memory 300MiB: %s workers\n%s", w, out)
	}
}
