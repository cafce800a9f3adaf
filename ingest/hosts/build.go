package hosts

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/klauspost/compress/s2"
	"golang.org/x/sync/errgroup"

	"github.com/robocensus/robocensus/schema"
)

// How the hosts table is computed in bounded memory and linear time.
//
// The captures of the partition are read once and spread over buckets by
// a hash of their host: a bucket file holds, for each of its captures,
// what hostCapture keeps (about 150 bytes before compression). A bucket
// is then loaded whole: hostsBucketCaptures captures a bucket, some 80 MB
// in memory with what is computed from it, whatever the partition's size.
// Buckets are worked on b.workers at a time, one a CPU, as many as the
// memory limit holds (hostsWorkers). A partition of one bucket (up to
// hostsBucketCaptures captures) is kept in memory and never spilled.
//
// A redirect is followed by "chases": a chase is a request to look a URL
// up, sent to the bucket of the URL's host. Each round loads the buckets
// that received chases, answers each (the chain ends there, or goes on
// with a chase to the next hop's bucket) and writes the chains' ends to
// the bucket of the capture they started from. After at most
// maxRedirectHops rounds every chain has ended, and a last pass over the
// buckets makes each host's row. A bucket is thus read at most
// maxRedirectHops+1 times, and only when chases reached it: the work is
// linear in the captures plus the redirect hops, and memory is one bucket
// a worker.
// (The report's host batches, which reread the whole partition once per
// batch, are quadratic; this is not.)

// hostsBucketCaptures is the number of captures a bucket is sized for; a
// variable so that tests can make many small buckets.
var hostsBucketCaptures int64 = 200_000

// hostsBuild is the spill folder of one computation.
type hostsBuild struct {
	dir     string
	buckets int
	workers int      // buckets worked on at once
	total   int64    // captures
	counts  []uint32 // captures per bucket

	only      []hostCapture           // with one bucket, its captures, kept in memory by spread
	onlyByKey map[string]*hostCapture // and their lookup, made in the first round (lookup)
}

// Build computes the hosts table of a partition from the files of its
// captures, parts, and hands its rows to write, a bucket's hosts at a
// time (in host order within a bucket, the buckets in the order of their
// hash), from the goroutine that called Build; write may reuse nothing it
// is given once it returns. dir is the computation's spill folder: Build
// makes it and removes it with what it holds, whatever the outcome.
func Build(dir string, parts []string, write func([]schema.Host) error) (err error) {
	total, err := countRows(parts)
	if err != nil {
		return err
	}
	b := &hostsBuild{dir: dir, buckets: int(max(1, (total+hostsBucketCaptures-1)/hostsBucketCaptures)), total: total}
	b.workers = hostsWorkers(b.buckets, runtime.GOMAXPROCS(0), debug.SetMemoryLimit(-1))
	if err := os.MkdirAll(b.dir, 0o755); err != nil {
		return fmt.Errorf("hosts: creating spill folder: %w", err)
	}
	defer func() { err = errors.Join(err, os.RemoveAll(b.dir)) }()
	if err := b.spread(parts); err != nil {
		return prefixed("", err)
	}
	for round := 1; round <= maxRedirectHops; round++ {
		if err := b.chase(round); err != nil {
			return prefixed(fmt.Sprintf("redirects, round %d: ", round), err)
		}
	}
	if err := b.write(write); err != nil {
		return prefixed("", err)
	}
	return nil
}

// hostsCaptureBytes is what a bucket worked on holds a capture: the
// capture, its strings, the spill they were read from and the lookup of
// its URL.
const hostsCaptureBytes = 400

// hostsWorkers returns how many buckets are worked on at once: one a CPU,
// as many as there are, as many as the memory limit (math.MaxInt64 for
// none) holds beside what the process holds already (memFixed, as ingest
// sizes its workers), and at least one.
func hostsWorkers(buckets, cpus int, limit int64) int {
	const memFixed = 48 << 20
	fits := max((limit-memFixed)/(hostsBucketCaptures*hostsCaptureBytes), 1)
	return int(max(min(int64(buckets), int64(cpus), fits), 1))
}

