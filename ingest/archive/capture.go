package archive

import (
	"io"
	"iter"
	"maps"
	"slices"
	"strconv"
	"time"
)

// Capture is one robots.txt capture: a WARC response or resource record, an
// ARC record, a tar entry or a file.
//
// A *Capture returned by [CaptureReader.Next] belongs to the reader: it, its
// Body and its Problems are valid only until the next call to Next, like
// [bufio.Scanner.Bytes]. Strings are immutable and may be kept; call
// [Capture.Clone] to keep the whole capture.
type Capture struct {
	URL          string    // WARC-Target-URI (or ARC URL); for tar and folder entries "https://HOST/robots.txt", "" when no host can be derived
	Host         string    // lower-case host of URL, without port
	FetchTime    time.Time // WARC-Date, ARC date or tar/file mtime; zero when unknown or unparsable
	Status       int       // HTTP status; 0 when unknown (tar and folder entries, resource records, garbage status lines)
	ContentType  string    // HTTP Content-Type header as given
	DetectedType string    // WARC-Identified-Payload-Type, if any
	Location     string    // HTTP Location header as given (redirects)

	// Body is the payload, decoded (chunked transfer coding and
	// Content-Encoding removed), at most MaxBody bytes.
	Body []byte
	// BodySize is the size of the whole decoded payload; it is larger than
	// len(Body) when the body was capped. Counting stops at MaxRecordBytes
	// (Truncated is then TruncatedRecordCap).
	BodySize int64
	// PayloadDigest is WARC-Payload-Digest as given (e.g. "sha1:..."), or
	// the computed "sha1:<base32>" of the decoded payload when absent. It is
	// "" when absent and the payload is larger than MaxRecordBytes.
	PayloadDigest string
	// Truncated is the WARC-Truncated value ("length", "time",
	// "disconnect", "unspecified", ...) when the record has one, else the
	// reader's own reason (TruncatedBodyCap, TruncatedRecordCap,
	// TruncatedInput), else "" when the payload is whole.
	Truncated string
	// RecordID is WARC-Record-ID as given, or a synthesized stable id:
	// "arc:FILE@OFFSET" for ARC records, "tar:FILE:ENTRY" for tar entries,
	// "file:PATH" for files of a folder (FILE is the base name).
	RecordID string

	Source   Provenance
	Problems []Problem // recoverable problems with this capture, in the order found
}

// Clone returns a deep copy of c that stays valid after the next call to
// Next.
func (c *Capture) Clone() *Capture {
	d := *c
	d.Body = slices.Clone(c.Body)
	d.Problems = slices.Clone(c.Problems)
	return &d
}

// HasProblem reports whether c has a problem with the given code.
func (c *Capture) HasProblem(code ProblemKind) bool {
	for _, p := range c.Problems {
		if p.Code == code {
			return true
		}
	}
	return false
}

// AddProblem records a problem of the capture (a Problem* code and its
// detail), as the readers do; a reader built on another one (package
// remote's) adds its own.
func (c *Capture) AddProblem(code ProblemKind, detail string) {
	c.Problems = append(c.Problems, Problem{Code: code, Detail: detail})
}

// TruncatedBy splits the cuts of the body by who made them: crawler is
// the record's WARC-Truncated value, reader the reader's own reason
// (TruncatedBodyCap, TruncatedRecordCap, TruncatedInput), each "" when
// there is none. When the record has WARC-Truncated, Truncated holds it
// and the reader's reason is found from its problems.
func (c *Capture) TruncatedBy() (crawler, reader string) {
	switch c.Truncated {
	case "":
		return "", ""
	case TruncatedBodyCap, TruncatedRecordCap, TruncatedInput:
		return "", c.Truncated
	}
	switch {
	case c.HasProblem(ProblemRecordIncomplete):
		reader = TruncatedInput
	case c.HasProblem(ProblemRecordCapped):
		reader = TruncatedRecordCap
	case c.HasProblem(ProblemBodyCapped):
		reader = TruncatedBodyCap
	}
	return c.Truncated, reader
}

// Reasons the reader itself gives in [Capture.Truncated] when the record
// carries no WARC-Truncated field. They are robots.StoredTruncationReasons,
// the one definition that the engine, the reports and the notebooks read;
// this package may import nothing of the repository, so it spells them
// here, and a test of package ingest fails when the two differ.
const (
	TruncatedBodyCap   = "body-cap"   // the decoded payload is larger than MaxBody: Body holds its first MaxBody bytes
	TruncatedRecordCap = "record-cap" // decoding stopped at MaxRecordBytes: BodySize is a lower bound
	TruncatedInput     = "input-end"  // the input ended or broke inside the record: Body holds what could be read
)

