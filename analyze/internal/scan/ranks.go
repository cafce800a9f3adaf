package scan

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzip"
)

// Ranks is a ranked host list (Tranco, CrUX, Common Crawl's combined
// Tranco list): the rank of each host, 1 the most popular. Ranks are
// joined with a dataset at report time, never stored in it.
type Ranks struct {
	byHost map[string]int32
	last   int32 // the largest rank
}

// ReadRanks reads a ranked host list: one "RANK,HOST" or "RANK<TAB>HOST"
// line per host (Tranco's CSV), or "HOST<TAB>RANK"; optionally gzipped.
// Blank lines, lines starting with '#' and a header line (a first line
// with no number) are skipped. Hosts are compared in lower case without a
// trailing dot; a host listed twice keeps its best rank.
func ReadRanks(r io.Reader) (*Ranks, error) {
	br := bufio.NewReader(r)
	if head, _ := br.Peek(2); bytes.Equal(head, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("ranks: %w", err)
		}
		defer zr.Close()
		br = bufio.NewReader(zr)
	}
	rk := &Ranks{byHost: map[string]int32{}}
	sc := bufio.NewScanner(br)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		rank, host, ok := rankLine(line)
		if !ok {
			if n == 1 {
				continue // a header
			}
			return nil, fmt.Errorf("ranks: line %d: want RANK,HOST or RANK<TAB>HOST: %q", n, line)
		}
		if old, seen := rk.byHost[host]; !seen || rank < old {
			rk.byHost[host] = rank
		}
		rk.last = max(rk.last, rank)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("ranks: %w", err)
	}
	if len(rk.byHost) == 0 {
		return nil, fmt.Errorf("ranks: no ranked host")
	}
	return rk, nil
}

// rankLine splits a line into its rank and host, in either order.
func rankLine(line string) (int32, string, bool) {
	a, b, ok := strings.Cut(line, ",")
	if !ok {
		if a, b, ok = strings.Cut(line, "\t"); !ok {
			return 0, "", false
		}
	}
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	rank, err := strconv.ParseInt(a, 10, 32)
	if err != nil {
		if rank, err = strconv.ParseInt(b, 10, 32); err != nil {
			return 0, "", false
		}
		a, b = b, a
	}
	host := strings.TrimSuffix(strings.ToLower(b), ".")
	if rank < 1 || host == "" || strings.ContainsAny(host, " /") {
		return 0, "", false
	}
	return int32(rank), host, true
}

// Rank returns the rank of a host (url_host_name), 0 when it is not
// ranked.
func (r *Ranks) Rank(host string) int32 {
	return r.byHost[strings.TrimSuffix(strings.ToLower(host), ".")]
}

// Len returns the number of ranked hosts.
func (r *Ranks) Len() int { return len(r.byHost) }

// A Stratum is the hosts ranked at most Top; Top 0 is every ranked host.
type Stratum struct {
	Name string `json:"name"` // "1k", "10k", ..., "all ranked"
	Top  int32  `json:"top"`
}

// strata are the rank strata of Common Crawl's robotstxt-experiments
// tables (1k to 1M), then every host of the list.
var strata = []Stratum{{"1k", 1_000}, {"10k", 10_000}, {"50k", 50_000}, {"100k", 100_000}, {"1M", 1_000_000}, {"all ranked", 0}}

// Strata returns the strata the list fills: those below its last rank,
// and every ranked host.
func (r *Ranks) Strata() []Stratum {
	var out []Stratum
	for _, s := range strata {
		if s.Top == 0 || s.Top < r.last {
			out = append(out, s)
		}
	}
	return out
}

// In reports whether a host of rank rank (0: not ranked) is in stratum s.
func (s Stratum) In(rank int32) bool { return rank > 0 && (s.Top == 0 || rank <= s.Top) }

// Count returns the number of ranked hosts in stratum s.
func (r *Ranks) Count(s Stratum) int64 {
	var n int64
	for _, rank := range r.byHost {
		if s.In(rank) {
			n++
		}
	}
	return n
}
