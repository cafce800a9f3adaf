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

// allowedRepoImports lists, for each top-level package of the repository, the
// packages of this repository its non-test files may import (DESIGN.md,
// "Data flow"). cmd wires everything and may import anything.
var allowedRepoImports = map[string][]string{
	"robots":  {},
	"schema":  {"robots"},
	"ingest":  {"robots", "schema"},
	"analyze": {"schema", "robots"},
}

// robotsForbidden are standard packages that would give robots/ I/O: it
// takes bytes in and gives a parsed file out.
var robotsForbidden = []string{
	"os", "os/exec", "os/signal", "io", "io/fs", "io/ioutil", "bufio", "net",
	"net/http", "log", "log/slog", "syscall", "embed", "path/filepath", "runtime",
	"unsafe",
}

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
		allowed, ruled := allowedRepoImports[top]
		for _, imp := range p.code {
			rel, inRepo := strings.CutPrefix(imp, module+"/")
			switch {
			case top == "cmd":
			case inRepo && strings.HasPrefix(rel, "internal/testutil"):
				out = append(out, fmt.Sprintf("%s: non-test code imports %s, which is for tests only", p.dir, imp))
			case ruled && inRepo && !slices.Contains(allowed, strings.Split(rel, "/")[0]) && !strings.HasPrefix(rel, top+"/"):
				out = append(out, fmt.Sprintf("%s: imports %s; DESIGN.md allows %s only %v", p.dir, imp, top, allowed))
			}
			if top == "robots" && (slices.Contains(robotsForbidden, imp) || !inRepo && strings.Contains(imp, ".")) {
				out = append(out, fmt.Sprintf("%s: imports %s; robots/ does no I/O and imports no third-party code", p.dir, imp))
			}
		}
		for _, imp := range p.tests {
			rel, inRepo := strings.CutPrefix(imp, module+"/")
			if !inRepo || top == "cmd" || top == "internal" {
				continue
			}
			if !slices.Contains(allowed, strings.Split(rel, "/")[0]) && !strings.HasPrefix(rel, top) && rel != "internal/testutil" {
				out = append(out, fmt.Sprintf("%s: a test imports %s, outside what %s may use", p.dir, imp, top))
			}
		}
	}
	return out
}

// TestImportRulesSeeViolations checks the checker: in a synthetic tree it
// must report robots/ importing os and schema, and schema importing ingest.
func TestImportRulesSeeViolations(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "robots", "bad.go"), "package robots\nimport (\n\t\"os\"\n\t\""+module+"/schema\"\n)\n")
	writeFile(t, filepath.Join(dir, "schema", "bad.go"), "package schema\nimport \""+module+"/ingest\"\n")
	writeFile(t, filepath.Join(dir, "cmd", "x", "ok.go"), "package main\nimport \""+module+"/ingest\"\n")
	got := violations(scan(t, dir))
	if len(got) != 3 {
		t.Fatalf("want 3 violations, got %d: %q", len(got), got)
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