// eachCaptureColumns calls f with the captureColumns of each row of the
// captures file at path, a file of this major version of the schema. It
// reads eight columns of the thirty-odd, without assembling rows
// (captureColumnSetters, schema.ReadColumns).
func eachCaptureColumns(path string, f func(*captureColumns) error) error {
	var ferr error // f's, returned as it is
	err := withFile(path, func(file *os.File, size int64) error {
		return schema.ReadColumns(file, size, captureColumnSetters, func(rows []captureColumns) error {
			for i := range rows {
				if ferr = f(&rows[i]); ferr != nil {
					return ferr
				}
			}
			return nil
		})
	})
	if ferr != nil {
		return ferr
	}
	if err != nil {
		return fmt.Errorf("hosts: reading %s: %w", path, err)
	}
	return nil
}

// countRows returns the number of rows of Parquet files of captures.
func countRows(parts []string) (int64, error) {
	var n int64
	for _, p := range parts {
		err := withFile(p, func(file *os.File, size int64) error {
			r, err := schema.NewReader[schema.Capture](file, size)
			if err != nil {
				return err
			}
			n += r.NumRows()
			return r.Close()
		})
		if err != nil {
			return 0, fmt.Errorf("hosts: reading %s: %w", p, err)
		}
	}
	return n, nil
}

// withFile calls read with the file at path and its size, and closes it.
func withFile(path string, read func(file *os.File, size int64) error) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil {
		return err
	}
	return read(file, fi.Size())
}

// bucketOf returns the bucket of a host.
func (b *hostsBuild) bucketOf(host string) int {
	if b.buckets == 1 {
		return 0
	}
	sum := sha256.Sum256([]byte(host))
	return int(binary.BigEndian.Uint64(sum[:8]) % uint64(b.buckets))
}

func (b *hostsBuild) capsFile(bucket int) string {
	return filepath.Join(b.dir, fmt.Sprintf("caps-%d", bucket))
}
func (b *hostsBuild) endsFile(round, bucket int) string {
	return filepath.Join(b.dir, fmt.Sprintf("ends-%d-%d", round, bucket))
}
func (b *hostsBuild) chaseFile(round, bucket int) string {
	return filepath.Join(b.dir, fmt.Sprintf("chase-%d-%d", round, bucket))
}