// Provenance says where a record is in its input file.
//
// For per-record compression (the normal .warc.gz, .arc.gz and .warc.zst
// layout: each record in its own gzip members or zstd frames) and for
// uncompressed files, Offset and Length are the record's bytes in File as
// stored (compressed bytes, the members' gzip headers and trailers
// included), as in Common Crawl's index: a range request for them yields the
// record. When a compressed member holds several records (a whole-file gzip
// or zstd stream) there is no such range: Uncompressed is then true and
// Offset and Length count bytes of the decompressed stream. For tar entries
// Offset and Length are the entry's data in the tar stream (decompressed for
// .tar.gz and .tar.zst, Uncompressed then true).
type Provenance struct {
	File         string
	Offset       int64
	Length       int64
	Uncompressed bool
}

// Problem is a recoverable problem with one capture. Code is one of the
// Problem* constants.
type Problem struct {
	Code   ProblemKind
	Detail string
}

// ProblemKind is the kind of a [Problem], one of the Problem* constants.
// Its [ProblemKind.String] form is a stable name; each kind is recorded in
// the dataset's diagnostics as the catalogue's code "ingest-" + that name,
// whose entry (robots.Codes, robocensus lint --explain) documents it.
// Package ingest maps the kinds to those codes once, by the kind's number.
type ProblemKind uint8

// Problem kinds, the values of [Problem.Code]; the comments here say what
// the reader did about each. New kinds are appended before
// numProblemKinds, with their name in problemNames.
const (
	// ProblemHTTPStatusInvalid: the HTTP status line is missing or has no
	// three-digit status code; Status is 0 and the headers are still read.
	ProblemHTTPStatusInvalid ProblemKind = iota + 1
	// ProblemHTTPHeaderInvalid: an HTTP header line without a colon; the
	// line is ignored (reported once per capture).
	ProblemHTTPHeaderInvalid
	// ProblemHTTPHeaderTooLarge: the HTTP header block is larger than
	// MaxHeaderBytes; headers are read from its first MaxHeaderBytes and the
	// payload is taken to be empty.
	ProblemHTTPHeaderTooLarge
	// ProblemHTTPHeaderTooMany: more than MaxHeaders HTTP header fields; the
	// extra ones are ignored.
	ProblemHTTPHeaderTooMany
	// ProblemHTTPHeaderUnterminated: the record ends inside the HTTP headers
	// (no empty line); the payload is empty.
	ProblemHTTPHeaderUnterminated
	// ProblemChunkedInvalid: Transfer-Encoding: chunked but the chunk
	// framing is broken. When the first chunk size is unreadable the
	// payload is used as stored; otherwise Body holds the chunks read before
	// the error.
	ProblemChunkedInvalid
	// ProblemContentEncodingInvalid: the payload cannot be decoded with its
	// Content-Encoding. When decoding fails at once Body holds the payload as
	// stored; otherwise the bytes decoded before the error.
	ProblemContentEncodingInvalid
	// ProblemContentEncodingUnsupported: a Content-Encoding other than
	// gzip, x-gzip, deflate, br, zstd and identity, or more than one coding;
	// Body holds the payload as stored.
	ProblemContentEncodingUnsupported
	// ProblemBodyCapped: the decoded payload is larger than MaxBody; Body
	// holds its first MaxBody bytes (Truncated is TruncatedBodyCap unless
	// the record has WARC-Truncated).
	ProblemBodyCapped
	// ProblemRecordCapped: the payload (as stored or decoded) is larger than
	// MaxRecordBytes; the rest was passed over unread and BodySize is a lower
	// bound. A decompression bomb ends here.
	ProblemRecordCapped
	// ProblemLengthMismatch: Content-Length (or the ARC length) disagrees
	// with the data: the bytes after the block are not the end of a record.
	// The block was re-delimited at the next record found, when that was
	// possible (Detail says which).
	ProblemLengthMismatch
	// ProblemRecordIncomplete: the input ended, or its compressed stream
	// broke, inside this record; the capture holds what could be read and
	// Truncated is TruncatedInput.
	ProblemRecordIncomplete
	// ProblemInputDamaged: the compressed data holding this record is
	// damaged (e.g. a gzip checksum mismatch found at the end of its member);
	// the bytes were used as decoded.
	ProblemInputDamaged
	// ProblemDateInvalid: WARC-Date, the ARC date or the archive date cannot
	// be parsed; FetchTime is zero.
	ProblemDateInvalid
	// ProblemTargetURIInvalid: WARC-Target-URI is missing, wrapped in angle
	// brackets or contains white space; URL holds the cleaned value.
	ProblemTargetURIInvalid
	// ProblemWARCHeaderInvalid: a WARC header line without a colon, or a
	// repeated Content-Length with another value; the line is ignored.
	ProblemWARCHeaderInvalid
	// ProblemHostUnknown: no host can be derived from a tar entry or file
	// name; URL and Host are "".
	ProblemHostUnknown

	numProblemKinds // one past the last kind
)

