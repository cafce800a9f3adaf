package engine

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
type HostState struct {
	Name     []byte
	Digest   uint64 // hash of the deciding capture's payload digest, 0 when NULL
	Verdicts uint16 // fullBit, partialBit
	Class    uint8  // fetchClassNumber, 0 when unknown
	Flags    uint8
}

// statePresent marks the state of a host with a capture in the crawl (fed
// as a deciding capture); a row of the hosts table alone gives a class.
const StatePresent = 1

// stateFixed is the size of a record after its name.
const stateFixed = 12

// combine adds what another record of the same host says.
func (s *HostState) combine(o *HostState) {
	if o.Flags&StatePresent != 0 {
		s.Digest, s.Verdicts = o.Digest, o.Verdicts
	}
	if o.Class != 0 {
		s.Class = o.Class
	}
	s.Flags |= o.Flags
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
type StateBuffer struct {
	names   []byte
	Entries []stateEntry
}

func (b *StateBuffer) Add(name string, st HostState) {
	b.Entries = append(b.Entries, stateEntry{off: uint32(len(b.names)), n: uint32(len(name)), digest: st.Digest, verdicts: st.Verdicts, class: st.Class, flags: st.Flags})
	b.names = append(b.names, name...)
}

// size returns the bytes the buffer holds.
func (b *StateBuffer) Size() int { return len(b.names) + 24*len(b.Entries) }

func (b *StateBuffer) name(e *stateEntry) []byte { return b.names[e.off : e.off+e.n] }

// writeRun writes the buffer to a new file of dir, sorted by name, the
// records of one host combined, and empties it.
func (b *StateBuffer) WriteRun(dir string) (string, error) {
	slices.SortFunc(b.Entries, func(x, y stateEntry) int { return bytes.Compare(b.name(&x), b.name(&y)) })
	w, err := CreateStateFile(dir, "changes-run-*")
	if err != nil {
		return "", err
	}
	var cur HostState
	for i := range b.Entries {
		e := &b.Entries[i]
		st := HostState{Name: b.name(e), Digest: e.digest, Verdicts: e.verdicts, Class: e.class, Flags: e.flags}
		switch {
		case i == 0:
			cur = st
		case bytes.Equal(cur.Name, st.Name):
			cur.combine(&st)
		default:
			if err := w.Write(&cur); err != nil {
				w.Close()
				return "", err
			}
			cur = st
		}
	}
	if err := w.Write(&cur); err != nil {
		w.Close()
		return "", err
	}
	b.names, b.Entries = b.names[:0], b.Entries[:0]
	return w.Path, w.Close()
}

// stateWriter writes records to a file.
type StateWriter struct {
	Path string
	f    *os.File
	w    *bufio.Writer
	buf  [binary.MaxVarintLen64 + stateFixed]byte
}

// createStateFile creates a file of dir whose name matches pattern
// (os.CreateTemp).
func CreateStateFile(dir, pattern string) (*StateWriter, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return &StateWriter{Path: f.Name(), f: f, w: bufio.NewWriterSize(f, 64<<10)}, nil
}

func (w *StateWriter) Write(st *HostState) error {
	n := binary.PutUvarint(w.buf[:], uint64(len(st.Name)))
	if _, err := w.w.Write(w.buf[:n]); err != nil {
		return err
	}
	if _, err := w.w.Write(st.Name); err != nil {
		return err
	}
	fixed := w.buf[:stateFixed]
	binary.LittleEndian.PutUint64(fixed, st.Digest)
	binary.LittleEndian.PutUint16(fixed[8:], st.Verdicts)
	fixed[10], fixed[11] = st.Class, st.Flags
	_, err := w.w.Write(fixed)
	return err
}

func (w *StateWriter) Close() error {
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
	st  HostState
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
		r.st.Name = slices.Grow(r.st.Name[:0], int(n))[:n]
		_, err = io.ReadFull(r.r, r.st.Name)
	}
	var fixed [stateFixed]byte
	if err == nil {
		_, err = io.ReadFull(r.r, fixed[:])
	}
	if err != nil {
		r.err = noEOF(err)
		return false
	}
	r.st.Digest, r.st.Verdicts = binary.LittleEndian.Uint64(fixed[:]), binary.LittleEndian.Uint16(fixed[8:])
	r.st.Class, r.st.Flags = fixed[10], fixed[11]
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
type StateMerge struct {
	open  []*stateReader // every file, to close
	heap  []*stateReader // those not at their end
	State HostState
	err   error
}

func OpenStateMerge(paths []string) (*StateMerge, error) {
	m := &StateMerge{}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			m.Close()
			return nil, err
		}
		r := &stateReader{f: f, r: bufio.NewReaderSize(f, 64<<10)}
		m.open = append(m.open, r)
		if r.next() {
			m.heap = append(m.heap, r)
		} else if r.err != nil {
			m.Close()
			return nil, r.err
		}
	}
	heap.Init(m)
	return m, nil
}

func (m *StateMerge) Len() int { return len(m.heap) }
func (m *StateMerge) Less(i, j int) bool {
	return bytes.Compare(m.heap[i].st.Name, m.heap[j].st.Name) < 0
}
func (m *StateMerge) Swap(i, j int) { m.heap[i], m.heap[j] = m.heap[j], m.heap[i] }
func (m *StateMerge) Push(x any)    { m.heap = append(m.heap, x.(*stateReader)) }
func (m *StateMerge) Pop() any {
	r := m.heap[len(m.heap)-1]
	m.heap = m.heap[:len(m.heap)-1]
	return r
}

// next moves to the next host; false at the end or on a failure (failed).
func (m *StateMerge) next() bool {
	if m == nil || m.err != nil || len(m.heap) == 0 {
		return false
	}
	top := m.heap[0]
	m.State = HostState{Name: append(m.State.Name[:0], top.st.Name...), Digest: top.st.Digest, Verdicts: top.st.Verdicts, Class: top.st.Class, Flags: top.st.Flags}
	m.advance()
	for m.err == nil && len(m.heap) > 0 && bytes.Equal(m.heap[0].st.Name, m.State.Name) {
		m.State.combine(&m.heap[0].st)
		m.advance()
	}
	return m.err == nil
}

// nextPresent moves to the next host with a capture in the crawl.
func (m *StateMerge) NextPresent() bool {
	for m.next() {
		if m.State.Flags&StatePresent != 0 {
			return true
		}
	}
	return false
}

// advance moves the file with the smallest name to its next record.
func (m *StateMerge) advance() {
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
func (m *StateMerge) Failed() error {
	if m == nil {
		return nil
	}
	return m.err
}

func (m *StateMerge) Close() {
	for _, r := range m.open {
		r.f.Close()
	}
}

// removeFile removes a file of the report's temporary folder; "" is none.
func RemoveFile(path string) {
	if path != "" {
		os.Remove(path)
	}
}
