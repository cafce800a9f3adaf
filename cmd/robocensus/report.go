package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/robocensus/robocensus/analyze"
	"github.com/robocensus/robocensus/ingest"
	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/ingest/dataset"
	"github.com/robocensus/robocensus/ingest/objstore"
	"github.com/robocensus/robocensus/ingest/remote"
	"github.com/robocensus/robocensus/internal/sysmem"
)

var reportCmd = &Command{
	Name:  "report",
	Usage: "report [--site HOST] [--crawl LABEL]... [--ranks FILE] [--format html|md|json] [-o FILE] [--host-batches N] [--cpuprofile FILE] DATASET",
	Short: "write the site-health report of a dataset, or of one host",
	Long: `
Report reads the dataset that ingest wrote in DATASET (every crawl partition),
a folder or s3://BUCKET/PREFIX, and writes the crawl report: captures and hosts, the outcome of each fetch
with its HTTP statuses, the prevalence of every diagnostic code, sizes and
the 500 KiB limit, wildcards and end anchors, typos, the user agents most
often named, sitemaps, bodies shared by many hosts, the hosts with the most
errors, what robots.txt files say to each AI and search crawler (named,
fully or partially disallowed, over hosts with a usable robots.txt and over
all hosts), and trends when the dataset holds several crawls.

Crawls are ordered by time, not by label: a Common Crawl label by its year
and week, a date label by its date, any other label by the earliest fetch
time of its captures. --crawl LABEL (repeatable) reports on the crawls
named only; trends and changes then compare those.

--ranks FILE joins a ranked host list (Tranco's CSV "rank,host", or
"rank<TAB>host", gzipped or not) with the dataset's hosts table: the report
gains, per crawl and top-k stratum (1k, 10k, 50k, 100k, 1M, every ranked
host), the ranked hosts with no robots.txt capture and the others by Common
Crawl's fetch classes, redirects followed: the columns of Common Crawl's
robotstxt-status-counts-topk.csv. The list is read at report time, never
stored in the dataset.

With --site HOST it writes the report on one host instead: its captures in
every crawl, its robots.txt with each finding at its line, what it says to
each tracked crawler, its sitemaps, its AI usage preferences, and the
findings of the site checks.

An s3:// DATASET is read as its partitions' listings name them, with ranged
GETs, under the standard AWS settings (see ingest) and --s3-endpoint.

--format html (the default) writes one self-contained page: inline styles and
SVG charts, no script, nothing fetched, every text of the dataset escaped.
md writes Markdown and json the figures as JSON; all three carry the same
figures. -o writes to FILE instead of standard output.

The crawl report holds what it knows of each capture for one host batch at
a time: the captures of a crawl are split by host into batches, and the
tables are read once per batch. More batches use less memory and take
longer; the figures are the same. The batches are as few as fit the
memory bound: GOMEMLIMIT when set, else --memory SIZE, else three quarters
of the memory the process may use (its cgroup's limit, else the machine's;
240 MiB, about a million captures a batch, where that cannot be read). The
number is printed on standard error, with the bound when there are more
than one. 4GiB holds a batch of about 35 million captures. --host-batches N
forces the number and sets no bound.

Exit status: 0 when the report was written, 1 when the dataset cannot be read
or holds no capture of HOST, 2 on a usage error.`,
	Flags: func(fs *flag.FlagSet) func(*Env, []string) int {
		site := fs.String("site", "", "report on one `HOST` (url_host_name)")
		format := fs.String("format", "html", "output `format`: html, md or json")
		out := fs.String("o", "", "write to `FILE` (default: standard output)")
		batches := fs.Int("host-batches", 0, "split each crawl's captures into `N` host batches (default: one per 1,048,576 captures)")
		fs.IntVar(batches, "host-shards", 0, "the former name of --host-batches")
		var crawls stringList
		fs.Var(&crawls, "crawl", "report on the crawl `LABEL` only (repeatable; default: every crawl)")
		ranksFile := fs.String("ranks", "", "join the ranked host list `FILE` (rank,host lines; Tranco's CSV) with the crawls")
		s3Endpoint := fs.String("s3-endpoint", "", "`URL` of the S3-compatible store of an s3:// DATASET (default: AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, else AWS)")
		s3URLStyle := fs.String("s3-url-style", "", "`STYLE` of s3:// requests, path or virtual (default: path with an endpoint, virtual on AWS)")
		profile := profileFlag(fs)
		memory := memoryFlagVar(fs, "default: 3/4 of the memory available")
		return func(env *Env, args []string) int {
			if len(args) > 1 { // flags may follow DATASET too
				if err := fs.Parse(args[1:]); err != nil {
					return exitUsage
				}
				args = append(args[:1], fs.Args()...)
			}
			f, err := analyze.ParseFormat(*format)
			if err != nil {
				env.errorf("report: %v", err)
				return exitUsage
			}
			if len(args) != 1 {
				env.errorf("report: want one DATASET folder")
				return exitUsage
			}
			if *batches < 0 {
				env.errorf("report: --host-batches must be at least 1")
				return exitUsage
			}
			var opts []analyze.Option
			if len(crawls) > 0 {
				opts = append(opts, analyze.WithCrawls(crawls...))
			}
			if *ranksFile != "" {
				r, err := readRanks(*ranksFile)
				if err != nil {
					env.errorf("report: --ranks: %v", err)
					return exitUsage
				}
				opts = append(opts, analyze.WithRanks(r))
			}
			fsys, err := datasetFS(context.Background(), args[0], *s3Endpoint, *s3URLStyle)
			if err != nil {
				env.errorf("report: %v", err)
				if errors.Is(err, archive.ErrInvalidOption) {
					return exitUsage
				}
				return exitFailure
			}
			return withProfile(env, *profile, func() int { return report(env, args[0], fsys, *site, f, *out, *batches, *memory, opts) })
		}
	},
}

