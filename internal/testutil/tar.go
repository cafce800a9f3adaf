package testutil

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"os"
	"testing"
)

// Body is one file of a tar archive of the corpus.
type Body struct {
	Name string
	Data []byte
}

// TarBodies reads every regular file of a .tar.gz archive into memory.
func TarBodies(tb testing.TB, path string) []Body {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var out []Body
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			tb.Fatalf("%s: %s: %v", path, h.Name, err)
		}
		out = append(out, Body{Name: h.Name, Data: data})
	}
}
