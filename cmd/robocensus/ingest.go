package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"time"

	"github.com/robocensus/robocensus/ingest"
	"github.com/robocensus/robocensus/schema"
)

var ingestCmd = &Command{
	Name:  "ingest",
	Usage: "ingest [-o DIR] [--crawl LABEL] [-j N] [--base-url URL] [-v] INPUT...",
	Short: "turn WARC, ARC and tar inputs into a Parquet dataset",
	Long: `
Ingest reads robots.txt captures from each INPUT, parses every one with the
robots engine, and writes the dataset's tables (captures, diagnostics,
rules, sitemaps, agents, bodies, inputs) as Parquet under
DIR/<table>/crawl=<LABEL>/, which DuckDB reads with

	SELECT * FROM read_parquet('DIR/captures/**/*.parquet', hive_partitioning = true)

An INPUT is a .warc, .warc.gz, .warc.zst, .arc or .arc.gz file; a .tar,
.tar.gz, .tgz or .tar.zst archive of robots.txt bodies; a folder of such
files or bodies; an http(s):// URL of any of these, streamed (retried and
resumed with Range requests when a transfer fails); a Common Crawl
manifest (a local or http(s) *.paths.gz, e.g.
https://data.commoncrawl.org/crawl-data/CC-MAIN-2025-05/robotstxt.paths.gz),
whose relative paths are inputs under --base-url (a URL, or a local
folder holding a mirror of crawl-data/); or @FILE, a list of inputs one per
line.

The partition appears only when complete; a rerun with the same LABEL
replaces it. --crawl defaults to the Common Crawl crawl the inputs name
(CC-MAIN-2025-05), else today's date.

A damaged record never stops the run: it is recorded in the inputs table
(and in diagnostics when it concerns one capture) and reading goes on.

Exit status: 0 when every input was read to its end, 1 when an input could
not be opened or read to its end (recorded in inputs; the others are still
processed) or the dataset could not be written, 2 on a usage error.`,
	Flags: func(fs *flag.FlagSet) func(*Env, []string) int {
		out := fs.String("o", "./robocensus-data", "dataset `DIR`")
		crawl := fs.String("crawl", "", "partition `LABEL` (default: from the inputs, else today's date)")
		jobs := fs.Int("j", 0, "parse-and-write `workers` (default: the number of CPUs)")
		baseURL := fs.String("base-url", ingest.DefaultBaseURL, "`URL` or local folder that the paths of a *.paths.gz manifest are relative to")
		verbose := fs.Bool("v", false, "log every input read")
		return func(env *Env, args []string) int {
			if len(args) == 0 {
				env.errorf("ingest: no INPUT given")
				return exitUsage
			}
			inputs, err := ingest.ExpandInputs(args, ingest.WithBaseURL(*baseURL))
			if err != nil {
				env.errorf("%v", err)
				return exitUsage
			}
			label := *crawl
			if label == "" {
				label = ingest.CrawlLabel(inputs, time.Now())
			}
			if err := schema.CheckCrawl(label); err != nil {
				env.errorf("ingest: --crawl: %v", err)
				return exitUsage
			}
			cfg := ingest.Config{Dir: *out, Crawl: label, Workers: *jobs, Logger: newLogger(env.Stderr, *verbose)}
			return runIngest(env, cfg, inputs)
		}
	},
}

// runIngest runs the pipeline with a progress line on a terminal and prints
// the summary.
func runIngest(env *Env, cfg ingest.Config, inputs []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	progress := newProgressLine(env.Stderr)
	cfg.Progress = progress.update
	sum, err := ingest.Run(ctx, cfg, inputs)
	progress.done()
	if err != nil {
		env.errorf("ingest: %v", err)
		return exitFailure
	}
	fmt.Fprintf(env.Stdout, "wrote %s (crawl=%s): %s\n", cfg.Dir, cfg.Crawl, sum.Progress)
	for _, in := range sum.Inputs {
		if in.Error != "" {
			fmt.Fprintf(env.Stdout, "  not read to its end: %s: %s\n", in.Input, in.Error)
		}
	}
	if sum.Failed > 0 {
		return exitFailure
	}
	return exitOK
}

// newLogger returns the structured logger of the run: text lines on w,
// warnings and errors only unless verbose.
func newLogger(w io.Writer, verbose bool) *slog.Logger {
	level := slog.LevelWarn
	if verbose {
		level = slog.LevelInfo
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
}

// progressLine rewrites one line on a terminal; on anything else it is
// silent.
type progressLine struct {
	w        io.Writer
	terminal bool
}

func newProgressLine(w io.Writer) *progressLine {
	f, ok := w.(*os.File)
	terminal := false
	if ok {
		if fi, err := f.Stat(); err == nil {
			terminal = fi.Mode()&os.ModeCharDevice != 0
		}
	}
	return &progressLine{w: w, terminal: terminal}
}

func (p *progressLine) update(pr ingest.Progress) {
	if p.terminal {
		fmt.Fprintf(p.w, "\r\033[K%s", pr)
	}
}

func (p *progressLine) done() {
	if p.terminal {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
