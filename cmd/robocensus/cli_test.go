package main

import (
	"bytes"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/ingest/archive"
)

// runCmd runs one command line in process and returns its exit code and
// outputs.
func runCmd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// "robocensus CMD --help" prints the usage of CMD once, on stdout, for
// every command (flag.ContinueOnError used to print it to stderr as well).
func TestHelpPrintedOnce(t *testing.T) {
	for _, c := range commands {
		for _, flag := range []string{"-h", "--help", "-help"} {
			code, stdout, stderr := runCmd(t, "", c.Name, flag)
			want := "usage: robocensus " + c.Name
			if n := strings.Count(stdout+stderr, want); code != exitOK || n != 1 || stderr != "" {
				t.Errorf("%s %s: exit %d, usage printed %d times, stderr %q", c.Name, flag, code, n, stderr)
			}
		}
	}
}

// A bad flag prints a short usage to stderr, once.
func TestBadFlagUsage(t *testing.T) {
	for _, c := range commands {
		code, stdout, stderr := runCmd(t, "", c.Name, "--no-such-flag")
		if n := strings.Count(stderr, "usage: robocensus "+c.Name); code != exitUsage || n != 1 || stdout != "" {
			t.Errorf("%s: exit %d, usage printed %d times on stderr, stdout %q", c.Name, code, n, stdout)
		}
	}
}

// "robocensus version" and "robocensus --version" print the same line.
func TestVersionCommand(t *testing.T) {
	code, out, errs := runCmd(t, "", "version")
	if code != exitOK || !strings.HasPrefix(out, "robocensus ") || strings.Count(out, "\n") != 1 || errs != "" {
		t.Fatalf("version: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if tagged := strings.HasSuffix(out, " (gzip: libdeflate)\n"); tagged != archive.LibdeflateBuilt {
		t.Errorf("version %q: says libdeflate %v, built with it %v", out, tagged, archive.LibdeflateBuilt)
	}
	for _, flag := range []string{"--version", "-version"} {
		if code, out2, _ := runCmd(t, "", flag); code != exitOK || out2 != out {
			t.Errorf("%s: exit %d, %q, want %q", flag, code, out2, out)
		}
	}
}

func TestVersionString(t *testing.T) {
	f := func(info *debug.BuildInfo, want string) {
		t.Helper()
		if got := version(info, info != nil); got != want {
			t.Errorf("version = %q, want %q", got, want)
		}
	}
	f(nil, "devel")
	f(&debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "v1.2.3")
	f(&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel")
	f(&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "8e5226e"}, {Key: "vcs.time", Value: "2026-11-24T16:00:00Z"}, {Key: "vcs.modified", Value: "true"},
	}}, "8e5226e+dirty 2026-11-24T16:00:00Z")
	f(&debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "false"}}}, "abc")
}
