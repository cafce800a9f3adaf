package sysmem

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// tree writes files (path relative to a root standing for "/") to a
// temporary folder and returns it as a file system.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

const meminfo64G = "MemTotal:       67108864 kB\nMemFree:        1000 kB\n"

func TestRead(t *testing.T) {
	for _, tc := range []struct {
		name   string
		files  map[string]string
		want   int64
		source string
	}{
		{"machine only", map[string]string{"proc/meminfo": meminfo64G}, 64 << 30, "MemTotal (/proc/meminfo)"},
		{"nothing readable (not Linux)", map[string]string{}, 0, "unknown"},
		{"cgroup v2 limit on the process's cgroup", map[string]string{
			"proc/meminfo": meminfo64G, "proc/self/cgroup": "0::/batch/job7\n",
			"sys/fs/cgroup/batch/job7/memory.max": "2147483648\n", "sys/fs/cgroup/batch/memory.max": "max\n",
		}, 2 << 30, "cgroup memory.max (/sys/fs/cgroup/batch/job7/memory.max)"},
		{"cgroup v2 limit on a parent is the tighter", map[string]string{
			"proc/meminfo": meminfo64G, "proc/self/cgroup": "0::/batch/job7\n",
			"sys/fs/cgroup/batch/job7/memory.max": "8589934592\n", "sys/fs/cgroup/batch/memory.max": "4294967296\n",
		}, 4 << 30, "cgroup memory.max (/sys/fs/cgroup/batch/memory.max)"},
		{"cgroup v2 in a container: the namespace's root", map[string]string{
			"proc/meminfo": meminfo64G, "proc/self/cgroup": "0::/\n", "sys/fs/cgroup/memory.max": "1073741824\n",
		}, 1 << 30, "cgroup memory.max (/sys/fs/cgroup/memory.max)"},
		{"cgroup v2 without a limit", map[string]string{
			"proc/meminfo": meminfo64G, "proc/self/cgroup": "0::/user.slice\n", "sys/fs/cgroup/user.slice/memory.max": "max\n",
		}, 64 << 30, "MemTotal (/proc/meminfo)"},
		{"cgroup v1 limit", map[string]string{
			"proc/meminfo": meminfo64G, "proc/self/cgroup": "4:memory:/docker/abc\n3:cpu:/docker/abc\n",
			"sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes": "3221225472\n",
		}, 3 << 30, "cgroup memory.limit_in_bytes (/sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes)"},
		{"cgroup v1 unlimited (a huge number)", map[string]string{
			"proc/meminfo": meminfo64G, "proc/self/cgroup": "4:memory:/\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n",
		}, 64 << 30, "MemTotal (/proc/meminfo)"},
		{"a cgroup limit over the machine's memory", map[string]string{
			"proc/meminfo": meminfo64G, "proc/self/cgroup": "0::/big\n", "sys/fs/cgroup/big/memory.max": "274877906944\n",
		}, 64 << 30, "MemTotal (/proc/meminfo)"},
		{"a garbled limit is none", map[string]string{
			"proc/meminfo": meminfo64G, "proc/self/cgroup": "0::/x\n", "sys/fs/cgroup/x/memory.max": "lots\n",
		}, 64 << 30, "MemTotal (/proc/meminfo)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Read(os.DirFS(tree(t, tc.files)))
			if got.Bytes != tc.want || got.Source != tc.source {
				t.Errorf("Read = %d bytes from %q, want %d from %q", got.Bytes, got.Source, tc.want, tc.source)
			}
		})
	}
}

// TestAvailableHere reads this machine's own files: on Linux the answer is
// some memory, at most the machine's.
func TestAvailableHere(t *testing.T) {
	m := Available()
	if runtime.GOOS != "linux" {
		t.Skipf("not Linux: %v", m)
	}
	total := machine(os.DirFS("/"))
	if m.Bytes <= 0 || m.Bytes > total.Bytes {
		t.Errorf("Available = %v, machine %v", m, total)
	}
	t.Logf("available: %v", m)
}
