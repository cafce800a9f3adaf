package archive

import (
	"bytes"
	"encoding/base32"
	"errors"
	"fmt"
	"hash"
	"io"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// httpHeader holds what the readers use of an HTTP response header. The
// slices point into the framer's buffer (or into small copies for folded
// and repeated fields).
type httpHeader struct {
	status           int
	statusOK         bool
	contentType      []byte
	location         []byte
	transferEncoding []byte
	contentEncoding  []byte
	invalid, tooMany bool
}

// nextLine splits b at the first '\n', dropping "\r\n" or "\n".
func nextLine(b []byte) (line, rest []byte) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return b, nil
	}
	line, rest = b[:i], b[i+1:]
	for n := len(line); n > 0 && line[n-1] == '\r'; n-- {
		line = line[:n-1]
	}
	return line, rest
}

// parseStatusLine reads "HTTP/x[.y] NNN [reason]": HTTP/1.1 with or without
// a reason phrase, HTTP/2, any case. ok is false when no three-digit code
// follows the version.
func parseStatusLine(line []byte) (status int, ok bool) {
	if !hasPrefixFold(line, "HTTP/") {
		return 0, false
	}
	i := bytes.IndexAny(line, " \t")
	if i < 0 {
		return 0, false
	}
	s := bytes.TrimLeft(line[i:], " \t")
	if len(s) < 3 || (len(s) > 3 && s[3] != ' ' && s[3] != '\t' && s[3] != '\r') {
		return 0, false
	}
	for _, c := range s[:3] {
		if c < '0' || c > '9' {
			return 0, false
		}
		status = status*10 + int(c-'0')
	}
	return status, status >= 100
}

// parseHTTPHeader parses an HTTP response header block: the status line,
// then fields (names in any case, folded continuation lines joined,
// repeated Transfer-Encoding and Content-Encoding joined with ", ") up to
// maxFields.
func parseHTTPHeader(b []byte, maxFields int, h *httpHeader) {
	*h = httpHeader{}
	line, rest := nextLine(b)
	for len(line) == 0 && len(rest) > 0 {
		line, rest = nextLine(rest)
	}
	h.status, h.statusOK = parseStatusLine(line)
	var last *[]byte
	fields := 0
	for len(rest) > 0 {
		line, rest = nextLine(rest)
		if len(line) == 0 {
			break
		}
		if line[0] == ' ' || line[0] == '\t' {
			if last != nil {
				*last = joinValue(*last, " ", bytes.TrimSpace(line))
			}
			continue
		}
		if fields++; fields > maxFields {
			h.tooMany = true
			break
		}
		i := bytes.IndexByte(line, ':')
		if i <= 0 {
			h.invalid, last = true, nil
			continue
		}
		last = h.slot(bytes.TrimRight(line[:i], " \t"))
		if last == nil {
			continue
		}
		v := bytes.TrimSpace(line[i+1:])
		switch {
		case *last == nil:
			*last = v
		case last == &h.transferEncoding || last == &h.contentEncoding:
			*last = joinValue(*last, ", ", v)
		}
	}
}

// slot returns where the value of the named field goes, or nil.
func (h *httpHeader) slot(name []byte) *[]byte {
	switch len(name) {
	case 8:
		if hasPrefixFold(name, "Location") {
			return &h.location
		}
	case 12:
		if hasPrefixFold(name, "Content-Type") {
			return &h.contentType
		}
	case 16:
		if hasPrefixFold(name, "Content-Encoding") {
			return &h.contentEncoding
		}
	case 17:
		if hasPrefixFold(name, "Transfer-Encoding") {
			return &h.transferEncoding
		}
	}
	return nil
}

func joinValue(a []byte, sep string, b []byte) []byte {
	if len(a) == 0 {
		return b
	}
	out := make([]byte, 0, len(a)+len(sep)+len(b))
	return append(append(append(out, a...), sep...), b...)
}

