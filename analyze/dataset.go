package analyze

import (
	"fmt"
	"io/fs"
	"slices"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/robocensus/robocensus/analyze/internal/engine"
	"github.com/robocensus/robocensus/analyze/internal/scan"
	"github.com/robocensus/robocensus/analyze/internal/site"
)

// Dataset is a robocensus dataset opened for reading: the Hive-partitioned
// Parquet files DIR/<table>/crawl=<label>/*.parquet that ingest writes
// (DESIGN.md, "Dataset"). It reads them with [schema.NewArrowReader], one
// record batch at a time, so memory does not grow with the number of rows
// of a table; see the package documentation for what it does grow with.
//
// A Dataset is safe for concurrent use.
type Dataset struct {
	r   *scan.Dataset
	cfg config
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
	r, err := scan.Open(fsys, cfg.workers, cfg.mem)
	if err != nil {
		return nil, err
	}
	if cfg.crawls != nil {
		if err := r.SelectCrawls(cfg.crawls); err != nil {
			return nil, err
		}
	}
	return &Dataset{r: r, cfg: cfg}, nil
}

// Crawls returns the crawl labels of the dataset (those of WithCrawls
// when given), oldest first (see crawlorder.go).
func (d *Dataset) Crawls() []string { return d.r.Crawls() }

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
	checks  []*site.Check
	crawls  []string // nil: all
	ranks   *scan.Ranks
}

func newConfig(opts []Option) (config, error) {
	c := config{top: DefaultTop, checks: site.Checks()}
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
func WithRanks(r *scan.Ranks) Option {
	return func(c *config) error {
		if r == nil || r.Len() == 0 {
			return fmt.Errorf("%w: WithRanks: no ranked host", scan.ErrBadOption)
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
			return fmt.Errorf("%w: WithWorkers(%d): want at least 1", scan.ErrBadOption, n)
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
			return fmt.Errorf("%w: WithHostBatches(%d): want at least 1", scan.ErrBadOption, n)
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
		if bytes < engine.MinMemory {
			return fmt.Errorf("%w: WithMemory(%d): want at least %d", scan.ErrBadOption, bytes, engine.MinMemory)
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
			return fmt.Errorf("%w: WithTop(%d): want at least 1", scan.ErrBadOption, n)
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
			return fmt.Errorf("%w: WithAllocator(nil)", scan.ErrBadOption)
		}
		c.mem = mem
		return nil
	}
}

// WithChecks sets the checks the site report runs, at least one, each with
// a name and a Run function. Defaults to [Checks].
func WithChecks(checks ...*site.Check) Option {
	return func(c *config) error {
		if len(checks) == 0 {
			return fmt.Errorf("%w: WithChecks(): no check", scan.ErrBadOption)
		}
		for _, ch := range checks {
			if ch == nil || ch.Name == "" || ch.Run == nil {
				return fmt.Errorf("%w: WithChecks: a check needs a Name and a Run function", scan.ErrBadOption)
			}
		}
		c.checks = checks
		return nil
	}
}

// WithCrawls reports on the crawls labelled only (at least one), in the
// dataset's time order whatever the order given.
func WithCrawls(labels ...string) Option {
	return func(c *config) error {
		if len(labels) == 0 {
			return fmt.Errorf("%w: WithCrawls(): want at least one label", scan.ErrBadOption)
		}
		c.crawls = slices.Clone(labels)
		return nil
	}
}
