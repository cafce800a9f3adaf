package ingest

import (
	"math"
	"runtime/debug"
)

// Memory sizing (issue 13). What a run holds grows with the goroutines that
// hold buffers, not with its inputs: each worker has a part writer (a row
// group of each table, compressed, with its page buffers and dictionaries)
// and a batch it is parsing; each reader a batch it is filling and its
// decompression buffers; the queue between them batches in flight. Their
// numbers are therefore taken from the Go soft memory limit when one is set
// (debug.SetMemoryLimit; the ingest command sets 240 MiB unless GOMEMLIMIT
// is set), so that -j 32 or a thousand inputs fit it as well as -j 2:
// Workers and Readers are lowered to what the limit holds, and the queue
// too. Without a limit they are as configured.
//
// The per-goroutine figures are estimates from measured runs
// (scripts/bench-memory.sh), rounded up.
const (
	memFixed      = 48 << 20            // the runtime, the binary, the rows of the inputs table
	memPerWorker  = 34<<20 + batchBytes // a worker's part writers (a row group's fixed-width columns uncompressed) and row set, and its batch
	memPerReader  = batchBytes + 4<<20  // a reader's batch, buffers, decompressor and digest window
	memPerQueued  = batchBytes          // a batch waiting for a worker
	memWorkerPart = 3                   // fifths of the budget for workers,
	memReaderPart = 1                   // for readers,
	memQueuePart  = 1                   // and for the queue
	memParts      = memWorkerPart + memReaderPart + memQueuePart
)

// sizing is what a run may hold at once.
type sizing struct {
	workers, readers int // goroutines
	queue            int // batches between readers and workers
}

// sizeFor returns the sizing of a run of workers and readers (both at
// least 1) under a soft memory limit, 0 meaning none: each number is at
// least 1 and at most what its share of the limit holds.
func sizeFor(workers, readers int, limit int64) sizing {
	s := sizing{workers: workers, readers: readers, queue: 2 * workers}
	if limit <= 0 {
		return s
	}
	budget := max(limit-memFixed, 0)
	fits := func(part, each int64) int { return int(max(budget*part/memParts/each, 1)) }
	s.workers = min(s.workers, fits(memWorkerPart, memPerWorker))
	s.readers = min(s.readers, fits(memReaderPart, memPerReader))
	s.queue = min(2*s.workers, fits(memQueuePart, memPerQueued))
	return s
}

// memoryLimit returns the Go soft memory limit, or 0 when none is set.
func memoryLimit() int64 {
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		return l
	}
	return 0
}

// fitMemory lowers Workers and Readers to what the memory limit holds and
// returns the sizing of the run; it says so at debug level (ingest -v).
func (c *Config) fitMemory(limit int64) sizing {
	s := sizeFor(c.Workers, c.Readers, limit)
	if s.workers < c.Workers || s.readers < c.Readers {
		c.Logger.Debug("workers and readers lowered to fit the memory limit", "limit_mib", limit>>20,
			"workers", s.workers, "asked_workers", c.Workers, "readers", s.readers, "asked_readers", c.Readers)
	}
	c.Workers, c.Readers = s.workers, s.readers
	return s
}
