package archive

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// Issue 13: what a reader keeps per member or damage event is bounded. A
// WARC of millions of empty, junk or corrupt gzip members made the framer
// keep every member (and scan them all for each line: quadratic time).
// Each input here is n members of one kind, a capture, and n members again;
// the reader must read the capture at its right offset and keep a few
// members only.
func TestIssue13FramerKeepsFewMembers(t *testing.T) {
	const n = 20000
	robots := robots200("a.example", "User-agent: *\nDisallow: /\n")
	for _, tc := range []struct {
		name   string
		member []byte
		damage int64 // damage events
	}{
		{"empty", gz(t, ""), 0},
		{"junk", gz(t, "this is not a WARC record\n"), 2},
		{"whitespace", gz(t, "\r\n"), 0},
		// One event a corrupt member, the bytes passed over after it
		// counted with it, listed or not (past MaxDamageList); and on each
		// side of the capture, the bytes the members gave before failing,
		// which are not records.
		{"corrupt", []byte{0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff, 'j', 'u', 'n', 'k', 0xff, 0xff}, 2*n + 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := bytes.Repeat(tc.member, n)
			at := int64(len(data))
			data = append(data, gz(t, robots)...)
			data = append(data, bytes.Repeat(tc.member, n)...)
			r, err := NewWARCReader(bytes.NewReader(data), "test.warc.gz")
			if err != nil {
				t.Fatal(err)
			}
			c, err := r.Next()
			if err != nil {
				t.Fatal(err)
			}
			if c.Source.Offset != at {
				t.Errorf("capture at offset %d, want %d", c.Source.Offset, at)
			}
			if _, err := r.Next(); err != io.EOF {
				t.Fatalf("then %v, want EOF", err)
			}
			if k := len(r.f.members); k > 3 {
				t.Errorf("%d members kept after %d %s members", k, n, tc.name)
			}
			cs := r.Counts()
			if cs.DamageCount != tc.damage || len(cs.Damage) > MaxDamageList {
				t.Errorf("%d damage events (%d listed), want %d (at most %d listed)", cs.DamageCount, len(cs.Damage), tc.damage, MaxDamageList)
			}
		})
	}
}

// A record whose Content-Length claims more than the input holds spans
// every member after it: the framer keeps only those still buffered.
func TestIssue13FramerForgetsMembersOfALongRecord(t *testing.T) {
	const n = 300000 // 3 MB of junk: more than the framer's buffer holds
	junk := "junk line\n"
	header := "WARC/1.0\r\nWARC-Type: request\r\nWARC-Record-ID: <urn:uuid:x>\r\nContent-Length: 99999999999\r\n\r\n"
	data := append(gz(t, header), bytes.Repeat(gz(t, junk), n)...)
	r, err := NewWARCReader(bytes.NewReader(data), "test.warc.gz")
	if err != nil {
		t.Fatal(err)
	}
	res := drain(t, r)
	if res.err != nil || res.counts.Skipped[SkipRequest] != 1 {
		t.Fatalf("err %v, counts %+v", res.err, res.counts)
	}
	if k, most := len(r.f.members), len(r.f.buf)/len(junk)+3; k > most {
		t.Errorf("%d members kept after %d, want at most %d (those in the buffer)", k, n, most)
	}
	// The block's first member is forgotten by then: the damage is at the
	// record's member.
	if d := res.counts.Damage; len(d) != 1 || d[0].Kind != DamageRecordBroken || d[0].Offset != 0 {
		t.Errorf("damage %+v, want the record broken at offset 0", d)
	}
}

// The damage list stops at MaxDamageList entries however many events the
// input has; DamageCount counts them all.
func TestIssue13DamageListCapped(t *testing.T) {
	const n = 100000
	data := strings.Repeat("garbage\n"+warcRecord("request", "https://a.example/robots.txt", "GET / HTTP/1.1\r\n\r\n"), n)
	res := readWARC(t, []byte(data))
	if res.counts.DamageCount != n || len(res.counts.Damage) != MaxDamageList {
		t.Errorf("%d damage events, %d listed; want %d, %d", res.counts.DamageCount, len(res.counts.Damage), n, MaxDamageList)
	}
}
