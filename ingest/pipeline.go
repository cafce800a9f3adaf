package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/ingest/dataset"
	"github.com/robocensus/robocensus/ingest/remote"
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
	// rows. Defaults to runtime.GOMAXPROCS(0). Under a Go soft memory
	// limit it is lowered to what the limit holds (see sizing.go).
	Workers int
	// Readers is the number of inputs read at once. Defaults to Workers, or
	// to at least 8 when an input is an http(s) URL: remote reads wait on
	// the network more than on the CPU. Lowered as Workers is.
	Readers int
	// ReadOptions configure the archive readers (limits, mode).
	ReadOptions []archive.Option
	// FetchOptions configure the transfers of remote inputs (client,
	// timeouts, retries). The run adds a remote.WithRetryNotify of its own,
	// which logs each retry (info level) and lists the inputs waiting to
	// retry in Progress.Retrying.
	FetchOptions []remote.Option
	// Crawlers are the crawlers of the agents table. Defaults to
	// robots.TrackedCrawlers(). The dataset records the list (in the
	// footer of its agents files), and its reports use it.
	Crawlers []robots.Crawler
	// NoCensus leaves the readings table empty: no reading other than
	// Google's is asked (the census of parsers costs a share of the parse;
	// the ingest benchmark compares the two).
	NoCensus bool
	// NoAttribution leaves agents.source computed from the verdict alone
	// ("site" for a full block, as in a file without a template) and
	// agents.cancelled false, even in files with template blocks: the
	// attribution parses their template and site lines apart (the ingest
	// benchmark compares the two).
	NoAttribution bool
	// PartCaptures is the number of captures a worker writes to a part file
	// before it starts a new one. Defaults to 2,000,000.
	PartCaptures int64
	// SegmentInputs is the number of inputs of a segment: the unit of work
	// committed at once, and so the most work a crash can lose. Defaults to
	// 32.
	SegmentInputs int
	// PartBytes is the size the published parts are merged to. Defaults to
	// 256 MiB.
	PartBytes int64
	// Compression is the codec of the pages of every file the run writes,
	// schema.Zstd (the zero value), schema.Snappy or schema.Uncompressed;
	// Run refuses any other value (an error wrapping schema.ErrBadOption).
	// The published partition is in the codec of the run that publishes
	// it: parts of segments an earlier, interrupted run (or another shard)
	// wrote with another codec are recompressed as they are merged, and a
	// rerun writes the rows it keeps in its own codec. A rerun that finds
	// the partition already complete writes nothing (Fresh writes it
	// again).
	Compression schema.Compression
	// Shard, when set, makes the run read only its share of the inputs; the
	// crawl is published by the run that completes the last share.
	Shard dataset.Shard
	// Fresh makes a run over a published crawl read every input it is
	// given again. Without it, the rows of the inputs the published
	// partition read to their end are kept and only the others are read
	// (see rerun.go).
	Fresh bool
	// DropMissing drops the inputs of a published crawl that the run is
	// not given. Without it their rows are kept as published (they are
	// inputs of the run that it does not read), with or without Fresh.
	DropMissing bool
	// LockStaleAfter is the age after which a run or finalize lock left by
	// another run is taken over, whether or not its process is known to be
	// gone. Defaults to 6 hours.
	LockStaleAfter time.Duration
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
	Bytes      int64 // input bytes read so far, as stored (compressed)
	BytesTotal int64 // input bytes of the run when all are local files, else 0
	Elapsed    time.Duration
	Retrying   []RetryWait // remote inputs waiting to retry a failed attempt, by name
}

// A RetryWait is a remote input waiting to try its transfer again after a
// failed attempt (see remote.WithRetries).
type RetryWait struct {
	Input   string
	Attempt int           // the attempt to come, counted from the last bytes received
	Of      int           // the most attempts in a row the retries allow
	In      time.Duration // the wait left
	Cause   string        // why the last attempt failed
}

