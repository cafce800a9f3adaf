package archive

import (
	"bytes"
	"compress/bzip2"
	"crypto/sha1"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// Format is the kind of input Open found.
type Format int

// Formats of inputs.
const (
	FormatUnknown Format = iota
	FormatWARC
	FormatARC
	FormatTar
	FormatBody // a single robots.txt body
)

// String returns the name of the format.
func (f Format) String() string {
	return [...]string{"unknown", "warc", "arc", "tar", "body"}[f]
}

// SniffLen is how many (decompressed) bytes Detect looks at.
const SniffLen = 1024

// Detect finds the format of a file from its first bytes (decompressing
// them when they are gzip, zstd or bzip2) and, when they say nothing, from
// its name: a WARC starts with "WARC/", an ARC with an ARC header line, a
// tar with a valid tar header; names containing ".warc", ".arc" or ".tar"
// (or ending in ".tgz") are taken at their word. An uncompressed file that
// is none of these is a robots.txt body if it is text (see [PlausibleBody]);
// binary data, a compressed file and an LZ4 one are unsupported.
func Detect(head []byte, name string) (Format, error) {
	comp := sniffCompression(head)
	inner, err := decompressHead(head, comp)
	if err != nil {
		return FormatUnknown, err
	}
	switch {
	case bytes.HasPrefix(inner, []byte("WARC/")):
		return FormatWARC, nil
	case bytes.HasPrefix(inner, []byte("filedesc://")) || isARCStart(firstLine(inner)):
		return FormatARC, nil
	case len(inner) >= 512 && validTarHeader(inner[:512]):
		return FormatTar, nil
	}
	base := strings.ToLower(filepath.Base(name))
	switch {
	case strings.Contains(base, ".warc"):
		return FormatWARC, nil
	case strings.Contains(base, ".arc"):
		return FormatARC, nil
	case strings.Contains(base, ".tar") || strings.HasSuffix(base, ".tgz"):
		return FormatTar, nil
	case comp == compNone && PlausibleBody(inner):
		return FormatBody, nil
	case comp == compNone:
		return FormatUnknown, ErrBinary
	}
	return FormatUnknown, fmt.Errorf("%w: compressed data of unknown kind", ErrUnknownFormat)
}

// ErrUnknownFormat is wrapped by every error of Detect: no reader of this
// package takes the data (as opposed to a reader that fails on data it
// takes, e.g. a bzip2 WARC). It wraps ErrUnsupportedFormat and adds
// nothing to the message.
var ErrUnknownFormat = fmt.Errorf("%w", ErrUnsupportedFormat)

// ErrBinary is the error of Detect for uncompressed binary data; it wraps
// ErrUnknownFormat.
var ErrBinary = fmt.Errorf("%w: binary data, neither a WARC, ARC or tar file nor a robots.txt body", ErrUnknownFormat)

func firstLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i+1]
	}
	return nil
}

// decompressHead returns the first decompressed bytes of head (as many as
// decode; errors past the start are ignored).
func decompressHead(head []byte, comp compression) ([]byte, error) {
	var r io.Reader
	switch comp {
	case compNone:
		return head, nil
	case compLZ4:
		return nil, fmt.Errorf("%w: LZ4-compressed (not a WARC compression this package reads)", ErrUnknownFormat)
	case compGzip:
		zr, err := gzip.NewReader(bytes.NewReader(head))
		if err != nil {
			return nil, nil
		}
		r = zr
	case compBzip2:
		r = bzip2.NewReader(bytes.NewReader(head))
	case compZstd:
		if bytes.HasPrefix(head, magicZstdDict) {
			return []byte("WARC/"), nil // only the zstd WARC layout has a dictionary frame
		}
		d, err := zstd.NewReader(bytes.NewReader(head), zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(64<<20))
		if err != nil {
			return nil, nil
		}
		defer d.Close()
		r = d
	}
	out := make([]byte, SniffLen)
	n, _ := io.ReadFull(r, out)
	return out[:n], nil
}

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
	format, err := Detect(head[:n], name)
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

// bodyReader yields one capture: a file holding a robots.txt body.
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

// Next returns the body's capture, then io.EOF.
func (b *bodyReader) Next() (*Capture, error) {
	if b.done {
		return nil, io.EOF
	}
	b.done = true
	b.counts.Records++
	c := &b.cap
	if err := fileCapture(c, b.r, b.name, b.fi, b.sha, b.cfg); err != nil {
		b.counts.damage(Damage{Kind: DamageUnreadable, Detail: err.Error()})
	}
	b.counts.Captures++
	b.counts.Bytes = b.fi.Size()
	if b.counts.Bytes < 0 {
		b.counts.Bytes = c.BodySize
	}
	return c, nil
}

// Counts returns a snapshot of the running totals.
func (b *bodyReader) Counts() Counts { return b.counts.snapshot() }

// fileCapture fills c from a file holding a robots.txt body, whose size
// may be unknown (-1: a remote body without Content-Length).
func fileCapture(c *Capture, r io.Reader, name string, fi fs.FileInfo, h hash.Hash, cfg config) error {
	*c = Capture{Problems: c.Problems[:0]}
	if c.Host, c.URL = urlFromName(name); c.Host == "" {
		c.AddProblem(ProblemHostUnknown, "file "+filepath.Base(name))
	}
	c.FetchTime = fileTime(fi.ModTime())
	c.RecordID = "file:" + filepath.ToSlash(name)
	size, bufSize := fi.Size(), int64(cfg.maxBody)
	if size >= 0 {
		bufSize = min(bufSize, size+1)
	}
	c.Source = Provenance{File: name, Length: size}
	err := readBodyInto(c, r, max(size, 0), make([]byte, 0, bufSize), make([]byte, 32<<10), h, cfg)
	if size < 0 {
		c.Source.Length = c.BodySize
	}
	return err
}

// PlausibleBody reports whether the first bytes of an uncompressed file
// could be a robots.txt body: text (in any ASCII-compatible encoding, or
// UTF-16 with its byte order mark), or nothing. Binary data has NUL bytes
// or many control characters; robots.txt files, even broken ones, have
// neither.
func PlausibleBody(head []byte) bool {
	if bytes.HasPrefix(head, []byte{0xFF, 0xFE}) || bytes.HasPrefix(head, []byte{0xFE, 0xFF}) {
		return true
	}
	controls := 0
	for _, b := range head {
		switch {
		case b == 0:
			return false
		case b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f' && b != '\v' && b != 0x1A: // 0x1A: DOS end of file
			controls++
		}
	}
	return controls*20 <= len(head) // at most 5%
}
