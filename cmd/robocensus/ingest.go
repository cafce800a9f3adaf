package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/robocensus/robocensus/ingest"
	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/ingest/dataset"
	"github.com/robocensus/robocensus/ingest/objstore"
	"github.com/robocensus/robocensus/ingest/remote"
	"github.com/robocensus/robocensus/internal/sysmem"
	"github.com/robocensus/robocensus/schema"
)

var ingestCmd = &Command{
	Name:  "ingest",
	Usage: "ingest [-o DIR|s3://BUCKET/PREFIX] [--crawl LABEL] [-j N] [--shard K/N|auto] [--shards N] [--base-url URL] [--s3-endpoint URL] [--s3-url-style STYLE] [--host-requests N] [--compression zstd|snappy|none] [--fresh] [--drop-missing] [--retries N] [--retry-wait D] [--idle-timeout D] [--header-timeout D] [--dry-run] [--cpuprofile FILE] [-v] INPUT...",
	Short: "turn WARC, ARC and tar inputs into a Parquet dataset",
	Long: `
Ingest reads robots.txt captures from each INPUT, parses every one with the
robots engine, and writes the dataset's tables (captures, diagnostics,
rules, sitemaps, agents, inputs, bodies, directives, preferences, hosts,
readings, templates) as Parquet under
DIR/<table>/crawl=<LABEL>/, which DuckDB reads with

	SELECT * FROM read_parquet('DIR/captures/**/*.parquet', hive_partitioning = true)

An INPUT is a .warc, .warc.gz, .warc.zst, .arc or .arc.gz file; a .tar,
.tar.gz, .tgz or .tar.zst archive of robots.txt bodies; a robots.txt body;
a folder, which stands for the files below it, each an input of its own (a
file of a folder that is none of these is recorded as skipped, with its
reason); an http(s):// URL or an s3://BUCKET/KEY object of any of these,
streamed (retried and resumed with Range requests when a transfer fails);
a Common Crawl manifest (a local, http(s) or s3:// *.paths.gz, e.g.
https://data.commoncrawl.org/crawl-data/CC-MAIN-2025-05/robotstxt.paths.gz),
whose relative paths are inputs under --base-url (a URL, an s3://BUCKET/
URL, or a local folder holding a mirror of crawl-data/; those of an s3://
manifest are keys of its own bucket); or @FILE, a list of inputs one per
line. Only a manifest named as an INPUT or in an @FILE expands, not one
met in a folder. --dry-run lists the inputs a run would read, and where
they come from, without reading them.

The partition appears only when complete; a rerun with the same LABEL
replaces it with one that has the rerun's inputs and every input of the
old one the rerun is not given. --crawl defaults to the Common Crawl crawl
the inputs name (CC-MAIN-2025-05), else today's date.

A rerun over a published partition reads only the inputs that failed there
(their error is in the inputs table) or that it does not have; the rows of
the inputs read to their end are kept, and the partition republished is
the one a single clean run would write. When every input was read to its
end there is nothing to do. --fresh reads every input given again.

The inputs of the published partition that a rerun is not given are kept
as published (a failed one with its error, which keeps the exit status 1),
not read: a rerun with some of the inputs loses none of the others, and
says how many inputs and captures it kept. --drop-missing drops them
instead, and the run says how many inputs and captures it dropped.

Remote inputs: a transfer that fails on the way (connection reset, time-out,
5xx, 429 or 408) is retried up to --retries times in a row, waiting from
--retry-wait, doubling, up to a minute, and resumed where it stopped.
Each retry is logged (info level, so on a terminal only with -v) with its
wait, and shown on the progress line. Permanent failures (other 4xx, a
redirect loop or more than 10 redirects, a Location that is not an http(s)
URL, a malformed URL or another scheme, a host that does not exist) are not
retried; the summary says which failed inputs another run cannot read
either (their names are wrong).
--header-timeout bounds the wait for a response header, --idle-timeout a
stall in the middle of a body. No more than --host-requests requests are
in flight to one host at once (one per input read from it).

s3:// inputs take the standard AWS settings: the region and credentials
of the environment (AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
AWS_SESSION_TOKEN, AWS_PROFILE), of ~/.aws/config and ~/.aws/credentials,
of a web identity token or of a container's or instance's role; the
endpoint of --s3-endpoint, else AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL,
else the profile's (its services section's s3 endpoint_url, or its
endpoint_url), else AWS. An S3-compatible store (MinIO, Ceph, versitygw, ...) is
addressed path-style (ENDPOINT/BUCKET/KEY), AWS virtual-hosted;
--s3-url-style path or virtual says otherwise. When no credentials are
found the requests go unsigned, which a public bucket allows. Common
Crawl's bucket is also served anonymously over HTTPS:
https://data.commoncrawl.org/ is s3://commoncrawl/.

A damaged record never stops the run: it is recorded in the inputs table
(and in diagnostics when it concerns one capture) and reading goes on.

Work is committed in segments of --segment-inputs inputs under
DIR/.work/<LABEL>/. A run that is interrupted (even killed) is resumed by
running it again with the same arguments: done inputs are skipped, and the
published partition is the same as that of an uninterrupted run. Once every
input is done the segments are merged into parts of about --part-mb MiB and
published.

--compression chooses the codec of the Parquet pages: zstd (the default,
the smallest dataset), snappy (in our measures about a tenth less CPU, a
dataset about 1.5 times larger) or none (no compression: about as much CPU
as snappy, a dataset 5 to 6 times larger; "uncompressed" is read as none).
DuckDB, Arrow, Spark and pandas read all three, and partitions of different
codecs are read together as any others: each column chunk of a Parquet file
names its own. The README's "Performance" section measures each. A
partition is published in the codec of the run that publishes it: a run
resumed with another --compression recompresses, as it merges them, the
parts its interrupted run (or another shard) wrote in another codec, and a
rerun writes the rows it keeps in its own. A rerun that finds nothing to do
leaves the partition as it is; --fresh writes it again in the codec given.

With --shard K/N (0 <= K < N) the run reads only its share of the inputs, so
that N runs, on one machine or many sharing DIR, split a crawl; the run that
completes the last share publishes the crawl.

Memory: the run sizes its workers, readers and the batches between them to
a memory bound (the Go soft memory limit): GOMEMLIMIT when set, else
--memory SIZE, else what the workers asked for need (about 120 MiB each,
twice what they hold, as the collector wants), at most three quarters of
the memory the process may use (its cgroup's limit, else the machine's).
A bound that does not hold -j workers lowers them, and the run says so.

With --shard auto, the default where one of these is set, the share is the
array task's: JOB_COMPLETION_INDEX (a Kubernetes Indexed Job; the count from
--shards, else ROBOCENSUS_SHARDS, which the manifest sets),
AWS_BATCH_JOB_ARRAY_INDEX (AWS Batch; AWS_BATCH_JOB_ARRAY_SIZE, else as
Kubernetes), SLURM_ARRAY_TASK_ID (Slurm; SLURM_ARRAY_TASK_COUNT, counted from
SLURM_ARRAY_TASK_MIN by SLURM_ARRAY_TASK_STEP), CLOUD_RUN_TASK_INDEX (Cloud
Run; CLOUD_RUN_TASK_COUNT).

Exit status, for schedulers: 0 when every input was read to its end (the
shard's work done, published or waiting for other shards); 1 when an input
could not be opened or read to its end (recorded in inputs; the others are
still processed) or the dataset could not be written: worth running again
later, which reads only what failed; 2 on a usage error, 5 on a permanent
failure: a malformed manifest, or a dataset in object storage whose bucket
does not exist, whose credentials are refused or whose store does not
support conditional writes. Do not retry 2 or 5. A run in which no input
could be read (a mistyped path, folders that hold no files) publishes
nothing and exits 1.`,
	Flags: func(fs *flag.FlagSet) func(*Env, []string) int {
		out := fs.String("o", "./robocensus-data", "dataset `DIR`, or s3://BUCKET/PREFIX")
		crawl := fs.String("crawl", "", "partition `LABEL` (default: from the inputs, else today's date)")
		jobs := fs.Int("j", 0, "parse-and-write `workers` (default: the number of CPUs)")
		verbose := fs.Bool("v", false, "log every input read (debug level)")
		shard := fs.String("shard", "", "read only share `K/N` of the inputs (0 <= K < N), or auto: from an array job's index (the default where one is set)")
		shards := fs.Int("shards", 0, "shard count `N` of --shard auto where the scheduler gives only the index (default: "+dataset.ShardsEnv+")")
		segment := fs.Int("segment-inputs", 32, "inputs per committed `segment` (the most work a crash loses)")
		partMB := fs.Int("part-mb", 256, "size of the published part files, in `MiB`")
		dryRun := fs.Bool("dry-run", false, "list the inputs the run would read, and where from, without reading them")
		baseURL := fs.String("base-url", remote.DefaultBaseURL, "`URL` or local folder that the paths of a *.paths.gz manifest are relative to")
		s3Endpoint := fs.String("s3-endpoint", "", "`URL` of the S3-compatible store of s3:// inputs and datasets (default: AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, else AWS)")
		s3URLStyle := fs.String("s3-url-style", "", "`STYLE` of s3:// requests, path or virtual (default: path with an endpoint, virtual on AWS)")
		hostRequests := fs.Int("host-requests", remote.DefaultHostRequests, "most requests in flight to one host at once (`N`)")
		compression := fs.String("compression", schema.Zstd.String(), "`codec` of the Parquet pages: "+strings.Join(schema.CompressionNames(), ", ")+" (no compression)")
		fresh := fs.Bool("fresh", false, "read every input again, also those a published partition read to their end")
		dropMissing := fs.Bool("drop-missing", false, "drop the inputs of the published partition that are not given (default: keep their rows)")
		retries := fs.Int("retries", remote.DefaultRetries, "failed attempts in a row a remote transfer survives (`N`)")
		retryWait := fs.Duration("retry-wait", remote.DefaultBackoffBase, "wait before the first retry, doubled at each retry in a row up to a minute (`D`)")
		idle := fs.Duration("idle-timeout", remote.DefaultIdleTimeout, "longest stall in a remote body (`D`)")
		header := fs.Duration("header-timeout", remote.DefaultHeaderTimeout, "longest wait for a response header, connecting included (`D`)")
		profile := profileFlag(fs)
		memory := memoryFlagVar(fs, "default: what the workers need, at most 3/4 of the memory available")
		return func(env *Env, args []string) int {
			if len(args) == 0 {
				env.errorf("ingest: no INPUT given")
				return exitUsage
			}
			codec, err := schema.ParseCompression(*compression)
			if err != nil {
				env.errorf("ingest: --compression %q: want %s", *compression, strings.Join(schema.CompressionNames(), ", "))
				return exitUsage
			}
			// The environment's proxy settings (HTTPS_PROXY, ...) apply
			// to remote inputs.
			fetch := []remote.Option{remote.WithHTTPClient(remote.NewHTTPClient(http.ProxyFromEnvironment)),
				remote.WithRetries(*retries), remote.WithBackoff(*retryWait, max(*retryWait, remote.DefaultBackoffMax)),
				remote.WithIdleTimeout(*idle), remote.WithHeaderTimeout(*header), remote.WithHostRequests(*hostRequests)}
			if mayReadS3(args, *baseURL, *s3Endpoint, *s3URLStyle) || objstore.IsURL(*out) {
				s3cfg, err := remote.S3ConfigFromEnvironment(context.Background(), *s3Endpoint, *s3URLStyle)
				if err != nil {
					env.errorf("ingest: s3:// inputs and datasets: %v", err)
					if errors.Is(err, archive.ErrInvalidOption) {
						return exitUsage
					}
					return exitFailure // AWS settings that cannot be read
				}
				fetch = append(fetch, remote.WithS3(s3cfg))
				dataset.ConfigureS3(objstoreConfig(s3cfg))
			}
			if objstore.IsURL(*out) {
				if _, _, err := objstore.ParseURL(*out); err != nil {
					env.errorf("ingest: -o: %v", err)
					return exitUsage
				}
			}
			inputs, from, err := expandArgs(env, args, *baseURL, append([]remote.Option{remote.WithBaseURL(*baseURL)}, fetch...)...)
			if err != nil {
				env.errorf("%v", err)
				switch {
				case errors.Is(err, archive.ErrInvalidOption):
					return exitUsage
				case errors.Is(err, remote.ErrManifest):
					return exitPermanent // a manifest that reads but is malformed
				}
				return exitFailure // a list or manifest that cannot be read now
			}
			label := *crawl
			if label == "" {
				label = remote.CrawlLabel(inputs, time.Now())
			}
			if err := schema.CheckCrawl(label); err != nil {
				env.errorf("ingest: --crawl: %v", err)
				return exitUsage
			}
			cfg := ingest.Config{Dir: *out, Crawl: label, Workers: *jobs, Logger: newLogger(env.Stderr, *verbose, isTerminal(env.Stderr)),
				SegmentInputs: *segment, PartBytes: int64(*partMB) << 20, FetchOptions: fetch, Fresh: *fresh, DropMissing: *dropMissing, Compression: codec}
			if cfg.Shard, err = chooseShard(cfg.Logger, *shard, *shards); err != nil {
				env.errorf("ingest: --shard: %v", err)
				return exitUsage
			}
			if *segment < 1 || *partMB < 1 {
				env.errorf("ingest: --segment-inputs and --part-mb must be at least 1")
				return exitUsage
			}
			if *dryRun {
				return printPlan(env, cfg, inputs, from)
			}
			bound := chooseMemory(*memory, sysmem.Available(), func(m sysmem.Memory) memoryBound { return ingestMemory(cfg, inputs, m) })
			return withProfile(env, *profile, func() int { return runIngest(env, cfg, inputs, bound) })
		}
	},
}