// reportMemory is the default memory bound of a report: three quarters of
// the memory available, or, where that cannot be read (outside Linux),
// fallbackReportMemory. The host batches are chosen to fit the bound
// (analyze.WithMemory): the fewer, the faster, and a report's heap grows
// with its batches' captures, not with the bound. With --host-batches a
// batch may hold more than fits under a bound, and the collector would run
// without end: no bound then.
func reportMemory(available sysmem.Memory) memoryBound {
	if available.Bytes <= 0 {
		return memoryBound{bytes: fallbackReportMemory, from: "the default where the memory available is unknown"}
	}
	return memoryBound{bytes: ingest.MemoryShare(available.Bytes), from: fmt.Sprintf("3/4 of %v", available)}
}

// fallbackReportMemory: about a million captures a batch, and the crawl
// report of a million captures stays under 300 MB (scripts/bench-report.sh).
const fallbackReportMemory = 240 << 20

// report writes the crawl report, or the site report when site is set,
// with the crawl's captures split into the given number of host batches,
// or into as few as fit the soft memory limit when batches is 0.
func report(env *Env, dataset string, fsys fs.FS, site string, f analyze.Format, out string, batches int, memory memoryFlag, opts []analyze.Option) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var bound memoryBound
	if batches > 0 {
		opts = append(opts, analyze.WithHostBatches(batches))
	} else {
		bound = chooseMemory(memory, sysmem.Available(), reportMemory)
		defer bound.apply()()
		opts = append(opts, analyze.WithMemory(max(bound.bytes, analyze.MinMemory)))
	}
	d, err := analyze.Open(fsys, opts...)
	if err != nil {
		env.errorf("report: %s: %v", dataset, err)
		if errors.Is(err, analyze.ErrBadOption) {
			return exitUsage // --crawl names no crawl of the dataset
		}
		return exitFailure
	}
	if site == "" {
		for _, crawl := range d.Crawls() {
			captures, batches, err := d.HostBatches(crawl)
			if err != nil {
				env.errorf("report: %s: %v", dataset, err)
				return exitFailure
			}
			fmt.Fprintf(env.Stderr, "report: crawl %s: %d captures in %s", crawl, captures, plural(batches, "host batch", "host batches"))
			if batches > 1 && bound.bytes > 0 {
				fmt.Fprintf(env.Stderr, " to fit the memory bound of %d MiB (%s); a larger --memory takes fewer, faster", bound.bytes>>20, bound.from)
			}
			fmt.Fprintln(env.Stderr)
		}
	}
	write := func(w io.Writer) error {
		if site != "" {
			r, err := d.Site(ctx, site)
			if err != nil {
				return err
			}
			return r.Write(w, f, dataset)
		}
		r, err := d.Report(ctx)
		if err != nil {
			return err
		}
		return r.Write(w, f, dataset)
	}
	if err := writeOutput(env, out, write); err != nil {
		if errors.Is(err, analyze.ErrNoSite) {
			env.errorf("report: %s holds no capture of %s", dataset, site)
		} else {
			env.errorf("report: %v", err)
		}
		return exitFailure
	}
	return exitOK
}