// Summary is the result of a run.
type Summary struct {
	Progress                 // of this run's own reading
	Resumed   int            // inputs already done by an earlier, interrupted run or another shard
	Kept      int            // of which inputs kept from the published partition, of the run's shard
	Pending   int            // inputs of other shards not done yet: the crawl is not published
	Inputs    []schema.Input // the inputs rows known: the whole crawl once published
	Published bool           // the crawl's partition was (re)published by this run
	// KeptCaptures is the number of captures of the inputs kept.
	KeptCaptures int64
	// Unnamed is the number of the inputs kept that the run was not
	// given (Config.DropMissing unset), and UnnamedCaptures theirs.
	Unnamed         int
	UnnamedCaptures int64
	// Dropped is the number of the published inputs of the run's shard
	// that it was not given and dropped (Config.DropMissing), and
	// DroppedCaptures theirs.
	Dropped         int
	DroppedCaptures int64
	// NothingRead says that no input of the crawl could be read (each
	// failed, or there were none): nothing was published, and the work
	// was dropped so that a rerun reads every input again.
	NothingRead bool
	// FailedForGood counts the inputs of Failed that another run cannot
	// read either, because the name itself is wrong (remote.Permanent: not
	// an http(s) URL, a malformed one, a host that does not exist).
	FailedForGood int
}

// Sizes of the work units. A batch carries captures from a reader to a
// worker; its bodies are copied into one arena of batchBytes.
const (
	remoteReaders = 8 // default Readers when inputs are remote
	batchCaptures = 256
	batchBytes    = 4 << 20
)

// Run reads every input, parses every capture with the robots engine and
// writes the dataset's tables to a new partition Dir/<table>/crawl=<Crawl>/,
// which replaces the old one only when every part file is complete.
//
// Inputs are read by Readers goroutines at once, each input by one reader;
// the captures go in batches to Workers goroutines, each writing its own
// part files. Memory is bounded by the batches in flight and the row groups
// being written, whatever the size or number of inputs; under a Go soft
// memory limit, Workers, Readers and the batches in flight are sized from
// it (see sizing.go), whatever the workers asked for.
//
// Work is committed in segments of SegmentInputs inputs (see work.go): a
// run that is interrupted, at any moment, is resumed by running it again
// with the same arguments, and the published partition is the same as that
// of an uninterrupted run. With a Shard, the run reads its share and
// publishes the crawl if its share completes it.
//
// Two runs of the same crawl and shard into one Dir do not run at once: the
// second returns a [*dataset.RunningError] (dataset.ErrRunning) at once and leaves the
// dataset as it was.
//
// An input that cannot be opened or read to its end is recorded in the
// inputs table with its error, and the run goes on; Summary.Failed counts
// them. Run returns an error only when the dataset cannot be written, or
// when ctx is cancelled; the partition is then left as it was.
func Run(ctx context.Context, cfg Config, inputs []string) (Summary, error) {
	cfg.Workers, cfg.Readers = cfg.goroutines(inputs)
	if err := cfg.setDefaults(); err != nil {
		return Summary{}, err
	}
	limit := memoryLimit()
	size := cfg.fitMemory(limit)
	cfg.Logger.Debug("sizing", "workers", size.workers, "readers", size.readers, "queue", size.queue, "bound_mib", limit>>20)
	files, fromFolder := expandFolders(inputs)
	all := dedupe(files, cfg.Logger)
	release, err := dataset.LockRun(cfg.Dir, cfg.Crawl, cfg.Shard, cfg.LockStaleAfter)
	if err != nil {
		return Summary{}, err
	}
	defer release()
	work, err := dataset.OpenWork(cfg.Dir, cfg.Crawl, cfg.Shard)
	if err != nil {
		return Summary{}, err
	}
	work.SetCompression(cfg.Compression)
	carried, err := work.Rerun(cfg.Crawlers, all, dataset.Carry{Fresh: cfg.Fresh, DropMissing: cfg.DropMissing})
	if err != nil {
		return Summary{}, err
	}
	if carried.Current != nil {
		sum := Summary{Resumed: len(carried.Current), Inputs: carried.Current}
		sum.carried(carried, all, cfg.Crawl, cfg.Logger)
		cfg.Logger.Info("crawl already published with every input given read to its end: nothing to do", "crawl", cfg.Crawl, "inputs", len(carried.Current))
		for _, in := range carried.Current {
			if in.Error != "" {
				sum.Failed++
			}
		}
		return sum, nil
	}
	segs, err := work.Committed()
	if err != nil {
		return Summary{}, err
	}
	done := doneInputs(segs)
	var todo []string
	for _, in := range all {
		if whyNotRead(in, done, cfg.Shard) == "" {
			todo = append(todo, in)
		}
	}
	// The published inputs kept without being given are inputs of the
	// run too, never read: in its inputs table, and in the segments it
	// publishes.
	given := all
	all = append(all, carried.Unnamed...)
	p := &pipeline{cfg: cfg, queue: size.queue, total: len(todo), totalBytes: localSize(todo), start: time.Now(), fromFolder: fromFolder,
		retrying: map[string]retryState{}}
	p.cfg.FetchOptions = append(slices.Clip(cfg.FetchOptions), remote.WithRetryNotify(p.retried))
	sum := Summary{Resumed: countDone(all, done, cfg.Shard)}
	sum.carried(carried, given, cfg.Crawl, cfg.Logger)
	if sum.Kept == 0 && sum.Resumed > 0 {
		cfg.Logger.Info("resuming", "crawl", cfg.Crawl, "done", sum.Resumed, "to do", len(todo))
	}
	stop := p.reportProgress()
	err = p.segments(ctx, work, todo)
	stop()
	sum.Progress = p.progress()
	sum.FailedForGood = int(p.failedForGood.Load())
	if err != nil {
		return sum, err
	}
	if segs, err = work.Committed(); err != nil {
		return sum, err
	}
	return p.publish(work, segs, all, carried.Unnamed, sum)
}

