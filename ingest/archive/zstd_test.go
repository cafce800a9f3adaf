package archive

import (
	"bytes"
	"encoding/binary"
	"os"
	"slices"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/robocensus/robocensus/internal/testutil"
)

// skippable returns a skippable frame with the given magic low nibble.
func skippable(nibble byte, data []byte) []byte {
	h := []byte{0x50 | nibble, 0x2a, 0x4d, 0x18, 0, 0, 0, 0}
	binary.LittleEndian.PutUint32(h[4:], uint32(len(data)))
	return append(h, data...)
}

// zstdWARC writes records as the IIPC zstd WARC draft says: an optional
// dictionary frame, then one frame per record.
func zstdWARC(t *testing.T, dict []byte, compressDict bool, records ...string) []byte {
	t.Helper()
	var opts []zstd.EOption
	var out []byte
	if dict != nil {
		opts = append(opts, zstd.WithEncoderDict(dict))
		payload := dict
		if compressDict {
			e, _ := zstd.NewWriter(nil)
			payload = e.EncodeAll(dict, nil)
		}
		out = skippable(0xd, payload)
	}
	enc, err := zstd.NewWriter(nil, opts...)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range records {
		out = enc.EncodeAll([]byte(r), out)
	}
	return out
}

// TestZstdWARC round-trips records through .warc.zst files with a raw
// dictionary, a compressed dictionary and none, and checks that each
// capture's offsets are its frame.
func TestZstdWARC(t *testing.T) {
	dict, err := os.ReadFile(testutil.Corpus(t, "warc", "gowarc-ia-testdata", "zstd-dictionary"))
	if err != nil {
		t.Fatal(err)
	}
	recs := ccFile("a.example", "b.example")
	for _, v := range []struct {
		name       string
		dict       []byte
		compressed bool
	}{{"raw-dictionary", dict, false}, {"compressed-dictionary", dict, true}, {"no-dictionary", nil, false}} {
		t.Run(v.name, func(t *testing.T) {
			data := zstdWARC(t, v.dict, v.compressed, recs...)
			res := readWARC(t, data, WithMode(ModeRobotstxt))
			if len(res.caps) != 2 || res.counts.Records != 5 || res.counts.DamageCount != 0 {
				t.Fatalf("captures %d counts %+v", len(res.caps), res.counts)
			}
			dopts := []zstd.DOption{}
			if v.dict != nil {
				dopts = append(dopts, zstd.WithDecoderDicts(v.dict))
			}
			dec, _ := zstd.NewReader(nil, dopts...)
			for i, c := range res.caps {
				if string(c.Body) != robotsBody || c.Source.Uncompressed {
					t.Errorf("capture %d: %q %+v", i, c.Body, c.Source)
				}
				frame := data[c.Source.Offset : c.Source.Offset+c.Source.Length]
				got, err := dec.DecodeAll(frame, nil)
				if err != nil || string(got) != recs[2+2*i] {
					t.Errorf("capture %d: frame at %d+%d decodes to %q, %v", i, c.Source.Offset, c.Source.Length, got, err)
				}
			}
		})
	}
}

// TestZstdWARCDamage: skippable extension frames are passed over, a
// corrupt frame is damage and the records after it are read.
func TestZstdWARCDamage(t *testing.T) {
	a, b, c := robots200("a.example", robotsBody), robots200("b.example", robotsBody), robots200("c.example", robotsBody)
	fa, fb, fc := zstdWARC(t, nil, false, a), zstdWARC(t, nil, false, b), zstdWARC(t, nil, false, c)
	fb = slices.Clone(fb)
	fb[len(fb)-6] ^= 0x55 // damage the last block or the checksum
	data := slices.Concat(fa, skippable(0x3, []byte("extension")), fb, []byte("junk"), fc)
	res := readWARC(t, data)
	var hosts []string
	for _, cp := range res.caps {
		hosts = append(hosts, cp.Host)
	}
	if hosts[0] != "a.example" || hosts[len(hosts)-1] != "c.example" || res.counts.DamageCount == 0 {
		t.Errorf("hosts %q damage %+v", hosts, res.counts.Damage)
	}
	// A file holding only a dictionary frame that is not a dictionary
	// cannot be read at all.
	r, _ := NewWARCReader(bytes.NewReader(skippable(0xd, []byte("not a dictionary"))), "x.warc.zst")
	if _, err := r.Next(); err == nil || !errorsIs(err, ErrDictionary) {
		t.Errorf("bad dictionary: %v", err)
	}
}