// datasetFS returns the files of the dataset name: a folder, or an
// s3://BUCKET/PREFIX dataset as its published partitions' listings name
// them, read with ranged GETs (objstore.Store.FS) under the standard AWS
// settings, the endpoint of --s3-endpoint first.
func datasetFS(ctx context.Context, name, endpoint, urlStyle string) (fs.FS, error) {
	if !objstore.IsURL(name) {
		return os.DirFS(name), nil
	}
	s3cfg, err := remote.S3ConfigFromEnvironment(ctx, endpoint, urlStyle)
	if err != nil {
		return nil, err
	}
	store, err := objstore.Open(objstoreConfig(s3cfg), name)
	if err != nil {
		return nil, err
	}
	files, err := dataset.PublishedFiles(ctx, store)
	if err != nil {
		return nil, err
	}
	return store.FS(ctx, files), nil
}

// writeOutput calls write with standard output, or with a new file that is
// renamed to path once complete.
func writeOutput(env *Env, path string, write func(io.Writer) error) error {
	if path == "" {
		return write(env.Stdout)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// demoReport ends the demo: it writes report.html beside the dataset
// (unless the folder is the demo's temporary one) and prints a summary.
func demoReport(env *Env, dir, dataset string) int {
	ctx := context.Background()
	d, err := analyze.Open(os.DirFS(dataset))
	if err != nil {
		env.errorf("demo: %v", err)
		return exitFailure
	}
	r, err := d.Report(ctx)
	if err != nil {
		env.errorf("demo: %v", err)
		return exitFailure
	}
	fmt.Fprintln(env.Stdout)
	if err := r.WriteSummary(env.Stdout); err != nil {
		env.errorf("demo: %v", err)
		return exitFailure
	}
	if isDemoTemp(dir) {
		fmt.Fprintln(env.Stdout, "\nrun robocensus demo -o DIR to keep the dataset and the HTML report (DIR/report.html)")
		return exitOK
	}
	html := filepath.Join(dir, "report.html")
	if err := writeOutput(env, html, func(w io.Writer) error { return r.Write(w, analyze.HTML, dataset) }); err != nil {
		env.errorf("demo: %v", err)
		return exitFailure
	}
	fmt.Fprintf(env.Stdout, "\nreport: %s (robocensus report --format md %s for Markdown, --site HOST for one host)\n", html, dataset)
	return exitOK
}

// isDemoTemp reports whether dir is the temporary folder demo makes when
// no -o is given, which it removes on exit.
func isDemoTemp(dir string) bool {
	return filepath.Dir(dir) == filepath.Clean(os.TempDir()) && strings.HasPrefix(filepath.Base(dir), "robocensus-demo-")
}

// readRanks reads the ranked host list of --ranks.
func readRanks(name string) (*analyze.Ranks, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return analyze.ReadRanks(f)
}
