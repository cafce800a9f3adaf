package archive

import (
	"bytes"
	"slices"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/robocensus/robocensus/internal/testutil"
)

// makeTar builds a tar archive: a folder, bodies under the corpus's naming
// schemes, a symbolic link and a body whose name gives no host.

var wantTarHosts = []string{"example.com", "0002.com", "www.usda.gov", ""}

func readTar(t *testing.T, data []byte, name string) readResult {
	t.Helper()
	r, err := NewTarReader(bytes.NewReader(data), name)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	return drain(t, r)
}

func tarHosts(res readResult) []string {
	var out []string
	for _, c := range res.caps {
		out = append(out, c.Host)
	}
	return out
}

func TestTarReader(t *testing.T) {
	plain := makeTar(t)
	enc, _ := zstd.NewWriter(nil)
	for _, v := range []struct {
		name string
		data []byte
	}{{"x.tar", plain}, {"x.tar.gz", gz(t, string(plain))}, {"x.tar.zst", enc.EncodeAll(plain, nil)}} {
		t.Run(v.name, func(t *testing.T) {
			res := readTar(t, v.data, v.name)
			if got := tarHosts(res); !slices.Equal(got, wantTarHosts) {
				t.Errorf("hosts %q, want %q", got, wantTarHosts)
			}
			if res.counts.Records != 6 || res.counts.Skipped[SkipNotRegular] != 2 || res.counts.Bytes != int64(len(v.data)) {
				t.Errorf("counts %+v", res.counts)
			}
			c := res.caps[0]
			if c.URL != "https://example.com/robots.txt" || string(c.Body) != robotsBody || c.Status != 0 || !c.FetchTime.Equal(mtime) ||
				c.RecordID != "tar:"+v.name+":robots/Example.COM" || c.PayloadDigest == "" {
				t.Errorf("capture %+v", c)
			}
			if s := c.Source; string(plain[s.Offset:s.Offset+s.Length]) != robotsBody || s.Uncompressed != (v.name != "x.tar") {
				t.Errorf("source %+v", s)
			}
			if !res.caps[3].HasProblem(ProblemHostUnknown) || res.caps[3].URL != "" {
				t.Errorf("no host: %+v", res.caps[3])
			}
		})
	}
}

func TestTarDamage(t *testing.T) {
	plain := makeTar(t)
	// Break the checksum of the second header (robots/Example.COM): the
	// reader scans for the next valid header and reads on.
	broken := slices.Clone(plain)
	broken[512+148] ^= 0x07
	res := readTar(t, broken, "x.tar")
	if got := tarHosts(res); !slices.Equal(got, wantTarHosts[1:]) {
		t.Errorf("hosts %q", got)
	}
	if kinds := damageKinds(res.counts); !slices.Equal(kinds, []string{DamageTarHeader}) || res.counts.Damage[0].Skipped != 1024 {
		t.Errorf("damage %+v", res.counts.Damage)
	}
	// A cut archive: the entries before the cut are read.
	res = readTar(t, plain[:512*3+100], "x.tar")
	if got := tarHosts(res); len(got) != 1 || res.caps[0].Truncated != TruncatedInput && !slices.Equal(damageKinds(res.counts), []string{DamageTruncated}) {
		t.Errorf("cut: hosts %q damage %+v", got, res.counts.Damage)
	}
	// Garbage is not a tar.
	res = readTar(t, bytes.Repeat([]byte("garbage!"), 200), "x.tar")
	if len(res.caps) != 0 || res.counts.DamageCount == 0 {
		t.Errorf("garbage: %+v", res.counts)
	}
}

func TestHostFromName(t *testing.T) {
	f := func(name, want string) {
		t.Helper()
		if got := HostFromName(name); got != want {
			t.Errorf("%q: %q, want %q", name, got, want)
		}
	}
	f("robots/007-proxy-finder.soft112.com", "007-proxy-finder.soft112.com")
	f("robots/000webhost.com-robots.txt", "000webhost.com")
	f("RobotsFiles/---love-aparat---xd.flog.pl", "---love-aparat---xd.flog.pl")
	f("data/fed_gov_from_usa_dot_gov/www.fgdc.gov", "www.fgdc.gov")
	f("example.org/robots.txt", "example.org")
	f("astore.amazon.com-robots.txt", "astore.amazon.com")
	f("rfc9309-example-simple-robots.txt", "")
	f("wildcards.txt", "")
	f("robots/we ird.com", "")
	f("robots/..com", "")
	f("robots/www.icaew.com:443", "www.icaew.com")
	f("robots/contact@tuva.work", "tuva.work")
	f("robots/www.nørrebo.dk", "www.nørrebo.dk")
	for name, want := range map[string]string{"robots/a.com:80": "http://a.com/robots.txt", "robots/a.com:443": "https://a.com/robots.txt",
		"robots/a.com:8443": "https://a.com:8443/robots.txt", "robots/a.com": "https://a.com/robots.txt"} {
		if _, got := urlFromName(name); got != want {
			t.Errorf("%s: URL %q, want %q", name, got, want)
		}
	}
}

// TestCorpusTar reads the real tar archives of the shared corpus: every
// regular entry is a capture with a host.
func TestCorpusTar(t *testing.T) {
	for _, v := range []struct {
		file              string
		entries, captures int64
	}{
		{"egonkm-robots-txt/robots.tar.gz", 31759, 31758},
		{"nrjones8-gov-robots-archive/raw-bodies.tar.gz", 9438, 9438},
		{"danielmiessler-alexa100k-2015/html-sample.tar.gz", 1004, 1004},
	} {
		t.Run(v.file, func(t *testing.T) {
			r, closer, err := Open(testutil.Corpus(t, "robots", v.file))
			if err != nil {
				t.Fatal(err)
			}
			defer closer.Close()
			res := drain(t, r)
			if res.err != nil || res.counts.Records != v.entries || res.counts.Captures != v.captures || res.counts.DamageCount != 0 {
				t.Fatalf("err %v counts %+v", res.err, res.counts)
			}
			for _, c := range res.caps {
				if c.Host == "" || c.BodySize != int64(len(c.Body)) && !c.HasProblem(ProblemBodyCapped) {
					t.Errorf("%s: host %q size %d len %d", c.RecordID, c.Host, c.BodySize, len(c.Body))
				}
			}
		})
	}
}