// spread reads the captures once, writes each to its host's bucket, and
// starts a chase from each redirect (or ends it at once when its Location
// is unusable).
func (b *hostsBuild) spread(parts []string) error {
	caps := newSpills(b.buckets, b.capsFile)
	ends := newSpills(b.buckets, func(t int) string { return b.endsFile(0, t) })
	chases := newSpills(b.buckets, func(t int) string { return b.chaseFile(1, t) })
	b.counts = make([]uint32, b.buckets)
	if b.buckets == 1 {
		b.only = make([]hostCapture, 0, b.total)
	}
	for _, p := range parts {
		err := eachCaptureColumns(p, func(r *captureColumns) error {
			if r.URLHostName == "" {
				return nil
			}
			c := newHostCapture(r)
			bucket := b.bucketOf(c.host)
			idx := b.counts[bucket]
			b.counts[bucket]++
			if b.buckets == 1 {
				b.only = append(b.only, c) // the one bucket stays in memory: no spill
			} else if err := caps.capture(bucket, &c); err != nil {
				return err
			}
			switch {
			case !c.isRedirect():
			case c.target == "":
				return ends.end(bucket, idx, unresolved(redirectInvalidLocation, 0))
			case c.target == c.key:
				return ends.end(bucket, idx, unresolved(redirectLoop, 0))
			default:
				ch := chase{src: uint32(bucket), idx: idx, hops: 1, key: c.target, visited: []string{c.key}}
				return chases.chase(b.bucketOf(hostOfKey(c.target)), &ch)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return errors.Join(caps.close(), ends.close(), chases.close())
}

// chase answers the chases of a round, b.workers buckets at a time.
func (b *hostsBuild) chase(round int) error {
	ends := newSpills(b.buckets, func(t int) string { return b.endsFile(round, t) })
	next := newSpills(b.buckets, func(t int) string { return b.chaseFile(round+1, t) })
	var g errgroup.Group
	g.SetLimit(b.workers)
	for bucket := range b.buckets {
		in := b.chaseFile(round, bucket)
		if _, err := os.Stat(in); errors.Is(err, os.ErrNotExist) {
			continue
		}
		g.Go(func() error { return b.answer(bucket, in, ends, next) })
	}
	return errors.Join(g.Wait(), ends.close(), next.close())
}

// answer answers the chases of one bucket, read from the file in: each
// ends there (written to ends) or goes on to its next hop (next).
func (b *hostsBuild) answer(bucket int, in string, ends, next *spills) error {
	byKey, err := b.lookup(bucket)
	if err != nil {
		return err
	}
	err = readSpill(in, func(r *spillReader) error {
		var ch chase
		r.chase(&ch)
		if r.err != nil {
			return r.err
		}
		end, goOn := step(byKey[ch.key], &ch)
		if goOn {
			return next.chase(b.bucketOf(hostOfKey(ch.key)), &ch)
		}
		return ends.end(int(ch.src), ch.idx, end)
	})
	if err != nil {
		return err
	}
	os.Remove(in) // early, to free the disk; the folder goes at the end anyway
	return nil
}

// lookup returns the captures of a bucket by URL key, the deciding
// capture of each URL. The lookup of a lone bucket is made once and kept
// for every round.
func (b *hostsBuild) lookup(bucket int) (map[string]*hostCapture, error) {
	if b.onlyByKey != nil {
		return b.onlyByKey, nil
	}
	caps, err := b.load(bucket)
	if err != nil {
		return nil, err
	}
	byKey := make(map[string]*hostCapture, len(caps))
	for i := range caps {
		c := &caps[i]
		if old, ok := byKey[c.key]; !ok || decides(c, old) {
			byKey[c.key] = c
		}
	}
	if b.only != nil {
		b.onlyByKey = byKey
	}
	return byKey, nil
}

// step follows a chase one hop: t is the capture of the URL looked up
// (nil when none). It returns the chain's end, or goOn with ch updated to
// the next hop. A chain's hops are the redirects followed to a URL not
// met before: the redirect that closes a loop is not counted.
func step(t *hostCapture, ch *chase) (end chainEnd, goOn bool) {
	switch {
	case t == nil:
		return unresolved(redirectNotCaptured, ch.hops), false
	case !t.isRedirect():
		return resolvedAt(t, ch.hops), false
	case t.target == "":
		return unresolved(redirectInvalidLocation, ch.hops), false
	case t.target == t.key || slices.Contains(ch.visited, t.target):
		return unresolved(redirectLoop, ch.hops), false
	case ch.hops >= maxRedirectHops:
		return unresolved(redirectTooManyHops, ch.hops), false
	}
	ch.visited = append(ch.visited, t.key)
	ch.key = t.target
	ch.hops++
	return chainEnd{}, true
}

// load reads a bucket's captures, in the order they were written. With
// one bucket (a partition of up to hostsBucketCaptures captures) they
// are kept in memory from the start (spread).
func (b *hostsBuild) load(bucket int) ([]hostCapture, error) {
	if b.only != nil {
		return b.only, nil
	}
	caps := make([]hostCapture, 0, b.counts[bucket])
	if b.counts[bucket] == 0 {
		return caps, nil
	}
	err := readSpill(b.capsFile(bucket), func(r *spillReader) error {
		var c hostCapture
		r.capture(&c)
		caps = append(caps, c)
		return r.err
	})
	return caps, err
}

// write makes each host's row from its bucket's captures and chain ends,
// and hands them to out, a bucket's rows at a time. The rows of b.workers
// buckets are made at once; they are handed on in the order of the buckets.
func (b *hostsBuild) write(out func([]schema.Host) error) error {
	type made struct {
		rows []schema.Host
		err  error
	}
	results := make([]chan made, b.buckets)
	for i := range results {
		results[i] = make(chan made, 1)
	}
	slots, done := make(chan struct{}, b.workers), make(chan struct{})
	defer close(done)
	go func() {
		for bucket := range b.buckets {
			select {
			case slots <- struct{}{}:
			case <-done:
				return
			}
			go func() {
				rows, err := b.rowsOf(bucket)
				results[bucket] <- made{rows, err}
			}()
		}
	}()
	for bucket := range b.buckets {
		r := <-results[bucket]
		if r.err != nil {
			return r.err
		}
		if err := out(r.rows); err != nil {
			return err
		}
		<-slots
	}
	return nil
}

// rowsOf makes the rows of the hosts of a bucket, in host order.
func (b *hostsBuild) rowsOf(bucket int) ([]schema.Host, error) {
	caps, err := b.load(bucket)
	if err != nil {
		return nil, err
	}
	ends, err := b.loadEnds(bucket, caps)
	if err != nil {
		return nil, err
	}
	order := make([]int, len(caps))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return strings.Compare(caps[i].host, caps[j].host) })
	hosts := 0
	for i := range order {
		if i == 0 || caps[order[i]].host != caps[order[i-1]].host {
			hosts++
		}
	}
	rows := make([]schema.Host, 0, hosts)
	var hc []*hostCapture // a host's captures and their chains' ends,
	var he []chainEnd     // reused from host to host: hostRow keeps neither
	for start := 0; start < len(order); {
		end := start + 1
		for end < len(order) && caps[order[end]].host == caps[order[start]].host {
			end++
		}
		hc, he = hc[:0], he[:0]
		for _, i := range order[start:end] {
			hc, he = append(hc, &caps[i]), append(he, ends[i])
		}
		rows = append(rows, hostRow(hc, he))
		start = end
	}
	return rows, nil
}

// loadEnds reads the ends of the chains started from a bucket's
// redirects, by capture index. Every redirect has one.
func (b *hostsBuild) loadEnds(bucket int, caps []hostCapture) ([]chainEnd, error) {
	ends := make([]chainEnd, len(caps))
	found := make([]bool, len(caps))
	for round := 0; round <= maxRedirectHops; round++ {
		path := b.endsFile(round, bucket)
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			continue
		}
		err := readSpill(path, func(r *spillReader) error {
			idx, end := r.end()
			if r.err == nil && int(idx) < len(ends) {
				ends[idx], found[idx] = end, true
			}
			return r.err
		})
		if err != nil {
			return nil, err
		}
	}
	for i := range caps {
		if caps[i].isRedirect() && !found[i] {
			return nil, fmt.Errorf("capture %s: the chain of its redirect did not end", caps[i].id)
		}
	}
	return ends, nil
}

// A chase is a request to look a redirect's target up.
type chase struct {
	src     uint32 // the bucket of the capture the chain started from
	idx     uint32 // that capture's index in its bucket
	hops    int32  // redirects followed so far, this one included
	key     string // the URL to look up
	visited []string
}

// spills are one spill file per bucket, opened at path(bucket) when first
// written. Its methods are safe for concurrent use: the buckets of a round
// are answered in parallel.
type spills struct {
	mu   sync.Mutex
	w    []*spillWriter
	path func(bucket int) string
}

func newSpills(n int, path func(bucket int) string) *spills {
	return &spills{w: make([]*spillWriter, n), path: path}
}

// to returns the writer of a bucket's file; s.mu is held.
func (s *spills) to(bucket int) *spillWriter {
	if s.w[bucket] == nil {
		s.w[bucket] = newSpillWriter(s.path(bucket))
	}
	return s.w[bucket]
}

func (s *spills) capture(bucket int, c *hostCapture) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.to(bucket).capture(c)
}

