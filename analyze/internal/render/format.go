package render

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// fmtInt writes n with thousands separators: 1,234,567.
func Int(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// fmtShare writes a fraction as a percentage with one decimal; shares
// between 0 and 0.05% are "<0.1%", and those between 99.95% and 100%
// ">99.9%", so that neither rounds to all or nothing.
func Share(f float64) string {
	switch {
	case f == 0:
		return "0%"
	case f > 0 && f < 0.0005:
		return "<0.1%"
	case f < 1 && f >= 0.9995:
		return ">99.9%"
	}
	return strconv.FormatFloat(math.Round(f*1000)/10, 'f', 1, 64) + "%"
}

// fmtPoints writes a change of share in percentage points: "+1.2 pp".
func Points(d float64) string {
	return fmt.Sprintf("%+.1f pp", d*100)
}

// fmtBytes writes a size in B, KiB or MiB.
func Bytes(n int64) string {
	switch {
	case n < 1<<10:
		return Int(n) + " B"
	case n < 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<10), 'f', 1, 64) + " KiB"
	}
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
}

func Plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// status formats a fetch_status; 0 is NULL.
func Status(s int32) string {
	if s == 0 {
		return "no status"
	}
	return fmt.Sprint(s)
}
