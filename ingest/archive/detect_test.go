package archive

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// readFile writes data to a file of the given name and reads it to its end
// through Open.
func readFile(t *testing.T, name string, data []byte) readResult {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r, closer, err := Open(p)
	if err != nil {
		t.Fatalf("Open %s: %v", name, err)
	}
	defer closer.Close()
	res := drain(t, r)
	if res.err != nil {
		t.Fatalf("%s: reading stopped: %v", name, res.err)
	}
	return res
}

// Issue 27 item 1: a body file named after its host is a body whatever the
// name says; names containing ".arc", ".warc" or ".tar" were taken for
// archives, so www.archives.gov or www.target.com in a scrape's folder was
// lost to a damage entry.
func TestDetectIgnoresNames(t *testing.T) {
	for _, name := range []string{"www.archives.gov", "www.arc.gov", "www.arctic.gov", "epa.maps.arcgis.com",
		"www.target.com", "www.tarot.com", "www.warc.example", "x.tgz.example"} {
		res := readFile(t, name, []byte(robotsBody))
		if len(res.caps) != 1 || res.counts.DamageCount != 0 {
			t.Errorf("%s: %d captures, damage %+v; want the body", name, len(res.caps), res.counts.Damage)
			continue
		}
		if c := res.caps[0]; c.Host != name || string(c.Body) != robotsBody {
			t.Errorf("%s: host %q body %q", name, c.Host, c.Body)
		}
	}
}

// A WARC, ARC or tar whose first bytes are damaged is still read as what
// its bytes show further on, under any name, and its reader records the
// damage and reads every record it can reach: it is not a robots.txt body.
func TestDetectDamagedArchives(t *testing.T) {
	records := ccFile("a.example", "b.example")
	plain := strings.Join(records, "")
	members := perRecord(t, records...)
	firstMember := len(gz(t, records[0]))
	corruptFirst := slices.Clone(members)
	corruptFirst[firstMember-6] ^= 0xff // the first member's CRC-32: a corrupt member, then the rest
	tarball := makeTar(t)
	badTar := slices.Clone(tarball)
	badTar[148] ^= 0x07 // the first header's checksum
	arc := arcFile(arcRecord("filedesc://x.arc 0.0.0.0 20080430204825 text/plain", "1 0 InternetArchive\nURL IP-address Archive-date Content-type Archive-length\n"),
		arcRecord("http://a.example/robots.txt 192.0.2.1 20080430204825 text/plain", "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n"+robotsBody))
	for _, v := range []struct {
		name     string
		data     []byte
		format   Format
		captures int
		damage   []string
	}{
		{"garbage before a plain WARC", append([]byte("garbage\n"), plain...), FormatWARC, 2, []string{DamageGarbage}},
		{"a plain WARC's version line damaged", []byte("WARX" + plain[4:]), FormatWARC, 2, []string{DamageGarbage}},
		{"garbage before a gzip WARC", append([]byte("garbage\x00\x01"), members...), FormatWARC, 2, []string{DamageGarbage}},
		{"a gzip WARC's first member corrupt", corruptFirst, FormatWARC, 2, []string{DamageCorruptMember}},
		{"a gzip WARC cut in its first member", members[:firstMember/2], FormatWARC, 0, []string{DamageTruncated, DamageRecordHeader, DamageGarbage}},
		{"garbage before an ARC", []byte("garbage\n" + arc), FormatARC, 1, []string{DamageGarbage}},
		{"a tar whose first header is corrupt", badTar, FormatTar, 4, []string{DamageTarHeader}},
		{"a tar.gz whose first header is corrupt", gz(t, string(badTar)), FormatTar, 4, []string{DamageTarHeader}},
	} {
		t.Run(v.name, func(t *testing.T) {
			head := v.data[:min(len(v.data), SniffLen)]
			if f, err := Detect(head); f != v.format || err != nil {
				t.Fatalf("Detect: %v, %v; want %v", f, err, v.format)
			}
			res := readFile(t, "www.example.gov", v.data)
			if len(res.caps) != v.captures || !slices.Equal(damageKinds(res.counts), v.damage) {
				t.Errorf("%d captures, damage %+v; want %d, %q", len(res.caps), res.counts.Damage, v.captures, v.damage)
			}
			for _, c := range res.caps {
				if c.Host == "www.example.gov" {
					t.Errorf("read as a body: %+v", c)
				}
			}
		})
	}
}

// A gzip WARC cut inside its first gzip header shows nothing: it is no
// capture (not an empty robots.txt, which would allow everything), and the
// cut is recorded, with the bytes of the header after its magic.
func TestDetectCutGzipHeader(t *testing.T) {
	res := readFile(t, "crawl.warc.gz", perRecord(t, ccFile("a.example")...)[:6])
	if len(res.caps) != 0 || res.counts.Skipped[SkipCorrupt] != 1 || !slices.Equal(damageKinds(res.counts), []string{DamageTruncated, DamageGarbage}) {
		t.Errorf("%d captures, counts %+v", len(res.caps), res.counts)
	}
}

// noisyRobots returns a robots.txt body of about n bytes that gzip cannot
// shrink much, so that its compressed form is many times SniffLen.
func noisyRobots(n int) string {
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for b.Len() < n {
		b.WriteString("Disallow: /")
		for range 24 {
			b.WriteByte("abcdefghijklmnopqrstuvwxyz0123456789"[rng.IntN(36)])
		}
		b.WriteString("/\n")
	}
	return b.String()
}

