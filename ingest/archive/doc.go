// Package archive reads crawl archives into captures: it reads WARC, ARC
// and tar files and robots.txt bodies, decompresses them, frames their
// records, decodes the HTTP payloads and accounts for every record. It
// owns the input's bytes from the first to the last, and the record of
// every damaged spot. It knows nothing of robots.txt rules, of tables or
// of the network: it imports nothing else of this repository, and reads
// any io.Reader (package remote hands it the stream of an http(s)
// transfer; the pipeline, package ingest, turns its captures into rows).
//
// # Reading
//
// Each input is read by a pull iterator, a [CaptureReader]: [Open] picks the
// reader for a local path (see [Detect]); [NewReader] for a format over any
// io.Reader; [NewWARCReader], [NewARCReader], and [NewTarReader] build one
// directly.
//
//	r, closer, err := archive.Open(path)
//	if err != nil { ... }            // cannot be opened, or unsupported format
//	defer closer.Close()
//	for {
//		c, err := r.Next()
//		if err == io.EOF { break }
//		if err != nil { ... }        // the input cannot be read further
//		use(c)                       // c.Body is valid until the next Next
//	}
//	counts := r.Counts()
//
// Next returns [io.EOF] at the end. It returns another error only when the
// input cannot be read any further (an I/O error, an unreadable zstd
// dictionary, an LZ4 file); that error is an [*InputError] and it sticks.
// Damage inside the input is never returned: the reader records it in
// [Counts.Damage] (with its offset and the bytes passed over) and in
// Skipped["corrupt"] or a [Problem] of the capture, and it resynchronises at
// the next record (the next "WARC/" version line at a line start, the next
// ARC header line, the next gzip member magic 1f 8b 08, the next zstd frame,
// the next valid tar header). Every record that can be reached is read.
//
// At the end, Records == Captures + the sum of Skipped (see [Counts]): each
// record is a capture or is skipped for a reason named by a Skip* constant.
//
// The *Capture returned by Next, its Body and its Problems belong to the
// reader and are valid until the next call to Next, like
// [bufio.Scanner.Bytes]; strings may be kept, and [Capture.Clone] copies the
// rest. A reader is not safe for concurrent use; run one per input.
//
// # WARC
//
// WARC/1.1, 1.0, 0.18 and 0.17 records are framed by Content-Length: a
// version line, header fields (names in any case, repeated fields keeping
// the first, continuation lines joined), an empty line, the block, and the
// two-line-end trailer. When the bytes after a block are not the end of a
// record (white space, then the end of the input, a member boundary or a
// version line), the length was wrong: if the record is still buffered (up
// to MaxHeaderBytes+MaxBody) it is re-delimited at the next version line
// found from its block's start, with [ProblemLengthMismatch]; otherwise the
// bytes are passed over as garbage.
//
// Record types: response and resource records with an http(s) URL become
// captures, subject to the [Mode]; request, warcinfo, metadata, conversion,
// continuation and unknown types are skipped and counted; so are revisit
// records, and those whose URL would have made a capture are handed to the
// function set with [WithRevisitFunc] as a [Revisit] (RefersTo,
// RefersToTargetURI, RefersToDate, Profile), which links them to the
// capture they repeat. A resource record has no HTTP envelope: its Status is
// 0 (unknown, like tar entries), its ContentType the record's Content-Type.
//
// Modes: in a Common Crawl robotstxt file every response is a capture,
// redirect targets included ([ModeRobotstxt]; [ModeAuto] picks it for a path
// containing "/robotstxt/" or a warcinfo record mentioning "robotstxt"). In
// any other WARC ([ModeGeneral]) only responses whose URL path is exactly
// "/robots.txt" with no query are captures, plus the targets of the redirects
// of those captures (3xx with Location, resolved against the URL; chains are
// followed; at most 65,536 pending targets).
//
// # HTTP payloads
//
// The status line may be "HTTP/1.1 200 OK", lack its reason phrase, or be
// "HTTP/2 200"; without a three-digit code Status is 0 with
// [ProblemHTTPStatusInvalid]. Header names are matched in any case; header
// blocks are bounded ([WithMaxHeaderBytes], [WithMaxHeaders]). A real
// "Transfer-Encoding: chunked" is de-chunked and a real Content-Encoding
// (gzip, x-gzip, deflate with or without zlib wrapper, br, zstd) decoded, as
// non-Common-Crawl writers store bodies as received. Common Crawl stores
// payloads decoded and renames the headers to X-Crawler-Transfer-Encoding
// and X-Crawler-Content-Encoding, which are therefore not acted on. Failed
// decoding keeps what could be decoded, or the payload as stored when
// nothing could, and adds [ProblemChunkedInvalid] or
// [ProblemContentEncodingInvalid].
//
// Body holds at most MaxBody bytes ([WithMaxBody], default 1 MiB, at least
// 500 KiB); BodySize counts the whole decoded payload, but decoding stops at
// MaxRecordBytes ([WithMaxRecordBytes], default 64 MiB), so a decompression
// bomb costs at most that much work and MaxBody of memory
// ([ProblemRecordCapped]). PayloadDigest is WARC-Payload-Digest, or the
// computed "sha1:BASE32" of the decoded payload when the record has none.
//
// # Compression and offsets
//
// Compression is found from the first bytes, not the name. gzip is read one
// member at a time (the header and trailer by this package, the deflate
// data by klauspost/compress or libdeflate) with a byte counter below the
// buffer, so each record maps to its members' compressed bytes
// ([Provenance]); empty members and every header RFC 1952 allows are fine
// (FEXTRA fields, a file name or comment of any length, a header CRC,
// which is checked); a member that fails (bad header, corrupt deflate data,
// checksum mismatch, cut short) is recorded as Damage and reading resumes at
// the next member magic. A whole-file gzip (one member, many records) is read
// the same way, and its records get decompressed offsets
// (Provenance.Uncompressed). What the reader keeps of the members does not
// grow with their number: millions of empty, junk or corrupt members cost
// time, not memory (issue 13).
//
// zstd follows the IIPC zstd WARC draft: an optional dictionary in a
// skippable frame with magic 0x184D2A5D (a raw Zstandard dictionary, or a
// zstd frame holding one, at most [MaxZstdDictionary] bytes), then frames,
// each record in one or more whole frames; other skippable frames are passed
// over. Frames are delimited by their block headers, so offsets are exact as
// for gzip. LZ4 (FastWARC's .warc.lz4) is not supported: [Open] and the
// readers report [ErrUnsupportedFormat].
//
// # ARC
//
// ARC version 1 and 2 files, plain or gzip per record: a header line
// "URL IP DATE MIME LENGTH" (version 2 has five more fields before LENGTH;
// a URL with spaces is kept whole), then LENGTH bytes, an HTTP response for
// http URLs. The filedesc record is skipped as Skipped["filedesc"]. RecordID
// is synthesized as "arc:FILE@OFFSET". Modes apply as for WARC (ModeAuto is
// ModeGeneral for ARC).
//
// # Tar archives and folders
//
// Tar archives (plain, .tar.gz/.tgz, .tar.zst, .tar.bz2) hold one
// robots.txt body per regular file, as do the folders the pipeline reads. The host comes from the name
// ([HostFromName]: "robots/HOST", "robots/DOMAIN-robots.txt",
// "RobotsFiles/HOST", "data/LIST/DOMAIN", "HOST/robots.txt"); URL is
// "https://HOST/robots.txt", Status 0, FetchTime the file's mtime, RecordID
// "tar:ARCHIVE:ENTRY" or "file:PATH". Non-regular entries are
// Skipped["not-regular"]. A corrupt tar header is passed over by scanning for
// the next block with a valid checksum. [Open] refuses a folder: the
// pipeline (package ingest) reads each of its files as an input of its own.
//
// # Problems, damage and skips
//
// The stable names are constants: Problem* for [Problem.Code] (one capture),
// Damage* for [Damage.Kind] (the input), Skip* for the keys of
// [Counts.Skipped], Truncated* for the reader's own [Capture.Truncated]
// reasons. Each is documented where it is defined.
//
// # Adding to it
//
// A problem of one capture is a [ProblemKind] constant (capture.go),
// appended to the Problem* list, documented where it is defined, with its
// stable name in problemNames, and added to [Capture.Problems] where the
// reader meets it; the robots catalogue needs an entry for it, named
// "ingest-" + that name and marked as the reader's (robots.Ingest*), since
// ingest writes every problem as a diagnostic row: ingest's
// TestProblemCodesInCatalogue fails until it has one. Damage* and
// Skip* names are added the same way, each with the test that reads an
// input showing it (warc_test.go, tar_test.go, ...).
//
// A format is a [Format] constant, recognised by [Detect] from the first
// bytes (detect_test.go), and a reader behind the [CaptureReader]
// interface that [NewReader] returns for it; it keeps the accounting of
// [Counts] (Records == Captures + the sum of Skipped), records damage and
// resynchronises rather than failing, and gets a fuzz target beside
// FuzzWARCReader and FuzzTarReader (fuzz_test.go). A compression is found
// from its magic in decompress.go, with offsets that map each record to its
// compressed bytes.
//
// # Performance
//
// Headers are parsed by hand on []byte in the reader's buffer; skipped
// records cost no allocation (a capture costs about five, its strings);
// buffers and decompressors are reused across records. BenchmarkWARCReader
// reads a per-record gzip WARC of 10,000 Common-Crawl-style robots.txt
// captures next to a plain gzip read of the same bytes (the zcat floor);
// its figures: see README, Performance.
package archive
