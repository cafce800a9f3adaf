package analyze

import (
	"bufio"
	"bytes"
	"container/heap"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"slices"
)

// Per-host state on disk, for the sections that compare crawls host by
// host (section_changes.go): records sorted by host name, written in runs
// of bounded size, merged and joined in name order, so that memory does
// not grow with the hosts of a crawl.
//
// A record is the name's length (uvarint), the name, and stateFixed
// bytes: the digest hash (8, little-endian), the verdict bits (2), the
// fetch class (1) and the flags (1). With names of 15-25 bytes a record
// takes 28-38 bytes: some 1.5-2 GB of disk per state file for 50 million
// hosts, and about four times that at the end of a crawl, when its runs
// (two records per host: its row of hosts, its deciding capture), the
// previous crawl's file and the new file coexist. In memory, a host takes 24
// bytes and its name while it waits in the buffer (at most
// changesRunBytes), and nothing afterwards; merging holds one 64 KiB
// reader per run.

// hostState is what is kept of one host.
type hostState struct {
	name     []byte
	digest   uint64 // hash of the deciding capture's payload digest, 0 when NULL
	verdicts uint16 // fullBit, partialBit
	class    uint8  // fetchClassNumber, 0 when unknown
	flags    uint8
}

// statePresent marks the state of a host with a capture in the crawl (fed
// as a deciding capture); a row of the hosts table alone gives a class.
const statePresent = 1

// stateFixed is the size of a record after its name.
const stateFixed = 12

// combine adds what another record of the same host says.
func (s *hostState) combine(o *hostState) {
	if o.flags&statePresent != 0 {
		s.digest, s.verdicts = o.digest, o.verdicts
	}
	if o.class != 0 {
		s.class = o.class
	}
	s.flags |= o.flags
}

// stateEntry is a host of the buffer, its name in stateBuffer.names: 24
// bytes.
type stateEntry struct {
	off, n   uint32
	digest   uint64
	verdicts uint16
	class    uint8
	flags    uint8
}

// stateBuffer holds hosts until they are written as a run.
type stateBuffer struct {
	names   []byte
	entries []stateEntry
}

func (b *stateBuffer) add(name string, st hostState) {
	b.entries = append(b.entries, stateEntry{off: uint32(len(b.names)), n: uint32(len(name)), digest: st.digest, verdicts: st.verdicts, class: st.class, flags: st.flags})
	b.names = append(b.names, name...)
}

// size returns the bytes the buffer holds.
func (b *stateBuffer) size() int { return len(b.names) + 24*len(b.entries) }

func (b *stateBuffer) name(e *stateEntry) []byte { return b.names[e.off : e.off+e.n] }

// writeRun writes the buffer to a new file of dir, sorted by name, the
// records of one host combined, and empties it.
func (b *stateBuffer) writeRun(dir string) (string, error) {
	slices.SortFunc(b.entries, func(x, y stateEntry) int { return bytes.Compare(b.name(&x), b.name(&y)) })
	w, err := createStateFile(dir, "changes-run-*")
	if err != nil {
		return "", err
	}
	var cur hostState
	for i := range b.entries {
		e := &b.entries[i]
		st := hostState{name: b.name(e), digest: e.digest, verdicts: e.verdicts, class: e.class, flags: e.flags}
		switch {
		case i == 0:
			cur = st
		case bytes.Equal(cur.name, st.name):
			cur.combine(&st)
		default:
			if err := w.write(&cur); err != nil {
				w.close()
				return "", err
			}
			cur = st
		}
	}
	if err := w.write(&cur); err != nil {
		w.close()
		return "", err
	}
	b.names, b.entries = b.names[:0], b.entries[:0]
	return w.path, w.close()
}

// stateWriter writes records to a file.
type stateWriter struct {
	path string
	f    *os.File
	w    *bufio.Writer
	buf  [binary.MaxVarintLen64 + stateFixed]byte
}

// createStateFile creates a file of dir whose name matches pattern
// (os.CreateTemp).
func createStateFile(dir, pattern string) (*stateWriter, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return &stateWriter{path: f.Name(), f: f, w: bufio.NewWriterSize(f, 64<<10)}, nil
}

