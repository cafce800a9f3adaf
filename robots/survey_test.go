package robots

import (
	"strconv"
	"strings"
	"testing"
)

// Mistakes names every classic mistake of the survey, 1 to 11, once, and
// only codes of the engine's catalogue.
func TestMistakes(t *testing.T) {
	seen := map[int]bool{}
	for _, m := range Mistakes() {
		if seen[m.Number] {
			t.Errorf("mistake %d listed twice", m.Number)
		}
		seen[m.Number] = true
		if m.Name == "" || m.Survey == "" {
			t.Errorf("mistake %d: no name or survey text", m.Number)
		}
		if len(m.Codes) == 0 && m.Note == "" {
			t.Errorf("mistake %d (%s): no code and no note saying why", m.Number, m.Name)
		}
		for _, c := range m.Codes {
			ci := c.Info()
			if ci.Name == "" || ci.Reader {
				t.Errorf("mistake %d: code %v is not an engine code", m.Number, c)
			}
		}
	}
	for n := 0; n <= 11; n++ {
		if !seen[n] {
			t.Errorf("mistake %d missing", n)
		}
	}
}

// The Doc of each code a mistake names as its own cites the survey.
func TestMistakeDocs(t *testing.T) {
	for _, m := range Mistakes() {
		if len(m.Codes) == 0 { // farms, and mistakes measured without a code (their Note says how)
			continue
		}
		c := m.Codes[0]
		if want := "Classic mistake " + strconv.Itoa(m.Number) + " "; !strings.Contains(c.Info().Doc, want) {
			t.Errorf("%s: Doc does not say %q", c, want)
		}
	}
}

func TestMalformedUnreadable(t *testing.T) {
	f := func(name string, r Response, body string, malformed, unreadable bool) {
		t.Helper()
		p := ParseResponseString(r, body)
		if got := Malformed(p); got != malformed {
			t.Errorf("%s: Malformed = %v, want %v", name, got, malformed)
		}
		if got := Unreadable(p); got != unreadable {
			t.Errorf("%s: Unreadable = %v, want %v", name, got, unreadable)
		}
	}
	f("clean", Response{}, "User-agent: *\nDisallow: /private/\n", false, false)
	f("empty", Response{}, "", false, false)
	f("comments only", Response{}, "# nothing here\n", false, false)
	f("reversed", Response{}, "User-agent: *\nDisallow: scooter\n", true, false)
	f("sitemap only", Response{}, "Sitemap: https://example.com/s.xml\n", false, false)
	f("no directive", Response{}, "hello world\nthis is not robots.txt\n", true, true)
	f("crawl-delay only", Response{}, "Crawl-delay: 10\n", false, true)
	f("rule without agent", Response{}, "Disallow: /x\n", true, false)
	f("html", Response{}, "<!DOCTYPE html><html><body>Not found</body></html>\n", true, true)
	f("binary", Response{}, "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00", true, true)
	f("utf-16", Response{}, "\xFF\xFEU\x00s\x00e\x00r\x00", true, true)
	f("404", Response{Status: 404}, "<html>gone</html>", false, false)
}
