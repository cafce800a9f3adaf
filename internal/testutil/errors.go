package testutil

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ErrorVars returns the sorted names of the package-level variables that
// the package in dir (its .go files, tests left out) sets with errors.New
// or fmt.Errorf: its sentinels, exported or not. A test of the package's
// error texts lists the sentinels it checks by hand; comparing that list
// with ErrorVars catches a sentinel added without a check.
func ErrorVars(t testing.TB, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, errorVarsOf(f)...)
	}
	slices.Sort(names)
	return names
}

// errorVarsOf returns the names of f's package-level variables set with
// errors.New or fmt.Errorf.
func errorVarsOf(f *ast.File) []string {
	var names []string
	for _, decl := range f.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.VAR {
			continue
		}
		for _, spec := range gen.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, v := range vs.Values {
				if i < len(vs.Names) && isErrorConstructor(v) {
					names = append(names, vs.Names[i].Name)
				}
			}
		}
	}
	return names
}

// isErrorConstructor reports whether e calls errors.New or fmt.Errorf.
func isErrorConstructor(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && (pkg.Name == "errors" && sel.Sel.Name == "New" || pkg.Name == "fmt" && sel.Sel.Name == "Errorf")
}

// CheckSentinels fails the test unless sentinels, by variable name, are
// every error variable the package in dir declares (ErrorVars), and calls
// check on each in name order.
func CheckSentinels(t *testing.T, dir string, sentinels map[string]error, check func(name string, err error)) {
	t.Helper()
	names := slices.Sorted(maps.Keys(sentinels))
	if declared := ErrorVars(t, dir); !slices.Equal(declared, names) {
		t.Fatalf("the package declares the sentinels %v; this test checks %v", declared, names)
	}
	for _, name := range names {
		check(name, sentinels[name])
	}
}

// CheckErrorPrefix fails the test unless err's text starts with prefix
// ("archive: ") and names no package again: neither prefix a second time
// nor any of others ("ingest: ").
func CheckErrorPrefix(t *testing.T, what string, err error, prefix string, others ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error", what)
		return
	}
	msg := err.Error()
	bad := !strings.HasPrefix(msg, prefix) || strings.Count(msg, prefix) != 1
	for _, o := range others {
		bad = bad || strings.Contains(msg, o)
	}
	if bad {
		t.Errorf("%s: %q, want it to start with %q and name no package again", what, msg, prefix)
	}
}
