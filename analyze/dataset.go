package analyze

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/robocensus/robocensus/schema"
)

// Dataset is a robocensus dataset opened for reading: the Hive-partitioned
// Parquet files DIR/<table>/crawl=<label>/*.parquet that ingest writes
// (DESIGN.md, "Dataset"). It reads them with [schema.NewArrowReader], one
// record batch at a time, so memory does not grow with the number of rows
// of a table; see the package documentation for what it does grow with.
//
// A Dataset is safe for concurrent use.
type Dataset struct {
	fsys   fs.FS
	crawls []string
	cfg    config
	hash   hasher // one seed for every crawl, so that hashes compare across crawls
}

// Open opens the dataset whose root folder is fsys (for a folder on disk,
// os.DirFS(DIR)). Its crawls are the partitions of the captures table,
// crawl=<label>, oldest first (by the time a label names, else by the
// earliest fetch time of its captures); folders whose names start with '.' (such
// as ingest's staging folder) are not read. Files must implement
// io.ReaderAt, as those of os.DirFS do.
//
// Open fails with an error wrapping [ErrNoDataset] when fsys holds no
// captures partition.
func Open(fsys fs.FS, opts ...Option) (*Dataset, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	dirs, err := fs.Glob(fsys, "captures/"+schema.PartitionKey+"=*")
	if err != nil {
		return nil, err
	}
	d := &Dataset{fsys: fsys, cfg: cfg, hash: newHasher()}
	for _, dir := range dirs {
		label := strings.TrimPrefix(path.Base(dir), schema.PartitionKey+"=")
		if files, _ := d.files("captures", label); len(files) > 0 {
			d.crawls = append(d.crawls, label)
		}
	}
	if len(d.crawls) == 0 {
		return nil, fmt.Errorf("%w: no captures/%s=*/*.parquet files", ErrNoDataset, schema.PartitionKey)
	}
	slices.Sort(d.crawls)
	if err := d.orderCrawls(context.Background()); err != nil {
		return nil, err
	}
	if cfg.crawls != nil {
		if err := d.selectCrawls(cfg.crawls); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// Crawls returns the crawl labels of the dataset (those of WithCrawls
// when given), oldest first (see crawlorder.go).
func (d *Dataset) Crawls() []string { return slices.Clone(d.crawls) }

// files returns the Parquet files of one partition of a table, sorted; none
// when the partition does not exist.
func (d *Dataset) files(table, crawl string) ([]string, error) {
	dir := table + "/" + schema.PartitionKey + "=" + crawl
	entries, err := fs.ReadDir(d.fsys, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if e.Type().IsRegular() && strings.HasSuffix(name, ".parquet") && !strings.HasPrefix(name, ".") {
			out = append(out, dir+"/"+name)
		}
	}
	return out, nil
}

// scanSpec says what to read: the columns of one table in one crawl, in
// batches of batch rows (0: the reader's default), those in dict as
// dictionaries (see [schema.WithDictionary]).
type scanSpec struct {
	table   string
	crawl   string
	columns []string
	dict    []string
	batch   int64
	groups  []int // the row groups of the file to read (nil: all)
}

// scan reads every file of a partition with up to cfg.workers goroutines,
// which share out the files' row groups (see [Dataset.units]), and calls fn
// with the index of the goroutine (below d.workers()) and each record, in
// no particular order. Records are released when fn returns; fn must copy
// any string it keeps. The first error stops the scan.
func (d *Dataset) scan(ctx context.Context, s scanSpec, fn func(worker int, rec arrow.Record) error) error {
	units, err := d.units(s.table, s.crawl)
	if err != nil || len(units) == 0 {
		return err
	}
	next := make(chan scanUnit)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var wg sync.WaitGroup
	for w := range min(d.workers(), len(units)) {
		wg.Go(func() {
			for u := range next {
				su := s
				su.groups = u.groups
				if err := d.scanFile(ctx, u.file, su, func(rec arrow.Record) error { return safeCall(u.file, func() error { return fn(w, rec) }) }); err != nil {
					cancel(err)
				}
			}
		})
	}
feed:
	for _, u := range units {
		select {
		case next <- u:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := context.Cause(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return ctx.Err()
}

// scanUnit is a share of a scan: a run of row groups of one file (nil: all
// of them).
type scanUnit struct {
	file   string
	groups []int
}

// unitsPerWorker is how many units a scan makes per worker, so that
// workers that finish early find more to do.
const unitsPerWorker = 4

// units splits the files of a partition into runs of row groups, about
// unitsPerWorker per worker in all: the published dataset has few, large
// files (ingest merges its parts to 256 MiB), and a file read by one
// goroutine would leave the other cores idle.
func (d *Dataset) units(table, crawl string) ([]scanUnit, error) {
	files, err := d.footers(table, crawl)
	if err != nil {
		return nil, err
	}
	total := 0
	for _, f := range files {
		total += f.groups
	}
	size := max(1, (total+unitsPerWorker*d.workers()-1)/(unitsPerWorker*d.workers()))
	var units []scanUnit
	for _, f := range files {
		if f.groups <= size {
			units = append(units, scanUnit{file: f.name})
			continue
		}
		for g := 0; g < f.groups; g += size {
			run := make([]int, 0, size)
			for k := g; k < min(g+size, f.groups); k++ {
				run = append(run, k)
			}
			units = append(units, scanUnit{file: f.name, groups: run})
		}
	}
	return units, nil
}

// footer is what the footer of a file says of it.
type footer struct {
	name   string
	rows   int64
	groups int
}

// footers reads the footers of the files of a partition.
func (d *Dataset) footers(table, crawl string) ([]footer, error) {
	files, err := d.files(table, crawl)
	if err != nil {
		return nil, err
	}
	out := make([]footer, 0, len(files))
	for _, name := range files {
		r, closeFile, err := d.openArrow(name, scanSpec{table: table})
		if err != nil {
			return nil, err
		}
		out = append(out, footer{name: name, rows: r.NumRows(), groups: r.NumRowGroups()})
		closeFile()
	}
	return out, nil
}

// rows returns the number of rows of a partition, from the files' footers.
func (d *Dataset) rows(table, crawl string) (int64, error) {
	files, err := d.footers(table, crawl)
	var n int64
	for _, f := range files {
		n += f.rows
	}
	return n, err
}

// workers is the number of goroutines a scan uses.
func (d *Dataset) workers() int {
	if d.cfg.workers > 0 {
		return d.cfg.workers
	}
	return runtime.GOMAXPROCS(0)
}

// scanFile reads one file (the row groups of s.groups, if set) record by
// record.
func (d *Dataset) scanFile(ctx context.Context, name string, s scanSpec, fn func(arrow.Record) error) error {
	r, closeFile, err := d.openArrow(name, s)
	if err != nil {
		return err
	}
	defer closeFile()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		rec, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("analyze: %s: %w", name, err)
		}
		if err := fn(rec); err != nil {
			return err
		}
	}
}

// openArrow opens one file of the dataset for reading.
func (d *Dataset) openArrow(name string, s scanSpec) (*schema.ArrowReader, func(), error) {
	f, err := d.fsys.Open(name)
	if err != nil {
		return nil, nil, err
	}
	ra, ok := f.(io.ReaderAt)
	st, serr := f.Stat()
	if !ok || serr != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%w: %s", ErrNotReaderAt, name)
	}
	opts := []schema.ReaderOption{schema.WithTable(s.table), schema.WithAllocator(d.allocator())}
	if len(s.columns) > 0 {
		opts = append(opts, schema.WithColumns(s.columns...))
	}
	if s.batch > 0 {
		opts = append(opts, schema.WithBatchSize(s.batch))
	}
	if len(s.dict) > 0 {
		opts = append(opts, schema.WithDictionary(s.dict...))
	}
	if len(s.groups) > 0 {
		opts = append(opts, schema.WithRowGroups(s.groups...))
	}
	r, err := schema.NewArrowReader(ra, st.Size(), opts...)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("analyze: %s: %w", name, err)
	}
	return r, func() { r.Close(); f.Close() }, nil
}

func (d *Dataset) allocator() memory.Allocator {
	if d.cfg.mem != nil {
		return d.cfg.mem
	}
	return memory.DefaultAllocator
}

// DefaultTop is the default length of the report's ranked lists (the user
// agents most often named, domain farms, worst hosts, trends of AI
// crawlers).
const DefaultTop = 20

// An Option configures [Open]. Options check their arguments; an invalid one
// makes Open return an error wrapping [ErrBadOption].
type Option func(*config) error

type config struct {
	workers int
	batches int   // 0: chosen from the captures' row count
	memory  int64 // 0: DefaultBatchCaptures per batch
	top     int
	mem     memory.Allocator
	checks  []*Check
	crawls  []string // nil: all
	ranks   *Ranks
}

func newConfig(opts []Option) (config, error) {
	c := config{top: DefaultTop, checks: Checks()}
	for _, opt := range opts {
		if err := opt(&c); err != nil {
			return config{}, err
		}
	}
	return c, nil
}

// WithRanks joins a ranked host list (see [ReadRanks]) with the crawls:
// the crawl report gains the strata section, Common Crawl's fetch classes
// of the hosts ranked in each top-k stratum.
func WithRanks(r *Ranks) Option {
	return func(c *config) error {
		if r == nil || r.Len() == 0 {
			return fmt.Errorf("%w: WithRanks: no ranked host", ErrBadOption)
		}
		c.ranks = r
		return nil
	}
}

// WithWorkers sets the number of files read at once, at least 1. Defaults
// to GOMAXPROCS.
func WithWorkers(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("%w: WithWorkers(%d): want at least 1", ErrBadOption, n)
		}
		c.workers = n
		return nil
	}
}

