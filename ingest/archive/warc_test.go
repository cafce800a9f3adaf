package archive

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

func TestWARCPerRecordOffsets(t *testing.T) {
	recs := ccFile("a.example", "b.example", "c.example")
	data := perRecord(t, recs...)
	res := readWARC(t, data)
	if len(res.caps) != 3 || res.counts.Skipped[SkipRequest] != 3 || res.counts.Skipped[SkipWarcinfo] != 1 {
		t.Fatalf("captures %d counts %+v", len(res.caps), res.counts)
	}
	for i, c := range res.caps {
		if string(c.Body) != robotsBody || c.Status != 200 || c.Host != []string{"a.example", "b.example", "c.example"}[i] {
			t.Errorf("capture %d: %d %q %q", i, c.Status, c.Host, c.Body)
		}
		// The range must be exactly the member holding the record.
		s := c.Source
		if s.Uncompressed {
			t.Fatalf("capture %d: offsets not compressed", i)
		}
		zr, err := gzip.NewReader(bytes.NewReader(data[s.Offset : s.Offset+s.Length]))
		if err != nil {
			t.Fatal(err)
		}
		zr.Multistream(false)
		got, err := io.ReadAll(zr)
		if err != nil || string(got) != recs[2*i+2] {
			t.Errorf("capture %d: range [%d,+%d) holds %q, err %v", i, s.Offset, s.Length, got, err)
		}
	}
	if res.counts.Bytes != int64(len(data)) {
		t.Errorf("Bytes %d, want %d", res.counts.Bytes, len(data))
	}
}

func TestWARCModes(t *testing.T) {
	redirect := response("http://r.example/robots.txt", "HTTP/1.1 301 Moved", "Location: /new-robots\r\n", "")
	redirect2 := response("http://r.example/new-robots", "HTTP/1.1 302 Found", "Location: https://s.example/robots.txt?x=1\r\n", "")
	target := response("https://s.example/robots.txt?x=1", "HTTP/1.1 200 OK", "Content-Type: text/plain\r\n", robotsBody)
	page := response("https://a.example/index.html", "HTTP/1.1 200 OK", "", "<html>")
	query := response("https://a.example/robots.txt?q", "HTTP/1.1 200 OK", "", "x")
	upper := response("https://a.example/ROBOTS.TXT", "HTTP/1.1 200 OK", "", "x")
	dns := warcRecord("response", "dns:a.example", "1.2.3.4", "Content-Type: text/dns")
	data := []byte(redirect + page + redirect2 + query + upper + target + dns)
	f := func(mode Mode, name string, wantURLs ...string) {
		t.Helper()
		r, err := NewWARCReader(bytes.NewReader(data), name, WithMode(mode))
		if err != nil {
			t.Fatal(err)
		}
		res := drain(t, r)
		var got []string
		for _, c := range res.caps {
			got = append(got, c.URL)
		}
		if !slices.Equal(got, wantURLs) {
			t.Errorf("%v %s: captures %q, want %q", mode, name, got, wantURLs)
		}
		if res.counts.Skipped[SkipNotHTTP] != 1 {
			t.Errorf("%v: dns record not skipped as not-http: %v", mode, res.counts.Skipped)
		}
	}
	all := []string{"http://r.example/robots.txt", "https://a.example/index.html", "http://r.example/new-robots",
		"https://a.example/robots.txt?q", "https://a.example/ROBOTS.TXT", "https://s.example/robots.txt?x=1"}
	f(ModeGeneral, "x.warc", "http://r.example/robots.txt", "http://r.example/new-robots", "https://s.example/robots.txt?x=1")
	f(ModeAuto, "crawl/x.warc", "http://r.example/robots.txt", "http://r.example/new-robots", "https://s.example/robots.txt?x=1")
	f(ModeRobotstxt, "x.warc", all...)
	f(ModeAuto, "crawl-data/CC-MAIN-2025-05/segments/1/robotstxt/x.warc.gz", all...)
	// A warcinfo record naming the subset selects robotstxt mode too.
	info := warcRecord("warcinfo", "", "description: robotstxt subset\r\n")
	r, _ := NewWARCReader(strings.NewReader(info+page), "x.warc")
	if res := drain(t, r); len(res.caps) != 1 {
		t.Errorf("warcinfo mentioning robotstxt: %d captures, want 1", len(res.caps))
	}
}

