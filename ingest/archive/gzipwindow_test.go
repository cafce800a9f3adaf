package archive

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
)

// Members longer than the fast path's window are read again through the
// buffer: a record whose gzip member is bigger than the window (random,
// incompressible body), between ordinary ones, and a whole-file gzip of many
// records, read identically.
func TestGzipMembersLongerThanTheWindow(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	big := make([]byte, 3*gzipWindow)
	for i := range big {
		big[i] = byte(rng.IntN(256))
	}
	at := time.Date(2025, 1, 13, 0, 0, 0, 0, time.UTC)
	fetches := []Fetch{
		{URL: "https://a.example/robots.txt", Time: at, Body: []byte("User-agent: *\nDisallow: /a\n")},
		{URL: "https://big.example/robots.txt", Time: at, Body: big},
		{URL: "https://c.example/robots.txt", Time: at, Body: []byte("User-agent: *\nDisallow: /c\n")},
	}
	var perRecord bytes.Buffer
	w, _ := NewWARCWriter(&perRecord, "x.warc.gz")
	for _, f := range fetches {
		w.WriteCapture(f)
	}
	check := func(name string, res readResult) {
		t.Helper()
		if res.err != nil || len(res.caps) != 3 || res.counts.DamageCount != 0 {
			t.Fatalf("%s: %d captures, err %v, damage %v", name, len(res.caps), res.err, res.counts.Damage)
		}
		for i, c := range res.caps {
			want := fetches[i].Body[:min(len(fetches[i].Body), DefaultMaxBody)]
			if !bytes.Equal(c.Body, want) || c.URL != fetches[i].URL {
				t.Errorf("%s: capture %d differs (%d bytes, want %d)", name, i, len(c.Body), len(want))
			}
		}
	}
	res := readWARC(t, perRecord.Bytes())
	check("per-record gzip", res)
	for i, c := range res.caps {
		if b := perRecord.Bytes()[c.Source.Offset:]; b[0] != 0x1f || b[1] != 0x8b {
			t.Errorf("capture %d: offset %d is not a member start", i, c.Source.Offset)
		}
	}
	// The same records as one gzip member.
	var plain bytes.Buffer
	zr, err := gzip.NewReader(bytes.NewReader(perRecord.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	plain.ReadFrom(zr)
	var whole bytes.Buffer
	zw := gzip.NewWriter(&whole)
	zw.Write(plain.Bytes())
	zw.Close()
	if whole.Len() <= gzipWindow {
		t.Fatalf("whole-file gzip of %d bytes fits the window", whole.Len())
	}
	check("whole-file gzip", readWARC(t, whole.Bytes()))
}