// carried records and logs what the run does with the published
// partition: the inputs it keeps (of which those it was not given, named
// being those it was) and those it drops.
func (s *Summary) carried(c dataset.Carried, named []string, crawl string, log *slog.Logger) {
	s.Kept, s.KeptCaptures = len(c.Kept), dataset.Captures(c.Kept)
	given := make(map[string]bool, len(named))
	for _, in := range named {
		given[in] = true
	}
	var unnamed []schema.Input
	for _, row := range c.Kept {
		if !given[row.Input] {
			unnamed = append(unnamed, row)
		}
	}
	s.Unnamed, s.UnnamedCaptures = len(unnamed), dataset.Captures(unnamed)
	s.Dropped, s.DroppedCaptures = len(c.Dropped), dataset.Captures(c.Dropped)
	if s.Kept > 0 {
		log.Info("rows kept from the published partition", "crawl", crawl, "inputs", s.Kept, "captures", s.KeptCaptures)
	}
	if s.Unnamed > 0 {
		log.Info("published inputs not named by this run kept (--drop-missing drops them)", "crawl", crawl, "inputs", s.Unnamed, "captures", s.UnnamedCaptures)
	}
	if s.Dropped > 0 {
		log.Info("published inputs not named by this run are dropped (--drop-missing)", "crawl", crawl, "inputs", s.Dropped, "captures", s.DroppedCaptures)
	}
}

