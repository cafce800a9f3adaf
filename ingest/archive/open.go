package archive

import (
	"bufio"
	"crypto/sha1"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Open opens a local file and returns its reader and a Closer to call when
// done: the reader of the format [Detect] finds (NewWARCReader,
// NewARCReader, NewTarReader, or a one-capture body reader). The error is
// an *InputError for a file that cannot be opened or whose format is
// unsupported (a folder, a URL, binary data), or an invalid-option error.
// Remote inputs are opened by package remote.
func Open(name string, opts ...Option) (CaptureReader, io.Closer, error) {
	if _, err := newConfig(opts); err != nil {
		return nil, nil, err
	}
	fi, err := os.Stat(name)
	if err != nil {
		if s := URLScheme(name); s != "" {
			err = fmt.Errorf("%w: URL scheme %q (http and https URLs are read; Common Crawl's s3://commoncrawl/ is https://data.commoncrawl.org/)", ErrUnsupportedFormat, s)
			return nil, nil, &InputError{File: name, Err: err}
		}
		return nil, nil, &InputError{File: name, Err: fmt.Errorf("%w: %w", ErrRead, err)}
	}
	if fi.IsDir() {
		return nil, nil, &InputError{File: name, Err: fmt.Errorf("%w: a folder (its files are inputs of their own: see ExpandInputs)", ErrUnsupportedFormat)}
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, &InputError{File: name, Err: fmt.Errorf("%w: %w", ErrRead, err)}
	}
	r, err := openFile(f, name, fi, opts)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if t, ok := r.(*TarReader); ok {
		return r, Closers{t, f}, nil
	}
	return r, f, nil
}

// URLScheme returns the scheme of a name that looks like a URL
// ("s3://...", "https://..."), or "".
func URLScheme(name string) string {
	scheme, _, ok := strings.Cut(name, "://")
	if !ok || scheme == "" {
		return ""
	}
	for i, r := range scheme {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || !(r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.')) {
			return ""
		}
	}
	return scheme
}

// openFile detects the format of an open file and returns its reader.
func openFile(f *os.File, name string, fi fs.FileInfo, opts []Option) (CaptureReader, error) {
	head := make([]byte, SniffLen)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, &InputError{File: name, Err: fmt.Errorf("%w: %w", ErrRead, err)}
	}
	format, err := Detect(head[:n])
	if err != nil {
		return nil, &InputError{File: name, Err: err}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, &InputError{File: name, Err: fmt.Errorf("%w: %w", ErrRead, err)}
	}
	return NewReader(format, f, name, fi, opts...)
}

// NewReader returns the reader of a format over r, which holds the input
// from its first byte. fi describes a body's file (its size may be -1,
// unknown).
func NewReader(format Format, r io.Reader, name string, fi fs.FileInfo, opts ...Option) (CaptureReader, error) {
	switch format {
	case FormatWARC:
		return NewWARCReader(r, name, opts...)
	case FormatARC:
		return NewARCReader(r, name, opts...)
	case FormatTar:
		return NewTarReader(r, name, opts...)
	}
	return newBodyReader(r, name, fi, opts)
}

// Closers closes several things, returning the first error.
type Closers []io.Closer

