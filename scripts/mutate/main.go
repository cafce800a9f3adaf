// Command mutate turns one function of a Go file into a no-op: its body
// becomes a return of zero values. scripts/mutate.sh uses it to check that
// the tests notice when a computation is removed. Imports the function
// alone used become blank imports, so that a mutant always builds: a
// mutant that fails to build proves nothing. FUNC is a function's name,
// or TYPE.METHOD.
//
//	go run ./scripts/mutate FILE FUNC
//
// With -list it prints the mutants of the files, "FILE FUNC PACKAGE" a
// line, PACKAGE the tests that must catch it; it fails when a file has
// none. They are found in the files themselves (see [mutants]). With
// -sample N it prints N of them from each directory (analyze, robots),
// the same for the same -seed (see [sample]):
//
//	go run ./scripts/mutate -list analyze/checks.go analyze/section_*.go
//	go run ./scripts/mutate -list -sample 8 -seed ci robots/match.go
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"strings"
)

const usage = "usage: mutate FILE FUNC | mutate -list [-sample N -seed SEED] FILE..."

func main() {
	listing := flag.Bool("list", false, "print the mutants of the files")
	n := flag.Int("sample", 0, "with -list: print only this many mutants of each directory, chosen by -seed (0: all)")
	seed := flag.String("seed", "", "with -sample: the seed that chooses the mutants")
	flag.Usage = func() { fmt.Fprintln(os.Stderr, usage); flag.PrintDefaults() }
	flag.Parse()
	args := flag.Args()
	if *listing {
		if err := list(os.Stdout, args, *n, *seed); err != nil {
			fmt.Fprintln(os.Stderr, "mutate:", err)
			os.Exit(1)
		}
		return
	}
	if len(args) != 2 || *n != 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := mutate(args[0], args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "mutate:", err)
		os.Exit(1)
	}
}

func mutate(path, name string) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
	if err != nil {
		return err
	}
	var fn *ast.FuncDecl
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && (funcName(fd) == name || fd.Name.Name == name) && fd.Body != nil {
			if fn != nil {
				return fmt.Errorf("%s: two functions %s: say TYPE.METHOD", path, name)
			}
			fn = fd
		}
	}
	if fn == nil {
		return fmt.Errorf("%s: no function %s", path, name)
	}
	ret := &ast.ReturnStmt{}
	if fn.Type.Results != nil {
		for _, field := range fn.Type.Results.List {
			n := max(len(field.Names), 1)
			for range n {
				// *new(T) is the zero value of any type T.
				ret.Results = append(ret.Results, &ast.StarExpr{X: &ast.CallExpr{Fun: ast.NewIdent("new"), Args: []ast.Expr{field.Type}}})
			}
		}
	}
	used := selectorsOf(fn.Body)
	fn.Body = &ast.BlockStmt{List: []ast.Stmt{ret}}
	keepImports(f, used)
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// selectorsOf returns, for each package name used in n as pkg.Name, one
// name it uses.
func selectorsOf(n ast.Node) map[string]string {
	out := map[string]string{}
	ast.Inspect(n, func(n ast.Node) bool {
		if se, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := se.X.(*ast.Ident); ok && id.Obj == nil {
				out[id.Name] = se.Sel.Name
			}
		}
		return true
	})
	return out
}

// keepImports turns into a blank import (import _ "pkg") each package
// the removed body used that nothing else in the file uses any more.
func keepImports(f *ast.File, used map[string]string) {
	still := selectorsOf(f)
	for _, imp := range f.Imports {
		name := importName(imp)
		if _, wasUsed := used[name]; !wasUsed {
			continue
		}
		if _, stillUsed := still[name]; !stillUsed {
			imp.Name = ast.NewIdent("_")
		}
	}
}

// importName returns the name an import is used by: its alias, or the last
// element of its path (a major-version suffix such as v15 skipped).
func importName(imp *ast.ImportSpec) string {
	if imp.Name != nil {
		return imp.Name.Name
	}
	p := strings.Trim(imp.Path.Value, `"`)
	parts := strings.Split(p, "/")
	last := parts[len(parts)-1]
	if len(parts) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = parts[len(parts)-2]
	}
	return last
}
