package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// Config configures [Run].
type Config struct {
	// Dir is the dataset's root folder; it is created if missing.
	Dir string
	// Crawl is the partition label (see schema.CheckCrawl), e.g.
	// "CC-MAIN-2025-05"; see [CrawlLabel].
	Crawl string
	// Workers is the number of goroutines that parse captures and write
	// rows. Defaults to runtime.GOMAXPROCS(0).
	Workers int
	// Readers is the number of inputs read at once. Defaults to Workers.
	Readers int
	// ReadOptions configure the readers (limits, mode).
	ReadOptions []Option
	// Crawlers are the crawlers of the agents table. Defaults to
	// robots.Crawlers.
	Crawlers []robots.Crawler
	// PartCaptures is the number of captures a worker writes to a part file
	// before it starts a new one. Defaults to 2,000,000.
	PartCaptures int64
	// Progress, if set, is called about once a second during the run and
	// once at its end, from a goroutine of its own.
	Progress func(Progress)
	// Logger receives a line per input read and per problem. Defaults to
	// discarding.
	Logger *slog.Logger
}

// Progress is a snapshot of a run.
type Progress struct {
	Inputs     int   // inputs given
	InputsDone int   // inputs read to their end or given up
	Failed     int   // inputs that could not be opened or read to their end
	Records    int64 // records read, of the inputs done
	Captures   int64 // captures parsed and written
	Bytes      int64 // input bytes read, of the inputs done
	Elapsed    time.Duration
}

// Summary is the result of a run: the final progress and the rows of the
// inputs table.
type Summary struct {
	Progress
	Inputs []schema.Input
}

// Sizes of the work units. A batch carries captures from a reader to a
// worker; its bodies are copied into one arena of batchBytes.
const (
	batchCaptures = 256
	batchBytes    = 4 << 20
	flushRows     = 16 << 10 // rows a worker buffers before writing
)

// Run reads every input, parses every capture with the robots engine and
// writes the dataset's tables to a new partition Dir/<table>/crawl=<Crawl>/,
// which replaces the old one only when every part file is complete.
//
// Inputs are read by Readers goroutines at once, each input by one reader;
// the captures go in batches to Workers goroutines, each writing its own
// part files. Memory is bounded by the batches in flight and the row groups
// being written, whatever the size or number of inputs.
//
// An input that cannot be opened or read to its end is recorded in the
// inputs table with its error, and the run goes on; Summary.Failed counts
// them. Run returns an error only when the dataset cannot be written, or
// when ctx is cancelled; the partition is then left as it was.
func Run(ctx context.Context, cfg Config, inputs []string) (Summary, error) {
	if err := cfg.setDefaults(); err != nil {
		return Summary{}, err
	}
	stage, err := newStaging(cfg.Dir, cfg.Crawl)
	if err != nil {
		return Summary{}, err
	}
	p := &pipeline{cfg: cfg, stage: stage, inputs: dedupe(inputs, cfg.Logger), start: time.Now()}
	p.batches = make(chan *batch, 2*cfg.Workers)
	stop := p.reportProgress()
	err = p.run(ctx)
	stop()
	sum := Summary{Progress: p.progress(), Inputs: p.rows}
	if err == nil {
		err = writeInputs(stage, p.rows)
	}
	if err == nil {
		err = stage.commit()
	}
	if err != nil {
		stage.discard()
		return sum, err
	}
	return sum, nil
}

