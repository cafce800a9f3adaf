package main

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"hash/fnv"
	"io"
	"path/filepath"
	"slices"
	"strings"
)

// defaultPackage is the package whose tests must catch a mutant, unless
// its directive names another.
const defaultPackage = "./analyze/..."

// directive marks a function as a mutant, or a feed method as none:
//
//	//mutate:catch [PACKAGE]   a mutant, caught by the tests of PACKAGE
//	//mutate:skip REASON       not a mutant, and why
//
// in the function's doc comment.
const directive = "//mutate:"

// feedMethods are the methods by which the driver feeds a section's
// accumulator (analyze/section.go): Accumulator.Add and Merge, and the
// methods of the adder interfaces. Finish is not among them: its figures
// are the section's, and a test of any of them fails without it.
var feedMethods = []string{"Add", "Merge", "AddMarks", "AddMarkedCaptures", "AddHosts", "Choose", "AddChosen", "AddHostRows", "Bodies"}

type mutant struct{ file, fn, pkg string }

// list prints the mutants of the files: every function a site check
// runs (a Check's Run: runX), every feed method of a section's
// accumulator (a type with a Finish method) whose body does something
// (isNoop),
// and every function marked //mutate:catch (a helper that computes);
// //mutate:skip leaves one out. A file with none is an error: a section
// whose computation no mutant removes is not checked. With n > 0 it
// prints only the sample that seed chooses, n mutants a directory.
func list(w io.Writer, files []string, n int, seed string) error {
	if n < 0 {
		return fmt.Errorf("-sample %d: want a count of mutants, or 0 for all", n)
	}
	var all []mutant
	for _, path := range files {
		ms, err := mutants(path)
		if err != nil {
			return err
		}
		if len(ms) == 0 {
			return fmt.Errorf("%s: no mutant (mark its computations %scatch)", path, directive)
		}
		all = append(all, ms...)
	}
	if n > 0 {
		all = sample(all, n, seed)
	}
	for _, m := range all {
		fmt.Fprintln(w, m.file, m.fn, m.pkg)
	}
	return nil
}

// sample returns n mutants of each top-level directory's files (all of one with
// no more), in their order: in each directory, those whose "seed FILE
// FUNC" hashes lowest. Each directory gets its n so that a small sample
// still mutates the robots matcher beside the many analyze mutants. The
// same seed gives the same sample on every machine and run, and a
// mutant added or removed elsewhere changes the sample by that mutant at
// most.
func sample(ms []mutant, n int, seed string) []mutant {
	type ranked struct {
		at   int
		hash uint64
	}
	byDir := map[string][]ranked{}
	for i, m := range ms {
		h := fnv.New64a()
		fmt.Fprintf(h, "%s\x00%s\x00%s", seed, m.file, m.fn)
		dir, _, _ := strings.Cut(filepath.ToSlash(m.file), "/")
		byDir[dir] = append(byDir[dir], ranked{i, h.Sum64()})
	}
	var chosen []int
	for _, rank := range byDir {
		slices.SortFunc(rank, func(a, b ranked) int { return cmp.Or(cmp.Compare(a.hash, b.hash), cmp.Compare(a.at, b.at)) })
		for _, r := range rank[:min(n, len(rank))] {
			chosen = append(chosen, r.at)
		}
	}
	slices.Sort(chosen)
	out := make([]mutant, len(chosen))
	for i, at := range chosen {
		out[i] = ms[at]
	}
	return out
}

// mutants returns the mutants of one file, in the file's order.
func mutants(path string) ([]mutant, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	runs := checkRuns(f)
	accs := map[string]bool{} // the types with a Finish method
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && fd.Name.Name == "Finish" {
			accs[recvType(fd)] = true
		}
	}
	var out []mutant
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		verb, arg := directiveOf(fd)
		feed := fd.Recv != nil && accs[recvType(fd)] && slices.Contains(feedMethods, fd.Name.Name) && !isNoop(fd.Body)
		switch {
		case verb == "skip":
			if arg == "" {
				return nil, fmt.Errorf("%s: %s: %sskip needs a reason", path, funcName(fd), directive)
			}
		case verb == "catch" || feed || fd.Recv == nil && runs[fd.Name.Name]:
			pkg := arg
			if pkg == "" {
				pkg = defaultPackage
			}
			out = append(out, mutant{path, funcName(fd), pkg})
		case verb != "":
			return nil, fmt.Errorf("%s: %s: unknown directive %s%s", path, funcName(fd), directive, verb)
		}
	}
	return out, nil
}

// isNoop reports whether a body does nothing already: it is empty, or
// returns nil (an accumulator's Add that has no table to read).
func isNoop(body *ast.BlockStmt) bool {
	if len(body.List) == 0 {
		return true
	}
	ret, ok := body.List[0].(*ast.ReturnStmt)
	if !ok || len(body.List) > 1 {
		return false
	}
	for _, r := range ret.Results {
		if id, ok := r.(*ast.Ident); !ok || id.Name != "nil" {
			return false
		}
	}
	return true
}

// checkRuns returns the functions the file's site checks run: the value
// of Run in a composite literal of type Check.
func checkRuns(f *ast.File) map[string]bool {
	runs := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		cl, ok := n.(*ast.CompositeLit)
		if !ok {
			return true
		}
		if id, ok := cl.Type.(*ast.Ident); !ok || id.Name != "Check" {
			return true
		}
		for _, e := range cl.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Run" {
					if v, ok := kv.Value.(*ast.Ident); ok {
						runs[v.Name] = true
					}
				}
			}
		}
		return true
	})
	return runs
}

// directiveOf returns the verb and argument of the function's
// //mutate: directive, or "".
func directiveOf(fd *ast.FuncDecl) (verb, arg string) {
	if fd.Doc == nil {
		return "", ""
	}
	for _, c := range fd.Doc.List {
		if rest, ok := strings.CutPrefix(c.Text, directive); ok {
			verb, arg, _ = strings.Cut(rest, " ")
			return verb, strings.TrimSpace(arg)
		}
	}
	return "", ""
}

// recvType returns the name of a method's receiver type.
func recvType(fd *ast.FuncDecl) string {
	t := fd.Recv.List[0].Type
	if st, ok := t.(*ast.StarExpr); ok {
		t = st.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// funcName returns a function's name, TYPE.METHOD for a method.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv != nil {
		return recvType(fd) + "." + fd.Name.Name
	}
	return fd.Name.Name
}
