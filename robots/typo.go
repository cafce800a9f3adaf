package robots

import (
	"strings"
	"unicode"
)

// Near misses: keys Google's parser drops that were surely meant as one of
// its four directives.

// nearMissTargets are the directive names, letters only, that a key is
// compared with, and the largest edit distance that still counts as a typo.
var nearMissTargets = [...]struct {
	letters, name string
	maxDist       int
}{
	{"useragent", "user-agent", 2},
	{"disallow", "disallow", 2},
	{"sitemap", "sitemap", 2},
	{"allow", "allow", 1},
}

// nearMissTarget returns the directive that key is a near miss of, or "".
// The key is reduced to its lower-case letters ("User_Agent" is
// "useragent"), then compared by optimal string alignment distance (edits
// and swaps of neighbours): at most 1 from "allow", at most 2 from the
// longer names.
func nearMissTarget(key string) string {
	var buf [24]byte
	n := 0
	for i := 0; i < len(key); i++ {
		c := key[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c < 'a' || c > 'z' {
			continue
		}
		if n == len(buf) {
			return ""
		}
		buf[n] = c
		n++
	}
	if n < 3 {
		return ""
	}
	for _, t := range nearMissTargets {
		if osaDistance(buf[:n], t.letters, t.maxDist) <= t.maxDist {
			return t.name
		}
	}
	return ""
}

// osaDistance returns the optimal string alignment distance between a and b,
// or a value above limit as soon as it must exceed it. Both are at most 24
// bytes.
func osaDistance(a []byte, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	var rows [3][25]int
	prev2, prev, cur := &rows[0], &rows[1], &rows[2]
	for j := 0; j <= len(b); j++ {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			best = min(best, v)
		}
		if best > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// isKeyLike reports whether a key is made only of letters, '-', '_' and
// spaces, as a misspelling typed by hand would be.
func isKeyLike(k string) bool {
	for i := 0; i < len(k); i++ {
		if c := k[i]; !isLetter(c) && c != '-' && c != '_' && c != ' ' {
			return false
		}
	}
	return true
}

// looksLikeSeveralPaths reports whether a value with whitespace holds more
// than one path: its second word starts like a path or a URL.
func looksLikeSeveralPaths(v string) bool {
	// The second of strings.Fields(v), found without making the list (a
	// message is formatted without allocating).
	v = strings.TrimLeftFunc(v, unicode.IsSpace)
	i := strings.IndexFunc(v, unicode.IsSpace)
	if i < 0 {
		return false
	}
	w := strings.TrimLeftFunc(v[i:], unicode.IsSpace)
	if j := strings.IndexFunc(w, unicode.IsSpace); j >= 0 {
		w = w[:j]
	}
	return w != "" && (w[0] == '/' || w[0] == '*' || isURL(w))
}