// problemNames holds the stable name of each kind.
var problemNames = [numProblemKinds]string{
	ProblemHTTPStatusInvalid:          "http-status-invalid",
	ProblemHTTPHeaderInvalid:          "http-header-invalid",
	ProblemHTTPHeaderTooLarge:         "http-header-too-large",
	ProblemHTTPHeaderTooMany:          "http-header-too-many",
	ProblemHTTPHeaderUnterminated:     "http-header-unterminated",
	ProblemChunkedInvalid:             "chunked-invalid",
	ProblemContentEncodingInvalid:     "content-encoding-invalid",
	ProblemContentEncodingUnsupported: "content-encoding-unsupported",
	ProblemBodyCapped:                 "body-capped",
	ProblemRecordCapped:               "record-capped",
	ProblemLengthMismatch:             "length-mismatch",
	ProblemRecordIncomplete:           "record-incomplete",
	ProblemInputDamaged:               "input-damaged",
	ProblemDateInvalid:                "date-invalid",
	ProblemTargetURIInvalid:           "target-uri-invalid",
	ProblemWARCHeaderInvalid:          "warc-header-invalid",
	ProblemHostUnknown:                "host-unknown",
}

// String returns the stable name of the kind ("chunked-invalid", ...), or
// "problem(N)" for a number that is no kind.
func (k ProblemKind) String() string {
	if k == 0 || k >= numProblemKinds {
		return "problem(" + strconv.Itoa(int(k)) + ")"
	}
	return problemNames[k]
}

// ProblemKinds returns every problem kind, in the order defined.
func ProblemKinds() []ProblemKind {
	out := make([]ProblemKind, 0, numProblemKinds-1)
	for k := ProblemKind(1); k < numProblemKinds; k++ {
		out = append(out, k)
	}
	return out
}

// Skip reasons, the keys of [Counts.Skipped].
const (
	SkipWarcinfo     = "warcinfo"       // WARC warcinfo record
	SkipRequest      = "request"        // WARC request record
	SkipMetadata     = "metadata"       // WARC metadata record
	SkipRevisit      = "revisit"        // WARC revisit record (see WithRevisitFunc)
	SkipConversion   = "conversion"     // WARC conversion record (e.g. WET text)
	SkipContinuation = "continuation"   // WARC continuation segment
	SkipUnknownType  = "unknown-type"   // a WARC-Type this package does not know
	SkipFiledesc     = "filedesc"       // the ARC file header record
	SkipNotHTTP      = "not-http"       // a response whose URL is not http(s) (dns:, ftp:, ...)
	SkipNotRobotsURL = "not-robots-url" // general mode: neither a /robots.txt URL nor a redirect target of one
	SkipCorrupt      = "corrupt"        // a record whose header cannot be read or framed; see Counts.Damage
	SkipNotRegular   = "not-regular"    // a tar entry or a file of a folder that is not a regular file
	SkipNotBody      = "not-body"       // a file of a folder that is documentation or data, not a body (see folder.go)
	SkipManifest     = "manifest"       // a manifest met in a folder: only one named as an input expands
	SkipUnsupported  = "unsupported"    // a file of a folder in a format no reader takes (LZ4, an unknown compression)
	SkipNotRobotsTxt = "not-robots-txt" // a file of a folder that is neither an archive nor plausibly a robots.txt body (binary data)
)

// Damage is input-level damage the reader recovered from.
type Damage struct {
	Kind string // one of the Damage* constants
	// Offset is where the damage starts in the input as stored. For damage
	// found inside a compressed member it is the member's start.
	Offset int64
	// Skipped is the number of bytes passed over: bytes as stored for
	// compression-level damage (garbage between members), decompressed
	// bytes for damage in the record stream.
	Skipped int64
	Detail  string
}

