package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// TestErrorPrefix checks that the errors of Run name the package that
// made them once at the start of their text: "ingest: ..." for its own,
// "dataset: ..." for one of ingest/dataset passed on, never "ingest: " in
// front of another package's prefix nor twice.
func TestErrorPrefix(t *testing.T) {
	sentinels := map[string]error{
		"errNoDatasetFolder": errNoDatasetFolder,
	}
	testutil.CheckSentinels(t, ".", sentinels, func(name string, err error) {
		testutil.CheckErrorPrefix(t, name, err, "ingest: ")
	})
	ctx := context.Background()
	_, noDir := Run(ctx, Config{Crawl: "c"}, nil)
	testutil.CheckErrorPrefix(t, "Run with no Dir", noDir, "ingest: ")
	badCrawlers := []robots.Crawler{{Token: ""}}
	_, crawlersErr := Run(ctx, Config{Crawl: "c", Dir: t.TempDir(), Crawlers: badCrawlers}, nil)
	testutil.CheckErrorPrefix(t, "Run with a bad crawler list", crawlersErr, "ingest: ")
	dir := filepath.Join(t.TempDir(), "ds")
	_, codecErr := Run(ctx, Config{Crawl: "c", Dir: dir, Compression: schema.Compression(9)}, nil)
	testutil.CheckErrorPrefix(t, "Run with a codec of none of schema's", codecErr, "ingest: ")
	if _, err := os.Stat(dir); !errors.Is(codecErr, schema.ErrBadOption) || !os.IsNotExist(err) {
		t.Errorf("Run with a codec of none of schema's: %v, want schema.ErrBadOption and no dataset folder (%v)", codecErr, err)
	}

	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, datasetErr := Run(ctx, Config{Crawl: "c", Dir: file}, nil)
	testutil.CheckErrorPrefix(t, "Run into a dataset folder that is a file", datasetErr, "dataset: ", "ingest: ")
}
