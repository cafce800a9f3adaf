package archive

import (
	"bytes"
	stdgzip "compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robocensus/robocensus/internal/testutil"
)

type skips = map[string]int64

// corpusVectors is what each file of the shared corpus's warc/ folder
// yields through Open: records, captures, skips by reason and the kinds of
// damage in order. Open goes by the bytes, not the names: files that hold
// no WARC or ARC data are robots.txt bodies when they are text
// (PROVENANCE.md), gzip-compressed ones decompressed (the Common Crawl
// manifest, whose name says .warc; the empty gzip of gowarc, whose name
// says .warc.gz; the gzip edge cases of webarchive-commons).
// The damaged files and what they must yield:
//   - gowarc corrupted-mid-record / corrupted-trailing-bytes: whole-file gzip
//     followed by garbage; every record before it is read, the garbage is
//     one Damage with its length.
//   - resiliparse clipped.warc.gz: the only record is cut; in robotstxt mode
//     it is still a capture, with record-incomplete.
//   - aut badexample.arc.gz: lengths that overrun the records; they are
//     re-delimited at the next ARC header line.
//   - warcio bad.arc: header lines with lengths "-1" and "abc" are corrupt
//     records; the good record between them is read.
//   - warcio example-trunc.warc: a Content-Length 2 bytes short; the record
//     is re-delimited and the request after it read.
//   - pywb missing-status-text.warc: lines end in CR CR LF.
//   - webarchive-commons double-single-inflate-error.gz: a gzip body whose
//     deflate data is corrupt; the text before the damage is the capture.
var corpusVectors = []struct {
	file             string
	mode             Mode
	records, capture int64
	skipped          skips
	damage           []string
}{
	{"aut-heritrix-2008/PROVENANCE.md", ModeAuto, 1, 1, skips{}, nil},
	{"aut-heritrix-2008/badexample.arc.gz", ModeAuto, 6, 1, skips{"filedesc": 1, "not-http": 1, "not-robots-url": 3}, []string{"length-mismatch", "length-mismatch", "record-broken"}},
	{"aut-heritrix-2008/badexample.arc.gz", ModeRobotstxt, 6, 4, skips{"filedesc": 1, "not-http": 1}, []string{"record-broken"}},
	{"aut-heritrix-2008/example.arc.gz", ModeAuto, 300, 38, skips{"filedesc": 1, "not-http": 38, "not-robots-url": 223}, nil},
	{"aut-heritrix-2008/example.arc.gz", ModeRobotstxt, 300, 261, skips{"filedesc": 1, "not-http": 38}, nil},
	{"aut-heritrix-2008/example.warc.gz", ModeAuto, 822, 38, skips{"metadata": 261, "not-http": 38, "not-robots-url": 223, "request": 261, "warcinfo": 1}, nil},
	{"aut-heritrix-2008/example.warc.gz", ModeRobotstxt, 822, 261, skips{"metadata": 261, "not-http": 38, "request": 261, "warcinfo": 1}, nil},
	{"aut-heritrix-2008/issue-493.warc", ModeAuto, 32, 0, skips{"not-robots-url": 10, "request": 15, "revisit": 5, "warcinfo": 2}, nil},
	{"aut-heritrix-2008/issue-493.warc", ModeRobotstxt, 32, 10, skips{"request": 15, "revisit": 5, "warcinfo": 2}, nil},
	{"aut-heritrix-2008/issue-514.warc", ModeAuto, 8, 0, skips{"metadata": 1, "not-http": 2, "not-robots-url": 2, "request": 2, "warcinfo": 1}, nil},
	{"aut-heritrix-2008/issue-514.warc", ModeRobotstxt, 8, 2, skips{"metadata": 1, "not-http": 2, "request": 2, "warcinfo": 1}, nil},
	{"commoncrawl-whirlwind/CC-MAIN-2024-22.warc.paths.gz", ModeAuto, 1, 1, skips{}, nil},
	{"commoncrawl-whirlwind/PROVENANCE.md", ModeAuto, 1, 1, skips{}, nil},
	{"commoncrawl-whirlwind/whirlwind.warc.gz", ModeAuto, 4, 0, skips{"metadata": 1, "not-robots-url": 1, "request": 1, "warcinfo": 1}, nil},
	{"commoncrawl-whirlwind/whirlwind.warc.gz", ModeRobotstxt, 4, 1, skips{"metadata": 1, "request": 1, "warcinfo": 1}, nil},
	{"commoncrawl-whirlwind/whirlwind.warc.wat.gz", ModeAuto, 2, 0, skips{"metadata": 1, "warcinfo": 1}, nil},
	{"commoncrawl-whirlwind/whirlwind.warc.wat.gz", ModeRobotstxt, 2, 0, skips{"metadata": 1, "warcinfo": 1}, nil},
	{"commoncrawl-whirlwind/whirlwind.warc.wet.gz", ModeAuto, 2, 0, skips{"conversion": 1, "warcinfo": 1}, nil},
	{"commoncrawl-whirlwind/whirlwind.warc.wet.gz", ModeRobotstxt, 2, 0, skips{"conversion": 1, "warcinfo": 1}, nil},
	{"gowarc-ia-testdata/PROVENANCE.md", ModeAuto, 1, 1, skips{}, nil},
	{"gowarc-ia-testdata/corrupted-mid-record.warc.gz.open", ModeAuto, 12, 0, skips{"not-robots-url": 12}, []string{"garbage"}},
	{"gowarc-ia-testdata/corrupted-mid-record.warc.gz.open", ModeRobotstxt, 12, 12, skips{}, []string{"garbage"}},
	{"gowarc-ia-testdata/corrupted-trailing-bytes.warc.gz.open", ModeAuto, 30, 0, skips{"not-robots-url": 30}, []string{"garbage"}},
	{"gowarc-ia-testdata/corrupted-trailing-bytes.warc.gz.open", ModeRobotstxt, 30, 30, skips{}, []string{"garbage"}},
	{"gowarc-ia-testdata/empty.warc.gz.open", ModeAuto, 1, 1, skips{}, nil},
	{"gowarc-ia-testdata/empty.warc.gz.open", ModeRobotstxt, 1, 1, skips{}, nil},
	{"gowarc-ia-testdata/good.warc.gz.open", ModeAuto, 50, 0, skips{"not-robots-url": 50}, nil},
	{"gowarc-ia-testdata/good.warc.gz.open", ModeRobotstxt, 50, 50, skips{}, nil},
	{"gowarc-ia-testdata/single-record.warc.gz.open", ModeAuto, 1, 0, skips{"not-robots-url": 1}, nil},
	{"gowarc-ia-testdata/single-record.warc.gz.open", ModeRobotstxt, 1, 1, skips{}, nil},
	{"gowarc-ia-testdata/skip-non-open.warc.gz", ModeAuto, 10, 0, skips{"not-robots-url": 10}, nil},
	{"gowarc-ia-testdata/skip-non-open.warc.gz", ModeRobotstxt, 10, 10, skips{}, nil},
	{"gowarc-ia-testdata/test.warc.gz", ModeAuto, 3, 0, skips{"not-robots-url": 1, "request": 1, "warcinfo": 1}, nil},
	{"gowarc-ia-testdata/test.warc.gz", ModeRobotstxt, 3, 1, skips{"request": 1, "warcinfo": 1}, nil},
	{"iipc-warc-specifications/20130729-heritrix-original.warc.gz", ModeAuto, 1, 0, skips{"not-robots-url": 1}, nil},
	{"iipc-warc-specifications/20130729-heritrix-original.warc.gz", ModeRobotstxt, 1, 1, skips{}, nil},
	{"iipc-warc-specifications/20130729-heritrix-revisit-with-http-headers.warc.gz", ModeAuto, 1, 0, skips{"revisit": 1}, nil},
	{"iipc-warc-specifications/20130729-heritrix-revisit-with-http-headers.warc.gz", ModeRobotstxt, 1, 0, skips{"revisit": 1}, nil},
	{"iipc-warc-specifications/20141124-heritrix-server-not-modified.warc.gz", ModeAuto, 1, 0, skips{"revisit": 1}, nil},
	{"iipc-warc-specifications/20141124-heritrix-server-not-modified.warc.gz", ModeRobotstxt, 1, 0, skips{"revisit": 1}, nil},
	{"iipc-warc-specifications/20141129-heritrix-original.warc.gz", ModeAuto, 1, 0, skips{"not-robots-url": 1}, nil},
	{"iipc-warc-specifications/20141129-heritrix-original.warc.gz", ModeRobotstxt, 1, 1, skips{}, nil},
	{"iipc-warc-specifications/20141129-heritrix-revisit-with-http-headers-and-new-warc-headers.warc.gz", ModeAuto, 1, 0, skips{"revisit": 1}, nil},
	{"iipc-warc-specifications/20141129-heritrix-revisit-with-http-headers-and-new-warc-headers.warc.gz", ModeRobotstxt, 1, 0, skips{"revisit": 1}, nil},
	{"iipc-warc-specifications/PROVENANCE.md", ModeAuto, 1, 1, skips{}, nil},
	{"iipc-warc-specifications/hello-world.warc", ModeAuto, 6, 0, skips{"metadata": 1, "not-http": 2, "not-robots-url": 1, "request": 1, "warcinfo": 1}, nil},
	{"iipc-warc-specifications/hello-world.warc", ModeRobotstxt, 6, 1, skips{"metadata": 1, "not-http": 2, "request": 1, "warcinfo": 1}, nil},
	{"iipc-warc-specifications/hello-world.warc.gz", ModeAuto, 6, 0, skips{"metadata": 1, "not-http": 2, "not-robots-url": 1, "request": 1, "warcinfo": 1}, nil},
	{"iipc-warc-specifications/hello-world.warc.gz", ModeRobotstxt, 6, 1, skips{"metadata": 1, "not-http": 2, "request": 1, "warcinfo": 1}, nil},
	{"jwarc-testdata/PROVENANCE.md", ModeAuto, 1, 1, skips{}, nil},
	{"jwarc-testdata/cc.warc.gz", ModeAuto, 1, 0, skips{"not-robots-url": 1}, nil},
	{"jwarc-testdata/cc.warc.gz", ModeRobotstxt, 1, 1, skips{}, nil},
	{"jwarc-testdata/gzip_extra_sl.warc.gz", ModeAuto, 1, 0, skips{"warcinfo": 1}, nil},
	{"jwarc-testdata/gzip_extra_sl.warc.gz", ModeRobotstxt, 1, 0, skips{"warcinfo": 1}, nil},
	{"pywb-sample-archive/PROVENANCE.md", ModeAuto, 1, 1, skips{}, nil},
	{"pywb-sample-archive/dupes.warc.gz", ModeAuto, 25, 0, skips{"not-robots-url": 3, "request": 12, "revisit": 9, "warcinfo": 1}, nil},
	{"pywb-sample-archive/dupes.warc.gz", ModeRobotstxt, 25, 3, skips{"request": 12, "revisit": 9, "warcinfo": 1}, nil},
	{"pywb-sample-archive/example-extra.warc", ModeAuto, 6, 0, skips{"not-robots-url": 2, "request": 2, "revisit": 2}, nil},
	{"pywb-sample-archive/example-extra.warc", ModeRobotstxt, 6, 2, skips{"request": 2, "revisit": 2}, nil},
	{"pywb-sample-archive/example-url-agnostic-orig.warc.gz", ModeAuto, 2, 0, skips{"not-robots-url": 1, "warcinfo": 1}, nil},
	{"pywb-sample-archive/example-url-agnostic-orig.warc.gz", ModeRobotstxt, 2, 1, skips{"warcinfo": 1}, nil},
	{"pywb-sample-archive/example-url-agnostic-revisit.warc.gz", ModeAuto, 2, 0, skips{"revisit": 1, "warcinfo": 1}, nil},
	{"pywb-sample-archive/example-url-agnostic-revisit.warc.gz", ModeRobotstxt, 2, 0, skips{"revisit": 1, "warcinfo": 1}, nil},
	{"pywb-sample-archive/example-wget-1-14.warc.gz", ModeAuto, 6, 0, skips{"not-http": 3, "not-robots-url": 1, "request": 1, "warcinfo": 1}, nil},
	{"pywb-sample-archive/example-wget-1-14.warc.gz", ModeRobotstxt, 6, 1, skips{"not-http": 3, "request": 1, "warcinfo": 1}, nil},
	{"pywb-sample-archive/example-wpull.warc.gz", ModeAuto, 4, 0, skips{"not-http": 1, "not-robots-url": 1, "request": 1, "warcinfo": 1}, nil},
	{"pywb-sample-archive/example-wpull.warc.gz", ModeRobotstxt, 4, 1, skips{"not-http": 1, "request": 1, "warcinfo": 1}, nil},
	{"pywb-sample-archive/httpbin-resource.warc.gz", ModeAuto, 1, 0, skips{"not-robots-url": 1}, nil},
	{"pywb-sample-archive/httpbin-resource.warc.gz", ModeRobotstxt, 1, 1, skips{}, nil},
	{"pywb-sample-archive/iana.warc.gz", ModeAuto, 343, 0, skips{"not-robots-url": 48, "request": 171, "revisit": 123, "warcinfo": 1}, nil},
	{"pywb-sample-archive/iana.warc.gz", ModeRobotstxt, 343, 48, skips{"request": 171, "revisit": 123, "warcinfo": 1}, nil},
	{"pywb-sample-archive/missing-status-text.warc", ModeAuto, 1, 0, skips{"not-robots-url": 1}, nil},
	{"pywb-sample-archive/missing-status-text.warc", ModeRobotstxt, 1, 1, skips{}, nil},
	{"resiliparse-testdata/PROVENANCE.md", ModeAuto, 1, 1, skips{}, nil},
	{"resiliparse-testdata/block-sized-records.warc", ModeAuto, 3, 0, skips{"unknown-type": 3}, nil},
	{"resiliparse-testdata/block-sized-records.warc", ModeRobotstxt, 3, 0, skips{"unknown-type": 3}, nil},
	{"resiliparse-testdata/block-sized-records.warc.gz", ModeAuto, 3, 0, skips{"unknown-type": 3}, nil},
	{"resiliparse-testdata/block-sized-records.warc.gz", ModeRobotstxt, 3, 0, skips{"unknown-type": 3}, nil},
	{"resiliparse-testdata/clipped.warc.gz", ModeAuto, 1, 0, skips{"not-robots-url": 1}, []string{"truncated", "record-broken"}},
	{"resiliparse-testdata/clipped.warc.gz", ModeRobotstxt, 1, 1, skips{}, []string{"truncated", "record-broken"}},
	{"resiliparse-testdata/clueweb-quirk.warc.gz", ModeAuto, 30, 0, skips{"not-robots-url": 29, "warcinfo": 1}, nil},
	{"resiliparse-testdata/clueweb-quirk.warc.gz", ModeRobotstxt, 30, 29, skips{"warcinfo": 1}, nil},
	{"resiliparse-testdata/warcfile.warc.gz", ModeAuto, 50, 0, skips{"metadata": 16, "not-robots-url": 16, "request": 17, "warcinfo": 1}, nil},
	{"resiliparse-testdata/warcfile.warc.gz", ModeRobotstxt, 50, 16, skips{"metadata": 16, "request": 17, "warcinfo": 1}, nil},
	{"ukwa-discovery-testdata/BL-20140325121225068-00000-32090~opera~8443.warc.gz", ModeAuto, 190, 3, skips{"metadata": 62, "not-http": 3, "not-robots-url": 59, "request": 62, "warcinfo": 1}, nil},
	{"ukwa-discovery-testdata/BL-20140325121225068-00000-32090~opera~8443.warc.gz", ModeRobotstxt, 190, 62, skips{"metadata": 62, "not-http": 3, "request": 62, "warcinfo": 1}, nil},
	{"ukwa-discovery-testdata/BL-20140325122341434-00000-32090~opera~8443.warc.gz", ModeAuto, 190, 0, skips{"metadata": 62, "not-http": 3, "not-robots-url": 7, "request": 62, "revisit": 55, "warcinfo": 1}, nil},
	{"ukwa-discovery-testdata/BL-20140325122341434-00000-32090~opera~8443.warc.gz", ModeRobotstxt, 190, 7, skips{"metadata": 62, "not-http": 3, "request": 62, "revisit": 55, "warcinfo": 1}, nil},
	{"ukwa-discovery-testdata/IAH-20080430204825-00000-blackbook-truncated.warc.gz", ModeAuto, 23, 1, skips{"metadata": 7, "not-http": 1, "not-robots-url": 6, "request": 7, "warcinfo": 1}, nil},
	{"ukwa-discovery-testdata/IAH-20080430204825-00000-blackbook-truncated.warc.gz", ModeRobotstxt, 23, 7, skips{"metadata": 7, "not-http": 1, "request": 7, "warcinfo": 1}, nil},
	{"ukwa-discovery-testdata/PROVENANCE.md", ModeAuto, 1, 1, skips{}, nil},
	{"ukwa-discovery-testdata/ip-host-testcase.warc.gz", ModeAuto, 6, 0, skips{"metadata": 1, "not-http": 2, "not-robots-url": 1, "request": 1, "warcinfo": 1}, nil},
	{"ukwa-discovery-testdata/ip-host-testcase.warc.gz", ModeRobotstxt, 6, 1, skips{"metadata": 1, "not-http": 2, "request": 1, "warcinfo": 1}, nil},
	{"ukwa-discovery-testdata/transfer_compression_brotli.warc.gz", ModeAuto, 5, 0, skips{"metadata": 1, "not-http": 1, "not-robots-url": 1, "request": 1, "warcinfo": 1}, nil},
	{"ukwa-discovery-testdata/transfer_compression_brotli.warc.gz", ModeRobotstxt, 5, 1, skips{"metadata": 1, "not-http": 1, "request": 1, "warcinfo": 1}, nil},
	{"ukwa-discovery-testdata/transfer_compression_gzip.warc.gz", ModeAuto, 5, 0, skips{"metadata": 1, "not-http": 1, "not-robots-url": 1, "request": 1, "warcinfo": 1}, nil},
	{"ukwa-discovery-testdata/transfer_compression_gzip.warc.gz", ModeRobotstxt, 5, 1, skips{"metadata": 1, "not-http": 1, "request": 1, "warcinfo": 1}, nil},
	{"ukwa-discovery-testdata/transfer_compression_none.warc.gz", ModeAuto, 5, 0, skips{"metadata": 1, "not-http": 1, "not-robots-url": 1, "request": 1, "warcinfo": 1}, nil},
	{"ukwa-discovery-testdata/transfer_compression_none.warc.gz", ModeRobotstxt, 5, 1, skips{"metadata": 1, "not-http": 1, "request": 1, "warcinfo": 1}, nil},
	{"ukwa-discovery-testdata/truncated_datetime.warc", ModeAuto, 5, 0, skips{"metadata": 1, "not-http": 1, "not-robots-url": 1, "request": 1, "warcinfo": 1}, nil},
	{"ukwa-discovery-testdata/truncated_datetime.warc", ModeRobotstxt, 5, 1, skips{"metadata": 1, "not-http": 1, "request": 1, "warcinfo": 1}, nil},
	{"warcio-testdata/PROVENANCE.md", ModeAuto, 1, 1, skips{}, nil},
	{"warcio-testdata/bad.arc", ModeAuto, 4, 0, skips{"corrupt": 3, "not-robots-url": 1}, []string{"record-header", "garbage", "record-header", "record-header"}},
	{"warcio-testdata/bad.arc", ModeRobotstxt, 4, 1, skips{"corrupt": 3}, []string{"record-header", "garbage", "record-header", "record-header"}},
	{"warcio-testdata/example-bad-non-chunked.warc.gz", ModeAuto, 6, 0, skips{"not-robots-url": 1, "request": 2, "revisit": 1, "warcinfo": 2}, nil},
	{"warcio-testdata/example-bad-non-chunked.warc.gz", ModeRobotstxt, 6, 1, skips{"request": 2, "revisit": 1, "warcinfo": 2}, nil},
	{"warcio-testdata/example-bad.warc.gz.bad", ModeAuto, 6, 0, skips{"not-robots-url": 2, "request": 2, "revisit": 1, "warcinfo": 1}, nil},
	{"warcio-testdata/example-bad.warc.gz.bad", ModeRobotstxt, 6, 2, skips{"request": 2, "revisit": 1, "warcinfo": 1}, nil},
	{"warcio-testdata/example-digest.warc", ModeAuto, 4, 0, skips{"request": 4}, nil},
	{"warcio-testdata/example-digest.warc", ModeRobotstxt, 4, 0, skips{"request": 4}, nil},
	{"warcio-testdata/example-iana.org-chunked.warc", ModeAuto, 3, 0, skips{"not-robots-url": 1, "request": 1, "warcinfo": 1}, nil},
	{"warcio-testdata/example-iana.org-chunked.warc", ModeRobotstxt, 3, 1, skips{"request": 1, "warcinfo": 1}, nil},
	{"warcio-testdata/example-resource.warc.gz", ModeAuto, 3, 0, skips{"not-robots-url": 1, "warcinfo": 2}, nil},
	{"warcio-testdata/example-resource.warc.gz", ModeRobotstxt, 3, 1, skips{"warcinfo": 2}, nil},
	{"warcio-testdata/example-space-in-target-uri.warc.gz", ModeAuto, 2, 0, skips{"not-http": 1, "warcinfo": 1}, nil},
	{"warcio-testdata/example-space-in-target-uri.warc.gz", ModeRobotstxt, 2, 0, skips{"not-http": 1, "warcinfo": 1}, nil},
	{"warcio-testdata/example-space-in-url.arc", ModeAuto, 2, 0, skips{"filedesc": 1, "not-robots-url": 1}, []string{"record-broken"}},
	{"warcio-testdata/example-space-in-url.arc", ModeRobotstxt, 2, 1, skips{"filedesc": 1}, []string{"record-broken"}},
	{"warcio-testdata/example-trunc.warc", ModeAuto, 4, 0, skips{"not-robots-url": 1, "request": 1, "warcinfo": 2}, []string{"length-mismatch"}},
	{"warcio-testdata/example-trunc.warc", ModeRobotstxt, 4, 1, skips{"request": 1, "warcinfo": 2}, nil},
	{"warcio-testdata/example-wget-bad-target-uri.warc.gz", ModeAuto, 6, 0, skips{"metadata": 1, "not-http": 2, "not-robots-url": 1, "request": 1, "warcinfo": 1}, nil},
	{"warcio-testdata/example-wget-bad-target-uri.warc.gz", ModeRobotstxt, 6, 1, skips{"metadata": 1, "not-http": 2, "request": 1, "warcinfo": 1}, nil},
	{"warcio-testdata/example-wrong-chunks.warc.gz", ModeAuto, 2, 0, skips{"not-robots-url": 1, "request": 1}, nil},
	{"warcio-testdata/example-wrong-chunks.warc.gz", ModeRobotstxt, 2, 1, skips{"request": 1}, nil},
	{"warcio-testdata/example.arc", ModeAuto, 2, 0, skips{"filedesc": 1, "not-robots-url": 1}, nil},
	{"warcio-testdata/example.arc", ModeRobotstxt, 2, 1, skips{"filedesc": 1}, nil},
	{"warcio-testdata/example.arc.gz", ModeAuto, 2, 0, skips{"filedesc": 1, "not-robots-url": 1}, nil},
	{"warcio-testdata/example.arc.gz", ModeRobotstxt, 2, 1, skips{"filedesc": 1}, nil},
	{"warcio-testdata/example.warc", ModeAuto, 6, 0, skips{"not-robots-url": 1, "request": 2, "revisit": 1, "warcinfo": 2}, nil},
	{"warcio-testdata/example.warc", ModeRobotstxt, 6, 1, skips{"request": 2, "revisit": 1, "warcinfo": 2}, nil},
	{"warcio-testdata/example.warc.gz", ModeAuto, 6, 0, skips{"not-robots-url": 1, "request": 2, "revisit": 1, "warcinfo": 2}, nil},
	{"warcio-testdata/example.warc.gz", ModeRobotstxt, 6, 1, skips{"request": 2, "revisit": 1, "warcinfo": 2}, nil},
	{"warcio-testdata/post-test.warc.gz", ModeAuto, 6, 0, skips{"not-robots-url": 3, "request": 3}, nil},
	{"warcio-testdata/post-test.warc.gz", ModeRobotstxt, 6, 3, skips{"request": 3}, nil},
	{"webarchive-commons-testdata/IAH-20080430204825-00000-blackbook-truncated.arc", ModeAuto, 9, 1, skips{"filedesc": 1, "not-http": 1, "not-robots-url": 6}, nil},
	{"webarchive-commons-testdata/IAH-20080430204825-00000-blackbook-truncated.arc", ModeRobotstxt, 9, 7, skips{"filedesc": 1, "not-http": 1}, nil},
	{"webarchive-commons-testdata/IAH-urls-wget.warc.gz", ModeAuto, 36, 2, skips{"not-http": 3, "not-robots-url": 14, "request": 16, "warcinfo": 1}, nil},
	{"webarchive-commons-testdata/IAH-urls-wget.warc.gz", ModeRobotstxt, 36, 16, skips{"not-http": 3, "request": 16, "warcinfo": 1}, nil},
	{"webarchive-commons-testdata/PROVENANCE.md", ModeAuto, 1, 1, skips{}, nil},
	{"webarchive-commons-testdata/abcd.gz", ModeAuto, 1, 1, skips{}, nil},
	{"webarchive-commons-testdata/double-single-inflate-error.gz", ModeAuto, 1, 1, skips{}, []string{"corrupt-member"}},
	{"webarchive-commons-testdata/empty.gz", ModeAuto, 1, 1, skips{}, nil},
	{"webarchive-commons-testdata/hi-2.gz", ModeAuto, 1, 1, skips{}, nil},
	{"webarchive-commons-testdata/hi.gz", ModeAuto, 1, 1, skips{}, nil},
	{"webarchive-commons-testdata/mutliple-headers.warc", ModeAuto, 1, 0, skips{"not-robots-url": 1}, nil},
	{"webarchive-commons-testdata/mutliple-headers.warc", ModeRobotstxt, 1, 1, skips{}, nil},
}