func TestWARCRevisitFunc(t *testing.T) {
	rv := warcRecord("revisit", "https://a.example/robots.txt", "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n",
		"WARC-Refers-To: <urn:uuid:orig>", "WARC-Refers-To-Target-URI: https://a.example/robots.txt",
		"WARC-Refers-To-Date: 2024-01-01T00:00:00Z", "WARC-Profile: http://netpreserve.org/warc/1.0/revisit/identical-payload-digest",
		"WARC-Truncated: length")
	other := warcRecord("revisit", "https://a.example/page", "")
	var got []Revisit
	r, _ := NewWARCReader(strings.NewReader(rv+other), "x.warc", WithRevisitFunc(func(v *Revisit) { got = append(got, *v) }))
	res := drain(t, r)
	if res.counts.Skipped[SkipRevisit] != 2 || len(got) != 1 {
		t.Fatalf("skipped %v, %d revisits reported", res.counts.Skipped, len(got))
	}
	v := got[0]
	if v.RefersTo != "<urn:uuid:orig>" || v.Status != 200 || v.Host != "a.example" || v.RefersToDate.Year() != 2024 || v.Source.Length == 0 {
		t.Errorf("revisit %+v", v)
	}
}

// TestWARCHeaders covers header syntax: case, folding, repetition, old
// versions.
func TestWARCHeaders(t *testing.T) {
	rec := "WARC/0.17\r\nwarc-type: response\r\nWARC-TARGET-URI:  <https://a.example/robots.txt> \r\n" +
		"WARC-Date: 2008-04-30T20:48:25Z\r\nWARC-Record-ID:\r\n <urn:uuid:folded>\r\nContent-Length: 47\r\n" +
		"Content-Length: 48\r\nWARC-Identified-Payload-Type: text/plain\r\nno colon here\r\n\r\n" +
		"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nab\r\n\r\n"
	res := readWARC(t, []byte(rec), WithMode(ModeRobotstxt))
	if len(res.caps) != 1 {
		t.Fatalf("%d captures, damage %+v", len(res.caps), res.counts.Damage)
	}
	c := res.caps[0]
	if c.URL != "https://a.example/robots.txt" || c.RecordID != "<urn:uuid:folded>" || string(c.Body) != "ab" || c.DetectedType != "text/plain" {
		t.Errorf("capture %+v", c)
	}
	for _, code := range []ProblemKind{ProblemTargetURIInvalid, ProblemWARCHeaderInvalid} {
		if !c.HasProblem(code) {
			t.Errorf("no %s in %v", code, c.Problems)
		}
	}
}