// exitPermanent is ingest's exit status for a failure that running again
// cannot mend: a malformed manifest, or a dataset in object storage whose
// bucket does not exist, whose credentials are refused, or whose store
// does not support conditional writes. A scheduler should not retry it
// (Kubernetes: a podFailurePolicy rule FailIndex on exit codes 2 and 5);
// exit 1 is worth retrying later. Not 3 or 4: scripts/nightly.sh passes
// an ingest status above 1 through, and its own 3 and 4 are its upload and
// its report failing.
const exitPermanent = 5

// runFailure is the exit status of a run that ended with err.
func runFailure(err error) int {
	for _, permanent := range []error{objstore.ErrAccessDenied, objstore.ErrNoBucket, objstore.ErrNoConditionalWrites, objstore.ErrTooLarge} {
		if errors.Is(err, permanent) {
			return exitPermanent
		}
	}
	return exitFailure
}

// chooseShard returns the run's shard: that of --shard K/N; with --shard
// auto, or no --shard where an array job's index is set, that of the
// scheduler's variables (dataset.ShardFromEnv), said at info level; else
// every input.
func chooseShard(log *slog.Logger, spec string, count int) (dataset.Shard, error) {
	if spec == "" && dataset.InArrayJob(os.Getenv) {
		spec = "auto"
	}
	switch spec {
	case "":
		return dataset.Shard{}, nil
	case "auto":
		s, from, err := dataset.ShardFromEnv(os.Getenv, count)
		if err == nil {
			log.Info("shard from the array job", "shard", s.String(), "from", from)
		}
		return s, err
	}
	return dataset.ParseShard(spec)
}

