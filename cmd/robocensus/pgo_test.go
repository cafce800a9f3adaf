package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"testing"
)

// The command is built with default.pgo (profile-guided optimization; Go
// reads a main package's default.pgo). A profile of the wrong runs, or an
// empty one, would build without a word and gain nothing: it must hold
// samples of the parse, of the ingest's workers and rows, and of lint, the
// runs scripts/pgo.sh profiles. The file is a gzipped profile.proto, whose
// string table names each sampled function.
func TestBuildProfileCoversHotPaths(t *testing.T) {
	f, err := os.Open("default.pgo")
	if err != nil {
		t.Fatalf("the build profile: %v (scripts/pgo.sh makes it)", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("default.pgo is not a gzipped profile: %v", err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("default.pgo: %v", err)
	}
	for _, fn := range []string{
		"github.com/robocensus/robocensus/robots.(*parser).run",
		"github.com/robocensus/robocensus/robots.classifyLine",
		"github.com/robocensus/robocensus/ingest.(*rowMaker).add",
		"github.com/robocensus/robocensus/ingest/archive.(*warcHeader).parse",
		"main.lintFiles",
	} {
		if !bytes.Contains(data, []byte(fn)) {
			t.Errorf("default.pgo has no sample of %s: make it again with scripts/pgo.sh", fn)
		}
	}
}