// TestWARCDamage covers broken framing and compression: each vector names
// its breakage and what must still be read.
func TestWARCDamage(t *testing.T) {
	a, b, c := robots200("a.example", robotsBody), robots200("b.example", robotsBody), robots200("c.example", robotsBody)
	good := gz(t, a)
	bad := gz(t, b)
	bad[len(bad)/2] ^= 0xff // corrupt deflate data or checksum
	bigHeader := "WARC/1.0\r\nWARC-Type: response\r\nX-Filler: " + strings.Repeat("x", 3<<20) + "\r\nContent-Length: 2\r\n\r\nab\r\n\r\n"
	short := strings.Replace(b, "Content-Length: "+itoa(int64(len(b)-len("\r\n\r\n")-strings.Index(b, "HTTP/"))), "Content-Length: 20", 1)
	long := strings.Replace(b, "Content-Length: "+itoa(int64(len(b)-len("\r\n\r\n")-strings.Index(b, "HTTP/"))), "Content-Length: 5000", 1)
	noLength := "WARC/1.0\r\nWARC-Type: response\r\n\r\nxyz\r\n\r\n"
	vectors := []struct {
		name     string
		data     []byte
		hosts    []string // hosts of the captures, in order
		damage   []string
		problems []ProblemKind // problem codes of the capture of b.example
		records  int64
	}{
		{"garbage-between-records", []byte(a + "GARBAGE\nMORE GARBAGE\n" + c), []string{"a.example", "c.example"}, []string{DamageGarbage}, nil, 2},
		{"garbage-before-first", []byte("junk junk\r\n" + a), []string{"a.example"}, []string{DamageGarbage}, nil, 1},
		{"trailing-garbage-plain", []byte(a + "\x00\x00\x00trailing"), []string{"a.example"}, []string{DamageGarbage}, nil, 1},
		{"trailing-garbage-gzip", append(good, "GARBAGE_DATA"...), []string{"a.example"}, []string{DamageGarbage}, nil, 1},
		{"garbage-between-members", slices.Concat(good, []byte("NOT A MEMBER"), gz(t, c)), []string{"a.example", "c.example"}, []string{DamageGarbage}, nil, 2},
		{"corrupt-member-mid-file", slices.Concat(good, bad, gz(t, c)), []string{"a.example", "c.example"}, nil, nil, 3},
		{"truncated-member-in-header", slices.Concat(good, gz(t, b)[:60]), []string{"a.example"}, []string{DamageTruncated}, nil, 1},
		{"truncated-member-in-body", slices.Concat(good, gz(t, b)[:len(gz(t, b))-12]), []string{"a.example", "b.example"}, []string{DamageTruncated, DamageRecordBroken}, []ProblemKind{ProblemRecordIncomplete, ProblemInputDamaged}, 2},
		{"header-of-megabytes", []byte(a + bigHeader + c), []string{"a.example", "c.example"}, []string{DamageRecordHeader, DamageGarbage}, nil, 3},
		{"no-content-length", []byte(a + noLength + c), []string{"a.example", "c.example"}, []string{DamageRecordHeader, DamageGarbage}, nil, 3},
		{"content-length-too-short", []byte(a + short + c), []string{"a.example", "b.example", "c.example"}, nil, []ProblemKind{ProblemLengthMismatch}, 3},
		{"content-length-too-long", []byte(a + long + c), []string{"a.example", "b.example", "c.example"}, nil, []ProblemKind{ProblemLengthMismatch}, 3},
		{"content-length-too-long-gzip", perRecord(t, a, long, c), []string{"a.example", "b.example", "c.example"}, nil, []ProblemKind{ProblemLengthMismatch}, 3},
		{"content-length-past-eof", []byte(a + long), []string{"a.example", "b.example"}, []string{DamageRecordBroken}, []ProblemKind{ProblemRecordIncomplete}, 2},
		{"empty-members", slices.Concat(gz(t, ""), good, gz(t, "")), []string{"a.example"}, nil, nil, 1},
		{"empty-input", nil, nil, nil, nil, 0},
	}
	for _, v := range vectors {
		t.Run(v.name, func(t *testing.T) {
			res := readWARC(t, v.data)
			var hosts []string
			for _, cp := range res.caps {
				hosts = append(hosts, cp.Host)
				if cp.Host == "b.example" {
					if got := problemCodes(cp); !slices.Equal(got, v.problems) {
						t.Errorf("problems %q, want %q", got, v.problems)
					}
				} else if len(cp.Problems) != 0 {
					t.Errorf("%s: problems %v", cp.Host, cp.Problems)
				}
			}
			if !slices.Equal(hosts, v.hosts) {
				t.Errorf("captures %q, want %q", hosts, v.hosts)
			}
			kinds := damageKinds(res.counts)
			if v.name == "corrupt-member-mid-file" {
				if len(kinds) == 0 || kinds[0] != DamageCorruptMember {
					t.Errorf("damage %q, want corrupt-member first", kinds)
				}
			} else if !slices.Equal(kinds, v.damage) {
				t.Errorf("damage %q, want %q: %+v", kinds, v.damage, res.counts.Damage)
			}
			if res.counts.Records != v.records {
				t.Errorf("records %d, want %d", res.counts.Records, v.records)
			}
		})
	}
}