// corpusUnsupported are files of the warc/ folder that Open refuses with
// ErrUnsupportedFormat: FastWARC's LZ4 variants and binary data.
var corpusUnsupported = []string{
	"resiliparse-testdata/block-sized-records.warc.lz4",
	"gowarc-ia-testdata/zstd-dictionary", // binary: neither an archive nor a robots.txt body
	"resiliparse-testdata/warcfile.warc.lz4",
}

func TestCorpusWARC(t *testing.T) {
	for _, v := range corpusVectors {
		t.Run(v.file+"/"+v.mode.String(), func(t *testing.T) {
			path := testutil.Corpus(t, "warc", v.file)
			r, closer, err := Open(path, WithMode(v.mode))
			if err != nil {
				t.Fatal(err)
			}
			defer closer.Close()
			res := drain(t, r)
			if res.err != nil {
				t.Fatalf("reading stopped: %v", res.err)
			}
			c := res.counts
			if c.Records != v.records || c.Captures != v.capture || int64(len(res.caps)) != v.capture {
				t.Errorf("records %d captures %d (%d returned), want %d %d", c.Records, c.Captures, len(res.caps), v.records, v.capture)
			}
			if !mapsEqual(c.Skipped, v.skipped) {
				t.Errorf("skipped %v, want %v", c.Skipped, v.skipped)
			}
			if got := damageKinds(c); !slices.Equal(got, v.damage) {
				t.Errorf("damage %q, want %q (%+v)", got, v.damage, c.Damage)
			}
			if fi, err := os.Stat(path); err == nil && c.Bytes != fi.Size() {
				t.Errorf("Bytes %d, want the file size %d", c.Bytes, fi.Size())
			}
		})
	}
	for _, f := range corpusUnsupported {
		t.Run(f, func(t *testing.T) {
			_, _, err := Open(testutil.Corpus(t, "warc", f))
			if !errors.Is(err, ErrUnsupportedFormat) {
				t.Errorf("Open: %v, want ErrUnsupportedFormat", err)
			}
		})
	}
}

