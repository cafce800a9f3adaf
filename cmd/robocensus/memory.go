package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/robocensus/robocensus/internal/sysmem"
)

// The memory bound of ingest and report: the Go soft memory limit they
// size their work to (ingest's workers, report's host batches). GOMEMLIMIT
// wins; else --memory SIZE; else each command's default, which follows the
// work and is at most three quarters of the memory the process may use
// (the cgroup's limit, else the machine's; see internal/sysmem).

// memoryFlag is the value of --memory: a size in bytes, 0 when not given.
type memoryFlag int64

func (m *memoryFlag) String() string {
	if *m == 0 {
		return ""
	}
	return fmt.Sprintf("%dMiB", int64(*m)>>20)
}

// Set parses a size as GOMEMLIMIT writes one: a number of bytes with an
// optional unit B, KiB, MiB, GiB or TiB (K, M, G, T and KB... taken as the
// same powers of two).
func (m *memoryFlag) Set(s string) error {
	v, err := parseSize(s)
	if err != nil {
		return err
	}
	*m = memoryFlag(v)
	return nil
}

func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	num := strings.TrimRightFunc(t, func(r rune) bool { return r < '0' || r > '9' })
	unit := strings.ToUpper(strings.TrimSpace(t[len(num):]))
	shift, ok := map[string]uint{"": 0, "B": 0, "K": 10, "KB": 10, "KIB": 10, "M": 20, "MB": 20, "MIB": 20,
		"G": 30, "GB": 30, "GIB": 30, "T": 40, "TB": 40, "TIB": 40}[unit]
	n, err := strconv.ParseInt(num, 10, 64)
	if !ok || err != nil || n <= 0 || n > (1<<62)>>shift {
		return 0, fmt.Errorf("bad size %q: want a number of bytes with an optional unit, e.g. 512MiB or 8GiB", s)
	}
	return n << shift, nil
}

// memoryFlagVar adds --memory to a command's flags.
func memoryFlagVar(fs *flag.FlagSet, what string) *memoryFlag {
	m := new(memoryFlag)
	fs.Var(m, "memory", "memory bound `SIZE`, e.g. 8GiB ("+what+"; GOMEMLIMIT wins)")
	return m
}

// memoryBound is a command's memory bound and where it came from.
type memoryBound struct {
	bytes int64
	from  string // "GOMEMLIMIT", "--memory", or how the default was reached
}

// chooseMemory returns the memory bound: GOMEMLIMIT when set (the runtime
// already applies it), else flag when given, else def(available).
func chooseMemory(flag memoryFlag, available sysmem.Memory, def func(sysmem.Memory) memoryBound) memoryBound {
	switch {
	case os.Getenv("GOMEMLIMIT") != "":
		return memoryBound{bytes: debug.SetMemoryLimit(-1), from: "GOMEMLIMIT"}
	case flag > 0:
		return memoryBound{bytes: int64(flag), from: "--memory"}
	}
	return def(available)
}

// apply sets the bound as the soft memory limit and returns what restores
// the former one.
func (b memoryBound) apply() (restore func()) {
	if b.from == "GOMEMLIMIT" || b.bytes <= 0 {
		return func() {}
	}
	old := debug.SetMemoryLimit(b.bytes)
	return func() { debug.SetMemoryLimit(old) }
}
