package ingest

import (
	"math"
	"runtime"
	"runtime/debug"
	"slices"

	"github.com/robocensus/robocensus/ingest/remote"
)

// Memory sizing (issues 13 and 28). What a run holds grows with the
// goroutines that hold buffers, not with its inputs: each worker has a part
// writer (a row group of each table, compressed, with its page buffers and
// dictionaries) and a batch it is parsing; each reader a batch it is
// filling and its decompression buffers; the queue between them batches in
// flight. A run's memory bound is the Go soft memory limit:
//
//   - by default, what the workers and readers asked for need
//     ([MemoryNeed]), at most [MemoryShare] of the memory the process may use
//     ([DefaultMemory]; the ingest command reads that from the cgroup or the
//     machine), so -j 16 runs 16 workers on a machine that has the memory;
//   - or what the user sets (ingest --memory, or GOMEMLIMIT).
//
// Under a bound that does not hold them, Workers and Readers are lowered
// to what it holds, and the queue too (fitMemory), so that -j 32 or a
// thousand inputs fit a small container as well as -j 2.
//
// The need is twice what is live (memHeadroom): the collector lets the heap
// grow to twice the live data (GOGC=100), and a limit at the live data
// makes it collect without end. At -j 16 under the former fixed 240 MiB the
// run spent 404 µs of CPU a capture instead of 92. The per-goroutine
// figures are estimates from measured runs, rounded up, and calibrated
// against unbounded runs (GOMEMLIMIT=off, scripts/bench-scale.sh):
//
//   - -j 1 on the 2-core VM: unbounded peak RSS 253 MiB; under 240 MiB 17%
//     more CPU, under 300 MiB 6% (need: 280 MiB);
//   - -j 4: unbounded 562 MiB; under 600 MiB 4% more CPU (need: 640 MiB);
//   - -j 16 on a 16-core machine, 64 Common Crawl style files: unbounded
//     2,718 MiB; under 2 GiB 5% more CPU than under 16 GiB (need: 2,080 MiB).
const (
	memFixed     = 80 << 20            // the runtime, the binary, the rows of the inputs table
	memPerWorker = 40<<20 + batchBytes // a worker's part writers (a row group's fixed-width columns uncompressed) and row set, and its batch
	memPerReader = batchBytes + 4<<20  // a reader's batch, buffers, decompressor and digest window
	memPerQueued = batchBytes          // a batch waiting for a worker
	queuePerWork = 2                   // batches in flight per worker
	memHeadroom  = 2                   // the heap grows to twice what is live
)

// sizing is what a run may hold at once.
type sizing struct {
	workers, readers int // goroutines
	queue            int // batches between readers and workers
}

// sizingOf is the sizing of workers and readers with their queue.
func sizingOf(workers, readers int) sizing {
	return sizing{workers: workers, readers: readers, queue: queuePerWork * workers}
}

// need returns the memory bound under which a run of this sizing runs
// without the collector working against its limit.
func (s sizing) need() int64 {
	live := memFixed + int64(s.workers)*memPerWorker + int64(s.readers)*memPerReader + int64(s.queue)*memPerQueued
	return memHeadroom * live
}

// sizeFor returns the sizing of a run of workers and readers (both at
// least 1) under a memory bound, 0 meaning none: as asked when the bound
// holds it, else with workers and readers lowered in proportion (each at
// least 1) until it does, or to one of each when even that does not fit.
func sizeFor(workers, readers int, limit int64) sizing {
	s := sizingOf(workers, readers)
	if limit <= 0 || s.need() <= limit {
		return s
	}
	// need() grows with w: find the largest w that fits by bisection.
	lo, hi := 1, workers
	at := func(w int) sizing {
		r := max(1, int(int64(readers)*int64(w)/int64(workers)))
		return sizingOf(w, r)
	}
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if at(mid).need() <= limit {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if at(lo).need() > limit {
		return sizingOf(1, 1) // the least a run can be
	}
	return at(lo)
}

// MemoryNeed returns the memory bound a run of cfg over inputs needs: what
// its workers, readers and queue hold, twice over for the collector (see
// sizing.go). Workers and Readers take their defaults as [Run] gives them.
func MemoryNeed(cfg Config, inputs []string) int64 {
	w, r := cfg.goroutines(inputs)
	return sizingOf(w, r).need()
}

// DefaultMemory returns the default memory bound of a run of cfg over
// inputs: [MemoryNeed], at most three quarters of available (the memory
// the process may use; 0 when unknown, and then no cap), and never less
// than what one worker and one reader need.
func DefaultMemory(cfg Config, inputs []string, available int64) int64 {
	need := MemoryNeed(cfg, inputs)
	if available <= 0 {
		return need
	}
	least := sizingOf(1, 1).need()
	return max(min(need, MemoryShare(available)), least)
}

// MemoryShare returns the most of available (the memory the process may
// use) that a default memory bound takes: three quarters, leaving the rest
// to the page cache, the binary and whatever else runs beside. The report
// command's default bound is this share too.
func MemoryShare(available int64) int64 { return available / 4 * 3 }

// goroutines returns the workers and readers of a run of cfg over inputs,
// defaults applied: Workers defaults to GOMAXPROCS, Readers to Workers, or
// to at least remoteReaders when an input is remote.
func (c Config) goroutines(inputs []string) (workers, readers int) {
	workers, readers = c.Workers, c.Readers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if readers <= 0 && slices.ContainsFunc(inputs, remote.IsRemote) {
		readers = max(workers, runtime.GOMAXPROCS(0), remoteReaders)
	}
	if readers <= 0 {
		readers = workers
	}
	return workers, readers
}

// memoryLimit returns the Go soft memory limit, or 0 when none is set.
func memoryLimit() int64 {
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		return l
	}
	return 0
}

// fitMemory lowers Workers and Readers to what the memory bound holds and
// returns the sizing of the run; when it lowers them it says so at info
// level, with the numbers and what raises the bound.
func (c *Config) fitMemory(limit int64) sizing {
	s := sizeFor(c.Workers, c.Readers, limit)
	if s.workers < c.Workers || s.readers < c.Readers {
		c.Logger.Info("workers and readers lowered to fit the memory bound; a larger bound (ingest --memory SIZE, or GOMEMLIMIT) keeps them",
			"bound_mib", limit>>20, "workers", s.workers, "asked_workers", c.Workers, "readers", s.readers, "asked_readers", c.Readers,
			"needed_mib", sizingOf(c.Workers, c.Readers).need()>>20)
	}
	c.Workers, c.Readers = s.workers, s.readers
	return s
}
