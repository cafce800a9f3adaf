package robots

import (
	"strings"
	"testing"
)

// Allocations per parse grow with the rules of a file, not with its lines:
// comments, blank lines and unknown lines cost no allocation, and a match
// costs none at all.
func TestAllocationsBoundedByRules(t *testing.T) {
	const rules = "User-agent: *\nDisallow: /a/\nDisallow: /b/\nAllow: /a/b/\nSitemap: https://e.com/s.xml\n"
	base := testing.AllocsPerRun(20, func() { ParseString(rules) })
	for _, filler := range []string{"# a comment line\n", "\n", "Crawl-delay: 1\n", "Noindex: /x/\n"} {
		body := rules + strings.Repeat(filler, 5000)
		got := testing.AllocsPerRun(5, func() { ParseString(body) })
		// The diagnostics slice grows geometrically (doubling, then by
		// 1.25): about 20 more allocations for 5000 findings, not 5000.
		if got > base+24 {
			t.Errorf("5000 lines of %q: %.0f allocations, against %.0f for the rules alone", filler, got, base)
		}
	}
	f := ParseString(rules)
	if n := testing.AllocsPerRun(100, func() { f.Allowed("https://e.com/a/c?x", "Googlebot") }); n != 0 {
		t.Errorf("Allowed allocates %.0f times", n)
	}
	if base > 8 {
		t.Errorf("a 4-rule file costs %.0f allocations", base)
	}
}
