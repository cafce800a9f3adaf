package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs the command in process and returns its exit code and output.
func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// --dry-run lists each file of a folder as an input of its own, with where
// it comes from and what will be skipped, and writes nothing; a manifest in
// a folder is not expanded.
func TestIngestDryRun(t *testing.T) {
	in := t.TempDir()
	for name, data := range map[string]string{
		"a.example-robots.txt":     "User-agent: *\nDisallow: /\n",
		"README.md":                "# notes",
		"sub/robotstxt.paths.gz":   "crawl-data/CC-MAIN-2025-05/segments/1/robotstxt/x.warc.gz\n",
		"sub/b.example-robots.txt": "User-agent: *\n",
	} {
		os.MkdirAll(filepath.Join(in, filepath.Dir(name)), 0o755)
		os.WriteFile(filepath.Join(in, name), []byte(data), 0o644)
	}
	ds := filepath.Join(t.TempDir(), "ds")
	code, out, errs := runCLI("ingest", "--dry-run", "-o", ds, "--crawl", "dry", in)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	want := []string{
		"read\t" + filepath.Join(in, "README.md") + "\tfrom " + in + "\t(to be skipped: not-body)",
		"read\t" + filepath.Join(in, "a.example-robots.txt") + "\tfrom " + in,
		"read\t" + filepath.Join(in, "sub", "b.example-robots.txt") + "\tfrom " + in,
		"read\t" + filepath.Join(in, "sub", "robotstxt.paths.gz") + "\tfrom " + in + "\t(to be skipped: manifest)",
		"4 inputs for crawl=dry in " + ds + ": 4 to read, 0 done, 0 in other shards",
	}
	if got := strings.Split(strings.TrimSpace(out), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("dry run:\n%s\nwant:\n%s", out, strings.Join(want, "\n"))
	}
	if _, err := os.Stat(ds); !os.IsNotExist(err) {
		t.Errorf("a dry run wrote %s: %v", ds, err)
	}
}

// A mistyped input publishes nothing and exits 1.
func TestIngestNothingReadExits1(t *testing.T) {
	ds := filepath.Join(t.TempDir(), "ds")
	code, out, errs := runCLI("ingest", "-o", ds, "--crawl", "typo", filepath.Join(t.TempDir(), "nonexistent.warc.gz"))
	if code != 1 || !strings.Contains(out, "nothing published: no input could be read") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if matches, _ := filepath.Glob(filepath.Join(ds, "*", "crawl=typo")); len(matches) > 0 {
		t.Errorf("published %v", matches)
	}
}

// Issue 27 item 4: a folder that holds no files, or only hidden ones,
// publishes nothing and exits 1, saying why, as a mistyped path does.
func TestIngestEmptyFolderExits1(t *testing.T) {
	empty := t.TempDir()
	hidden := t.TempDir()
	os.WriteFile(filepath.Join(hidden, ".robots.txt"), []byte("User-agent: *\n"), 0o644)
	for _, in := range []string{empty, hidden} {
		ds := filepath.Join(t.TempDir(), "ds")
		code, out, errs := runCLI("ingest", "-o", ds, "--crawl", "empty", in)
		if code != 1 || !strings.Contains(out, "nothing published: no input to read (the folders and lists given name no files") {
			t.Errorf("%s: exit %d\n%s%s", in, code, out, errs)
		}
		if matches, _ := filepath.Glob(filepath.Join(ds, "*", "crawl=empty")); len(matches) > 0 {
			t.Errorf("published %v", matches)
		}
	}
}

// After a run, --dry-run of the same command says every input is done.
func TestIngestDryRunAfterRun(t *testing.T) {
	inputs := makeInputs(t, t.TempDir(), 2, 5)
	ds := filepath.Join(t.TempDir(), "ds")
	if code, out, errs := runCLI(append([]string{"ingest", "-o", ds, "--crawl", "dry"}, inputs...)...); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	code, out, errs := runCLI(append([]string{"ingest", "--dry-run", "-o", ds, "--crawl", "dry"}, inputs...)...)
	if code != 0 || !strings.HasSuffix(out, ": 0 to read, 2 done, 0 in other shards\n") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
}
