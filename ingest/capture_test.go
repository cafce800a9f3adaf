package ingest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Every Problem code of the readers is an entry of the one diagnostic
// catalogue, as "ingest-" + the code, marked as a reader's.
func TestProblemCodesInCatalogue(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join("archive", "capture.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	ast.Inspect(f, func(node ast.Node) bool {
		vs, ok := node.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || !strings.HasPrefix(vs.Names[0].Name, "Problem") || len(vs.Values) != 1 {
			return true
		}
		lit, ok := vs.Values[0].(*ast.BasicLit)
		if !ok {
			return true
		}
		n++
		code, _ := strconv.Unquote(lit.Value)
		c := problemCode(code)
		if ci := c.Info(); ci.Name != "ingest-"+code || !ci.Reader || ci.Doc == "" {
			t.Errorf("%s = %q: catalogue entry %+v", vs.Names[0].Name, code, ci)
		}
		return true
	})
	if n < 17 {
		t.Errorf("found %d Problem constants in archive/capture.go", n)
	}
}
