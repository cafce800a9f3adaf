package testutil

import (
	"go/ast"
	"go/parser"
	"go/token"
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