// Close closes each, in order.
func (cs Closers) Close() error {
	var first error
	for _, c := range cs {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// bodyReader yields one capture: a file holding a robots.txt body, plain
// or compressed (gzip or zstd, as some servers send robots.txt unasked),
// which is read decompressed.
type bodyReader struct {
	cfg    config
	r      io.Reader
	name   string
	fi     fs.FileInfo
	counts Counts
	done   bool
	cap    Capture
	sha    hash.Hash
}

func newBodyReader(r io.Reader, name string, fi fs.FileInfo, opts []Option) (*bodyReader, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	return &bodyReader{cfg: cfg, r: r, name: name, fi: fi, sha: sha1.New()}, nil
}

// Next returns the body's capture, then io.EOF. A compressed body whose
// data is damaged holds what could be decompressed before the damage
// (recorded in Counts.Damage by its kind, the capture marked
// record-incomplete); one of which nothing could be decompressed is no
// capture but Skipped["corrupt"].
func (b *bodyReader) Next() (*Capture, error) {
	if b.done {
		return nil, io.EOF
	}
	b.done = true
	b.counts.Records++
	r, dec := b.stream()
	c := &b.cap
	err := fileCapture(c, r, b.name, b.fi, dec != nil, b.sha, b.cfg)
	var damaged *memberError
	if err != nil && !errors.As(err, &damaged) { // a member's damage is recorded by its source
		b.counts.damage(Damage{Kind: DamageUnreadable, Detail: err.Error()})
	}
	b.counts.Bytes = b.storedBytes(c, dec)
	if c.Source.Length < 0 {
		c.Source.Length = b.counts.Bytes
	}
	if dec != nil && dec.damaged {
		if c.BodySize == 0 {
			b.counts.skip(SkipCorrupt)
			return nil, io.EOF
		}
		if err == nil {
			c.AddProblem(ProblemInputDamaged, "bytes that are not "+dec.comp.String()+" data were passed over between or after its members")
		}
	}
	b.counts.Captures++
	return c, nil
}

// stream returns the body's bytes: the file as it is, or decompressed
// (dec, not nil) when it starts with a gzip or zstd magic number.
func (b *bodyReader) stream() (r io.Reader, dec *decompressedBody) {
	br := bufio.NewReaderSize(b.r, 16)
	head, _ := br.Peek(len(magicZstd))
	switch comp := sniffCompression(head); comp {
	case compGzip, compZstd:
		dec = &decompressedBody{in: newInput(br, b.name, &b.counts), comp: comp}
		return dec, dec
	}
	return br, nil
}

// storedBytes returns the input bytes the body took: the file's size, or
// when that is unknown (a remote body without Content-Length) the bytes
// read.
func (b *bodyReader) storedBytes(c *Capture, dec *decompressedBody) int64 {
	switch {
	case b.fi.Size() >= 0:
		return b.fi.Size()
	case dec != nil:
		return dec.in.pos()
	}
	return c.BodySize
}

// Counts returns a snapshot of the running totals.
func (b *bodyReader) Counts() Counts { return b.counts.snapshot() }

// decompressedBody reads the decompressed bytes of a compressed body file:
// its gzip members (or zstd frames) one after the other, as gzip -d does.
// It ends at the first damaged member with its *memberError; the source
// records the damage in the body reader's Counts.
type decompressedBody struct {
	in      *input
	comp    compression
	src     source
	open    bool // a member is being read
	damaged bool // garbage was passed over, or a member is damaged
}

// Read reads decompressed bytes, going on to the next member at the end of
// one.
func (d *decompressedBody) Read(p []byte) (int, error) {
	if d.src == nil {
		src, err := newSource(d.in, false)
		if err != nil {
			return 0, err
		}
		d.src = src
	}
	for {
		if !d.open {
			skipped, err := d.src.next()
			d.damaged = d.damaged || skipped
			if err != nil {
				return 0, err
			}
			d.open = true
		}
		n, err := d.src.read(p)
		switch {
		case err == io.EOF:
			d.open = false
			if n == 0 {
				continue
			}
			err = nil
		case err != nil:
			var member *memberError
			d.damaged = d.damaged || errors.As(err, &member)
		}
		return n, err
	}
}

// fileCapture fills c from a file holding a robots.txt body, read from r
// (decompressed when compressed), whose size as stored may be unknown (-1:
// a remote body without Content-Length; Source.Length is then -1 too).
func fileCapture(c *Capture, r io.Reader, name string, fi fs.FileInfo, compressed bool, h hash.Hash, cfg config) error {
	*c = Capture{Problems: c.Problems[:0]}
	if c.Host, c.URL = urlFromName(name); c.Host == "" {
		c.AddProblem(ProblemHostUnknown, "file "+filepath.Base(name))
	}
	c.FetchTime = fileTime(fi.ModTime())
	c.RecordID = "file:" + filepath.ToSlash(name)
	c.Source = Provenance{File: name, Length: fi.Size()}
	size, bufSize := fi.Size(), int64(cfg.maxBody)
	if compressed {
		size = -1 // the decompressed size is known at the end only
	}
	if size >= 0 {
		bufSize = min(bufSize, size+1)
	}
	return readBodyInto(c, r, max(size, 0), make([]byte, 0, bufSize), make([]byte, 32<<10), h, cfg)
}
