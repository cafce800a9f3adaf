// Package sysmem finds how much memory this process may use: the least
// cgroup memory limit on the path of its cgroup (cgroup v2's memory.max, or
// v1's memory.limit_in_bytes) when one is set, else the machine's memory
// (MemTotal of /proc/meminfo). Outside Linux it knows nothing and says so.
//
// The commands size their soft memory limits from it (ingest's workers,
// report's host batches): a container given 2 GiB is not a machine of 64.
package sysmem

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Memory is how much memory the process may use, and where that was read.
type Memory struct {
	Bytes  int64  // 0 when unknown
	Source string // e.g. "cgroup memory.max (/sys/fs/cgroup/job/memory.max)" or "MemTotal (/proc/meminfo)"
}

// String says how much and from where, e.g. "2048 MiB (cgroup ...)".
func (m Memory) String() string {
	if m.Bytes <= 0 {
		return "unknown"
	}
	return fmt.Sprintf("%d MiB (%s)", m.Bytes>>20, m.Source)
}

// Available returns the memory this process may use.
func Available() Memory { return Read(os.DirFS("/")) }

// Read returns the memory a process may use, reading /proc and /sys below
// root (a file system whose root stands for "/"): the least of the cgroup
// limits and the machine's memory.
func Read(root fs.FS) Memory {
	m := machine(root)
	if c := cgroupLimit(root); c.Bytes > 0 && (m.Bytes <= 0 || c.Bytes < m.Bytes) {
		return c
	}
	return m
}

// machine returns MemTotal of /proc/meminfo, or an unknown Memory.
func machine(root fs.FS) Memory {
	data, err := fs.ReadFile(root, "proc/meminfo")
	if err != nil {
		return Memory{Source: "unknown"}
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "MemTotal:" {
			kib, err := strconv.ParseInt(f[1], 10, 64)
			if err == nil && kib > 0 {
				return Memory{Bytes: kib << 10, Source: "MemTotal (/proc/meminfo)"}
			}
		}
	}
	return Memory{Source: "unknown"}
}

// cgroupLimit returns the least memory limit set on the process's cgroup
// or any cgroup above it, or an unknown Memory when none is set.
func cgroupLimit(root fs.FS) Memory {
	data, err := fs.ReadFile(root, "proc/self/cgroup")
	if err != nil {
		return Memory{}
	}
	var best Memory
	consider := func(file string, unlimitedOver int64) {
		v, ok := readLimit(root, file, unlimitedOver)
		if ok && (best.Bytes == 0 || v < best.Bytes) {
			kind := path.Base(file)
			best = Memory{Bytes: v, Source: "cgroup " + kind + " (/" + file + ")"}
		}
	}
	for _, line := range strings.Split(string(data), "\n") {
		// hierarchy-ID:controllers:path; v2 is "0::/path".
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			for _, dir := range ancestors(parts[2]) {
				consider(path.Join("sys/fs/cgroup", dir, "memory.max"), -1)
			}
		case slices.Contains(strings.Split(parts[1], ","), "memory"):
			for _, dir := range ancestors(parts[2]) {
				// v1 says "no limit" with a huge number (about 2^63 rounded to pages).
				consider(path.Join("sys/fs/cgroup/memory", dir, "memory.limit_in_bytes"), 1<<60)
			}
		}
	}
	return best
}

// ancestors returns the cgroup path p and each folder above it, up to the
// root ("."), e.g. "/a/b" gives "a/b", "a", ".".
func ancestors(p string) []string {
	p = strings.Trim(path.Clean("/"+p), "/")
	var out []string
	for p != "" && p != "." {
		out = append(out, p)
		p = path.Dir(p)
	}
	return append(out, ".")
}

// readLimit reads a limit file: a number of bytes, or "max" (none). A
// value over unlimitedOver (when positive) is no limit either.
func readLimit(root fs.FS, file string, unlimitedOver int64) (int64, bool) {
	data, err := fs.ReadFile(root, file)
	if err != nil {
		return 0, false
	}
	s := strings.TrimSpace(string(data))
	if s == "max" {
		return 0, false
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 || (unlimitedOver > 0 && v > unlimitedOver) {
		return 0, false
	}
	return v, true
}
