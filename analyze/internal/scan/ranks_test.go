package scan

import (
	"bytes"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

func TestReadRanks(t *testing.T) {
	text := "rank,domain\n1,Google.com\n2,example.org.\n\n# a comment\n3\twww.example.net\nexample.com\t4\n2,google.com\n1500,big.example\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text))
	zw.Close()
	for name, data := range map[string][]byte{"plain": []byte(text), "gzip": gz.Bytes()} {
		t.Run(name, func(t *testing.T) {
			r, err := ReadRanks(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			for host, want := range map[string]int32{"google.com": 1, "GOOGLE.COM.": 1, "example.org": 2, "www.example.net": 3, "example.com": 4, "big.example": 1500, "other.example": 0} {
				if got := r.Rank(host); got != want {
					t.Errorf("Rank(%q) = %d, want %d", host, got, want)
				}
			}
			if r.Len() != 5 {
				t.Errorf("Len = %d, want 5", r.Len())
			}
			var names []string
			for _, s := range r.Strata() {
				names = append(names, s.Name)
			}
			if got := strings.Join(names, ","); got != "1k,all ranked" {
				t.Errorf("strata %s", got)
			}
		})
	}
	for _, bad := range []string{"", "rank,host\n", "1,a.example\nnot a line\n", "1,a.example\n0,b.example\n", "1,a.example\n2,a b\n"} {
		if _, err := ReadRanks(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadRanks(%q) accepted", bad)
		}
	}
}

func TestStratumIn(t *testing.T) {
	top10k := Stratum{Name: "10k", Top: 10_000}
	all := Stratum{Name: "all ranked", Top: 0}
	for _, c := range []struct {
		s    Stratum
		rank int32
		want bool
	}{{top10k, 1, true}, {top10k, 10_000, true}, {top10k, 10_001, false}, {top10k, 0, false}, {all, 2_000_000, true}, {all, 0, false}} {
		if got := c.s.In(c.rank); got != c.want {
			t.Errorf("%s.In(%d) = %v", c.s.Name, c.rank, got)
		}
	}
}
