package archive

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robocensus/robocensus/internal/testutil"
)

// The whole-member path (inflate.go) must read every input exactly as the
// streaming path does: the same captures, counts and damage. These tests
// read each input both ways and compare; in a build without libdeflate the
// whole-member path declines every member, so they skip (and fail when
// ROBOCENSUS_REQUIRE_LIBDEFLATE is set, as in CI's libdeflate pass).

func requireLibdeflate(tb testing.TB) {
	tb.Helper()
	if LibdeflateBuilt {
		return
	}
	const msg = "built without libdeflate: run with -tags libdeflate (cgo and Debian's libdeflate-dev)"
	if os.Getenv("ROBOCENSUS_REQUIRE_LIBDEFLATE") != "" {
		tb.Fatal(msg)
	}
	tb.Skip(msg)
}

// readTwice reads data with the WARC reader, members inflated whole where
// they can be and then every member streamed, fails the test where the
// two reads differ, and returns the members inflated whole.
func readTwice(tb testing.TB, data []byte, opts ...Option) (whole int) {
	tb.Helper()
	read := func(opts []Option) (readResult, int) {
		r, err := NewWARCReader(bytes.NewReader(data), "test.warc.gz", opts...)
		if err != nil {
			tb.Fatal(err)
		}
		res := drain(tb, r)
		n := 0
		if gs, ok := r.f.src.(*gzipSource); ok {
			n = gs.inflated
		}
		return res, n
	}
	got, whole := read(opts)
	want, none := read(append(opts[:len(opts):len(opts)], withStreamedMembers()))
	if none != 0 {
		tb.Fatalf("%d members inflated whole with withStreamedMembers", none)
	}
	if fmt.Sprint(got.err) != fmt.Sprint(want.err) {
		tb.Errorf("error %v, streamed %v", got.err, want.err)
	}
	if !reflect.DeepEqual(inflaterWordsOut(got.counts), inflaterWordsOut(want.counts)) {
		tb.Errorf("counts differ:\n whole    %+v\n streamed %+v", got.counts, want.counts)
	}
	if len(got.caps) != len(want.caps) {
		tb.Fatalf("%d captures, streamed %d", len(got.caps), len(want.caps))
	}
	for i := range got.caps {
		if !reflect.DeepEqual(got.caps[i], want.caps[i]) {
			tb.Errorf("capture %d differs:\n whole    %+v\n streamed %+v", i, got.caps[i], want.caps[i])
		}
	}
	return whole
}

// inflaterWordsOut returns c without the details of its corrupt members:
// they quote klauspost's error, whose words for the same bad data depend
// on the members it inflated before (its Huffman tables outlive a Reset),
// so on those the build inflated whole. The kind, place and bytes passed
// over of every damage must be the same.
func inflaterWordsOut(c Counts) Counts {
	c.Damage = slices.Clone(c.Damage)
	for i := range c.Damage {
		if d := &c.Damage[i]; d.Kind == DamageCorruptMember {
			d.Detail = ""
		}
	}
	return c
}

func TestWholeMembersCorpus(t *testing.T) {
	requireLibdeflate(t)
	whole := 0
	for _, v := range corpusVectors {
		t.Run(v.file+"/"+v.mode.String(), func(t *testing.T) {
			data, err := os.ReadFile(testutil.Corpus(t, "warc", v.file))
			if err != nil {
				t.Fatal(err)
			}
			whole += readTwice(t, data, WithMode(v.mode))
		})
	}
	// The corpus's per-record gzip files hold thousands of members: a
	// path that declined them all would be no path.
	if whole < 1000 {
		t.Errorf("%d members of the corpus inflated whole, want at least 1000", whole)
	}
}

// gzipFHCRC is a gzip member of s whose header carries a CRC-16 (FHCRC),
// which Go's and klauspost's gzip writers never set.
func gzipFHCRC(tb testing.TB, s string) []byte {
	plain := testutil.Gzip(tb, s)
	hdr := []byte{0x1f, 0x8b, 8, gzipFlagHeaderCRC, 0, 0, 0, 0, 0, 0xff}
	hdr = binary.LittleEndian.AppendUint16(hdr, uint16(crc32.ChecksumIEEE(hdr)))
	return append(hdr, plain[10:]...) // Gzip writes a bare 10-byte header
}

func TestWholeMembers(t *testing.T) {
	requireLibdeflate(t)
	rng := rand.New(rand.NewPCG(3, 4))
	random := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return string(b)
	}
	hosts := make([]string, 200)
	for i := range hosts {
		hosts[i] = fmt.Sprintf("h%d.example", i)
	}
	cc := perRecord(t, ccFile(hosts...)...)
	at := time.Date(2025, 1, 13, 0, 0, 0, 0, time.UTC).Format(time.RFC3339)
	big := func(host, body string) string {
		return response("https://"+host+"/robots.txt", "HTTP/1.1 200 OK", "Content-Type: text/plain\r\n", body, "WARC-Date: "+at)
	}
	small := robots200("a.example", robotsBody)
	flip := func(b []byte, at int) []byte {
		b = bytes.Clone(b)
		b[at] ^= 0x55
		return b
	}
	second := len(gz(t, small)) // where the second member of gz(small)+gz(small) starts
	cases := []struct {
		name  string
		data  []byte
		whole int // members inflated whole
	}{
		{"common crawl file", cc, 1 + 2*len(hosts)},
		{"700 KiB body: the output buffer grows", perRecord(t, small, big("b.example", strings.Repeat("Disallow: /x\n", 55000)), small), 3},
		{"2 MiB body: over maxWholeMember, streamed", perRecord(t, small, big("b.example", strings.Repeat("Disallow: /y\n", 160000)), small), 2},
		{"member longer than the window, streamed", perRecord(t, small, big("b.example", random(3*gzipWindow)), small), 2},
		{"header CRC, streamed", append(append(gz(t, small), gzipFHCRC(t, small)...), gz(t, small)...), 2},
		{"whole-file gzip", gz(t, strings.Join(ccFile(hosts[:50]...), "")), 1},
		{"garbage between members", append(append(gz(t, small), "not gzip at all"...), gz(t, small)...), 2},
		{"cut inside the last member", cc[:len(cc)-40], 2 * len(hosts)},
		{"corrupt deflate data", flip(append(gz(t, small), gz(t, small)...), second+40), 1},
		{"corrupt CRC-32", flip(append(gz(t, small), gz(t, small)...), second-7), 1},
		{"corrupt size", flip(append(gz(t, small), gz(t, small)...), second-2), 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if whole := readTwice(t, c.data, WithMode(ModeRobotstxt)); whole != c.whole {
				t.Errorf("%d members inflated whole, want %d", whole, c.whole)
			}
		})
	}
}

// FuzzWholeMembers holds the whole-member path to the streaming one on
// any input: both must read the same captures, counts and damage.
func FuzzWholeMembers(f *testing.F) {
	requireLibdeflate(f)
	small := robots200("a.example", robotsBody)
	two := append(gz(f, small), gz(f, small)...)
	f.Add(two)
	f.Add(perRecord(f, ccFile("a.example", "b.example")...))
	f.Add(append(gzipFHCRC(f, small), two...))
	f.Add(two[:len(two)-5])
	corpusSeeds(f, ".warc.gz")
	f.Fuzz(func(t *testing.T, data []byte) {
		readTwice(t, data, fuzzLimits...)
	})
}
