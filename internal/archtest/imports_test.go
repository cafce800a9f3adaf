package archtest

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
)

const module = "github.com/robocensus/robocensus"

// allowedRepoImports lists, for each package of the repository (a folder;
// a rule covers the folders below it that have no rule of their own), the
// packages of this repository its non-test files may import, each with the
// packages below it (DESIGN.md, "Data flow", and the README's layout).
// cmd wires everything and may import anything. The stages of ingest:
// archive reads archives and knows nothing of robots.txt, tables or the
// network; remote fetches inputs and hands their bytes to archive's
// readers; dataset publishes a partition from rows (segments, shards,
// locks, reruns) and knows nothing of inputs' formats; hosts computes the
// hosts table from captures files, which dataset publishes; the pipeline
// (ingest) wires them to the parser and the tables. internal/sample, the
// demo's sample corpus, writes its WARC with archive's writer.
var allowedRepoImports = map[string][]string{
	"robots":         {},
	"schema":         {"robots"},
	"ingest/archive": {},
	"ingest/remote":  {"ingest/archive", "ingest/objstore"},
	// objstore is a bucket prefix in S3-compatible storage (puts, lists,
	// conditional writes, an fs.FS of ranged reads); what its objects
	// mean is dataset's.
	"ingest/objstore": {},
	"ingest/hosts":    {"schema", "robots"},
	"ingest/dataset":  {"ingest/hosts", "ingest/objstore", "schema", "robots"},
	"ingest":          {"ingest/archive", "ingest/remote", "ingest/dataset", "ingest/hosts", "robots", "schema"},
	// The crawl and site reports, a package a job: scan reads the dataset
	// (files, row-group units, typed columns), render writes numbers,
	// Markdown and SVG charts, engine runs the host batches and feeds the
	// sections (their protocol), sections computes the crawl report's
	// figures, site the report on one host and its checks; analyze is the
	// façade that cmd uses, and may import them all.
	"analyze/internal/render":   {},
	"analyze/internal/scan":     {"schema", "robots"},
	"analyze/internal/engine":   {"analyze/internal/scan", "schema", "robots"},
	"analyze/internal/sections": {"analyze/internal/engine", "analyze/internal/scan", "analyze/internal/render", "schema", "robots"},
	"analyze/internal/site":     {"analyze/internal/scan", "analyze/internal/render", "schema", "robots"},
	"analyze":                   {"schema", "robots"},
	"internal/sample":           {"ingest/archive"},
}

// allowedTestImports lists, for a rule of allowedRepoImports, the packages
// of this repository its tests may import besides those its code may and
// internal/testutil, each exactly (not the packages below it). analyze's
// tests may import ingest to build datasets as robocensus does (issue 29):
// its DuckDB cross-checks (analyze/crosscheck_*_test.go) ingest the demo's
// sample corpus (internal/sample), the shared corpus and WARC files of
// their own fetches (ingest/archive.Fetch), with the helpers of
// internal/testutil/datasets, which imports analyze and ingest. ingest's
// tests read the templates table of the demo's sample corpus
// (internal/sample) back (issue 32).
var allowedTestImports = map[string][]string{
	"analyze": {"ingest", "ingest/archive", "internal/sample", "internal/testutil/datasets"},
	"ingest":  {"internal/sample"},
}

// forbiddenStd are standard packages a package must not import: robots/
// takes bytes in and gives a parsed file out (no I/O), and the archive
// readers open no connection (remote inputs are package remote's; the
// WARC writer takes only status texts and the date format of net/http).
var forbiddenStd = map[string][]string{
	"robots": {
		"os", "os/exec", "os/signal", "io", "io/fs", "io/ioutil", "bufio", "net",
		"net/http", "log", "log/slog", "syscall", "embed", "path/filepath", "runtime",
		"unsafe",
	},
	"ingest/archive": {"net", "net/http/httptrace", "crypto/tls"},
}

// ruleOf returns the rule that covers the package in dir: the longest
// rule that is dir or a folder above it.
func ruleOf(dir string) (key string, allowed []string, ok bool) {
	for k, a := range allowedRepoImports {
		if (dir == k || strings.HasPrefix(dir, k+"/")) && len(k) > len(key) {
			key, allowed, ok = k, a, true
		}
	}
	return key, allowed, ok
}

// under reports whether the package rel is pkg or below it.
func under(rel, pkg string) bool { return rel == pkg || strings.HasPrefix(rel, pkg+"/") }

type pkgImports struct {
	dir          string   // relative to the repository root
	code, tests  []string // imports of non-test and test files
	testFileSeen bool
}

func TestImportRules(t *testing.T) {
	root := testutil.RepoRoot()
	pkgs := scan(t, root)
	if len(pkgs) < 3 {
		t.Fatal("too few Go packages found under", root)
	}
	for _, v := range violations(pkgs) {
		t.Error(v)
	}
}

