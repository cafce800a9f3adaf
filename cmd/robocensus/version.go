package main

import (
	"flag"
	"fmt"
	"runtime/debug"

	"github.com/robocensus/robocensus/ingest/archive"
)

var versionCmd = &Command{
	Name:  "version",
	Usage: "version",
	Short: "print the version of robocensus",
	Long: `
Version prints the version of robocensus: the module version when it was
installed with "go install ...@VERSION", else the VCS revision and time it
was built from ("+dirty" when the work tree had changes), else "devel".
A binary built with -tags libdeflate, which inflates gzip members with
Debian's libdeflate, says so: "(gzip: libdeflate)".
"robocensus --version" does the same.`,
	Flags: func(fs *flag.FlagSet) func(*Env, []string) int {
		return func(env *Env, args []string) int {
			if len(args) > 0 {
				env.errorf("version: takes no arguments")
				return exitUsage
			}
			info, ok := debug.ReadBuildInfo()
			fmt.Fprintf(env.Stdout, "robocensus %s%s\n", version(info, ok), inflater())
			return exitOK
		}
	},
}

// inflater names the gzip inflater of a build with libdeflate; "" for the
// pure-Go default.
func inflater() string {
	if archive.LibdeflateBuilt {
		return " (gzip: libdeflate)"
	}
	return ""
}

// version describes a build: its module version if it has one, else its
// VCS revision (with "+dirty") and time, else "devel".
func version(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, at, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev == "" {
		return "devel"
	}
	if at != "" {
		return rev + dirty + " " + at
	}
	return rev + dirty
}
