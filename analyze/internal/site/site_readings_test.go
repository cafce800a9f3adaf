package site

import (
	"fmt"
	"slices"
	"testing"
)

// The site report lists every line of the body that other parsers read
// differently, also those that change no tracked crawler's root verdict
// or full block, which the readings table leaves out: WordPress's Allow
// after its Disallow (first match for Python 3.12 and earlier), a crawl
// delay over 300 s (crawler-commons disallows everything) and a rule on
// /robots.txt (always allowed for RFC 9309 and crawler-commons).
func TestDisagreementLines(t *testing.T) {
	text := "User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\nDisallow: /robots.txt\n\nUser-agent: SlowBot\nCrawl-delay: 3600\nDisallow: /private/\n"
	var got []string
	for _, d := range disagreementLines(text, 200) {
		if d.ClassDoc == "" || len(d.Examples) == 0 {
			t.Errorf("line %d %s: no doc or no example: %+v", d.Line, d.Class, d)
		}
		got = append(got, fmt.Sprintf("%d %s %q", d.Line, d.Class, d.Text))
	}
	want := []string{
		`3 allow-order "Allow: /wp-admin/admin-ajax.php"`,
		`4 robots-txt-always-allowed "Disallow: /robots.txt"`,
		`7 crawl-delay "Crawl-delay: 3600"`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("lines\n %q\nwant\n %q", got, want)
	}
	if got := disagreementLines("User-agent: *\nDisallow: /private/\n", 200); len(got) != 0 {
		t.Errorf("a file all parsers read alike: %+v", got)
	}
}
