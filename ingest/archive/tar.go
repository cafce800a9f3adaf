package archive

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/bzip2"
	"crypto/sha1"
	"errors"
	"fmt"
	"hash"
	"io"
	"path"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// TarReader reads the robots.txt bodies of a tar archive (plain, gzip,
// zstd or bzip2 compressed), one capture per regular entry. The host comes
// from the entry name (see HostFromName); URL is "https://HOST/robots.txt",
// Status 0, FetchTime the entry's mtime.
type TarReader struct {
	cfg     config
	name    string
	base    string
	in      countingReader // the input as stored
	data    countingReader // the tar stream (decompressed)
	pre     *bytes.Reader  // a header block found by resync, read before data
	tr      *tar.Reader
	zs      *zstd.Decoder
	comp    compression
	counts  Counts
	err     error
	done    bool
	cap     Capture
	body    []byte
	scratch []byte
	sha     hash.Hash
}

// NewTarReader returns a reader of the tar archive r, whose compression is
// found from its first bytes. name is recorded as Provenance.File. The only
// errors are invalid options; an input that cannot be read makes Next return
// the error.
func NewTarReader(r io.Reader, name string, opts ...Option) (*TarReader, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	t := &TarReader{cfg: cfg, name: name, base: path.Base(strings.ReplaceAll(name, "\\", "/"))}
	t.in.r = r
	br := bufio.NewReaderSize(&t.in, inputBufferSize)
	head, _ := br.Peek(4)
	t.comp = sniffCompression(head)
	var stream io.Reader = br
	switch t.comp {
	case compGzip:
		zr, err := gzip.NewReader(br)
		if err != nil {
			t.err = t.inputErr(fmt.Errorf("%w: gzip: %w", ErrCorruptCompression, err))
		}
		stream = zr
	case compZstd:
		t.zs, err = zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxZstdWindow))
		if err != nil {
			t.err = t.inputErr(err)
		}
		stream = t.zs
	case compBzip2:
		stream = bzip2.NewReader(br)
	case compLZ4:
		t.err = t.inputErr(fmt.Errorf("%w: LZ4-compressed", ErrUnsupportedFormat))
	}
	t.data.r = stream
	t.tr = tar.NewReader(&t.data)
	return t, nil
}

func (t *TarReader) inputErr(err error) error {
	return &InputError{File: t.name, Offset: t.in.n, Err: err}
}

// Counts returns a snapshot of the running totals.
func (t *TarReader) Counts() Counts {
	t.counts.Bytes = t.in.n
	return t.counts.snapshot()
}

// Close releases the zstd decoder, if any.
func (t *TarReader) Close() error {
	if t.zs != nil {
		t.zs.Close()
	}
	return nil
}

// dataPos returns the offset in the tar stream of what tar reads next.
func (t *TarReader) dataPos() int64 {
	if t.pre != nil {
		return t.data.n - int64(t.pre.Len())
	}
	return t.data.n
}

// Next returns the next capture, or io.EOF at the end of the archive. See
// [CaptureReader].
func (t *TarReader) Next() (*Capture, error) {
	for t.err == nil && !t.done {
		hdr, err := t.tr.Next()
		if err != nil {
			t.damaged(err)
			continue
		}
		t.counts.Records++
		if hdr.Typeflag != tar.TypeReg {
			t.counts.skip(SkipNotRegular)
			continue
		}
		c, err := t.entry(hdr)
		if err != nil {
			t.damaged(err)
		}
		if c != nil {
			t.counts.Captures++
			return c, nil
		}
	}
	t.counts.Bytes = t.in.n
	if t.err != nil {
		return nil, t.err
	}
	return nil, io.EOF
}