func (c *Config) setDefaults() error {
	if err := schema.CheckCrawl(c.Crawl); err != nil {
		return err
	}
	if c.Dir == "" {
		return errors.New("ingest: no dataset folder")
	}
	if c.Workers <= 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	if c.Readers <= 0 {
		c.Readers = c.Workers
	}
	if c.Crawlers == nil {
		c.Crawlers = robots.Crawlers
	}
	if c.PartCaptures <= 0 {
		c.PartCaptures = 2_000_000
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if _, err := newConfig(c.ReadOptions); err != nil {
		return err
	}
	return nil
}

// dedupe drops inputs given more than once: their captures would be
// written twice with the same IDs.
func dedupe(inputs []string, log *slog.Logger) []string {
	seen := make(map[string]bool, len(inputs))
	out := make([]string, 0, len(inputs))
	for _, in := range inputs {
		if seen[in] {
			log.Warn("input given twice; read once", "input", in)
			continue
		}
		seen[in] = true
		out = append(out, in)
	}
	return out
}

// pipeline is the state of one run.
type pipeline struct {
	cfg     Config
	stage   *stagingDir
	inputs  []string
	start   time.Time
	batches chan *batch
	pool    sync.Pool // of *batch
	parts   atomic.Int64

	mu   sync.Mutex
	rows []schema.Input // one per input done, in the order of inputs

	done, failed       atomic.Int64
	records, captures  atomic.Int64
	bytes, capturesOut atomic.Int64
}

func (p *pipeline) run(ctx context.Context) error {
	g, ctx := errgroup.WithContext(ctx)
	next := make(chan int)
	g.Go(func() error {
		defer close(next)
		for i := range p.inputs {
			select {
			case next <- i:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	})
	var readers sync.WaitGroup
	for range min(p.cfg.Readers, max(len(p.inputs), 1)) {
		readers.Add(1)
		g.Go(func() error {
			defer readers.Done()
			for i := range next {
				if err := p.read(ctx, i); err != nil {
					return err
				}
			}
			return nil
		})
	}
	g.Go(func() error {
		readers.Wait()
		close(p.batches)
		return nil
	})
	for range p.cfg.Workers {
		g.Go(func() error { return p.work(ctx) })
	}
	err := g.Wait()
	slices.SortFunc(p.rows, func(a, b schema.Input) int { return strings.Compare(a.Input, b.Input) })
	return err
}

// read reads one input to its end and records it. It returns an error only
// when ctx is done.
func (p *pipeline) read(ctx context.Context, i int) error {
	name := p.inputs[i]
	row := schema.Input{Input: name, Started: time.Now().UTC()}
	counts, err := p.readCaptures(ctx, name)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	row.Finished = time.Now().UTC()
	row.Bytes, row.Records, row.Captures, row.Skipped = counts.Bytes, counts.Records, counts.Captures, counts.SkippedTotal()
	row.SkippedByReason, row.DamageEvents, row.Damage = skippedJSON(counts.Skipped), counts.DamageCount, damageJSON(counts.Damage)
	log := p.cfg.Logger.With("input", name, "records", counts.Records, "captures", counts.Captures, "skipped", row.Skipped, "damage", counts.DamageCount)
	if err != nil {
		row.Error = err.Error()
		p.failed.Add(1)
		log.Warn("input not read to its end", "error", err)
	} else {
		log.Info("input read")
	}
	p.mu.Lock()
	p.rows = append(p.rows, row)
	p.mu.Unlock()
	p.done.Add(1)
	p.records.Add(counts.Records)
	p.bytes.Add(counts.Bytes)
	return nil
}

// readCaptures sends the captures of one input to the workers in batches.
func (p *pipeline) readCaptures(ctx context.Context, name string) (Counts, error) {
	r, closer, err := Open(name, p.cfg.ReadOptions...)
	if err != nil {
		return Counts{}, err
	}
	defer closer.Close()
	file := WARCFilename(name)
	b := p.newBatch()
	for {
		c, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			p.send(ctx, b)
			return r.Counts(), err
		}
		if !b.fits(c) {
			if !p.send(ctx, b) {
				return r.Counts(), ctx.Err()
			}
			b = p.newBatch()
		}
		b.add(c, name, file)
		p.captures.Add(1)
	}
	if !p.send(ctx, b) {
		return r.Counts(), ctx.Err()
	}
	return r.Counts(), nil
}

// send hands a batch to the workers; false when ctx is done.
func (p *pipeline) send(ctx context.Context, b *batch) bool {
	if len(b.jobs) == 0 {
		p.pool.Put(b)
		return true
	}
	select {
	case p.batches <- b:
		return true
	case <-ctx.Done():
		return false
	}
}

// work parses the captures of batches and writes their rows to part files
// of its own.
func (p *pipeline) work(ctx context.Context) error {
	var part *partWriter
	seen := map[string]bool{}
	maker := newRowMaker(p.cfg.Crawlers, func(digest string) bool {
		if seen[digest] {
			return false
		}
		if len(seen) >= 1<<20 {
			clear(seen)
		}
		seen[digest] = true
		return true
	})
	var rs rowSet
	flush := func() error {
		if rs.len() == 0 {
			return nil
		}
		if part == nil {
			var err error
			if part, err = newPartWriter(p.stage, schema.PartName(int(p.parts.Add(1))), p.crawlerTokens()); err != nil {
				return err
			}
		}
		err := part.write(&rs)
		p.capturesOut.Add(int64(len(rs.captures)))
		rs.reset()
		if err == nil && part.rows >= p.cfg.PartCaptures {
			err = part.close()
			part = nil
			clear(seen)
		}
		return err
	}
	err := p.workBatches(ctx, maker, &rs, flush)
	if err == nil {
		err = flush()
	}
	if part != nil {
		err = errors.Join(err, part.close())
	}
	return err
}

func (p *pipeline) workBatches(ctx context.Context, maker *rowMaker, rs *rowSet, flush func() error) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case b, ok := <-p.batches:
			if !ok {
				return nil
			}
			for i := range b.jobs {
				maker.add(rs, &b.jobs[i])
				if rs.len() >= flushRows || rs.bodyBytes >= bodyRowGroupBytes {
					if err := flush(); err != nil {
						return err
					}
				}
			}
			if err := flush(); err != nil {
				return err
			}
			b.reset()
			p.pool.Put(b)
		}
	}
}