// objstoreConfig is the S3 setting of a dataset in object storage, the
// same as that of s3:// inputs.
func objstoreConfig(c remote.S3Config) objstore.Config {
	return objstore.Config{Endpoint: c.Endpoint, Region: c.Region, URLStyle: c.URLStyle, Credentials: c.Credentials}
}

// mayReadS3 reports whether a run may read s3:// inputs, and so needs the
// AWS settings: an argument, the base URL or an S3 flag says so, or an
// @FILE list may.
func mayReadS3(args []string, baseURL, endpoint, urlStyle string) bool {
	if endpoint != "" || urlStyle != "" || remote.IsS3(baseURL) {
		return true
	}
	for _, a := range args {
		if remote.IsS3(a) || strings.HasPrefix(a, "@") {
			return true
		}
	}
	return false
}

// ingestMemory is the default memory bound of an ingest: what its workers,
// readers and queue need, at most three quarters of the memory available
// (see ingest.DefaultMemory).
func ingestMemory(cfg ingest.Config, inputs []string, available sysmem.Memory) memoryBound {
	b := ingest.DefaultMemory(cfg, inputs, available.Bytes)
	from := fmt.Sprintf("what the workers need (%d MiB)", ingest.MemoryNeed(cfg, inputs)>>20)
	if available.Bytes > 0 {
		from += fmt.Sprintf(", at most 3/4 of %v", available)
	}
	return memoryBound{bytes: b, from: from}
}

