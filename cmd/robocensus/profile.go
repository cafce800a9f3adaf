package main

import (
	"flag"
	"os"
	"runtime/pprof"
)

// profileFlag declares --cpuprofile on fs: a command given it writes a CPU
// profile of its run to the file, for `go tool pprof` (where a run spends
// its time on a crawl of one's own, e.g. inflating against writing).
func profileFlag(fs *flag.FlagSet) *string {
	return fs.String("cpuprofile", "", "write a CPU profile of the run to `FILE` (go tool pprof)")
}

// withProfile runs action, under a CPU profile written to path when path
// is not empty. A profile that cannot be started is a usage error.
func withProfile(env *Env, path string, action func() int) int {
	if path == "" {
		return action()
	}
	f, err := os.Create(path)
	if err != nil {
		env.errorf("--cpuprofile: %v", err)
		return exitUsage
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		env.errorf("--cpuprofile: %v", err)
		return exitUsage
	}
	code := action()
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil {
		env.errorf("--cpuprofile: %v", err)
		return max(code, exitFailure)
	}
	return code
}