// TestCorpusWARCComplete checks that every file of the warc/ folder has a
// vector, so that a file added to the corpus is not silently untested.
func TestCorpusWARCComplete(t *testing.T) {
	dir := testutil.Corpus(t, "warc")
	files, err := filepath.Glob(filepath.Join(dir, "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, v := range corpusVectors {
		known[v.file] = true
	}
	for _, f := range corpusUnsupported {
		known[f] = true
	}
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		if !known[filepath.ToSlash(rel)] {
			t.Errorf("no vector for %s", rel)
		}
	}
}

func mapsEqual(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// openCorpus reads a corpus file to its end.
func openCorpus(t *testing.T, file string, opts ...Option) readResult {
	t.Helper()
	r, closer, err := Open(testutil.Corpus(t, "warc", file), opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	res := drain(t, r)
	if res.err != nil {
		t.Fatal(res.err)
	}
	return res
}

// TestCorpusRobots checks the robots.txt captures of the real crawls.
func TestCorpusRobots(t *testing.T) {
	// Heritrix 2008: 38 robots.txt responses, 33 x 200 and 5 x 404, in both
	// the WARC/0.17 and the ARC copy of the crawl.
	for _, file := range []string{"aut-heritrix-2008/example.warc.gz", "aut-heritrix-2008/example.arc.gz"} {
		res := openCorpus(t, file)
		status := map[int]int{}
		for _, c := range res.caps {
			status[c.Status]++
			if !isRobotsURL([]byte(c.URL)) || c.Host == "" || c.FetchTime.IsZero() || c.Source.Uncompressed {
				t.Errorf("%s: capture %q host %q time %v source %+v", file, c.URL, c.Host, c.FetchTime, c.Source)
			}
		}
		if status[200] != 33 || status[404] != 5 {
			t.Errorf("%s: statuses %v, want 33 x 200 and 5 x 404", file, status)
		}
	}
	// wget: www.archive.org/robots.txt answers 302 to archive.org/robots.txt.
	res := openCorpus(t, "webarchive-commons-testdata/IAH-urls-wget.warc.gz")
	if len(res.caps) != 2 || res.caps[0].Status != 302 || res.caps[1].Status != 200 || res.caps[0].Location == "" {
		for _, c := range res.caps {
			t.Logf("%d %s -> %s", c.Status, c.URL, c.Location)
		}
		t.Errorf("want the 302 then the 200 of the redirect chain")
	}
}

// TestCorpusRevisits checks that the robots.txt revisits of the British
// Library crawl reach the revisit function, linked to their originals.
func TestCorpusRevisits(t *testing.T) {
	var got []*Revisit
	f := func(v *Revisit) { c := *v; got = append(got, &c) }
	res := openCorpus(t, "ukwa-discovery-testdata/BL-20140325122341434-00000-32090~opera~8443.warc.gz", WithRevisitFunc(f))
	if len(got) != 3 || res.counts.Skipped[SkipRevisit] != 55 {
		t.Fatalf("%d robots.txt revisits (of %d), want 3 (of 55)", len(got), res.counts.Skipped[SkipRevisit])
	}
	for _, v := range got {
		if !isRobotsURL([]byte(v.URL)) || v.RefersTo == "" && v.PayloadDigest == "" || v.FetchTime.IsZero() || v.Status == 0 {
			t.Errorf("revisit %+v", v)
		}
	}
	first := openCorpus(t, "ukwa-discovery-testdata/BL-20140325121225068-00000-32090~opera~8443.warc.gz")
	status := map[int]int{}
	for _, c := range first.caps {
		status[c.Status]++
	}
	if status[200] != 2 || status[404] != 1 {
		t.Errorf("first file statuses %v, want 2 x 200, 1 x 404", status)
	}
}

// TestCorpusPayloads checks payload decoding on real records, in robotstxt
// mode so that every response is a capture.
func TestCorpusPayloads(t *testing.T) {
	one := func(file string) *Capture {
		t.Helper()
		res := openCorpus(t, file, WithMode(ModeRobotstxt))
		if len(res.caps) == 0 {
			t.Fatalf("%s: no capture", file)
		}
		return res.caps[0]
	}
	// The same response stored with its body gzip-, brotli- and not encoded.
	none := one("ukwa-discovery-testdata/transfer_compression_none.warc.gz")
	for _, f := range []string{"transfer_compression_gzip.warc.gz", "transfer_compression_brotli.warc.gz"} {
		c := one("ukwa-discovery-testdata/" + f)
		if string(c.Body) != string(none.Body) || len(c.Body) == 0 {
			t.Errorf("%s: body %q differs from the unencoded one %q", f, c.Body, none.Body)
		}
	}
	// Common Crawl: X-Crawler-Content-Encoding means already decoded.
	cc := one("jwarc-testdata/cc.warc.gz")
	if cc.BodySize != 20289 || cc.PayloadDigest != "sha1:CIBK2YFSVPNDFLXUHSKZG2SPN7UNN65W" || cc.DetectedType != "text/html" || len(cc.Problems) != 0 {
		t.Errorf("cc.warc.gz: size %d digest %s type %s problems %v", cc.BodySize, cc.PayloadDigest, cc.DetectedType, cc.Problems)
	}
	// Chunked payload stored as received: de-chunked, and the computed
	// digest is the one the record gives for the payload.
	ch := one("warcio-testdata/example-iana.org-chunked.warc")
	if len(ch.Problems) != 0 || !strings.Contains(string(ch.Body), "</html>") || strings.Contains(string(ch.Body[:8]), "\r\n") {
		t.Errorf("chunked: problems %v, body starts %q", ch.Problems, ch.Body[:min(40, len(ch.Body))])
	}
	// ClueWeb09 says Content-Encoding: gzip but stores the body decoded.
	cw := one("resiliparse-testdata/clueweb-quirk.warc.gz")
	if !cw.HasProblem(ProblemContentEncodingInvalid) || !cw.HasProblem(ProblemDateInvalid) || !strings.Contains(string(cw.Body), "<html>") {
		t.Errorf("clueweb: problems %v", cw.Problems)
	}
	// A cut gzip stream: the record is kept, marked incomplete.
	cl := one("resiliparse-testdata/clipped.warc.gz")
	if cl.Truncated != TruncatedInput || !cl.HasProblem(ProblemRecordIncomplete) || len(cl.Body) == 0 {
		t.Errorf("clipped: truncated %q problems %v", cl.Truncated, cl.Problems)
	}
	// A status line without reason phrase, lines ending in CR CR LF.
	ms := one("pywb-sample-archive/missing-status-text.warc")
	if ms.Status != 302 || ms.Location != "http://www.iana.org/badst" {
		t.Errorf("missing-status-text: %d %q", ms.Status, ms.Location)
	}
	// Reduced-precision WARC-Date without zone.
	td := one("ukwa-discovery-testdata/truncated_datetime.warc")
	if td.FetchTime.Format(time.RFC3339) != "2019-08-15T01:02:00Z" {
		t.Errorf("truncated_datetime: %v", td.FetchTime)
	}
}

// TestCorpusGovBodiesFolder checks the gov bodies of the shared corpus as a
// scrape lays them out, files named after their hosts: each is a body by
// its bytes but for the one binary file, and the 16 whose names contain
// ".arc" (www.archives.gov, www.arctic.gov, *.arcgis.com, ...), which were
// taken for ARC files by their names, are opened as files and give their
// captures.
func TestCorpusGovBodiesFolder(t *testing.T) {
	bodies := testutil.TarBodies(t, testutil.Corpus(t, "robots", "nrjones8-gov-robots-archive", "raw-bodies.tar.gz"))
	dir := t.TempDir()
	var notBodies []string
	arcNamed := 0
	for _, b := range bodies {
		host := path.Base(b.Name)
		if f, err := Detect(b.Data[:min(len(b.Data), SniffLen)]); f != FormatBody {
			notBodies = append(notBodies, host+": "+fmt.Sprint(err))
		}
		if !strings.Contains(host, ".arc") {
			continue
		}
		arcNamed++
		p := filepath.Join(dir, host)
		if err := os.WriteFile(p, b.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		r, closer, err := Open(p)
		if err != nil {
			t.Errorf("%s: %v", host, err)
			continue
		}
		res := drain(t, r)
		closer.Close()
		if len(res.caps) != 1 || res.caps[0].Host != host || res.counts.DamageCount != 0 || !bytes.Equal(res.caps[0].Body, b.Data) {
			t.Errorf("%s: %d captures, counts %+v", host, len(res.caps), res.counts)
		}
	}
	if arcNamed != 16 || len(notBodies) != 1 || !strings.HasPrefix(notBodies[0], "ccthita-nsn.gov:") || !strings.Contains(notBodies[0], "binary data") {
		t.Errorf("%d files of %d named .arc, not bodies %q; want 16, and only the binary ccthita-nsn.gov", arcNamed, len(bodies), notBodies)
	}
}

// TestCorpusGzipBodies opens as files the bodies of the Alexa 2015 scrape
// that servers sent gzip-compressed unasked (shein.com among them): each
// is one capture of its host whose body is the whole decompressed text.
func TestCorpusGzipBodies(t *testing.T) {
	bodies := testutil.TarBodies(t, testutil.Corpus(t, "robots", "danielmiessler-alexa100k-2015", "nonhtml-unique.tar.gz"))
	dir := t.TempDir()
	var hosts []string
	for _, b := range bodies {
		if !bytes.HasPrefix(b.Data, magicGzip) {
			continue
		}
		p := filepath.Join(dir, path.Base(b.Name))
		if err := os.WriteFile(p, b.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		r, closer, err := Open(p)
		if err != nil {
			t.Errorf("%s: %v", b.Name, err)
			continue
		}
		res := drain(t, r)
		closer.Close()
		want := gunzip(t, b.Data)
		if len(res.caps) != 1 || res.counts.DamageCount != 0 || !bytes.Equal(res.caps[0].Body, want) || res.caps[0].BodySize != int64(len(want)) {
			t.Errorf("%s: %d captures, counts %+v", b.Name, len(res.caps), res.counts)
			continue
		}
		hosts = append(hosts, res.caps[0].Host)
	}
	if len(hosts) < 100 || !slices.Contains(hosts, "shein.com") {
		t.Errorf("%d gzip bodies read, want over 100 and shein.com among them", len(hosts))
	}
}

// gunzip decompresses data with the standard library's reader.
func gunzip(t *testing.T, data []byte) []byte {
	t.Helper()
	zr, err := stdgzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
