package render

import (
	"testing"
)

func TestFormatting(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Int(1234567), "1,234,567"}, {Int(-1000), "-1,000"}, {Int(12), "12"},
		{Share(0), "0%"}, {Share(0.0004), "<0.1%"}, {Share(0.6767), "67.7%"}, {Share(1), "100.0%"},
		{Share(9401.0 / 9403), ">99.9%"}, {Share(0.9994), "99.9%"}, {Share(0.9995), ">99.9%"}, {Share(0.0005), "0.1%"},
		{Bytes(512000), "500.0 KiB"}, {Bytes(80), "80 B"}, {Points(0.0123), "+1.2 pp"},
		{Code("a|b`c"), "``a\\|b`c``"}, {Escape("<b>|*x*"), `&lt;b&gt;\|\*x\*`},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