// runIngest runs the pipeline with a progress line on a terminal, or a
// progress log line every progressLogEvery otherwise, and prints the
// summary.
func runIngest(env *Env, cfg ingest.Config, inputs []string, bound memoryBound) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	defer bound.apply()()
	cfg.Logger.Debug("memory bound", "mib", bound.bytes>>20, "from", bound.from)
	progress := newProgressLine(env.Stderr, cfg.Logger)
	cfg.Progress = progress.update
	sum, err := ingest.Run(ctx, cfg, inputs)
	progress.done()
	cfg.Logger.Info("run finished", "progress", sum.Progress, "resumed", sum.Resumed, "kept", sum.Kept, "dropped", sum.Dropped, "pending", sum.Pending, "published", sum.Published)
	if err != nil {
		env.errorf("%s", withPrefix("ingest: ", err))
		return runFailure(err)
	}
	fmt.Fprintf(env.Stdout, "wrote %s (crawl=%s): %s\n", cfg.Dir, cfg.Crawl, sum.Progress)
	upToDate := !sum.Published && sum.Pending == 0 && sum.InputsDone == 0 && sum.Kept == len(sum.Inputs) && sum.Kept > 0
	switch {
	case upToDate:
	case sum.Kept > 0:
		fmt.Fprintf(env.Stdout, "  rerun: %s kept from the published partition, %s read (%s kept)\n",
			plural(sum.Kept, "input", "inputs"), plural(sum.InputsDone, "input", "inputs"), plural(int(sum.KeptCaptures), "capture", "captures"))
	case sum.Resumed > 0:
		fmt.Fprintf(env.Stdout, "  resumed: %s already done\n", plural(sum.Resumed, "input", "inputs"))
	}
	if sum.Unnamed > 0 {
		fmt.Fprintf(env.Stdout, "  rerun: %s not named kept as published (%s); --drop-missing drops them\n",
			plural(sum.Unnamed, "input", "inputs"), plural(int(sum.UnnamedCaptures), "capture", "captures"))
	}
	if sum.Dropped > 0 {
		fmt.Fprintf(env.Stdout, "  rerun: dropped %s not named (%s), as --drop-missing asks\n",
			plural(sum.Dropped, "input", "inputs"), plural(int(sum.DroppedCaptures), "capture", "captures"))
	}
	switch {
	case upToDate:
		fmt.Fprintf(env.Stdout, "  already published: every input given read to its end, nothing to do (--fresh reads them again)\n")
	case sum.Published:
		fmt.Fprintf(env.Stdout, "  published %s/<table>/crawl=%s/ (%s)\n", cfg.Dir, cfg.Crawl, plural(len(sum.Inputs), "input", "inputs"))
	case sum.NothingRead && len(sum.Inputs) == 0:
		fmt.Fprintf(env.Stdout, "  nothing published: no input to read (the folders and lists given name no files; hidden files are left out)\n")
	case sum.NothingRead:
		fmt.Fprintf(env.Stdout, "  nothing published: no input could be read\n")
	case sum.Pending > 0:
		fmt.Fprintf(env.Stdout, "  shard %s done; %s of other shards to go before the crawl is published\n", cfg.Shard, plural(sum.Pending, "input", "inputs"))
	default:
		fmt.Fprintf(env.Stdout, "  all inputs done; another run is publishing the crawl\n")
	}
	if (upToDate || sum.Published) && objstore.IsURL(cfg.Dir) {
		printPublication(env, cfg.Dir, cfg.Crawl)
	}
	for _, in := range sum.Inputs {
		if in.Error != "" {
			fmt.Fprintf(env.Stdout, "  not read to its end: %s\n", in.Error)
		}
	}
	if sum.Failed > 0 {
		printFailed(env, sum)
		return exitFailure
	}
	if sum.NothingRead {
		return exitFailure
	}
	return exitOK
}