// readHTTP reads an HTTP response block into the capture: status and
// headers, then the payload.
func (c *core) readHTTP(br *blockReader) {
	f, cp := c.f, &c.cap
	limit := c.cfg.maxHeaderBytes
	n, err := f.headerEnd(limit)
	var h httpHeader
	switch {
	case err == nil && int64(n) <= br.remain:
		parseHTTPHeader(f.buffered()[:n], c.cfg.maxHeaders, &h)
	case err == errTooLarge && br.remain > int64(limit):
		parseHTTPHeader(f.buffered()[:limit], c.cfg.maxHeaders, &h)
		cp.AddProblem(ProblemHTTPHeaderTooLarge, "over "+itoa(int64(limit))+" bytes; payload not read")
		c.setHTTPFields(&h)
		return
	default:
		// The block (or the data) ends inside the header.
		n = int(min(int64(len(f.buffered())), br.remain))
		parseHTTPHeader(f.buffered()[:n], c.cfg.maxHeaders, &h)
		if int64(n) == br.remain {
			cp.AddProblem(ProblemHTTPHeaderUnterminated, "no empty line after the HTTP header")
		}
		c.setHTTPFields(&h)
		br.skip(n)
		return
	}
	c.setHTTPFields(&h)
	br.skip(n)
	c.readPayload(br, lastToken(h.transferEncoding, "chunked"), h.contentEncoding)
}

// setHTTPFields copies the header values the capture keeps.
func (c *core) setHTTPFields(h *httpHeader) {
	cp := &c.cap
	cp.Status = h.status
	if !h.statusOK {
		cp.Status = 0
		cp.AddProblem(ProblemHTTPStatusInvalid, "no HTTP status code in the status line")
	}
	cp.ContentType = string(h.contentType)
	cp.Location = string(h.location)
	if h.invalid {
		cp.AddProblem(ProblemHTTPHeaderInvalid, "header line without a colon ignored")
	}
	if h.tooMany {
		cp.AddProblem(ProblemHTTPHeaderTooMany, "over "+itoa(int64(c.cfg.maxHeaders))+" fields; the rest ignored")
	}
}

// skip passes over n bytes that are buffered.
func (b *blockReader) skip(n int) {
	b.f.r += n
	b.remain -= int64(n)
}

// lastToken reports whether the last comma-separated token of v is tok.
func lastToken(v []byte, tok string) bool {
	if i := bytes.LastIndexByte(v, ','); i >= 0 {
		v = v[i+1:]
	}
	v = bytes.TrimSpace(v)
	return len(v) == len(tok) && hasPrefixFold(v, tok)
}

// Content codings.
const (
	codingIdentity = iota
	codingGzip
	codingDeflate
	codingBrotli
	codingZstd
	codingUnsupported
)

// codingOf classifies a Content-Encoding value.
func codingOf(v []byte) int {
	v = bytes.TrimSpace(v)
	switch {
	case len(v) == 0, bytes.EqualFold(v, []byte("identity")):
		return codingIdentity
	case bytes.EqualFold(v, []byte("gzip")), bytes.EqualFold(v, []byte("x-gzip")):
		return codingGzip
	case bytes.EqualFold(v, []byte("deflate")):
		return codingDeflate
	case bytes.EqualFold(v, []byte("br")):
		return codingBrotli
	case bytes.EqualFold(v, []byte("zstd")):
		return codingZstd
	}
	return codingUnsupported
}

// readPayload reads the payload of an HTTP response or resource record:
// de-chunked when chunked, decoded per the Content-Encoding coding, at most
// MaxBody bytes kept and at most MaxRecordBytes counted.
func (c *core) readPayload(br *blockReader, chunked bool, coding []byte) {
	cp := &c.cap
	start, remain := c.f.pos(), br.remain
	var src io.Reader = br
	if chunked {
		c.dec.chunk.reset(br)
		src = &c.dec.chunk
	}
	kind := codingOf(coding)
	if kind == codingUnsupported {
		cp.AddProblem(ProblemContentEncodingUnsupported, "Content-Encoding: "+string(coding))
	} else if kind != codingIdentity && remain > 0 {
		src = c.dec.open(kind, src)
	}
	err := c.copyPayload(src)
	switch {
	case err == nil || br.short():
	case chunked && c.dec.chunk.err != nil:
		if c.dec.chunk.chunks == 0 && c.fallBack(br, start, remain) {
			cp.AddProblem(ProblemChunkedInvalid, c.dec.chunk.err.Error()+"; payload used as stored")
		} else {
			cp.AddProblem(ProblemChunkedInvalid, c.dec.chunk.err.Error())
		}
	default:
		if cp.BodySize == 0 && c.fallBack(br, start, remain) {
			cp.AddProblem(ProblemContentEncodingInvalid, err.Error()+"; payload used as stored")
		} else {
			cp.AddProblem(ProblemContentEncodingInvalid, err.Error())
		}
	}
}

