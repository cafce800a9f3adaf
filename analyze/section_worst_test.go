package analyze_test

import (
	"fmt"
	"testing"
	"time"
)

// TestWorstSection checks the worst hosts section (section_worst.go) on a
// fixture counted by hand.
func TestWorstSection(t *testing.T) {
	var p partition
	p.site("w1", "b.example", 200, "User-agent: *\nDisallo: /a\nDisallo: /b\n", fetched)                              // 2 errors
	p.site("w2", "a.example", 200, "User-agent: *\nDisallo: /a\nDisallo: /b\n", fetched)                              // 2 errors, first by name
	p.site("w3", "c.example", 200, "User-agent: *\nDisallo: /a\n", fetched)                                           // 1 error
	p.site("w4", "c.example", 200, "User-agent: *\nDisallo: /a\nDisallo: /b\nDisallo: /c\n", fetched.Add(-time.Hour)) // older: does not decide
	p.site("w5", "fine.example", 200, "User-agent: *\nDisallow: /a\n", fetched)
	p.site("w6", "gone.example", 503, "", fetched) // http-5xx
	for batches, c := range sectionCrawl(t, &p) {
		var got []string
		for _, h := range c.WorstHosts {
			got = append(got, fmt.Sprint(h.Host, " ", h.CaptureID, " ", h.Errors, " ", h.Warnings, " ", h.Codes))
		}
		want := []string{"a.example w2 2 0 [typo-ignored]", "b.example w1 2 0 [typo-ignored]", "c.example w3 1 0 [typo-ignored]", "gone.example w6 1 0 [http-5xx]"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%d batches: worst hosts\n%v, want\n%v", batches, got, want)
		}
	}
}