func (s *spills) chase(bucket int, c *chase) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.to(bucket).chase(c)
}

func (s *spills) end(bucket int, idx uint32, e chainEnd) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.to(bucket).end(idx, e)
}

func (s *spills) close() error {
	var err error
	for _, w := range s.w {
		if w != nil {
			err = errors.Join(err, w.close())
		}
	}
	return err
}

// spillBlock is the size of the s2 blocks of a spill file.
const spillBlock = 64 << 10

// spillWriter writes records of varints and strings to an s2-compressed
// file. Errors stick and are returned by close.
type spillWriter struct {
	f   *os.File
	zw  *s2.Writer
	bw  *bufio.Writer
	buf [binary.MaxVarintLen64]byte
	err error
}

func newSpillWriter(path string) *spillWriter {
	f, err := os.Create(path)
	w := &spillWriter{f: f, err: err}
	if err == nil {
		w.zw = s2.NewWriter(f, s2.WriterBlockSize(spillBlock), s2.WriterConcurrency(1))
		w.bw = bufio.NewWriterSize(w.zw, 16<<10)
	}
	return w
}

func (w *spillWriter) uvarint(v uint64) {
	if w.err == nil {
		_, w.err = w.bw.Write(binary.AppendUvarint(w.buf[:0], v))
	}
}