// WithHostBatches sets the number of host batches the captures of each crawl
// partition are split into, at least 1: the crawl report keeps the state
// of one batch's captures at a time, and reads the tables once per batch
// (see the package documentation, "Memory and speed"). The figures are
// the same for any number of batches. Defaults to enough batches for each
// to hold at most [DefaultBatchCaptures] captures, from the row counts in
// the captures files' footers, or to fit [WithMemory].
func WithHostBatches(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("%w: WithHostBatches(%d): want at least 1", ErrBadOption, n)
		}
		c.batches = n
		return nil
	}
}

// WithHostShards is the former name of [WithHostBatches].
//
// Deprecated: use WithHostBatches. "Shard" now names only a machine's
// share of ingest's inputs (robocensus ingest --shard K/N).
func WithHostShards(n int) Option { return WithHostBatches(n) }

// WithMemory chooses the number of host batches from the memory the report
// may use, in bytes, at least [MinMemory] (such as the soft memory limit
// of the process, debug.SetMemoryLimit(-1)): as few batches as the memory
// allows, since each batch costs a pass over the tables. The model is
// that of the package documentation, "Memory and speed": [BaseMemory] for
// buffers and counts, [BytesPerBody] per row of the crawl's bodies table
// (an upper bound of the shared-bodies counts), and [BytesPerCapture] per
// capture of a batch. A batch holds at least [DefaultBatchCaptures]
// captures: more batches would not save the memory of the whole crawl's
// counts, only add passes. [WithHostBatches] takes precedence.
func WithMemory(bytes int64) Option {
	return func(c *config) error {
		if bytes < MinMemory {
			return fmt.Errorf("%w: WithMemory(%d): want at least %d", ErrBadOption, bytes, MinMemory)
		}
		c.memory = bytes
		return nil
	}
}