// Issue 27 item 4: a gzip- or zstd-compressed body file (a server that
// compressed robots.txt unasked) is a body, read decompressed whole: every
// member, past the sniffed window, up to the body cap; damage in it is
// recorded by its kind and the text before it kept.
func TestDetectCompressedBodies(t *testing.T) {
	long := noisyRobots(200 << 10)
	huge := noisyRobots(DefaultMaxBody + 100<<10)
	enc, _ := zstd.NewWriter(nil)
	cut := gz(t, long)
	cut = cut[:len(cut)/2]
	corrupt := gz(t, long)
	corrupt[len(corrupt)/2] ^= 0xff
	corrupt[len(corrupt)/2+1] ^= 0xff
	for _, v := range []struct {
		name     string
		data     []byte
		body     string // what the capture holds (its first MaxBody bytes)
		size     int64  // -1: damaged, the body is what decompressed before the damage
		problems []ProblemKind
		damage   []string
	}{
		{"one member", gz(t, robotsBody), robotsBody, int64(len(robotsBody)), nil, nil},
		{"two members", append(gz(t, "User-agent: *\n"), gz(t, "Disallow: /\n")...), "User-agent: *\nDisallow: /\n", 26, nil, nil},
		{"longer than the window", gz(t, long), long, int64(len(long)), nil, nil},
		{"longer than the body cap", gz(t, huge), huge[:DefaultMaxBody], int64(len(huge)), []ProblemKind{ProblemBodyCapped}, nil},
		{"empty", gz(t, ""), "", 0, nil, nil},
		{"zstd", enc.EncodeAll([]byte(long), nil), long, int64(len(long)), nil, nil},
		{"garbage after it", append(gz(t, robotsBody), "\x00\x00junk"...), robotsBody, int64(len(robotsBody)), []ProblemKind{ProblemInputDamaged}, []string{DamageGarbage}},
		{"cut short", cut, "", -1, []ProblemKind{ProblemRecordIncomplete}, []string{DamageTruncated}},
		{"corrupt", corrupt, "", -1, []ProblemKind{ProblemRecordIncomplete}, []string{DamageCorruptMember}},
	} {
		t.Run(v.name, func(t *testing.T) {
			if f, err := Detect(v.data[:min(len(v.data), SniffLen)]); f != FormatBody || err != nil {
				t.Fatalf("Detect: %v, %v", f, err)
			}
			res := readFile(t, "www.example.gov", v.data)
			if len(res.caps) != 1 {
				t.Fatalf("%d captures, counts %+v", len(res.caps), res.counts)
			}
			c := res.caps[0]
			if !slices.Equal(problemCodes(c), v.problems) || !slices.Equal(damageKinds(res.counts), v.damage) {
				t.Errorf("problems %v, damage %+v; want %v, %v", c.Problems, res.counts.Damage, v.problems, v.damage)
			}
			if res.counts.Bytes != int64(len(v.data)) || c.Source.Length != int64(len(v.data)) || c.Source.Uncompressed {
				t.Errorf("bytes %d, source %+v; want the file's %d bytes", res.counts.Bytes, c.Source, len(v.data))
			}
			if v.size < 0 {
				if len(c.Body) == 0 || !strings.HasPrefix(long, string(c.Body[:100])) || c.Truncated != TruncatedInput || c.PayloadDigest != "" {
					t.Errorf("body of %d bytes, truncated %q, digest %q", len(c.Body), c.Truncated, c.PayloadDigest)
				}
				return
			}
			if string(c.Body) != v.body || c.BodySize != v.size || c.Host != "www.example.gov" {
				t.Errorf("body of %d bytes (size %d), want %d (size %d); host %q", len(c.Body), c.BodySize, len(v.body), v.size, c.Host)
			}
			if c.PayloadDigest == "" {
				t.Error("no payload digest")
			}
		})
	}
}

// Compressed data is a body only when it decompresses to text; bzip2 is
// read for tar archives only.
func TestDetectCompressedNotBodies(t *testing.T) {
	binary := gz(t, "\x00\x01\x02\x03 PNG-like \x00\x00")
	if _, err := Detect(binary); !errors.Is(err, ErrBinary) || !strings.Contains(err.Error(), "gzip") {
		t.Errorf("gzip of binary data: %v, want ErrBinary", err)
	}
	bz := []byte("BZh91AY&SY\x8b\x4a\x2f\x47\x00\x00\x01\x41\x80\x00\x10\x02\x00\x0c\x00\x20\x00\x20\x00\x00")
	if _, err := Detect(bz); !errors.Is(err, ErrUnknownFormat) || errors.Is(err, ErrBinary) {
		t.Errorf("bzip2: %v, want ErrUnknownFormat", err)
	}
	if f, err := Detect([]byte("BZh9 is how this robots.txt starts\n")); f != FormatBody || err != nil {
		t.Errorf("text starting like bzip2: %v, %v", f, err)
	}
	if !bytes.HasPrefix(binary, magicGzip) {
		t.Fatal("not gzip")
	}
}

// arcRecord is an ARC record: its header line (URL IP date type), the
// length of its block, the block, and the newline after it.
func arcRecord(header, block string) string {
	return header + " " + strconv.Itoa(len(block)) + "\n" + block + "\n"
}

func arcFile(records ...string) string { return strings.Join(records, "") }