func (w *spillWriter) str(s string) {
	w.uvarint(uint64(len(s)))
	if w.err == nil {
		_, w.err = w.bw.WriteString(s)
	}
}

func (w *spillWriter) capture(c *hostCapture) error {
	w.str(c.id)
	w.str(c.host)
	w.str(c.key)
	w.str(c.target)
	w.uvarint(uint64(uint32(c.status)))
	w.str(c.outcome)
	w.uvarint(uint64(uint32(c.rules)))
	w.uvarint(uint64(c.fetched))
	return w.err
}

func (w *spillWriter) chase(c *chase) error {
	w.uvarint(uint64(c.src))
	w.uvarint(uint64(c.idx))
	w.uvarint(uint64(c.hops))
	w.str(c.key)
	w.uvarint(uint64(len(c.visited)))
	for _, v := range c.visited {
		w.str(v)
	}
	return w.err
}

func (w *spillWriter) end(idx uint32, e chainEnd) error {
	w.uvarint(uint64(idx))
	w.str(e.result)
	w.uvarint(uint64(e.hops))
	w.str(e.id)
	w.str(e.outcome)
	w.uvarint(uint64(e.class))
	return w.err
}

func (w *spillWriter) close() error {
	if w.f == nil {
		return w.err
	}
	if w.err == nil {
		w.err = w.bw.Flush()
	}
	if w.err == nil {
		w.err = w.zw.Close()
	}
	return errors.Join(w.err, w.f.Close())
}

// spillReader reads what a spillWriter wrote, from the whole file
// decompressed into memory: the strings it returns are parts of it, so a
// bucket's captures cost one allocation, not two a field. Errors stick in
// err.
type spillReader struct {
	rest []byte // what is left to read
	err  error
}

// readSpill calls f until the file at path ends.
func readSpill(path string, f func(*spillReader) error) error {
	var buf *bytes.Buffer
	err := withFile(path, func(file *os.File, size int64) error {
		// Sized for three times the compressed bytes; ReadFrom grows it
		// when a spill compresses better.
		buf = bytes.NewBuffer(make([]byte, 0, 3*size+bytes.MinRead))
		// The reader's buffers are of a spill's block, not of s2's default:
		// some files are read a round, each with a reader of its own.
		_, err := buf.ReadFrom(s2.NewReader(file, s2.ReaderMaxBlockSize(spillBlock)))
		return err
	})
	if err != nil {
		return err
	}
	r := &spillReader{rest: buf.Bytes()}
	for len(r.rest) > 0 {
		if err := f(r); err != nil {
			return err
		}
	}
	return nil
}

func (r *spillReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.rest)
	if n <= 0 {
		r.corrupt()
		return 0
	}
	r.rest = r.rest[n:]
	return v
}

// str returns the next string, a part of the file's bytes, which are
// never written again once read.
func (r *spillReader) str() string {
	n := r.uvarint()
	if n > uint64(len(r.rest)) {
		r.corrupt()
		return ""
	}
	s := unsafe.String(unsafe.SliceData(r.rest), n)
	r.rest = r.rest[n:]
	return s
}

// corrupt records that the spill ends in the middle of an entry and
// stops the reading.
func (r *spillReader) corrupt() {
	if r.err == nil {
		r.err = errSpillCorrupt
	}
	r.rest = nil
}

func (r *spillReader) capture(c *hostCapture) {
	c.id, c.host, c.key, c.target = r.str(), r.str(), r.str(), r.str()
	c.status = int32(uint32(r.uvarint()))
	c.outcome = r.str()
	c.rules = int32(uint32(r.uvarint()))
	c.fetched = int64(r.uvarint())
}

func (r *spillReader) chase(c *chase) {
	c.src, c.idx, c.hops = uint32(r.uvarint()), uint32(r.uvarint()), int32(r.uvarint())
	c.key = r.str()
	n := r.uvarint()
	c.visited = make([]string, 0, min(n, maxRedirectHops+1))
	for i := uint64(0); i < n && r.err == nil; i++ { // a corrupt n ends at the end of the bytes
		c.visited = append(c.visited, r.str())
	}
}

func (r *spillReader) end() (uint32, chainEnd) {
	idx := uint32(r.uvarint())
	e := chainEnd{result: r.str(), hops: int32(r.uvarint()), id: r.str(), outcome: r.str()}
	e.class = int(r.uvarint())
	return idx, e
}