// WithTop sets the length of the ranked lists of the crawl report, at
// least 1. Defaults to [DefaultTop].
func WithTop(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("%w: WithTop(%d): want at least 1", ErrBadOption, n)
		}
		c.top = n
		return nil
	}
}

// WithAllocator sets the allocator of the Arrow records read, not nil.
// Defaults to memory.DefaultAllocator.
func WithAllocator(mem memory.Allocator) Option {
	return func(c *config) error {
		if mem == nil {
			return fmt.Errorf("%w: WithAllocator(nil)", ErrBadOption)
		}
		c.mem = mem
		return nil
	}
}

// WithChecks sets the checks the site report runs, at least one, each with
// a name and a Run function. Defaults to [Checks].
func WithChecks(checks ...*Check) Option {
	return func(c *config) error {
		if len(checks) == 0 {
			return fmt.Errorf("%w: WithChecks(): no check", ErrBadOption)
		}
		for _, ch := range checks {
			if ch == nil || ch.Name == "" || ch.Run == nil {
				return fmt.Errorf("%w: WithChecks: a check needs a Name and a Run function", ErrBadOption)
			}
		}
		c.checks = checks
		return nil
	}
}

// safeCall calls fn, turning a panic into an error that names the file: a
// dataset that breaks an assumption of the report (a writer's bug, a file
// written by another tool) ends the report with an error, never a crash
// that leaves its temporary output behind.
func safeCall(file string, fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("analyze: %s: unexpected data (%v); please report this with the dataset", file, r)
		}
	}()
	return fn()
}