// batch is a run of captures from one input. Their bodies live in arena.
type batch struct {
	jobs  []job
	arena []byte
}

func (p *pipeline) newBatch() *batch {
	if b, ok := p.pool.Get().(*batch); ok {
		return b
	}
	return &batch{jobs: make([]job, 0, batchCaptures), arena: make([]byte, 0, batchBytes)}
}

// fits reports whether c can join the batch.
func (b *batch) fits(c *Capture) bool {
	return len(b.jobs) < batchCaptures && len(b.arena)+len(c.Body) <= cap(b.arena)
}

// add copies c into the batch. The capture's Body is copied into the arena
// and its Problems cloned: the reader reuses both.
func (b *batch) add(c *Capture, input, file string) {
	start := len(b.arena)
	b.arena = append(b.arena, c.Body...)
	j := job{c: *c, input: input, file: file}
	j.c.Body = b.arena[start:len(b.arena):len(b.arena)]
	j.c.Problems = slices.Clone(c.Problems)
	b.jobs = append(b.jobs, j)
}

func (b *batch) reset() {
	clear(b.jobs)
	b.jobs = b.jobs[:0]
	b.arena = b.arena[:0]
}

// crawlerTokens are the agent column's values: the tracked crawlers' tokens.
func (p *pipeline) crawlerTokens() []string {
	out := make([]string, len(p.cfg.Crawlers))
	for i, c := range p.cfg.Crawlers {
		out[i] = c.Token
	}
	return out
}

func (p *pipeline) progress() Progress {
	return Progress{
		Inputs: len(p.inputs), InputsDone: int(p.done.Load()), Failed: int(p.failed.Load()),
		Records: p.records.Load(), Captures: p.capturesOut.Load(), Bytes: p.bytes.Load(),
		Elapsed: time.Since(p.start),
	}
}

// reportProgress calls Config.Progress every second until the returned
// function is called, which reports once more and waits.
func (p *pipeline) reportProgress() (stop func()) {
	if p.cfg.Progress == nil {
		return func() {}
	}
	quit, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				p.cfg.Progress(p.progress())
			case <-quit:
				p.cfg.Progress(p.progress())
				return
			}
		}
	}()
	return func() { close(quit); <-finished }
}

// WARCFilename is what the dataset's warc_filename column says of an input:
// for a Common Crawl path, the part from "crawl-data/" on, as in Common
// Crawl's own index (so the tables join it); otherwise the path as given,
// cleaned.
func WARCFilename(input string) string {
	s := filepath.ToSlash(input)
	if i := strings.Index(s, "crawl-data/"); i >= 0 {
		return s[i:]
	}
	return filepath.ToSlash(filepath.Clean(input))
}

// String formats the progress for a terminal line.
func (p Progress) String() string {
	secs := max(p.Elapsed.Seconds(), 1e-9)
	return fmt.Sprintf("%d/%d inputs, %d captures (%.0f/s), %.1f MB read (%.1f MB/s), %s",
		p.InputsDone, p.Inputs, p.Captures, float64(p.Captures)/secs,
		float64(p.Bytes)/1e6, float64(p.Bytes)/1e6/secs, p.Elapsed.Round(time.Second))
}
