// Command mutate turns one function of a Go file into a no-op: its body
// becomes a return of zero values. scripts/mutate.sh uses it to check that
// the tests notice when a computation is removed.
//
//	go run ./scripts/mutate FILE FUNC
package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: mutate FILE FUNC")
		os.Exit(2)
	}
	if err := mutate(os.Args[1], os.Args[2]); err != nil {
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
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == name && fd.Body != nil {
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
	fn.Body = &ast.BlockStmt{List: []ast.Stmt{ret}}
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