// violations returns one message per import that breaks the rules.
func violations(pkgs []*pkgImports) []string {
	var out []string
	for _, p := range pkgs {
		top := strings.Split(p.dir, "/")[0]
		key, allowed, ruled := ruleOf(p.dir)
		ok := func(rel string) bool {
			return under(rel, p.dir) || slices.ContainsFunc(allowed, func(a string) bool { return under(rel, a) })
		}
		for _, imp := range p.code {
			rel, inRepo := strings.CutPrefix(imp, module+"/")
			switch {
			case top == "cmd":
			case inRepo && strings.HasPrefix(rel, "internal/testutil") && !under(p.dir, "internal/testutil"):
				out = append(out, fmt.Sprintf("%s: non-test code imports %s, which is for tests only", p.dir, imp))
			case ruled && inRepo && !ok(rel):
				out = append(out, fmt.Sprintf("%s: imports %s; DESIGN.md allows %s only %v", p.dir, imp, key, allowed))
			}
			if slices.Contains(forbiddenStd[key], imp) || key == "robots" && !inRepo && strings.Contains(imp, ".") {
				out = append(out, fmt.Sprintf("%s: imports %s, which %s must not (see forbiddenStd)", p.dir, imp, key))
			}
		}
		for _, imp := range p.tests {
			rel, inRepo := strings.CutPrefix(imp, module+"/")
			if !inRepo || top == "cmd" || top == "internal" || !ruled {
				continue
			}
			if !ok(rel) && !under(rel, "internal/testutil") && !slices.Contains(allowedTestImports[key], rel) {
				out = append(out, fmt.Sprintf("%s: a test imports %s, outside what %s may use", p.dir, imp, key))
			}
		}
	}
	return out
}

// TestImportRulesSeeViolations checks the checker: in a synthetic tree it
// must report robots/ importing os and schema, schema importing ingest,
// the archive readers importing net and the remote package, the
// remote package importing schema, analyze's tests importing
// ingest/dataset, analyze's code importing ingest, schema's tests
// importing ingest and internal/sample importing schema.
func TestImportRulesSeeViolations(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "robots", "bad.go"), "package robots\nimport (\n\t\"os\"\n\t\""+module+"/schema\"\n)\n")
	writeFile(t, filepath.Join(dir, "schema", "bad.go"), "package schema\nimport \""+module+"/ingest\"\n")
	writeFile(t, filepath.Join(dir, "cmd", "x", "ok.go"), "package main\nimport \""+module+"/ingest\"\n")
	writeFile(t, filepath.Join(dir, "ingest", "archive", "bad.go"), "package archive\nimport (\n\t\"net\"\n\t\""+module+"/ingest/remote\"\n)\n")
	writeFile(t, filepath.Join(dir, "ingest", "remote", "bad.go"), "package remote\nimport \""+module+"/schema\"\n")
	writeFile(t, filepath.Join(dir, "ingest", "ok.go"), "package ingest\nimport (\n\t\""+module+"/ingest/remote\"\n\t\""+module+"/schema\"\n)\n")
	// analyze's tests may import ingest, ingest/archive and
	// internal/sample, not the rest of ingest; its code may not; the tests
	// of other packages may not either.
	writeFile(t, filepath.Join(dir, "analyze", "x_test.go"), "package analyze_test\nimport (\n\t\""+module+"/ingest\"\n\t\""+module+"/ingest/archive\"\n\t\""+module+"/internal/sample\"\n\t\""+module+"/ingest/dataset\"\n)\n")
	writeFile(t, filepath.Join(dir, "analyze", "bad.go"), "package analyze\nimport \""+module+"/ingest\"\n")
	writeFile(t, filepath.Join(dir, "schema", "x_test.go"), "package schema_test\nimport \""+module+"/ingest\"\n")
	writeFile(t, filepath.Join(dir, "internal", "sample", "bad.go"), "package sample\nimport (\n\t\""+module+"/ingest/archive\"\n\t\""+module+"/schema\"\n)\n")
	got := violations(scan(t, dir))
	if len(got) != 10 {
		t.Fatalf("want 10 violations, got %d: %q", len(got), got)
	}
}

func scan(t *testing.T, root string) []*pkgImports {
	t.Helper()
	byDir := map[string]*pkgImports{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		p := byDir[rel]
		if p == nil {
			p = &pkgImports{dir: filepath.ToSlash(rel)}
			byDir[rel] = p
		}
		for _, is := range f.Imports {
			imp, _ := strconv.Unquote(is.Path.Value)
			if strings.HasSuffix(path, "_test.go") {
				p.tests = append(p.tests, imp)
			} else {
				p.code = append(p.code, imp)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []*pkgImports
	for _, p := range byDir {
		out = append(out, p)
	}
	return out
}
