package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/robocensus/robocensus/ingest"
	"github.com/robocensus/robocensus/internal/sample"
	"github.com/robocensus/robocensus/internal/sysmem"
)

var demoCmd = &Command{
	Name:  "demo",
	Usage: "demo [-o DIR]",
	Short: "ingest the built-in sample corpus and summarise it",
	Long: `
Demo writes the sample corpus built into the binary (made-up robots.txt
fetches of some thirty sites: clean files, typos, HTML served as robots.txt,
redirects, 404s, 5xx, AI-crawler blocks, an oversize file, ...) as a Common
Crawl style robotstxt WARC, ingests it into DIR (default: a temporary
folder, removed afterwards) and summarises the dataset. It needs no network
and no files.`,
	Flags: func(fs *flag.FlagSet) func(*Env, []string) int {
		out := fs.String("o", "", "keep the WARC and the dataset in `DIR`")
		return func(env *Env, args []string) int {
			if len(args) > 0 {
				env.errorf("demo: takes no arguments")
				return exitUsage
			}
			return demo(env, *out)
		}
	},
}

func demo(env *Env, dir string) int {
	if dir == "" {
		tmp, err := os.MkdirTemp("", "robocensus-demo-")
		if err != nil {
			env.errorf("demo: %v", err)
			return exitFailure
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	warc, err := sample.WriteWARC(dir)
	if err != nil {
		env.errorf("demo: %v", err)
		return exitFailure
	}
	fmt.Fprintf(env.Stdout, "sample corpus: %s\n", warc)
	cfg := ingest.Config{Dir: filepath.Join(dir, "dataset"), Crawl: sample.Crawl, Logger: newLogger(env.Stderr, false, true)}
	inputs := []string{warc}
	bound := chooseMemory(0, sysmem.Available(), func(m sysmem.Memory) memoryBound { return ingestMemory(cfg, inputs, m) })
	if code := runIngest(env, cfg, inputs, bound); code != exitOK {
		return code
	}
	return demoReport(env, dir, cfg.Dir)
}