// segments reads the inputs to do, SegmentInputs at a time, committing a
// segment for each.
func (p *pipeline) segments(ctx context.Context, work *dataset.Work, todo []string) error {
	for seq := 0; len(todo) > 0; seq++ {
		chunk := todo[:min(p.cfg.SegmentInputs, len(todo))]
		todo = todo[len(chunk):]
		seg, err := work.NewSegment(seq)
		if err != nil {
			return err
		}
		rows, err := p.epoch(ctx, seg.Stage(), chunk)
		if err == nil {
			err = seg.Commit(rows)
		}
		if err != nil {
			seg.Discard()
			return err
		}
	}
	return nil
}

// publish merges and publishes the crawl if the committed segments hold
// every input of the run (all, of which unnamed were kept from the
// published partition without being given), and says what it did.
func (p *pipeline) publish(work *dataset.Work, segs []dataset.SegmentManifest, all, unnamed []string, sum Summary) (Summary, error) {
	done := doneInputs(segs)
	var used []dataset.SegmentManifest
	inputs := make(map[string]bool, len(all))
	for _, in := range all {
		inputs[in] = true
	}
	for _, s := range segs {
		if allIn(s.Inputs, inputs) {
			used = append(used, s)
		}
	}
	for _, in := range all {
		if row, ok := done[in]; ok {
			sum.Inputs = append(sum.Inputs, row)
		} else {
			sum.Pending++
		}
	}
	sum.Failed = 0
	for _, in := range sum.Inputs {
		if in.Error != "" {
			sum.Failed++
		}
	}
	if sum.Pending > 0 {
		p.cfg.Logger.Info("crawl not complete: other shards still to run", "crawl", p.cfg.Crawl, "pending", sum.Pending)
		return sum, nil
	}
	locked, err := work.LockFinalize(p.cfg.LockStaleAfter)
	if err != nil {
		return sum, err
	}
	if !locked {
		p.cfg.Logger.Info("another run is publishing the crawl", "crawl", p.cfg.Crawl)
		return sum, nil
	}
	if noneGivenRead(sum.Inputs, unnamed) {
		// Nothing to publish: an empty partition would stand for a crawl
		// that was never read, and the inputs kept without being given
		// are published already (a mistyped input must not change the
		// crawl). The work is dropped, so a rerun reads the inputs
		// again, and a partition published before stays.
		p.cfg.Logger.Warn("no input could be read; nothing published", "crawl", p.cfg.Crawl, "failed", sum.Failed)
		sum.NothingRead = true
		sum.Dropped, sum.DroppedCaptures = 0, 0
		return sum, work.Discard()
	}
	slices.SortFunc(sum.Inputs, func(a, b schema.Input) int { return strings.Compare(a.Input, b.Input) })
	if err := work.Finalize(used, sum.Inputs, p.cfg.PartBytes); err != nil {
		return sum, err
	}
	sum.Published = true
	return sum, nil
}

// noneGivenRead reports whether no input of rows that the run was given
// (that is not one of unnamed) was read to its end.
func noneGivenRead(rows []schema.Input, unnamed []string) bool {
	kept := make(map[string]bool, len(unnamed))
	for _, in := range unnamed {
		kept[in] = true
	}
	for _, row := range rows {
		if row.Error == "" && !kept[row.Input] {
			return false
		}
	}
	return true
}

// doneInputs maps each input of the committed segments to its row.
func doneInputs(segs []dataset.SegmentManifest) map[string]schema.Input {
	done := map[string]schema.Input{}
	for _, s := range segs {
		for _, in := range s.Inputs {
			done[in.Input] = in
		}
	}
	return done
}

func countDone(all []string, done map[string]schema.Input, shard dataset.Shard) int {
	n := 0
	for _, in := range all {
		if _, ok := done[in]; ok && shard.Has(in) {
			n++
		}
	}
	return n
}

// allIn reports whether every input of rows is one of inputs: a segment of
// a run with other inputs is not published with this one.
func allIn(rows []schema.Input, inputs map[string]bool) bool {
	for _, r := range rows {
		if !inputs[r.Input] {
			return false
		}
	}
	return true
}

