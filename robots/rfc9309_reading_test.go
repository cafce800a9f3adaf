package robots

import (
	"path/filepath"
	"strings"
	"testing"
)

// rfcExample is a case of testdata/rfc9309/examples.txt: a robots.txt of
// RFC 9309 and the verdicts the RFC states for it.
type rfcExample struct {
	name  string
	body  strings.Builder
	file  string // the body's file in the shared corpus, "" when inline
	wants []rfcWant
}

// rfcWant is one expectation: agent, URL and whether it is allowed.
type rfcWant struct {
	agent, url string
	allow      bool
}

// readRFCExamples reads testdata/rfc9309/examples.txt.
func readRFCExamples(t *testing.T) []*rfcExample {
	t.Helper()
	return readExpectations(t, filepath.Join("testdata", "rfc9309", "examples.txt"))
}

// TestRFC9309Examples gives the verdicts RFC 9309's own examples state.
func TestRFC9309Examples(t *testing.T) {
	cases := readRFCExamples(t)
	if len(cases) < 10 {
		t.Fatalf("%d cases read, want at least 10", len(cases))
	}
	for _, c := range cases {
		r := ParseString(c.body.String()).As(SemanticsRFC9309)
		for _, w := range c.wants {
			if v := r.Match(w.url, []string{w.agent}); v.Allowed != w.allow {
				t.Errorf("%s: %s %s: allowed %v (line %d), want %v", c.name, w.agent, w.url, v.Allowed, v.Line, w.allow)
			}
		}
	}
}

// TestRFC9309Differs pins each documented difference from Google: the
// verdict of each reading and the line that decided.
func TestRFC9309Differs(t *testing.T) {
	tests := []struct {
		name, body, agent, url string
		google, rfc            Verdict
	}{
		{"a misspelled key is no record",
			"User-agent: *\nDissallow: /\n", "GPTBot", "/",
			Verdict{false, 2}, Verdict{true, 0}},
		{"a key without its colon is no record",
			"User-agent: *\nDisallow /\n", "GPTBot", "/",
			Verdict{false, 2}, Verdict{true, 0}},
		{"a misspelled user-agent key does not start a group",
			"User-agent: GPTBot\nDisallow: /a\nUseragent: CCBot\nDisallow: /b\n", "GPTBot", "/b",
			Verdict{true, 0}, Verdict{false, 4}},
		{"white space is SP and HTAB only",
			"User-agent: *\nDisallow:\v/\n", "GPTBot", "/",
			Verdict{false, 2}, Verdict{true, 0}},
		{"a user-agent value is the whole product token",
			"User-agent: GPTBot/1.0\nDisallow: /\n", "GPTBot", "/",
			Verdict{false, 2}, Verdict{true, 0}},
		{"'*' followed by more is not the '*' group",
			"User-agent: * all\nDisallow: /\n", "GPTBot", "/",
			Verdict{false, 2}, Verdict{true, 0}},
		{"escapes of unreserved characters are decoded",
			"User-agent: *\nDisallow: /%7Ejoe/\n", "GPTBot", "/~joe/",
			Verdict{true, 0}, Verdict{false, 2}},
		{"URL escapes are upper-cased",
			"User-agent: *\nDisallow: /a%2Fb\n", "GPTBot", "/a%2fb",
			Verdict{true, 0}, Verdict{false, 2}},
		{"URL bytes outside ASCII are encoded",
			"User-agent: *\nDisallow: /caf%C3%A9\n", "GPTBot", "/café",
			Verdict{true, 0}, Verdict{false, 2}},
		{"a '*' in a URL is %2A",
			"User-agent: *\nDisallow: /a-%2A\n", "GPTBot", "/a-*",
			Verdict{true, 0}, Verdict{false, 2}},
		{"/robots.txt is always allowed",
			"User-agent: *\nDisallow: /\n", "GPTBot", "/robots.txt",
			Verdict{false, 2}, Verdict{true, 0}},
		{"no index.htm leniency",
			"User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n", "GPTBot", "/d/",
			Verdict{true, 3}, Verdict{false, 2}},
	}
	for _, tt := range tests {
		f := ParseString(tt.body)
		if g := f.As(SemanticsGoogle).Match(tt.url, []string{tt.agent}); g != tt.google {
			t.Errorf("%s: google %+v, want %+v", tt.name, g, tt.google)
		}
		if r := f.As(SemanticsRFC9309).Match(tt.url, []string{tt.agent}); r != tt.rfc {
			t.Errorf("%s: rfc9309 %+v, want %+v", tt.name, r, tt.rfc)
		}
	}
}

// TestRFC9309Status checks the statuses: 4xx, 429 included, allows
// everything, 5xx disallows everything.
func TestRFC9309Status(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /a\n")
	for _, tt := range []struct {
		status int
		want   bool
	}{{200, true}, {404, true}, {403, true}, {429, true}, {500, false}, {503, false}} {
		f := ParseResponse(Response{Status: tt.status}, body)
		if got := f.As(SemanticsRFC9309).Match("/b", []string{"GPTBot"}).Allowed; got != tt.want {
			t.Errorf("status %d: allowed %v, want %v", tt.status, got, tt.want)
		}
	}
}

// TestRFC9309AgreesWithGoogleOnPlainFiles checks that where a file uses
// none of Google's leniencies the two readings agree: the standard tests
// of rfc9309_test.go that Google passes, run on the rfc9309 reading.
func TestRFC9309AgreesWithGoogleOnPlainFiles(t *testing.T) {
	body := "User-agent: *\nDisallow: /private/\nAllow: /private/public\nDisallow: /*.pdf$\n\nUser-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\nAllow: /open/\n"
	f := ParseString(body)
	for _, agent := range []string{"GPTBot", "ccbot", "Googlebot"} {
		for _, url := range []string{"/", "/private/x", "/private/public/y", "/a.pdf", "/a.pdfx", "/open/", "/open"} {
			g := f.As(SemanticsGoogle).Match(url, []string{agent})
			if r := f.As(SemanticsRFC9309).Match(url, []string{agent}); r != g {
				t.Errorf("%s %s: rfc9309 %+v, google %+v", agent, url, r, g)
			}
		}
	}
}