func (w *stateWriter) write(st *hostState) error {
	n := binary.PutUvarint(w.buf[:], uint64(len(st.name)))
	if _, err := w.w.Write(w.buf[:n]); err != nil {
		return err
	}
	if _, err := w.w.Write(st.name); err != nil {
		return err
	}
	fixed := w.buf[:stateFixed]
	binary.LittleEndian.PutUint64(fixed, st.digest)
	binary.LittleEndian.PutUint16(fixed[8:], st.verdicts)
	fixed[10], fixed[11] = st.class, st.flags
	_, err := w.w.Write(fixed)
	return err
}

func (w *stateWriter) close() error {
	err := w.w.Flush()
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// stateReader reads the records of a file; st is the current one, its
// name valid until the next call.
type stateReader struct {
	f   *os.File
	r   *bufio.Reader
	st  hostState
	err error
}

func (r *stateReader) next() bool {
	n, err := binary.ReadUvarint(r.r)
	if err == io.EOF {
		return false
	}
	if err == nil && n > 1<<20 {
		err = errors.New("corrupt host state: a name of over 1 MiB")
	}
	if err == nil {
		r.st.name = slices.Grow(r.st.name[:0], int(n))[:n]
		_, err = io.ReadFull(r.r, r.st.name)
	}
	var fixed [stateFixed]byte
	if err == nil {
		_, err = io.ReadFull(r.r, fixed[:])
	}
	if err != nil {
		r.err = noEOF(err)
		return false
	}
	r.st.digest, r.st.verdicts = binary.LittleEndian.Uint64(fixed[:]), binary.LittleEndian.Uint16(fixed[8:])
	r.st.class, r.st.flags = fixed[10], fixed[11]
	return true
}

// noEOF turns an end of file inside a record into io.ErrUnexpectedEOF.
func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// stateMerge merges files of records sorted by name into one stream of
// hosts, each once (its records combined): st is the current host. It is
// a heap of the files by their current record's name.
type stateMerge struct {
	open []*stateReader // every file, to close
	heap []*stateReader // those not at their end
	st   hostState
	err  error
}

func openStateMerge(paths []string) (*stateMerge, error) {
	m := &stateMerge{}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			m.close()
			return nil, err
		}
		r := &stateReader{f: f, r: bufio.NewReaderSize(f, 64<<10)}
		m.open = append(m.open, r)
		if r.next() {
			m.heap = append(m.heap, r)
		} else if r.err != nil {
			m.close()
			return nil, r.err
		}
	}
	heap.Init(m)
	return m, nil
}

func (m *stateMerge) Len() int { return len(m.heap) }
func (m *stateMerge) Less(i, j int) bool {
	return bytes.Compare(m.heap[i].st.name, m.heap[j].st.name) < 0
}
func (m *stateMerge) Swap(i, j int) { m.heap[i], m.heap[j] = m.heap[j], m.heap[i] }
func (m *stateMerge) Push(x any)    { m.heap = append(m.heap, x.(*stateReader)) }
func (m *stateMerge) Pop() any {
	r := m.heap[len(m.heap)-1]
	m.heap = m.heap[:len(m.heap)-1]
	return r
}

// next moves to the next host; false at the end or on a failure (failed).
func (m *stateMerge) next() bool {
	if m == nil || m.err != nil || len(m.heap) == 0 {
		return false
	}
	top := m.heap[0]
	m.st = hostState{name: append(m.st.name[:0], top.st.name...), digest: top.st.digest, verdicts: top.st.verdicts, class: top.st.class, flags: top.st.flags}
	m.advance()
	for m.err == nil && len(m.heap) > 0 && bytes.Equal(m.heap[0].st.name, m.st.name) {
		m.st.combine(&m.heap[0].st)
		m.advance()
	}
	return m.err == nil
}

// nextPresent moves to the next host with a capture in the crawl.
func (m *stateMerge) nextPresent() bool {
	for m.next() {
		if m.st.flags&statePresent != 0 {
			return true
		}
	}
	return false
}

// advance moves the file with the smallest name to its next record.
func (m *stateMerge) advance() {
	r := m.heap[0]
	if r.next() {
		heap.Fix(m, 0)
		return
	}
	if r.err != nil {
		m.err = r.err
	}
	heap.Pop(m)
}

// failed returns the error that ended the stream, if any.
func (m *stateMerge) failed() error {
	if m == nil {
		return nil
	}
	return m.err
}

func (m *stateMerge) close() {
	for _, r := range m.open {
		r.f.Close()
	}
}

// removeFile removes a file of the report's temporary folder; "" is none.
func removeFile(path string) {
	if path != "" {
		os.Remove(path)
	}
}