// damaged handles an error of the tar stream: the end, a fatal read error,
// a truncated archive, corrupt compressed data, or a corrupt header (after
// which it scans for the next valid header).
func (t *TarReader) damaged(err error) {
	off := t.dataPos()
	switch {
	case err == io.EOF:
		t.done = true
	case t.in.err != nil:
		t.err = t.inputErr(fmt.Errorf("%w: %w", ErrRead, t.in.err))
	case errors.Is(err, io.ErrUnexpectedEOF):
		t.counts.damage(Damage{Kind: DamageTruncated, Offset: t.storedOffset(off), Detail: "archive ends inside an entry or header"})
		t.done = true
	case errors.Is(err, tar.ErrHeader):
		t.resync(off)
	default:
		t.counts.damage(Damage{Kind: DamageCorruptMember, Offset: t.storedOffset(off), Detail: err.Error()})
		t.done = true
	}
}

// storedOffset maps a tar stream offset to the input as stored: itself for
// a plain tar, the start of the compressed stream otherwise.
func (t *TarReader) storedOffset(off int64) int64 {
	if t.comp == compNone {
		return off
	}
	return 0
}

// resync scans 512-byte blocks for the next valid tar header and restarts
// the tar reader there, recording the blocks passed over.
func (t *TarReader) resync(from int64) {
	block := make([]byte, 512)
	t.pre = nil
	start := t.data.n
	for {
		if _, err := io.ReadFull(&t.data, block); err != nil {
			t.counts.damage(Damage{Kind: DamageTarHeader, Offset: t.storedOffset(from), Skipped: t.data.n - start + 512,
				Detail: "corrupt header; no valid header after it"})
			t.done = true
			return
		}
		if validTarHeader(block) {
			break
		}
	}
	bad := max(from-512, 0) // the corrupt header block, already read by tar
	t.counts.damage(Damage{Kind: DamageTarHeader, Offset: t.storedOffset(bad), Skipped: t.data.n - 512 - bad,
		Detail: "corrupt header; resumed at the next valid one"})
	t.pre = bytes.NewReader(block)
	t.tr = tar.NewReader(io.MultiReader(t.pre, &t.data))
}

// validTarHeader reports whether b is a tar header block with a correct
// checksum (unsigned or signed sum, as readers accept both).
func validTarHeader(b []byte) bool {
	var want int64
	field := bytes.Trim(b[148:156], " \x00")
	if len(field) == 0 {
		return false
	}
	for _, c := range field {
		if c < '0' || c > '7' {
			return false
		}
		want = want*8 + int64(c-'0')
	}
	var unsigned, signed int64
	for i, c := range b {
		if i >= 148 && i < 156 {
			c = ' '
		}
		unsigned += int64(c)
		signed += int64(int8(c))
	}
	return want == unsigned || want == signed
}

// entry reads one regular entry into the reused capture.
func (t *TarReader) entry(hdr *tar.Header) (*Capture, error) {
	c := &t.cap
	*c = Capture{Problems: c.Problems[:0]}
	if c.Host, c.URL = urlFromName(hdr.Name); c.Host == "" {
		c.AddProblem(ProblemHostUnknown, "entry "+hdr.Name)
	}
	c.FetchTime = fileTime(hdr.ModTime)
	c.RecordID = "tar:" + t.base + ":" + hdr.Name
	c.Source = Provenance{File: t.name, Offset: t.dataPos(), Length: hdr.Size, Uncompressed: t.comp != compNone}
	err := t.readBody(c, t.tr, hdr.Size)
	return c, err
}

// readBody reads a body of the given size (-1 unknown) from r into c,
// capped at MaxBody, digesting up to MaxRecordBytes.
func (t *TarReader) readBody(c *Capture, r io.Reader, size int64) error {
	if t.body == nil {
		t.body = make([]byte, 0, t.cfg.maxBody)
		t.scratch = make([]byte, 32<<10)
	}
	if t.sha == nil {
		t.sha = sha1.New()
	}
	return readBodyInto(c, r, size, t.body, t.scratch, t.sha, t.cfg)
}