// TestGzipDamageKind: a gzip member cut short by the end of the input is
// truncated, and a wrong trailer or bad data before the end is a corrupt
// member, whatever members came before it. (klauspost's inflater alone
// calls the same cut-short member "unexpected EOF" or "corrupt input"
// depending on the members it inflated before.)
func TestGzipDamageKind(t *testing.T) {
	b := robots200("b.example", robotsBody)
	member := gz(t, b)
	badCRC := bytes.Clone(member)
	badCRC[len(badCRC)-8] ^= 0x55 // the trailer's CRC-32
	badHeader := gzipFHCRC(t, b)
	badHeader[10] ^= 0x55 // the header's CRC-16
	badData := bytes.Clone(member)
	badData[len(badData)/2] ^= 0x55
	for _, before := range []int{0, 1, 10, 100, 1000, 40000} {
		var head []byte
		if before > 0 {
			head = gz(t, robots200("a.example", strings.Repeat("a", before)))
		}
		for _, v := range []struct {
			name string
			tail []byte
			want string
		}{
			{"cut in the gzip header", member[:6], DamageTruncated},
			{"cut after the gzip header", member[:15], DamageTruncated},
			// A member the fuzzer made: a gzip header and the first bytes of a
			// dynamic block's header. After no member or some members
			// klauspost says "corrupt input", after others "unexpected EOF".
			{"cut in a block header", []byte("\x1f\x8b\b\x00000000$0\x00\x00"), DamageTruncated},
			{"cut in the data", member[:len(member)/2], DamageTruncated},
			{"cut in the trailer", member[:len(member)-3], DamageTruncated},
			{"wrong CRC-32, last member", badCRC, DamageCorruptMember},
			{"wrong header CRC, last member", badHeader, DamageCorruptMember},
			{"bad data, then a member", slices.Concat(badData, gz(t, robots200("c.example", robotsBody))), DamageCorruptMember},
		} {
			for _, streamed := range []bool{false, true} {
				opts := []Option{WithMode(ModeRobotstxt)}
				if streamed {
					opts = append(opts, withStreamedMembers())
				}
				res := readWARC(t, slices.Concat(head, v.tail), opts...)
				kinds := damageKinds(res.counts)
				if len(kinds) == 0 || kinds[0] != v.want {
					t.Errorf("%d bytes before, %s (streamed %v): damage %q, want %s first", before, v.name, streamed, kinds, v.want)
				}
			}
		}
	}
}

// TestWARCStickyError checks that a failing reader ends reading with an
// *InputError that sticks, after the records before the failure.
func TestWARCStickyError(t *testing.T) {
	data := perRecord(t, robots200("a.example", robotsBody), robots200("b.example", robotsBody))
	r, _ := NewWARCReader(&failingReader{data: data[:len(data)-30], err: errDisk}, "x.warc.gz")
	res := drain(t, r)
	var ie *InputError
	if !errors.As(res.err, &ie) || !errors.Is(res.err, errDisk) || !errors.Is(res.err, ErrRead) {
		t.Fatalf("err %v", res.err)
	}
	if len(res.caps) != 1 {
		t.Errorf("%d captures before the failure, want 1", len(res.caps))
	}
}

func TestWARCOptions(t *testing.T) {
	for _, o := range []Option{WithMaxBody(1000), WithMaxHeaderBytes(10), WithMaxHeaders(1), WithMaxRecordBytes(1), WithMode(Mode(7))} {
		if _, err := NewWARCReader(strings.NewReader(""), "x", o); !errors.Is(err, ErrInvalidOption) {
			t.Errorf("option accepted: %v", err)
		}
	}
	if _, err := NewWARCReader(strings.NewReader(""), "x", WithMaxBody(4<<20), WithMaxRecordBytes(2<<20)); !errors.Is(err, ErrInvalidOption) {
		t.Errorf("MaxRecordBytes below MaxBody accepted: %v", err)
	}
}

func TestParseWARCDate(t *testing.T) {
	f := func(in, want string) {
		t.Helper()
		got, ok := parseWARCDate([]byte(in))
		if s := got.Format("2006-01-02T15:04:05.000Z07:00"); want == "" && ok || want != "" && (!ok || s != want) {
			t.Errorf("%q: %s %v, want %q", in, s, ok, want)
		}
	}
	f("2024-05-18T01:58:10Z", "2024-05-18T01:58:10.000Z")
	f("2024-05-18T01:58:10.123456Z", "2024-05-18T01:58:10.123Z")
	f("2024", "2024-01-01T00:00:00.000Z")
	f("2024-05", "2024-05-01T00:00:00.000Z")
	f("2024-05-18", "2024-05-18T00:00:00.000Z")
	f("2024-05-18T01:58Z", "2024-05-18T01:58:00.000Z")
	f("2019-08-15T01:02", "2019-08-15T01:02:00.000Z")
	f("2008-04-30T20:48:25-07:00", "2008-05-01T03:48:25.000Z")
	f("2008-04-30T20:48:25-0700", "2008-05-01T03:48:25.000Z")
	f("2008-10-294T05:21:46-0700", "")
	f("2024-13-01", "")
	f("2024-05-18T01", "")
	f("yesterday", "")
	f("", "")
}
