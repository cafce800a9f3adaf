package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
)

// corpusWARCs lists the files of the shared WARC corpus, sorted.
func corpusWARCs(tb testing.TB) []string {
	root := testutil.Corpus(tb, "warc")
	var files []string
	filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() && !strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return nil
	})
	slices.Sort(files)
	return files
}

// A report never fails on a dataset robocensus wrote: ingest a folder
// holding a mix of the shared corpus's WARC, ARC and other files (each
// byte of the input picks one, a file may come twice), then write the
// crawl report in every format and the site report of a host. The crawl
// report counts the captures the inputs table says were written. (A folder
// mixing two writers' files once gave equal capture IDs and a panic.)
//
// ci-fuzz-budget: 30x (each execution ingests and reports)
func FuzzReportOverCorpusMixes(f *testing.F) {
	files := corpusWARCs(f)
	if len(files) < 10 {
		f.Fatalf("%d corpus files", len(files))
	}
	f.Add([]byte{0, 1, 2})
	var heritrixAndUKWA []byte // the mix that panicked
	for i, p := range files {
		if strings.Contains(p, "aut-heritrix-2008") || strings.Contains(p, "ukwa-discovery-testdata") {
			heritrixAndUKWA = append(heritrixAndUKWA, byte(i))
		}
	}
	f.Add(heritrixAndUKWA)
	for i := 0; i < len(files); i += 7 {
		f.Add([]byte{byte(i), byte(i + 3), byte(i + 5), byte(i)})
	}
	f.Fuzz(func(t *testing.T, picks []byte) {
		if len(picks) == 0 || len(picks) > 16 {
			t.Skip()
		}
		in := t.TempDir()
		for i, b := range picks {
			src := files[int(b)%len(files)]
			data, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(in, fmt.Sprintf("%02d-%s", i, filepath.Base(src))), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		ds := filepath.Join(t.TempDir(), "ds")
		if code, out, errs := runCLI("ingest", "-o", ds, "--crawl", "mix", "-j", "2", in); code > 1 {
			t.Fatalf("ingest exit %d\n%s%s", code, out, errs)
		}
		if _, err := os.Stat(filepath.Join(ds, "captures")); err != nil {
			return // nothing could be read: nothing published
		}
		code, out, errs := runCLI("report", "--format", "json", ds)
		if code != 0 {
			t.Fatalf("report: exit %d\n%s", code, errs)
		}
		var rep struct {
			Crawls []struct {
				Captures int64 `json:"captures"`
			} `json:"crawls"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Crawls) != 1 {
			t.Fatalf("report JSON: %v\n%s", err, out)
		}
		db := testutil.DuckDB(t, ds)
		if want := testutil.Query(t, db, "SELECT coalesce(sum(captures), 0) FROM inputs"); fmt.Sprint(rep.Crawls[0].Captures) != want {
			t.Errorf("report counts %d captures, inputs %s", rep.Crawls[0].Captures, want)
		}
		for _, format := range []string{"md", "html"} {
			if code, _, errs := runCLI("report", "--format", format, "-o", filepath.Join(t.TempDir(), "r."+format), ds); code != 0 {
				t.Fatalf("report --format %s: exit %d\n%s", format, code, errs)
			}
		}
		if host := testutil.Query(t, db, "SELECT coalesce(min(url_host_name), '') FROM captures WHERE url_host_name <> ''"); host != "" {
			if code, _, errs := runCLI("report", "--site", host, "--format", "md", ds); code != 0 {
				t.Fatalf("report --site %s: exit %d\n%s", host, code, errs)
			}
		}
	})
}