// Damage kinds, stable names for [Damage.Kind].
const (
	DamageGarbage        = "garbage"         // bytes that are not a record or member were skipped up to the next one
	DamageCorruptMember  = "corrupt-member"  // a gzip member or zstd frame failed to decode (bad header, data or checksum)
	DamageTruncated      = "truncated"       // the input ends inside a member, record or tar entry
	DamageRecordHeader   = "record-header"   // a record header that cannot be parsed (too large, no Content-Length, ...); counted in Skipped["corrupt"]
	DamageLengthMismatch = "length-mismatch" // a record whose length disagrees with the data; see ProblemLengthMismatch
	DamageRecordBroken   = "record-broken"   // a record cut by a discontinuity or the end of input
	DamageTarHeader      = "tar-header"      // a corrupt tar header; the reader scanned for the next valid one
	DamageUnreadable     = "unreadable"      // a body file that could not be read to its end
)

// MaxDamageList is the number of [Damage] entries kept in [Counts.Damage];
// [Counts.DamageCount] counts them all.
const MaxDamageList = 1000

// Counts are the running totals of a reader.
//
// At the end of the input (Next returned io.EOF) Records == Captures + the
// sum of Skipped: every record found is either a capture or skipped for a
// reason.
type Counts struct {
	Bytes       int64            // input bytes consumed, as stored
	Records     int64            // records (or tar entries, or 1 for a body file) seen
	Captures    int64            // captures returned by Next
	Skipped     map[string]int64 // records not turned into captures, by reason (Skip* constants)
	Damage      []Damage         // input-level damage, the first MaxDamageList
	DamageCount int64            // number of damage events, including those not listed
}

// SkippedTotal returns the sum of Skipped.
func (c Counts) SkippedTotal() int64 {
	var n int64
	for _, v := range c.Skipped {
		n += v
	}
	return n
}

func (c *Counts) skip(reason string) {
	if c.Skipped == nil {
		c.Skipped = make(map[string]int64)
	}
	c.Skipped[reason]++
}

func (c *Counts) damage(d Damage) {
	c.DamageCount++
	if len(c.Damage) < MaxDamageList {
		c.Damage = append(c.Damage, d)
	}
}

// snapshot returns a copy that does not share the map or slice.
func (c *Counts) snapshot() Counts {
	s := *c
	s.Skipped = maps.Clone(c.Skipped)
	s.Damage = slices.Clone(c.Damage)
	return s
}

// CaptureReader is a pull iterator over the captures of one input, like
// [archive/tar.Reader.Next].
type CaptureReader interface {
	// Next returns the next capture, or io.EOF at the end of the input.
	// Damage inside the input is recorded in Counts and never returned; a
	// non-EOF error means the input cannot be read any further, and it
	// sticks. The capture is owned by the reader and valid until the next
	// call (see Capture).
	Next() (*Capture, error)
	// Counts returns a snapshot of the running totals.
	Counts() Counts
}

// All returns an iterator over the captures of r, ending at io.EOF (not
// yielded) or at the first error, which is yielded with a nil capture.
func All(r CaptureReader) iter.Seq2[*Capture, error] {
	return func(yield func(*Capture, error) bool) {
		for {
			c, err := r.Next()
			if err == io.EOF {
				return
			}
			if !yield(c, err) || err != nil {
				return
			}
		}
	}
}

// Revisit describes a WARC revisit record whose URL would have made it a
// capture (a robots.txt URL in general mode, any http(s) URL in robotstxt
// mode). Revisits are counted in Skipped["revisit"]; a function set with
// [WithRevisitFunc] receives each one, so that the pipeline can link it to
// the capture it refers to (RefersTo is that capture's RecordID).
type Revisit struct {
	URL               string
	Host              string
	FetchTime         time.Time
	RecordID          string
	Profile           string    // WARC-Profile (identical-payload-digest or server-not-modified URI)
	RefersTo          string    // WARC-Refers-To, the record id of the original
	RefersToTargetURI string    // WARC-Refers-To-Target-URI
	RefersToDate      time.Time // WARC-Refers-To-Date; zero when absent
	PayloadDigest     string    // WARC-Payload-Digest as given
	Status            int       // HTTP status of the stored headers; 0 when none
	Source            Provenance
}
