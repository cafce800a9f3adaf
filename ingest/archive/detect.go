package archive

import (
	"bytes"
	"compress/bzip2"
	"fmt"
	"io"

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
	FormatBody // a single robots.txt body, plain or gzip- or zstd-compressed
)

// String returns the name of the format.
func (f Format) String() string {
	return [...]string{"unknown", "warc", "arc", "tar", "body"}[f]
}

// SniffLen is how many bytes of an input Detect looks at.
const SniffLen = 1024

// Detect finds the format of an input from its first bytes (at most
// SniffLen of them), never from its name: a host named www.arc.gov or
// www.target.com is a body like any other.
//
// The bytes are decompressed first when they are gzip, zstd or bzip2. A
// WARC starts with "WARC/", an ARC with "filedesc://" or an ARC header
// line, a tar with a tar header. An archive whose first bytes are damaged
// is still one when the bytes show it further on: a WARC version line or
// WARC-Type/WARC-Record-ID field at a line start, an ARC file header line,
// a tar header with the ustar magic but a wrong checksum or a valid one in
// the second block, or a gzip member or zstd frame past the garbage that
// holds one of these. Its reader then records the damage.
//
// Anything else is a robots.txt body when it is text (see [PlausibleBody]),
// once decompressed for a gzip or zstd file: such a body file is read
// decompressed, and a gzip or zstd stream that cannot be decompressed at
// all is a body too, whose reader records the damage. Binary data is
// [ErrBinary]; an LZ4 file, and bzip2 data that is not a tar archive, are
// unsupported ([ErrUnknownFormat]).
func Detect(head []byte) (Format, error) {
	comp := sniffCompression(head)
	if comp == compLZ4 {
		return FormatUnknown, fmt.Errorf("%w: LZ4-compressed (not a WARC compression this package reads)", ErrUnknownFormat)
	}
	inner := decompressHead(head, comp)
	if f := archiveFormat(inner); f != FormatUnknown {
		return f, nil
	}
	if f, _ := archiveAfterGarbage(head); f != FormatUnknown {
		return f, nil
	}
	return bodyFormat(head, inner, comp)
}

// archiveFormat returns the archive format the decompressed first bytes b
// of an input show, or FormatUnknown.
func archiveFormat(b []byte) Format {
	if f := archiveStart(b); f != FormatUnknown {
		return f
	}
	return archiveBehindDamage(b)
}

// archiveStart returns the archive format b starts with, or FormatUnknown.
func archiveStart(b []byte) Format {
	switch {
	case bytes.HasPrefix(b, []byte("WARC/")):
		return FormatWARC
	case bytes.HasPrefix(b, []byte("filedesc://")) || isARCStart(firstLine(b)):
		return FormatARC
	case len(b) >= 512 && (validTarHeader(b[:512]) || hasUstarMagic(b[:512])):
		return FormatTar
	}
	return FormatUnknown
}

// Lines that only a WARC or an ARC file holds, looked for at line starts
// when the first bytes are damaged.
var (
	warcLines = [][]byte{[]byte("\nWARC/0."), []byte("\nWARC/1."), []byte("\nWARC-Type: "), []byte("\nWARC-Record-ID: ")}
	arcLines  = [][]byte{[]byte("\nfiledesc://"), []byte("\nURL IP-address Archive-date Content-type")}
)

// archiveBehindDamage returns the archive format that b shows past damaged
// first bytes, or FormatUnknown.
func archiveBehindDamage(b []byte) Format {
	switch {
	case indexAny(b, warcLines) >= 0:
		return FormatWARC
	case indexAny(b, arcLines) >= 0:
		return FormatARC
	case len(b) >= 1024 && validTarHeader(b[512:1024]):
		return FormatTar
	}
	return FormatUnknown
}

// hasUstarMagic reports whether a 512-byte block has the magic of a POSIX
// or GNU tar header, whatever its checksum.
func hasUstarMagic(block []byte) bool {
	return bytes.HasPrefix(block[257:], []byte("ustar\x00")) || bytes.HasPrefix(block[257:], []byte("ustar  \x00"))
}

// maxGarbageProbes bounds the compressed members Detect tries past
// garbage, so that binary data full of magic numbers costs little.
const maxGarbageProbes = 4

// archiveAfterGarbage returns the format of an archive whose first gzip
// member or zstd frame starts past garbage, or is corrupt, with the next
// one in head, and the compression of that member; FormatUnknown and
// compNone when no member in head holds the start of an archive.
func archiveAfterGarbage(head []byte) (Format, compression) {
	magics := [][]byte{magicGzip, magicZstd}
	rest := head[min(1, len(head)):]
	for range maxGarbageProbes {
		i := indexAny(rest, magics)
		if i < 0 {
			break
		}
		rest = rest[i:]
		comp := sniffCompression(rest)
		if f := archiveStart(decompressHead(rest, comp)); f != FormatUnknown {
			return f, comp
		}
		rest = rest[1:]
	}
	return FormatUnknown, compNone
}

// bodyFormat decides between a robots.txt body and data no reader takes,
// for an input that shows no archive: text is a body, binary data is not.
func bodyFormat(head, inner []byte, comp compression) (Format, error) {
	switch {
	case comp == compBzip2 && PlausibleBody(head): // text that starts like bzip2
		return FormatBody, nil
	case comp == compBzip2:
		return FormatUnknown, fmt.Errorf("%w: bzip2-compressed data that is not a tar archive (bzip2 is read for tar archives only)", ErrUnknownFormat)
	case PlausibleBody(inner):
		return FormatBody, nil
	case comp != compNone:
		return FormatUnknown, fmt.Errorf("%w (once %s-decompressed)", ErrBinary, comp)
	}
	return FormatUnknown, ErrBinary
}

func firstLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i+1]
	}
	return nil
}

// decompressHead returns the first decompressed bytes of head, as many as
// decode (at most SniffLen): errors past the start are ignored, and a
// stream that does not decode at all gives none.
func decompressHead(head []byte, comp compression) []byte {
	var r io.Reader
	switch comp {
	case compNone:
		return head
	case compGzip:
		return gunzipHead(head)
	case compBzip2:
		r = bzip2.NewReader(bytes.NewReader(head))
	case compZstd:
		if bytes.HasPrefix(head, magicZstdDict) {
			return []byte("WARC/") // only the zstd WARC layout has a dictionary frame
		}
		d, err := zstd.NewReader(bytes.NewReader(head), zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxZstdWindow))
		if err != nil {
			return nil
		}
		defer d.Close()
		r = d
	default:
		return nil
	}
	out := make([]byte, SniffLen)
	n, _ := io.ReadFull(r, out)
	return out[:n]
}

// gunzipHead returns the first decompressed bytes of the gzip members that
// head starts with, as many as decode (at most SniffLen), with the reader
// the gzip source reads members with.
func gunzipHead(head []byte) []byte {
	out := make([]byte, 0, SniffLen)
	in := bytes.NewReader(head)
	var m gzipMember
	for len(out) < SniffLen && m.Reset(in) == nil {
		n, _ := io.ReadFull(&m, out[len(out):SniffLen])
		out = out[:len(out)+n]
		if m.err != io.EOF {
			break // the head is full, or the member is cut or damaged
		}
	}
	return out
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
