package hosts

import (
	"errors"
	"fmt"
	"io"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/robocensus/robocensus/schema"
)

// redirectCrawl is a synthetic partition whose hosts cover every redirect
// case: same-host scheme changes, cross-host redirects, chains of 2 to 6
// hops, loops, targets not captured, relative and odd Locations, mixed
// http/https captures of one host, and each HTTP class. want holds the
// hosts rows it must give, in host order.
func redirectCrawl() (caps []schema.Capture, want []schema.Host) {
	t0 := time.Date(2025, 1, 13, 4, 0, 0, 0, time.UTC)
	n := 0
	add := func(rawURL string, status int32, outcome, location string, rules int32) string {
		n++
		host := strings.ToLower(strings.Split(strings.Split(rawURL, "://")[1], "/")[0])
		host = strings.Split(host, ":")[0]
		id := fmt.Sprintf("c%02d", n)
		caps = append(caps, schema.Capture{CaptureID: id, URL: rawURL, URLHostName: host, FetchTime: t0.Add(time.Duration(n) * time.Minute),
			FetchStatus: status, Outcome: outcome, FetchRedirect: location, RuleCount: rules})
		return id
	}
	host := func(name, domain, id string, captures, hops int32, result, eff, effOutcome, class string) {
		want = append(want, schema.Host{URLHostName: name, URLHostRegisteredDomain: domain, CaptureID: id, Captures: captures,
			RedirectHops: hops, RedirectResult: result, EffectiveCaptureID: eff, EffectiveOutcome: effOutcome, FetchClass: class})
	}
	// A plain robots.txt.
	a := add("https://a.example/robots.txt", 200, "rules", "", 3)
	host("a.example", "a.example", a, 1, 0, "none", a, "rules", "robots-with-rules")
	// Same host, http to https: the https answer decides.
	add("http://b.example/robots.txt", 301, "redirect", "https://b.example/robots.txt", 0)
	b := add("https://b.example/robots.txt", 200, "no-rules", "", 0)
	host("b.example", "b.example", b, 2, 0, "none", b, "no-rules", "robots-no-rules")
	// Cross host, to a target captured later in the partition.
	c := add("https://c.example/robots.txt", 301, "redirect", "https://www.c.example/robots.txt", 0)
	wc := add("https://www.c.example/robots.txt", 200, "rules", "", 5)
	host("c.example", "c.example", c, 1, 1, "resolved", wc, "rules", "robots-with-rules")
	host("www.c.example", "c.example", wc, 1, 0, "none", wc, "rules", "robots-with-rules")
	// A chain of two, the second relative.
	d := add("http://d.example/robots.txt", 302, "redirect", "https://d2.example/robots.txt", 0)
	d2 := add("https://d2.example/robots.txt", 301, "redirect", "/new/robots.txt", 0)
	d2new := add("https://d2.example/new/robots.txt", 200, "rules", "", 1)
	host("d.example", "d.example", d, 1, 2, "resolved", d2new, "rules", "robots-with-rules")
	host("d2.example", "d2.example", d2new, 2, 0, "none", d2new, "rules", "robots-with-rules")
	_ = d2
	// Six redirects e1 -> ... -> e7: from e1 too many, from e2 five, resolved.
	// Five is written out, not read from maxRedirectHops, so that a change of
	// the limit fails here (issue 27 item 16): RFC 9309 §2.3.1.2 asks for at
	// least five, and Google follows five.
	const fiveHops = 5
	var es []string
	for i := 1; i <= 6; i++ {
		es = append(es, add(fmt.Sprintf("https://e%d.example/robots.txt", i), 301, "redirect", fmt.Sprintf("https://e%d.example/robots.txt", i+1), 0))
	}
	e7 := add("https://e7.example/robots.txt", 404, "allow-all", "", 0)
	for i, id := range es {
		name := fmt.Sprintf("e%d.example", i+1)
		if hops := int32(6 - i); hops > fiveHops {
			host(name, name, id, 1, fiveHops, "too-many-hops", "", "redirect", "redirect-not-resolved")
		} else {
			host(name, name, id, 1, hops, "resolved", e7, "allow-all", "http-allow-all")
		}
	}
	host("e7.example", "e7.example", e7, 1, 0, "none", e7, "allow-all", "http-allow-all")
	// A loop between two hosts, and a redirect to itself.
	f := add("https://f.example/robots.txt", 301, "redirect", "https://g.example/robots.txt", 0)
	g := add("https://g.example/robots.txt", 302, "redirect", "https://f.example/robots.txt", 0)
	s := add("https://self.example/robots.txt", 301, "redirect", "https://SELF.example:443/robots.txt", 0)
	host("f.example", "f.example", f, 1, 1, "loop", "", "redirect", "redirect-not-resolved")
	host("g.example", "g.example", g, 1, 1, "loop", "", "redirect", "redirect-not-resolved")
	host("self.example", "self.example", s, 1, 0, "loop", "", "redirect", "redirect-not-resolved")
	// A target never captured; no Location; a Location that is not http(s).
	h := add("https://h.example/robots.txt", 302, "redirect", "https://elsewhere.example/robots.txt", 0)
	host("h.example", "h.example", h, 1, 1, "not-captured", "", "redirect", "redirect-not-resolved")
	j := add("https://j.example/robots.txt", 301, "redirect", "", 0)
	host("j.example", "j.example", j, 1, 0, "invalid-location", "", "redirect", "redirect-not-resolved")
	k := add("https://k.example/robots.txt", 301, "redirect", "ftp://k.example/robots.txt", 0)
	host("k.example", "k.example", k, 1, 0, "invalid-location", "", "redirect", "redirect-not-resolved")
	// Upper case, default port: the same URL as the target's capture.
	m := add("http://m.example/robots.txt", 301, "redirect", "HTTPS://Www.M.Example:443/robots.txt", 0)
	wm := add("https://www.m.example/robots.txt", 200, "not-robots", "", 0)
	host("m.example", "m.example", m, 1, 1, "resolved", wm, "not-robots", "not-robots")
	host("www.m.example", "m.example", wm, 1, 0, "none", wm, "not-robots", "not-robots")
	// Mixed answers of one host: allow-all wins over forbidden and defer.
	add("http://mixed.example/robots.txt", 503, "disallow-all", "", 0)
	add("https://mixed.example/robots.txt", 404, "allow-all", "", 0)
	mx := add("https://mixed.example:8443/robots.txt", 403, "allow-all", "", 0)
	host("mixed.example", "mixed.example", mx, 3, 0, "none", mx, "allow-all", "http-allow-all")
	// A redirect to a success and a direct 503: the success wins, the
	// deciding capture is the 503 (not a redirect).
	p503 := add("https://p.example/robots.txt", 503, "disallow-all", "", 0)
	add("http://p.example/robots.txt", 301, "redirect", "https://a.example/robots.txt", 0)
	host("p.example", "p.example", p503, 2, 0, "none", p503, "disallow-all", "robots-with-rules")
	// Forbidden, defer visits (429), a tar entry with rules; an IP address
	// and a name under a multi-label public suffix.
	q := add("https://q.example/robots.txt", 403, "allow-all", "", 0)
	host("q.example", "q.example", q, 1, 0, "none", q, "allow-all", "http-forbidden")
	r := add("https://r.example/robots.txt", 429, "disallow-all", "", 0)
	host("r.example", "r.example", r, 1, 0, "none", r, "disallow-all", "http-defer-visits")
	tar := add("https://tar.example/robots.txt", 0, "unknown", "", 2)
	host("tar.example", "tar.example", tar, 1, 0, "none", tar, "unknown", "robots-with-rules")
	// A tar entry that is an HTML page without rules: not-robots, as with 200.
	tarPage := add("https://tar-page.example/robots.txt", 0, "not-robots", "", 0)
	host("tar-page.example", "tar-page.example", tarPage, 1, 0, "none", tarPage, "not-robots", "not-robots")
	ip := add("http://192.0.2.7/robots.txt", 200, "no-rules", "", 0)
	host("192.0.2.7", "", ip, 1, 0, "none", ip, "no-rules", "robots-no-rules")
	uk := add("https://www.shop.co.uk/robots.txt", 200, "rules", "", 1)
	host("www.shop.co.uk", "shop.co.uk", uk, 1, 0, "none", uk, "rules", "robots-with-rules")
	// A target captured twice: the latest capture of that URL answers.
	add("https://t.example/robots.txt", 200, "no-rules", "", 0)
	t2 := add("https://t.example/robots.txt", 200, "rules", "", 4)
	u := add("https://u.example/robots.txt", 308, "redirect", "https://t.example/robots.txt", 0)
	host("t.example", "t.example", t2, 2, 0, "none", t2, "rules", "robots-with-rules")
	host("u.example", "u.example", u, 1, 1, "resolved", t2, "rules", "robots-with-rules")
	slices.SortFunc(want, compareHosts)
	return caps, want
}

