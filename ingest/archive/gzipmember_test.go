package archive

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"testing"

	"github.com/klauspost/compress/gzip"
)

type headerVariant struct {
	name string
	h    gzipHeader
	ok   bool // a right header
}

// headerVariants are members of robots200(robotsBody) with each kind of
// header RFC 1952 allows, and wrong ones.
func headerVariants() []headerVariant {
	long := bytes.Repeat([]byte("n"), 700)
	return []headerVariant{
		{"bare", gzipHeader{}, true},
		{"extra field", gzipHeader{extra: []byte("LX\x04\x00abcd")}, true},
		{"empty extra field", gzipHeader{extra: []byte{}}, true},
		{"file name", gzipHeader{name: []byte("x.warc")}, true},
		{"Latin-1 comment", gzipHeader{comment: []byte("caf\xe9")}, true},
		{"header CRC", gzipHeader{headerCRC: true}, true},
		{"every field", gzipHeader{extra: []byte("ab"), name: []byte("n"), comment: []byte("c"), headerCRC: true}, true},
		{"file name of 700 bytes", gzipHeader{name: long}, true},
		{"comment of 700 bytes", gzipHeader{comment: long}, true},
		{"wrong header CRC", gzipHeader{headerCRC: true, wrongCRC: true}, false},
	}
}

// TestGzipHeader reads each header variant's header alone, and cut short
// at every byte.
func TestGzipHeader(t *testing.T) {
	for _, v := range headerVariants() {
		t.Run(v.name, func(t *testing.T) {
			m := v.h.member(t, robots200("a.example", robotsBody))
			r := bytes.NewReader(m)
			n, err := readGzipHeader(r)
			if !v.ok {
				if !errors.Is(err, errGzipHeader) {
					t.Fatalf("error %v, want %v", err, errGzipHeader)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if n != len(m)-len(gz(t, robots200("a.example", robotsBody)))+10 || n != int(r.Size())-r.Len() {
				t.Fatalf("header of %d bytes, read %d", n, int(r.Size())-r.Len())
			}
			for cut := 1; cut < n; cut++ {
				if _, err := readGzipHeader(bytes.NewReader(m[:cut])); err != io.ErrUnexpectedEOF {
					t.Fatalf("cut after %d bytes: %v, want %v", cut, err, io.ErrUnexpectedEOF)
				}
			}
		})
	}
	bad := map[string][]byte{
		"wrong magic":   {0x1f, 0x8c, 8, 0, 0, 0, 0, 0, 0, 0xff},
		"method 7":      {0x1f, 0x8b, 7, 0, 0, 0, 0, 0, 0, 0xff},
		"reserved flag": {0x1f, 0x8b, 8, 0x20, 0, 0, 0, 0, 0, 0xff},
		"reserved, cut": {0x1f, 0x8b, 8, 0x80},
	}
	for name, h := range bad {
		if _, err := readGzipHeader(bytes.NewReader(h)); !errors.Is(err, errGzipHeader) {
			t.Errorf("%s: %v, want %v", name, err, errGzipHeader)
		}
	}
	if _, err := readGzipHeader(bytes.NewReader(nil)); err != io.EOF {
		t.Errorf("no input: %v, want io.EOF", err)
	}
}

// TestGzipMemberAgreesWithKlauspost reads members with gzipMember and with
// klauspost's gzip reader, which must agree on the bytes and on whether a
// member is whole, except where RFC 1952 and klauspost part: a file name or
// comment of over 511 bytes, which gzipMember reads.
func TestGzipMemberAgreesWithKlauspost(t *testing.T) {
	body := robots200("a.example", robotsBody)
	for _, v := range headerVariants() {
		m := v.h.member(t, body)
		damaged := map[string][]byte{
			"whole":        m,
			"cut":          m[:len(m)-3],
			"wrong CRC-32": flipByte(m, len(m)-6),
			"wrong size":   flipByte(m, len(m)-1),
		}
		for how, data := range damaged {
			oursOut, oursErr := readOurs(data)
			theirsOut, theirsErr := readKlauspost(data)
			longText := len(v.h.name) > 511 || len(v.h.comment) > 511
			switch {
			case longText && (theirsErr == nil || oursErr != nil) && how == "whole":
				t.Errorf("%s, %s: ours %v, klauspost %v: want ours to read what klauspost refuses", v.name, how, oursErr, theirsErr)
			case !longText && (!sameFailure(oursErr, theirsErr) || !bytes.Equal(oursOut, theirsOut)):
				t.Errorf("%s, %s: ours %d bytes, %v; klauspost %d bytes, %v", v.name, how, len(oursOut), oursErr, len(theirsOut), theirsErr)
			}
			if how == "whole" && v.ok && (oursErr != nil || string(oursOut) != body) {
				t.Errorf("%s: read %q, %v", v.name, oursOut, oursErr)
			}
		}
	}
}

// readOurs and readKlauspost read the first member of data.
func readOurs(data []byte) ([]byte, error) {
	var m gzipMember
	if err := m.Reset(bytes.NewReader(data)); err != nil {
		return nil, err
	}
	return io.ReadAll(&m)
}

func readKlauspost(data []byte) ([]byte, error) {
	var z gzip.Reader
	if err := z.Reset(bytes.NewReader(data)); err != nil {
		return nil, err
	}
	z.Multistream(false)
	return io.ReadAll(&z)
}

// TestGzipHeaderFieldsRead reads each header variant between two members,
// and one whose file name runs past the fast path's window, with every
// member streamed and with the build's whole-member path.
func TestGzipHeaderFieldsRead(t *testing.T) {
	small := robots200("a.example", robotsBody)
	variants := headerVariants()
	variants = append(variants, headerVariant{"file name longer than the window", gzipHeader{name: bytes.Repeat([]byte("n"), gzipWindow)}, true})
	for _, v := range variants {
		data := slices.Concat(gz(t, small), v.h.member(t, small), gz(t, small))
		for _, opts := range [][]Option{{withStreamedMembers()}, nil} {
			res := readWARC(t, data, opts...)
			want, damage := 3, []string(nil)
			if !v.ok {
				want, damage = 2, []string{DamageCorruptMember, DamageGarbage} // the member passed over
			}
			if len(res.caps) != want || !slices.Equal(damageKinds(res.counts), damage) {
				t.Errorf("%s: %d captures, damage %v; want %d, %v", v.name, len(res.caps), res.counts.Damage, want, damage)
			}
		}
	}
}

// sameFailure reports whether two readers failed alike: both not, both on
// a checksum or header, or both cut short.
func sameFailure(a, b error) bool {
	kind := func(err error) string {
		switch {
		case err == nil:
			return "none"
		case errors.Is(err, errGzipChecksum), errors.Is(err, gzip.ErrChecksum):
			return "checksum"
		case errors.Is(err, errGzipHeader), errors.Is(err, gzip.ErrHeader):
			return "header"
		case errors.Is(err, io.ErrUnexpectedEOF):
			return "cut"
		}
		return err.Error()
	}
	return kind(a) == kind(b)
}

func flipByte(b []byte, at int) []byte {
	b = slices.Clone(b)
	b[at] ^= 0x55
	return b
}