// printFailed says which failed inputs another run may read (a server down,
// a time-out, ...) and which it cannot, their names being wrong.
func printFailed(env *Env, sum ingest.Summary) {
	if again := sum.Failed - sum.FailedForGood; again > 0 {
		fmt.Fprintf(env.Stdout, "  still failed: %s; run again with them to read them again\n", plural(again, "input", "inputs"))
	}
	if sum.FailedForGood > 0 {
		fmt.Fprintf(env.Stdout, "  failed for good: %s whose name no run can read (a scheme other than http(s), a malformed URL, or a host that does not exist); correct or drop them\n",
			plural(sum.FailedForGood, "input", "inputs"))
	}
}

// newLogger returns the structured logger of the run: text lines on w. On
// a terminal, which shows a progress line (and there the retries of remote
// inputs), only warnings and errors; else also information (periodic
// progress, each retry of a remote input with its wait, the summary); with
// verbose, information and debug lines too (every input read). On a
// terminal each line first clears the progress line, which the next
// update draws again below it.
func newLogger(w io.Writer, verbose, terminal bool) *slog.Logger {
	level := slog.LevelInfo
	switch {
	case verbose:
		level = slog.LevelDebug
	case terminal:
		level = slog.LevelWarn
	}
	if isTerminal(w) { // where progressLine draws (demo asks for the terminal's level anywhere)
		w = clearLineWriter{w}
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
}

// clearLineWriter writes each write of a log line at the start of a
// cleared terminal line, in one write, so that it does not follow the
// progress line's text.
type clearLineWriter struct{ w io.Writer }

func (c clearLineWriter) Write(p []byte) (int, error) {
	if _, err := c.w.Write(append([]byte("\r\033[K"), p...)); err != nil {
		return 0, err
	}
	return len(p), nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// progressLogEvery is how often a run that is not on a terminal logs its
// progress.
const progressLogEvery = time.Minute

// progressLine rewrites one line on a terminal; elsewhere it logs the
// progress every progressLogEvery.
type progressLine struct {
	w        io.Writer
	log      *slog.Logger
	terminal bool
	last     time.Time
}

func newProgressLine(w io.Writer, log *slog.Logger) *progressLine {
	return &progressLine{w: w, log: log, terminal: isTerminal(w), last: time.Now()}
}

func (p *progressLine) update(pr ingest.Progress) {
	if p.terminal {
		fmt.Fprintf(p.w, "\r\033[K%s", pr)
		return
	}
	if time.Since(p.last) >= progressLogEvery {
		p.last = time.Now()
		p.log.Info("progress", "progress", pr)
	}
}

func (p *progressLine) done() {
	if p.terminal {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// plural says "1 input" or "N inputs".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// expandArgs expands the command line's @FILE lists and manifests (see
// remote.ExpandInputs), says on stderr what each manifest stood for, and
// maps each input that came from a list or manifest to it.
func expandArgs(env *Env, args []string, base string, opts ...remote.Option) ([]string, map[string]string, error) {
	var inputs []string
	from := map[string]string{}
	for _, a := range args {
		items, err := remote.ExpandInputs([]string{a}, opts...)
		if err != nil {
			return nil, nil, err
		}
		if len(items) != 1 || items[0] != a {
			for _, in := range items {
				from[in] = a
			}
		}
		if remote.IsManifest(a) {
			fmt.Fprintf(env.Stderr, "manifest %s: %s under %s\n", a, plural(len(items), "input", "inputs"), base)
		}
		inputs = append(inputs, items...)
	}
	return inputs, from, nil
}

// printPlan prints what a run would do with each input: a line per input,
// "read", "done", "other-shard", or for a published input not given,
// "kept-not-named" or "dropped", the input, and where it comes from.
func printPlan(env *Env, cfg ingest.Config, inputs []string, from map[string]string) int {
	plan, err := ingest.Plan(cfg, inputs)
	if err != nil {
		env.errorf("%s", withPrefix("ingest: ", err))
		return exitFailure
	}
	counts := map[string]int{}
	for _, p := range plan {
		what := "read"
		if !p.Read {
			what = strings.ReplaceAll(p.Why, " ", "-")
		}
		counts[what]++
		origin := p.Folder
		if origin == "" {
			origin = from[p.Input]
		}
		line := what + "\t" + p.Input
		if origin != "" {
			line += "\tfrom " + origin
		}
		if p.Skip != "" {
			line += "\t(to be skipped: " + p.Skip + ")"
		}
		fmt.Fprintln(env.Stdout, line)
	}
	fmt.Fprintf(env.Stdout, "%s for crawl=%s in %s: %d to read, %d done, %d in other shards",
		plural(len(plan), "input", "inputs"), cfg.Crawl, cfg.Dir, counts["read"], counts["done"], counts["other-shard"])
	if n := counts["kept-not-named"]; n > 0 {
		fmt.Fprintf(env.Stdout, ", %d published not named kept (--drop-missing drops them)", n)
	}
	if n := counts["dropped"]; n > 0 {
		fmt.Fprintf(env.Stdout, ", %d published not named dropped", n)
	}
	fmt.Fprintln(env.Stdout)
	return exitOK
}

// withPrefix returns the error's text with prefix, unless it already starts
// with it: ingest.Run's own errors say "ingest: ..." already, those it passes
// on from ingest/dataset say "dataset: ..." and get the command's "ingest: "
// in front ("ingest: dataset: another ingest of crawl ... is running").
func withPrefix(prefix string, err error) string {
	if msg := err.Error(); !strings.HasPrefix(msg, prefix) {
		return prefix + msg
	}
	return err.Error()
}

// printPublication prints the name of the current publication of crawl in
// the dataset in object storage at root ("  publication: NAME"), which
// scripts/nightly.sh compares with the one it last reported; an error to
// read it is a warning (the crawl is published all the same).
func printPublication(env *Env, root, crawl string) {
	pub, err := dataset.Publication(root, crawl)
	if err != nil {
		env.errorf("ingest: warning: reading the publication of crawl %s: %v", crawl, err)
		return
	}
	if pub != "" {
		fmt.Fprintf(env.Stdout, "  publication: %s\n", pub)
	}
}
