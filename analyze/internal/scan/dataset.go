package scan

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

// A Dataset reads the files of a robocensus dataset: its crawls (partitions), their
// files and row groups, in typed Arrow columns. It is safe for concurrent
// use.
type Dataset struct {
	fsys    fs.FS
	crawls  []string
	workers int              // goroutines a scan uses; 0: GOMAXPROCS
	mem     memory.Allocator // of the records read; nil: the default
	Hash    Hasher           // one seed for every crawl, so that hashes compare across crawls
}

// Open opens the dataset whose root folder is fsys, its crawls oldest
// first (by the time a label names, else by the earliest fetch time of
// its captures); workers and mem as in [Dataset].
func Open(fsys fs.FS, workers int, mem memory.Allocator) (*Dataset, error) {
	dirs, err := fs.Glob(fsys, "captures/"+schema.PartitionKey+"=*")
	if err != nil {
		return nil, err
	}
	d := &Dataset{fsys: fsys, workers: workers, mem: mem, Hash: NewHasher()}
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
	return d, nil
}

// Crawls returns the crawl labels, oldest first.
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

// HasTable reports whether the partition of crawl has files of table: a
// crawl published before the table was added to the schema has none.
func (d *Dataset) HasTable(table, crawl string) (bool, error) {
	files, err := d.files(table, crawl)
	return len(files) > 0, err
}

// scanSpec says what to read: the columns of one table in one crawl, in
// batches of batch rows (0: the reader's default), those in dict as
// dictionaries (see [schema.WithDictionary]).
type Spec struct {
	Table   string
	Crawl   string
	Columns []string
	Dict    []string
	batch   int64
	groups  []int // the row groups of the file to read (nil: all)
}

// scan reads every file of a partition with up to cfg.workers goroutines,
// which share out the files' row groups (see [Dataset.units]), and calls fn
// with the index of the goroutine (below d.scanWorkers()) and each record, in
// no particular order. Records are released when fn returns; fn must copy
// any string it keeps. The first error stops the scan.
func (d *Dataset) Scan(ctx context.Context, s Spec, fn func(worker int, rec arrow.Record) error) error {
	units, err := d.units(s.Table, s.Crawl)
	if err != nil || len(units) == 0 {
		return err
	}
	next := make(chan scanUnit)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var wg sync.WaitGroup
	for w := range min(d.Workers(), len(units)) {
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
	size := max(1, (total+unitsPerWorker*d.Workers()-1)/(unitsPerWorker*d.Workers()))
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
		r, closeFile, err := d.openArrow(name, Spec{Table: table})
		if err != nil {
			return nil, err
		}
		out = append(out, footer{name: name, rows: r.NumRows(), groups: r.NumRowGroups()})
		closeFile()
	}
	return out, nil
}

// rows returns the number of rows of a partition, from the files' footers.
func (d *Dataset) Rows(table, crawl string) (int64, error) {
	files, err := d.footers(table, crawl)
	var n int64
	for _, f := range files {
		n += f.rows
	}
	return n, err
}

// workers is the number of goroutines a scan uses.
func (d *Dataset) Workers() int {
	if d.workers > 0 {
		return d.workers
	}
	return runtime.GOMAXPROCS(0)
}

// scanFile reads one file (the row groups of s.groups, if set) record by
// record.
func (d *Dataset) scanFile(ctx context.Context, name string, s Spec, fn func(arrow.Record) error) error {
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
func (d *Dataset) openArrow(name string, s Spec) (*schema.ArrowReader, func(), error) {
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
	opts := []schema.ReaderOption{schema.WithTable(s.Table), schema.WithAllocator(d.allocator())}
	if len(s.Columns) > 0 {
		opts = append(opts, schema.WithColumns(s.Columns...))
	}
	if s.batch > 0 {
		opts = append(opts, schema.WithBatchSize(s.batch))
	}
	if len(s.Dict) > 0 {
		opts = append(opts, schema.WithDictionary(s.Dict...))
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
	if d.mem != nil {
		return d.mem
	}
	return memory.DefaultAllocator
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