// readBodyInto is the body copy of tar entries and files: Body gets at most
// MaxBody bytes, BodySize the size, PayloadDigest the SHA-1 of the whole
// body when it is at most MaxRecordBytes.
func readBodyInto(c *Capture, r io.Reader, size int64, body, scratch []byte, h hash.Hash, cfg config) error {
	h.Reset()
	body = body[:0]
	bodyMax := min(cap(body), cfg.maxBody)
	var n int64
	var err error
	for n < cfg.maxRecordBytes {
		p := scratch
		if len(body) < bodyMax {
			p = body[len(body):bodyMax]
		}
		p = p[:min(int64(len(p)), cfg.maxRecordBytes-n)]
		var k int
		k, err = r.Read(p)
		if len(body) < bodyMax {
			body = body[:len(body)+k]
		}
		h.Write(p[:k])
		n += int64(k)
		if err != nil {
			break
		}
	}
	c.Body, c.BodySize = body, max(n, size)
	if err == io.EOF {
		err = nil
	}
	if c.BodySize > int64(cfg.maxBody) {
		c.AddProblem(ProblemBodyCapped, "body of "+itoa(c.BodySize)+" bytes kept to "+itoa(int64(cfg.maxBody)))
		c.Truncated = TruncatedBodyCap
	}
	switch {
	case err != nil:
		c.AddProblem(ProblemRecordIncomplete, err.Error())
		c.Truncated = TruncatedInput
	case n >= cfg.maxRecordBytes && size != n:
		c.AddProblem(ProblemRecordCapped, "digest not computed over "+itoa(cfg.maxRecordBytes)+" bytes")
	default:
		var sum [20]byte
		c.PayloadDigest = "sha1:" + b32.EncodeToString(h.Sum(sum[:0]))
	}
	return err
}

// HostFromName derives a host from the name of a tar entry or file, as the
// shared corpus names them: "robots/HOST", "robots/DOMAIN-robots.txt",
// "RobotsFiles/HOST", "data/LIST/DOMAIN", "HOST/robots.txt". Suffixes
// "-robots.txt", "_robots.txt", ".robots.txt" and ".txt" are removed, and so
// are a user part ("user@HOST") and a port ("HOST:8443"). The result is
// lower-case; it is "" when it is not a plausible host name (ASCII letters,
// digits, '-', '_', '.' and non-ASCII letters of internationalised names,
// with at least one dot).
func HostFromName(name string) string {
	h, _ := hostPortFromName(name)
	return h
}

// urlFromName returns "https://HOST/robots.txt" for a file name, with the
// scheme http for port 80 and the port kept when it is neither 80 nor 443;
// "" when there is no host.
func urlFromName(name string) (host, url string) {
	host, port := hostPortFromName(name)
	switch {
	case host == "":
		return "", ""
	case port == "80":
		return host, "http://" + host + "/robots.txt"
	case port == "" || port == "443":
		return host, "https://" + host + "/robots.txt"
	}
	return host, "https://" + host + ":" + port + "/robots.txt"
}

func hostPortFromName(name string) (host, port string) {
	name = strings.ReplaceAll(name, "\\", "/")
	base := path.Base(name)
	if strings.EqualFold(base, "robots.txt") {
		base = path.Base(path.Dir(name))
	}
	for _, suffix := range []string{"-robots.txt", "_robots.txt", ".robots.txt", ".txt"} {
		if len(base) > len(suffix) && strings.EqualFold(base[len(base)-len(suffix):], suffix) {
			base = base[:len(base)-len(suffix)]
			break
		}
	}
	h := strings.ToLower(base)
	if i := strings.LastIndexByte(h, '@'); i >= 0 {
		h = h[i+1:]
	}
	if i := strings.LastIndexByte(h, ':'); i >= 0 && i < len(h)-1 && isDigits(h[i+1:]) {
		h, port = h[:i], h[i+1:]
	}
	h = strings.TrimSuffix(h, ".")
	if !strings.Contains(h, ".") || strings.HasPrefix(h, ".") || strings.Contains(h, "..") {
		return "", ""
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c >= 0x80) {
			return "", ""
		}
	}
	return h, port
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return len(s) > 0
}

// fileTime returns t in UTC, or zero for the zero time and the epoch.
func fileTime(t time.Time) time.Time {
	if t.IsZero() || t.Unix() <= 0 {
		return time.Time{}
	}
	return t.UTC()
}
