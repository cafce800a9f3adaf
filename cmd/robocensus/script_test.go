package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
)

// End-to-end tests of the command line, written as scripts in
// testdata/script: each is a txtar archive whose comment holds commands and
// whose files are written to a fresh directory, the working directory of the
// commands. Commands:
//
//	robocensus ARGS...  run the command (in process); stdin from "stdin FILE"
//	stdin FILE          use FILE as standard input of the next command
//	exit N              the last command exited with N
//	stdout RE / stderr RE        the output matches the regular expression
//	! stdout RE / ! stderr RE    it does not
//	cmp stdout FILE     the output equals FILE exactly
//	cmpfiles A B        the files A and B of the directory are equal
//	count stdout N      the output has N lines
func TestScripts(t *testing.T) {
	scripts, _ := filepath.Glob(filepath.Join("testdata", "script", "*.txt"))
	if len(scripts) == 0 {
		t.Fatal("no scripts")
	}
	for _, path := range scripts {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			runScript(t, testutil.ParseArchive(string(data)))
		})
	}
}

func runScript(t *testing.T, a testutil.Archive) {
	dir := t.TempDir()
	for name, content := range a.Files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	var stdin, stdout, stderr []byte
	code := -1
	for i, line := range strings.Split(a.Comment, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("line %d %q: "+format+"\nstdout:\n%s\nstderr:\n%s", append([]any{i + 1, line}, append(args, stdout, stderr)...)...)
		}
		neg := strings.HasPrefix(line, "! ")
		fields := strings.Fields(strings.TrimPrefix(line, "! "))
		arg := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(line, "! "), fields[0]))
		if len(arg) >= 2 && arg[0] == '\'' && arg[len(arg)-1] == '\'' {
			arg = arg[1 : len(arg)-1]
		}
		switch fields[0] {
		case "robocensus":
			var out, errb bytes.Buffer
			code = run(fields[1:], bytes.NewReader(stdin), &out, &errb)
			stdout, stderr, stdin = out.Bytes(), errb.Bytes(), nil
		case "stdin":
			stdin = []byte(a.Files[arg])
		case "exit":
			if want, _ := strconv.Atoi(arg); code != want {
				fail("exit code %d, want %d", code, want)
			}
		case "stdout", "stderr":
			out := stdout
			if fields[0] == "stderr" {
				out = stderr
			}
			if regexp.MustCompile(`(?m)`+arg).Match(out) == neg {
				fail("%s match of %q: %v", fields[0], arg, !neg)
			}
		case "cmp":
			if want := a.Files[fields[2]]; string(stdout) != want {
				fail("stdout differs from %s:\nwant:\n%s", fields[2], want)
			}
		case "cmpfiles":
			a, errA := os.ReadFile(fields[1])
			b, errB := os.ReadFile(fields[2])
			if errA != nil || errB != nil || !bytes.Equal(a, b) {
				fail("files differ (%v, %v)", errA, errB)
			}
		case "count":
			n, _ := strconv.Atoi(fields[2])
			if got := bytes.Count(stdout, []byte("\n")); got != n {
				fail("stdout has %d lines, want %d", got, n)
			}
		default:
			fail("unknown command")
		}
	}
}