func (c *Config) setDefaults() error {
	if err := schema.CheckCrawl(c.Crawl); err != nil {
		return err
	}
	if c.Dir == "" {
		return errNoDatasetFolder
	}
	if _, err := schema.ParseCompression(c.Compression.String()); err != nil {
		return fmt.Errorf("ingest: Config.Compression: %w", err)
	}
	c.Workers, c.Readers = c.goroutines(nil) // Run has applied those of remote inputs
	if c.Crawlers == nil {
		c.Crawlers = robots.TrackedCrawlers()
	} else {
		c.Crawlers = robots.CloneCrawlers(c.Crawlers) // the run's own: the caller may change theirs
	}
	if err := robots.CheckCrawlers(c.Crawlers); err != nil {
		return fmt.Errorf("ingest: Config.Crawlers: %w", err)
	}
	if c.PartCaptures <= 0 {
		c.PartCaptures = 2_000_000
	}
	if c.SegmentInputs <= 0 {
		c.SegmentInputs = 32
	}
	if c.PartBytes <= 0 {
		c.PartBytes = 256 << 20
	}
	if c.LockStaleAfter <= 0 {
		c.LockStaleAfter = 6 * time.Hour
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if err := archive.CheckOptions(c.ReadOptions...); err != nil {
		return err
	}
	return remote.CheckOptions(c.FetchOptions...)
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

// pipeline is the state of one run; an epoch reads the inputs of one
// segment.
type pipeline struct {
	cfg        Config
	queue      int   // batches in flight between readers and workers
	total      int   // inputs this run reads
	totalBytes int64 // their size, when all are local files (else 0)
	start      time.Time
	fromFolder map[string]string // inputs that are files of a folder: the folder
	pool       sync.Pool         // of *batch
	parts      atomic.Int64

	done, failed       atomic.Int64
	failedForGood      atomic.Int64 // of failed, those remote.Permanent says a rerun cannot mend
	records, captures  atomic.Int64
	bytes, capturesOut atomic.Int64

	retryMu  sync.Mutex
	retrying map[string]retryState // by input: the last retry told, until the input is done
}

// retryState is the last retry of an input's transfer and when its wait
// ends.
type retryState struct {
	retry remote.Retry
	until time.Time
}

// retried is told of each retry of a remote input's transfer: it logs it
// and keeps it for the progress until the input is done.
func (p *pipeline) retried(r remote.Retry) {
	p.cfg.Logger.Info("retrying remote input", "input", r.URL, "attempt", fmt.Sprintf("%d of %d", r.Failed+1, r.Allowed),
		"wait", r.Wait.Round(time.Millisecond), "error", r.Cause())
	p.retryMu.Lock()
	defer p.retryMu.Unlock()
	p.retrying[r.URL] = retryState{retry: r, until: time.Now().Add(r.Wait)}
}

// inputDone forgets the retries of an input read to its end or given up.
func (p *pipeline) inputDone(name string) {
	p.retryMu.Lock()
	defer p.retryMu.Unlock()
	delete(p.retrying, name)
}

// retryWaits returns the inputs still waiting to retry, by name.
func (p *pipeline) retryWaits() []RetryWait {
	now := time.Now()
	p.retryMu.Lock()
	defer p.retryMu.Unlock()
	var waits []RetryWait
	for name, st := range p.retrying {
		if left := st.until.Sub(now); left > 0 {
			r := st.retry
			waits = append(waits, RetryWait{Input: name, Attempt: r.Failed + 1, Of: r.Allowed, In: left, Cause: r.Cause()})
		}
	}
	slices.SortFunc(waits, func(a, b RetryWait) int { return strings.Compare(a.Input, b.Input) })
	return waits
}

// epoch is the reading of one segment's inputs.
type epoch struct {
	*pipeline
	stage   *dataset.Staging
	inputs  []string
	batches chan *batch

	mu   sync.Mutex
	rows []schema.Input // one per input done
}

// epoch reads inputs into part files of stage and returns their inputs
// rows, sorted by input.
func (p *pipeline) epoch(ctx context.Context, stage *dataset.Staging, inputs []string) ([]schema.Input, error) {
	e := &epoch{pipeline: p, stage: stage, inputs: inputs, batches: make(chan *batch, p.queue)}
	g, ctx := errgroup.WithContext(ctx)
	next := make(chan string)
	g.Go(func() error {
		defer close(next)
		for _, in := range inputs {
			select {
			case next <- in:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	})
	var readers sync.WaitGroup
	for range min(p.cfg.Readers, max(len(inputs), 1)) {
		readers.Add(1)
		g.Go(func() error {
			defer readers.Done()
			for in := range next {
				if err := e.read(ctx, in); err != nil {
					return err
				}
			}
			return nil
		})
	}
	g.Go(func() error {
		readers.Wait()
		close(e.batches)
		return nil
	})
	for range p.cfg.Workers {
		g.Go(func() error { return e.work(ctx) })
	}
	err := g.Wait()
	slices.SortFunc(e.rows, func(a, b schema.Input) int { return strings.Compare(a.Input, b.Input) })
	return e.rows, err
}

// read reads one input to its end and records it. It returns an error only
// when ctx is done.
func (e *epoch) read(ctx context.Context, name string) error {
	p := e.pipeline
	row := schema.Input{Input: name, Started: time.Now().UTC()}
	counts, lengthUnknown, err := e.readCaptures(ctx, name)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	row.Finished = time.Now().UTC()
	row.Bytes, row.Records, row.Captures, row.Skipped = counts.Bytes, counts.Records, counts.Captures, counts.SkippedTotal()
	row.SkippedByReason, row.DamageEvents, row.Damage = skippedJSON(counts.Skipped), counts.DamageCount, damageJSON(counts.Damage)
	row.LengthUnknown = lengthUnknown
	log := p.cfg.Logger.With("input", name, "records", counts.Records, "captures", counts.Captures, "skipped", row.Skipped, "damage", counts.DamageCount)
	p.inputDone(name)
	if err != nil {
		row.Error = err.Error()
		p.failed.Add(1)
		if remote.Permanent(err) {
			p.failedForGood.Add(1)
		}
		log.Warn("input not read to its end", "error", err)
	} else {
		log.Debug("input read")
	}
	e.mu.Lock()
	e.rows = append(e.rows, row)
	e.mu.Unlock()
	p.done.Add(1)
	p.records.Add(counts.Records)
	return nil
}

// readCaptures sends the captures of one input to the workers in batches.
// A body is kept in the bodies table for the first capture of the input
// that crawlers read (2xx or unknown status) with its payload digest, and
// again when the digest has left the input's bounded window (see
// digestWindow): the same for any run over the same input, however its
// captures are spread over workers and segments. The bytes read count in
// the run's progress batch by batch.
func (e *epoch) readCaptures(ctx context.Context, name string) (counts archive.Counts, lengthUnknown bool, err error) {
	var counted int64 // of the input's bytes, those added to the progress
	defer func() { e.bytes.Add(counts.Bytes - counted) }()
	r, closer, err := openInput(ctx, name, &e.cfg, e.fromFolder[name] != "")
	if err != nil {
		return archive.Counts{}, false, err
	}
	defer closer.Close()
	file := WARCFilename(name)
	segment := WARCSegment(file)
	bodies := newDigestWindow(maxBodyDigests)
	b := e.newBatch()
	for {
		c, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			e.send(ctx, b)
			return r.Counts(), remote.LengthUnknown(r), err
		}
		if !b.fits(c) {
			if !e.send(ctx, b) {
				return r.Counts(), remote.LengthUnknown(r), ctx.Err()
			}
			b = e.newBatch()
			pos := r.Counts().Bytes
			e.bytes.Add(pos - counted)
			counted = pos
		}
		keep := c.PayloadDigest != "" && (c.Status == 0 || c.Status >= 200 && c.Status < 300) && bodies.add(c.PayloadDigest)
		b.add(c, name, file, segment, keep)
		e.captures.Add(1)
	}
	if !e.send(ctx, b) {
		return r.Counts(), remote.LengthUnknown(r), ctx.Err()
	}
	return r.Counts(), remote.LengthUnknown(r), nil
}

// send hands a batch to the workers; false when ctx is done.
func (e *epoch) send(ctx context.Context, b *batch) bool {
	if len(b.jobs) == 0 {
		e.pool.Put(b)
		return true
	}
	select {
	case e.batches <- b:
		return true
	case <-ctx.Done():
		return false
	}
}

// work parses the captures of batches and writes their rows to part files
// of its own.
func (e *epoch) work(ctx context.Context) error {
	p := e.pipeline
	var part *dataset.PartWriter
	maker := newRowMaker(p.cfg.Crawlers)
	if p.cfg.NoCensus {
		maker.census = nil
	}
	maker.attribute = !p.cfg.NoAttribution
	var rs dataset.Rows
	flush := func() error {
		if rs.Len() == 0 {
			return nil
		}
		if part == nil {
			var err error
			if part, err = dataset.NewPartWriter(e.stage, schema.PartName(int(p.parts.Add(1))), p.cfg.Crawlers); err != nil {
				return err
			}
		}
		err := part.Write(&rs)
		p.capturesOut.Add(int64(len(rs.Captures)))
		rs.Reset()
		if err == nil && part.Rows() >= p.cfg.PartCaptures {
			err = part.Close()
			part = nil
		}
		return err
	}
	err := e.workBatches(ctx, maker, &rs, flush)
	if err == nil {
		err = flush()
	}
	if part != nil {
		err = errors.Join(err, part.Close())
	}
	return err
}

func (e *epoch) workBatches(ctx context.Context, maker *rowMaker, rs *dataset.Rows, flush func() error) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case b, ok := <-e.batches:
			if !ok {
				return nil
			}
			for i := range b.jobs {
				maker.add(rs, &b.jobs[i])
				if rs.Len() >= dataset.FlushRows || rs.BodyBytes >= dataset.BodyRowGroupBytes {
					if err := flush(); err != nil {
						return err
					}
				}
			}
			if err := flush(); err != nil {
				return err
			}
			b.reset()
			e.pool.Put(b)
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
func (b *batch) fits(c *archive.Capture) bool {
	return len(b.jobs) < batchCaptures && len(b.arena)+len(c.Body) <= cap(b.arena)
}

// add copies c into the batch. The capture's Body is copied into the arena
// and its Problems cloned: the reader reuses both.
func (b *batch) add(c *archive.Capture, input, file, segment string, keepBody bool) {
	start := len(b.arena)
	b.arena = append(b.arena, c.Body...)
	j := job{c: *c, input: input, file: file, segment: segment, keepBody: keepBody}
	j.c.Body = b.arena[start:len(b.arena):len(b.arena)]
	j.c.Problems = slices.Clone(c.Problems)
	b.jobs = append(b.jobs, j)
}

func (b *batch) reset() {
	clear(b.jobs)
	b.jobs = b.jobs[:0]
	b.arena = b.arena[:0]
}

func (p *pipeline) progress() Progress {
	return Progress{
		Inputs: p.total, InputsDone: int(p.done.Load()), Failed: int(p.failed.Load()),
		Records: p.records.Load(), Captures: p.capturesOut.Load(), Bytes: p.bytes.Load(),
		BytesTotal: p.totalBytes, Elapsed: time.Since(p.start), Retrying: p.retryWaits(),
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
// for a Common Crawl path or URL, the part from "crawl-data/" on, as in
// Common Crawl's own index (so the tables join it); otherwise the URL as
// given, or the path as given, cleaned.
func WARCFilename(input string) string {
	s := filepath.ToSlash(input)
	if i := strings.Index(s, "crawl-data/"); i >= 0 {
		return s[i:]
	}
	if remote.IsRemote(input) {
		return input
	}
	return filepath.ToSlash(filepath.Clean(input))
}

// String formats the progress for a terminal line.
func (p Progress) String() string {
	secs := max(p.Elapsed.Seconds(), 1e-9)
	s := fmt.Sprintf("%d/%d inputs, %d captures (%.0f/s), %.1f MB read (%.1f MB/s), %s",
		p.InputsDone, p.Inputs, p.Captures, float64(p.Captures)/secs,
		float64(p.Bytes)/1e6, float64(p.Bytes)/1e6/secs, p.Elapsed.Round(time.Second))
	if eta, ok := p.ETA(); ok && p.InputsDone < p.Inputs {
		s += ", ETA " + eta.Round(time.Second).String()
	}
	if len(p.Retrying) > 0 {
		r := p.Retrying[0]
		s += fmt.Sprintf("; retrying %s in %s (attempt %d of %d; %s)", r.Input, roughly(r.In), r.Attempt, r.Of, r.Cause)
		if more := len(p.Retrying) - 1; more > 0 {
			s += fmt.Sprintf(" and %d more", more)
		}
	}
	return s
}

// roughly rounds a wait for display: to the second, or to the tenth of a
// second under one second.
func roughly(d time.Duration) time.Duration {
	if d < time.Second {
		return max(d.Round(100*time.Millisecond), 100*time.Millisecond)
	}
	return d.Round(time.Second)
}

// ETA estimates the time left: from the pace of the bytes read when the
// run's size is known (local files), else from that of the inputs done;
// ok is false before there is a pace.
func (p Progress) ETA() (time.Duration, bool) {
	if p.BytesTotal > 0 && p.Bytes > 0 {
		left := float64(max(p.BytesTotal-p.Bytes, 0)) / float64(p.Bytes)
		return time.Duration(float64(p.Elapsed) * left), true
	}
	if p.InputsDone == 0 || p.Inputs == 0 {
		return 0, false
	}
	per := p.Elapsed / time.Duration(p.InputsDone)
	return per * time.Duration(p.Inputs-p.InputsDone), true
}

// localSize returns the bytes of the inputs when every one is a local file
// (what the progress measures its pace against), else 0.
func localSize(inputs []string) int64 {
	var n int64
	for _, in := range inputs {
		if remote.IsRemote(in) {
			return 0
		}
		fi, err := os.Stat(in)
		if err != nil || !fi.Mode().IsRegular() {
			return 0
		}
		n += fi.Size()
	}
	return n
}

// LogValue makes a Progress a group of structured log attributes.
func (p Progress) LogValue() slog.Value {
	attrs := []slog.Attr{
		slog.Int("inputs_done", p.InputsDone), slog.Int("inputs", p.Inputs), slog.Int("failed", p.Failed),
		slog.Int64("captures", p.Captures), slog.Int64("bytes", p.Bytes),
		slog.Float64("captures_per_s", float64(p.Captures)/max(p.Elapsed.Seconds(), 1e-9)),
		slog.Float64("mb_per_s", float64(p.Bytes)/1e6/max(p.Elapsed.Seconds(), 1e-9)),
		slog.Duration("elapsed", p.Elapsed.Round(time.Second)),
	}
	if p.BytesTotal > 0 {
		attrs = append(attrs, slog.Int64("bytes_total", p.BytesTotal))
	}
	if eta, ok := p.ETA(); ok {
		attrs = append(attrs, slog.Duration("eta", eta.Round(time.Second)))
	}
	if len(p.Retrying) > 0 {
		attrs = append(attrs, slog.Int("retrying", len(p.Retrying)))
	}
	return slog.GroupValue(attrs...)
}