// fallBack reads the payload again as stored, when it is still buffered.
func (c *core) fallBack(br *blockReader, start, remain int64) bool {
	if !c.f.kept(start) {
		return false
	}
	c.f.rewind(start)
	br.remain, br.stop = remain, nil
	c.copyPayload(br)
	return true
}

var b32 = base32.StdEncoding

// copyPayload reads r to its end into the capped body, setting Body,
// BodySize and (when the record had none) PayloadDigest, and recording the
// caps. It returns the error that ended r, nil for io.EOF.
func (c *core) copyPayload(r io.Reader) error {
	cp := &c.cap
	if c.body == nil {
		c.body = make([]byte, 0, c.cfg.maxBody)
		c.scratch = make([]byte, 32<<10)
	}
	body, size, limit := c.body[:0], int64(0), c.cfg.maxRecordBytes
	cp.PayloadDigest = c.givenDigest
	var h hash.Hash
	if cp.PayloadDigest == "" {
		h = c.newSHA1()
	}
	var err error
	for size < limit {
		p := c.scratch
		if len(body) < c.cfg.maxBody {
			p = body[len(body):c.cfg.maxBody]
		}
		p = p[:min(int64(len(p)), limit-size)]
		var n int
		n, err = r.Read(p)
		if n > 0 {
			if len(body) < c.cfg.maxBody {
				body = body[:len(body)+n]
			}
			if h != nil {
				h.Write(p[:n])
			}
			size += int64(n)
		}
		if err != nil {
			break
		}
	}
	cp.Body, cp.BodySize = body, size
	c.noteCaps(size >= limit && err == nil)
	if h != nil && size < limit {
		var sum [20]byte
		cp.PayloadDigest = "sha1:" + b32.EncodeToString(h.Sum(sum[:0]))
	}
	if err == io.EOF {
		err = nil
	}
	return err
}

// noteCaps records the body and record caps.
func (c *core) noteCaps(recordCapped bool) {
	cp := &c.cap
	if cp.BodySize > int64(c.cfg.maxBody) {
		cp.AddProblem(ProblemBodyCapped, "payload of "+itoa(cp.BodySize)+" bytes kept to "+itoa(int64(c.cfg.maxBody)))
		if cp.Truncated == "" {
			cp.Truncated = TruncatedBodyCap
		}
	}
	if recordCapped {
		cp.AddProblem(ProblemRecordCapped, "decoding stopped at "+itoa(c.cfg.maxRecordBytes)+" bytes")
		if cp.Truncated == "" || cp.Truncated == TruncatedBodyCap {
			cp.Truncated = TruncatedRecordCap
		}
	}
}

// decoders are the reused decompressors of Content-Encoding and the
// de-chunker.
type decoders struct {
	chunk dechunker
	gz    *gzip.Reader
	fl    io.ReadCloser
	br    *brotli.Reader
	zs    *zstd.Decoder
	zerr  error
	hdr   [2]byte
}

// open returns a reader decoding r with the given coding. Errors of the
// decoder's start are returned by its first Read.
func (d *decoders) open(kind int, r io.Reader) io.Reader {
	switch kind {
	case codingGzip:
		if d.gz == nil {
			d.gz = new(gzip.Reader)
		}
		if err := d.gz.Reset(r); err != nil {
			return errReader{err}
		}
		return d.gz
	case codingDeflate:
		return d.openDeflate(r)
	case codingBrotli:
		if d.br == nil {
			d.br = brotli.NewReader(r)
		} else if err := d.br.Reset(r); err != nil {
			return errReader{err}
		}
		return brotliReader{d.br}
	default:
		if d.zs == nil && d.zerr == nil {
			d.zs, d.zerr = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(8<<20))
		}
		if d.zerr != nil {
			return errReader{d.zerr}
		}
		if err := d.zs.Reset(r); err != nil {
			return errReader{err}
		}
		return zstdReader{d.zs}
	}
}