// TestHostsRedirectCrawl computes the hosts of the synthetic redirect
// crawl through Parquet files, with one bucket and with buckets so small
// that every chain crosses them, and compares each row field by field.
func TestHostsRedirectCrawl(t *testing.T) {
	caps, want := redirectCrawl()
	defer func(n int64) { hostsBucketCaptures = n }(hostsBucketCaptures)
	for _, perBucket := range []int64{1_000, 7, 1} {
		t.Run(fmt.Sprint(perBucket), func(t *testing.T) {
			hostsBucketCaptures = perBucket
			got := buildHostsOf(t, caps)
			if len(got) != len(want) {
				t.Fatalf("%d hosts, want %d", len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("host %s:\n got %+v\nwant %+v", want[i].URLHostName, got[i], want[i])
				}
			}
		})
	}
}

// buildHostsOf writes caps as two captures files (as merged parts are),
// builds the hosts table and returns its rows, in host order. The spill
// folder must be gone once Build returns.
func buildHostsOf(t *testing.T, caps []schema.Capture) []schema.Host {
	t.Helper()
	dir := t.TempDir()
	half := len(caps) / 2
	parts := writeCaptures(t, dir, [][]schema.Capture{caps[:half], caps[half:]})
	var got []schema.Host
	spill := filepath.Join(dir, "hosts-work")
	if err := Build(spill, parts, func(rows []schema.Host) error { got = append(got, rows...); return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(spill); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("spill folder left: %v", err)
	}
	slices.SortFunc(got, compareHosts)
	return got
}

// writeCaptures writes each of parts as a captures file in dir and
// returns their paths.
func writeCaptures(t testing.TB, dir string, parts [][]schema.Capture, opts ...schema.WriterOption) []string {
	t.Helper()
	var paths []string
	for i, part := range parts {
		path := filepath.Join(dir, schema.PartName(i))
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w := schema.NewWriter[schema.Capture](f, opts...)
		for len(part) > 0 { // as the pipeline writes, a flush at a time
			n := min(len(part), 16<<10)
			if _, err := w.Write(part[:n]); err != nil {
				t.Fatal(err)
			}
			part = part[n:]
		}
		if err := errors.Join(w.Close(), f.Close()); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	return paths
}

// eachCapture calls f with each row of the captures file at path, as
// schema.Reader assembles it.
func eachCapture(path string, f func(*schema.Capture)) error {
	return withFile(path, func(file *os.File, size int64) error {
		r, err := schema.NewReader[schema.Capture](file, size)
		if err != nil {
			return err
		}
		defer r.Close()
		rows := make([]schema.Capture, 1024)
		for {
			n, err := r.Read(rows)
			for i := range rows[:n] {
				f(&rows[i])
			}
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
		}
	})
}

// compareHosts orders rows by host.
func compareHosts(a, b schema.Host) int { return strings.Compare(a.URLHostName, b.URLHostName) }

// captureColumns reads columns of the captures table: each field has the
// name, type and tag of a field of schema.Capture, and one setter, of its
// column and of that column's kind.
func TestCaptureColumnsMatchSchema(t *testing.T) {
	want := reflect.TypeFor[schema.Capture]()
	got := reflect.TypeFor[captureColumns]()
	columns := parquet.SchemaOf(schema.Capture{})
	var setters []string
	for _, c := range captureColumnSetters {
		setters = append(setters, c.Name)
		leaf, ok := columns.Lookup(c.Name)
		if !ok || leaf.Node.Type().Kind() != c.Kind {
			t.Errorf("setter of %s: schema.Capture has no %s column %s", c.Name, c.Kind, c.Name)
		}
	}
	for i := range got.NumField() {
		f := got.Field(i)
		w, ok := want.FieldByName(f.Name)
		if !ok || w.Type != f.Type || w.Tag.Get("parquet") != f.Tag.Get("parquet") {
			t.Errorf("captureColumns.%s %s `%s` is not a column of schema.Capture", f.Name, f.Type, f.Tag)
		}
		name, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
		if n := slices.Index(setters, name); n < 0 {
			t.Errorf("captureColumns.%s: no setter of column %s", f.Name, name)
		} else {
			setters = slices.Delete(setters, n, n+1)
		}
	}
	if len(setters) != 0 {
		t.Errorf("setters of columns captureColumns does not have: %v", setters)
	}
}

// TestEachCaptureColumnsReadsWhatRowsHold reads a captures file of many
// row groups and pages, with NULLs and dictionary pages, column by column,
// and compares each row with the row schema.Reader assembles.
func TestEachCaptureColumnsReadsWhatRowsHold(t *testing.T) {
	t0 := time.Date(2025, 1, 13, 4, 0, 0, 0, time.UTC)
	outcomes := []string{"rules", "no-rules", "redirect", "allow-all", "disallow-all", "not-robots", "unknown", "an outcome of tomorrow"}
	var caps []schema.Capture
	for i := range 4_321 {
		c := schema.Capture{CaptureID: fmt.Sprintf("c%05d", i), URL: fmt.Sprintf("https://h%d.example/robots.txt", i%977),
			URLHostName: fmt.Sprintf("h%d.example", i%977), Outcome: outcomes[i%len(outcomes)], RuleCount: int32(i % 13)}
		if i%5 != 0 { // else NULL
			c.FetchTime = t0.Add(time.Duration(i) * time.Second)
		}
		if i%7 != 0 {
			c.FetchStatus = int32(200 + i%400)
		}
		if i%3 == 0 {
			c.FetchRedirect = fmt.Sprintf("/moved/%d", i)
		}
		caps = append(caps, c)
	}
	// One file of row groups of 1,000 rows and small pages.
	path := writeCaptures(t, t.TempDir(), [][]schema.Capture{caps}, schema.WithRowGroupRows(1_000), schema.WithPageBufferSize(4<<10))[0]
	err := withFile(path, func(file *os.File, size int64) error {
		pf, err := parquet.OpenFile(file, size)
		if err == nil && len(pf.RowGroups()) < 4 {
			err = fmt.Errorf("%d row groups", len(pf.RowGroups()))
		}
		return err
	})
	if err != nil {
		t.Fatalf("want a file of 4 row groups or more: %v", err)
	}
	var want []schema.Capture
	if err := eachCapture(path, func(c *schema.Capture) { want = append(want, *c) }); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(caps) {
		t.Fatalf("schema.Reader read %d rows of %d", len(want), len(caps))
	}
	i := 0
	err = eachCaptureColumns(path, func(r *captureColumns) error {
		w := &want[i]
		got := captureColumns{CaptureID: w.CaptureID, URL: w.URL, URLHostName: w.URLHostName, FetchTime: w.FetchTime, FetchStatus: w.FetchStatus,
			FetchRedirect: w.FetchRedirect, Outcome: w.Outcome, RuleCount: w.RuleCount}
		if !r.FetchTime.Equal(got.FetchTime) || r.FetchTime.UnixMicro() != got.FetchTime.UnixMicro() {
			t.Errorf("row %d: fetch_time %v, want %v", i, r.FetchTime, got.FetchTime)
		}
		r.FetchTime, got.FetchTime = time.Time{}, time.Time{}
		if *r != got {
			t.Errorf("row %d:\n got %+v\nwant %+v", i, *r, got)
		}
		i++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if i != len(want) {
		t.Errorf("eachCaptureColumns read %d rows of %d", i, len(want))
	}
}

// FuzzPlainKey: a URL plainKey takes as its own key parses, and urlKey
// gives that key; the plain form of robots.txt URLs is taken.
func FuzzPlainKey(f *testing.F) {
	for _, s := range []string{"https://a.example/robots.txt", "http://www.b-c.example/robots.txt", "http://A.example/robots.txt",
		"http://a.example:80/robots.txt", "https://a.example/r?q", "https://a.example/%7e", "http:///x", "http://a.example",
		"https://a.example//x/./~_-", "http://-/", "http://1.2.3.4/robots.txt", "ftp://a.example/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		key, ok := plainKey(raw)
		if !ok {
			return
		}
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatalf("plainKey(%q) = %q, but url.Parse fails: %v", raw, key, err)
		}
		if want := urlKey(u); key != want {
			t.Fatalf("plainKey(%q) = %q, urlKey %q", raw, key, want)
		}
	})
}

// TestPlainKeyTakesRobotsURLs: the fast path is taken where it should be.
func TestPlainKeyTakesRobotsURLs(t *testing.T) {
	for _, raw := range []string{"https://a.example/robots.txt", "http://www.b-c.example/robots.txt", "http://10.0.0.1/robots.txt"} {
		if key, ok := plainKey(raw); !ok || key != raw {
			t.Errorf("plainKey(%q) = %q, %v", raw, key, ok)
		}
	}
	for _, raw := range []string{"http://A.example/robots.txt", "http://a.example:80/robots.txt", "https://a.example/r?q", "https://a.example/%7e", "http:///x", "http://a.example", "ftp://a.example/"} {
		if key, ok := plainKey(raw); ok {
			t.Errorf("plainKey(%q) = %q, want the slow path", raw, key)
		}
	}
}

// TestHostsWorkers: a bucket worked on a CPU, no more than there are
// buckets, and as many as the memory limit holds.
func TestHostsWorkers(t *testing.T) {
	const none = math.MaxInt64
	bucket := hostsBucketCaptures * hostsCaptureBytes
	for _, c := range []struct {
		buckets, cpus int
		limit         int64
		want          int
	}{
		{10, 4, none, 4},
		{1, 8, none, 1},
		{3, 8, none, 3},
		{10, 8, 48<<20 + 2*bucket, 2},
		{10, 8, 48<<20 + 2*bucket - 1, 1},
		{10, 8, 10 << 20, 1},
		{0, 8, none, 1},
	} {
		if got := hostsWorkers(c.buckets, c.cpus, c.limit); got != c.want {
			t.Errorf("hostsWorkers(%d buckets, %d CPUs, limit %d) = %d, want %d", c.buckets, c.cpus, c.limit, got, c.want)
		}
	}
}

// TestSpillRoundTrip: what a spillWriter writes, a spillReader reads back
// the same, and every cut of it short of its end is errSpillCorrupt, not a
// panic or a wrong value taken as right.
func TestSpillRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "spill")
	c := hostCapture{id: "id1", host: "example.com", key: "example.com/robots.txt", target: "www.example.com/robots.txt",
		status: 301, outcome: "redirect", rules: -1, fetched: 1_700_000_000_000_000}
	ch := chase{src: 3, idx: 1 << 20, hops: 2, key: "www.example.com/robots.txt", visited: []string{"a/robots.txt", ""}}
	e := chainEnd{result: "ok", hops: 2, id: "id2", outcome: "rules", class: 4}
	w := newSpillWriter(path)
	w.capture(&c)
	w.chase(&ch)
	w.end(7, e)
	if err := w.close(); err != nil {
		t.Fatal(err)
	}
	read := func(r *spillReader) (hostCapture, chase, uint32, chainEnd) {
		var gc hostCapture
		var gch chase
		r.capture(&gc)
		r.chase(&gch)
		idx, ge := r.end()
		return gc, gch, idx, ge
	}
	entries := 0
	err := readSpill(path, func(r *spillReader) error {
		entries++
		gc, gch, idx, ge := read(r)
		if r.err != nil {
			return r.err
		}
		if gc != c || !reflect.DeepEqual(gch, ch) || idx != 7 || ge != e {
			t.Errorf("read back %+v %+v %d %+v, want %+v %+v 7 %+v", gc, gch, idx, ge, c, ch, e)
		}
		return nil
	})
	if err != nil || entries != 1 {
		t.Fatalf("readSpill: %d entries, error %v; want 1, nil", entries, err)
	}

	var raw []byte // the entries as written, before compression
	readSpill(path, func(r *spillReader) error { raw, r.rest = r.rest, nil; return nil })
	for n := range len(raw) {
		r := &spillReader{rest: raw[:n]}
		read(r)
		if r.err != errSpillCorrupt {
			t.Errorf("cut at %d of %d bytes: error %v, want errSpillCorrupt", n, len(raw), r.err)
		}
	}
	r := &spillReader{rest: []byte{5, 'a', 'b'}}
	if s := r.str(); s != "" || r.err != errSpillCorrupt {
		t.Errorf("a string of 5 bytes cut at 2: %q, error %v; want \"\", errSpillCorrupt", s, r.err)
	}
	r = &spillReader{rest: []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}}
	if r.uvarint(); r.err != errSpillCorrupt {
		t.Errorf("a varint over 64 bits: error %v, want errSpillCorrupt", r.err)
	}
}