// openDeflate decodes "deflate", which servers send either zlib-wrapped (as
// RFC 9110 says) or raw.
func (d *decoders) openDeflate(r io.Reader) io.Reader {
	n, err := io.ReadFull(r, d.hdr[:])
	if err != nil {
		if n == 0 && err == io.EOF {
			return errReader{io.EOF}
		}
		return errReader{fmt.Errorf("deflate: %w", err)}
	}
	cmf, flg := d.hdr[0], d.hdr[1]
	if cmf&0x0f != 8 || (uint16(cmf)<<8|uint16(flg))%31 != 0 || flg&0x20 != 0 {
		r = io.MultiReader(bytes.NewReader(d.hdr[:]), r)
	}
	if d.fl == nil {
		d.fl = flate.NewReader(r)
	} else {
		d.fl.(flate.Resetter).Reset(r, nil)
	}
	return d.fl
}

// errReader returns its error from every Read.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// brotliReader names brotli's errors.
type brotliReader struct{ r *brotli.Reader }

func (b brotliReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && err != io.EOF && !errors.Is(err, io.ErrUnexpectedEOF) {
		err = fmt.Errorf("brotli: %w", err)
	}
	return n, err
}

// zstdReader names zstd's errors.
type zstdReader struct{ d *zstd.Decoder }

func (z zstdReader) Read(p []byte) (int, error) {
	n, err := z.d.Read(p)
	if err != nil && err != io.EOF && !errors.Is(err, io.ErrUnexpectedEOF) {
		err = fmt.Errorf("zstd: %w", err)
	}
	return n, err
}

// dechunker removes the chunked transfer coding (RFC 9112 §7.1) from a
// record block. Chunk extensions and trailer fields are ignored.
type dechunker struct {
	r      *blockReader
	left   int64 // bytes left in the current chunk
	state  int
	chunks int   // chunks started
	err    error // the framing error, if any
}

const (
	chunkSize = iota
	chunkData
	chunkEnd
	chunkDone
)

// maxChunkLine bounds a chunk-size line (with extensions).
const maxChunkLine = 4096

func (d *dechunker) reset(r *blockReader) { *d = dechunker{r: r} }

func (d *dechunker) Read(p []byte) (int, error) {
	for {
		switch d.state {
		case chunkSize:
			size, err := d.readSize()
			if err != nil {
				return 0, d.fail(err)
			}
			if size == 0 {
				d.state = chunkDone
				return 0, io.EOF
			}
			d.left, d.state = size, chunkData
			d.chunks++
		case chunkData:
			n, err := d.r.Read(p[:min(int64(len(p)), d.left)])
			d.left -= int64(n)
			if d.left == 0 {
				d.state = chunkEnd
			}
			if err == io.EOF {
				return n, d.fail(errors.New("record ends inside chunk " + itoa(int64(d.chunks))))
			}
			return n, err
		case chunkEnd:
			c, err := d.r.ReadByte()
			if err == nil && c == '\r' {
				c, err = d.r.ReadByte()
			}
			if err != nil || c != '\n' {
				return 0, d.fail(errors.New("no line end after chunk " + itoa(int64(d.chunks))))
			}
			d.state = chunkSize
		default:
			return 0, io.EOF
		}
	}
}

func (d *dechunker) fail(err error) error {
	if d.r.short() {
		return io.ErrUnexpectedEOF
	}
	if d.err == nil {
		d.err = err
	}
	return d.err
}

// readSize reads a chunk-size line: hex digits, optional extensions.
func (d *dechunker) readSize() (int64, error) {
	var size int64
	digits, n := 0, 0
	inExt := false
	for {
		c, err := d.r.ReadByte()
		if err != nil {
			if d.chunks == 0 && n == 0 {
				return 0, errors.New("empty chunked payload")
			}
			return 0, errors.New("record ends before the last chunk")
		}
		if n++; n > maxChunkLine {
			return 0, errors.New("chunk-size line too long")
		}
		switch {
		case c == '\n':
			if digits == 0 {
				return 0, errors.New("no chunk size")
			}
			return size, nil
		case inExt || c == '\r' || c == ' ' || c == '\t':
		case c == ';':
			inExt = true
		case digits < 15 && unhex(c) >= 0:
			size = size<<4 | int64(unhex(c))
			digits++
		default:
			return 0, fmt.Errorf("invalid chunk size byte %q", c)
		}
	}
}

func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c - 'a' + 10)
	case 'A' <= c && c <= 'F':
		return int(c - 'A' + 10)
	}
	return -1
}
