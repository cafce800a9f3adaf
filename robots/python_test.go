package robots

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPythonExpectations gives the verdicts of testdata/python/rfc9309.txt:
// the classes of CPython's test suite the change leaves as they were, the
// ones it reverses, and one case for each item of its description.
func TestPythonExpectations(t *testing.T) {
	cases := readExpectations(t, filepath.Join("testdata", "python", "rfc9309.txt"))
	if len(cases) < 20 {
		t.Fatalf("%d cases read, want at least 20", len(cases))
	}
	for _, c := range cases {
		r := ParseString(c.body.String()).As(SemanticsPython)
		for _, w := range c.wants {
			if v := r.Match(w.url, []string{w.agent}); v.Allowed != w.allow {
				t.Errorf("%s: %s %s: allowed %v (line %d), want %v", c.name, w.agent, w.url, v.Allowed, v.Line, w.allow)
			}
		}
	}
}

// TestPythonChangedFromLegacy: the cases marked [changed] and [PR] are
// ones where the change matters, so python-legacy must fail at least one
// expectation of each; otherwise the case tests nothing new.
func TestPythonChangedFromLegacy(t *testing.T) {
	for _, c := range readExpectations(t, filepath.Join("testdata", "python", "rfc9309.txt")) {
		if strings.HasPrefix(c.name, "[kept]") {
			continue
		}
		legacy := ParseString(c.body.String()).As(SemanticsPythonLegacy)
		differs := false
		for _, w := range c.wants {
			differs = differs || legacy.Match(w.url, []string{w.agent}).Allowed != w.allow
		}
		if !differs && !strings.Contains(c.name, "after a rule starts") {
			t.Errorf("%s: python-legacy gives every expected verdict too", c.name)
		}
	}
}

// TestPythonDiffers pins each documented difference of the python reading
// from Google's, and from python-legacy where the change reversed it: the
// verdict of each reading and the line that decided.
func TestPythonDiffers(t *testing.T) {
	tests := []struct {
		name, body, agent, url string
		google, legacy, python Verdict
	}{
		{"longest match now, as Google (WordPress's default file)",
			"User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n", "GPTBot", "/wp-admin/admin-ajax.php",
			Verdict{true, 3}, Verdict{false, 2}, Verdict{true, 3}},
		{"a blank line after user-agent no longer ends the group",
			"User-agent: GPTBot\n\nDisallow: /\n", "GPTBot", "/",
			Verdict{false, 3}, Verdict{true, 0}, Verdict{false, 3}},
		{"wildcards now patterns",
			"User-agent: *\nDisallow: /*.pdf$\n", "GPTBot", "/a.pdf",
			Verdict{false, 2}, Verdict{true, 0}, Verdict{false, 2}},
		{"every '*' group now counts",
			"User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n", "GPTBot", "/b",
			Verdict{false, 5}, Verdict{true, 0}, Verdict{false, 5}},
		{"user-agent still by substring of the crawler's name",
			"User-agent: bot\nDisallow: /\n", "GPTBot", "/",
			Verdict{true, 0}, Verdict{false, 2}, Verdict{false, 2}},
		{"an empty user-agent still names every crawler",
			"User-agent:\nDisallow: /\n", "GPTBot", "/",
			Verdict{true, 0}, Verdict{false, 2}, Verdict{false, 2}},
		{"a full match beats a partial one that comes first",
			"User-agent: GPT\nDisallow: /a\n\nUser-agent: GPTBot\nDisallow: /b\n", "GPTBot", "/a",
			Verdict{true, 0}, Verdict{false, 2}, Verdict{true, 0}},
		{"partial matches are merged",
			"User-agent: GPT\nDisallow: /a\n\nUser-agent: Bot\nDisallow: /b\n", "GPTBot", "/b",
			Verdict{true, 0}, Verdict{true, 0}, Verdict{false, 5}},
		{"a trailing '?' now counts: Disallow: /? no longer blocks everything (#138502)",
			"User-agent: *\nDisallow: /?\n", "GPTBot", "/page",
			Verdict{true, 0}, Verdict{false, 2}, Verdict{true, 0}},
		{"an escaped '?' is now not the raw one (#138502)",
			"User-agent: *\nDisallow: /a%3Fb\n", "GPTBot", "/a?b",
			Verdict{true, 0}, Verdict{false, 2}, Verdict{true, 0}},
		{"a raw space and its escape are still one",
			"User-agent: *\nDisallow: /a b\n", "GPTBot", "/a%20b",
			Verdict{true, 0}, Verdict{false, 2}, Verdict{false, 2}},
		{"rules and URLs still percent-decoded",
			"User-agent: *\nDisallow: /%7Ejoe/\n", "GPTBot", "/~joe/",
			Verdict{true, 0}, Verdict{false, 2}, Verdict{false, 2}},
		{"Disallow: with an empty path has no effect",
			"User-agent: *\nDisallow:\nDisallow: /\n", "GPTBot", "/",
			Verdict{false, 3}, Verdict{true, 2}, Verdict{false, 3}},
		{"a typo Google accepts is still an unknown key",
			"User-agent: *\nDissallow: /\n", "GPTBot", "/",
			Verdict{false, 2}, Verdict{true, 0}, Verdict{true, 0}},
		{"crawl-delay counts as a rule: the user-agent after it starts a group",
			"User-agent: *\nCrawl-delay: 5\nUser-agent: GPTBot\nDisallow: /\n", "CCBot", "/",
			Verdict{false, 4}, Verdict{true, 0}, Verdict{true, 0}},
		{"a body that is not UTF-8 is now read (#138502)",
			"User-agent: *\nAllow: /\n# caf\xE9\n", "GPTBot", "/",
			Verdict{true, 2}, Verdict{false, 0}, Verdict{true, 2}},
		{"a raw octet that is not UTF-8 is its escape (#138502)",
			"User-agent: *\nDisallow: /caf\xE9\n", "GPTBot", "/caf%e9",
			Verdict{true, 0}, Verdict{false, 0}, Verdict{false, 2}},
	}
	for _, tt := range tests {
		f := ParseString(tt.body)
		if g := f.As(SemanticsGoogle).Match(tt.url, []string{tt.agent}); g != tt.google {
			t.Errorf("%s: google %+v, want %+v", tt.name, g, tt.google)
		}
		if p := f.As(SemanticsPythonLegacy).Match(tt.url, []string{tt.agent}); p != tt.legacy {
			t.Errorf("%s: python-legacy %+v, want %+v", tt.name, p, tt.legacy)
		}
		if p := f.As(SemanticsPython).Match(tt.url, []string{tt.agent}); p != tt.python {
			t.Errorf("%s: python %+v, want %+v", tt.name, p, tt.python)
		}
	}
}

// TestPythonStatus: statuses read as python-legacy reads them (read() did
// not change).
func TestPythonStatus(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /a\n")
	for _, status := range []int{200, 401, 403, 404, 429, 500, 503, 301} {
		f := ParseResponse(Response{Status: status}, body)
		want := f.As(SemanticsPythonLegacy).Match("/b", []string{"GPTBot"}).Allowed
		if got := f.As(SemanticsPython).Match("/b", []string{"GPTBot"}).Allowed; got != want {
			t.Errorf("status %d: allowed %v, want %v as python-legacy", status, got, want)
		}
	}
}

// TestPythonNormalise pins pyNormalise, python/cpython#138502's
// comparison form, on the facts its doc lists, in rules (wild) and URLs.
func TestPythonNormalise(t *testing.T) {
	tests := []struct {
		in         string
		wild       bool
		want       string
		keepsInput bool // returned as it is, nothing written
	}{
		{"/a1/Z-._~", false, "/a1/Z-._~", true},
		{"/a2/%5A%2D%2E%5F%7E", false, "/a2/Z-._~", false},
		{"/sub%2Fdir", false, "/sub/dir", false},
		{"/u/%f0%9f%90%8d", false, "/u/%F0%9F%90%8D", false},
		{"/u/\U0001f40d", false, "/u/%F0%9F%90%8D", false},
		{"/v/%f0", false, "/v/%F0", false}, // not UTF-8: the octet, not U+FFFD
		{"/p1%xy", false, "/p1%25xy", false},
		{"/p2%", false, "/p2%25", false},
		{"/p3%25xy", false, "/p3%25xy", false},
		{"/question%3Fq=v", false, "/question%3Fq%3Dv", false},
		{"/question?q=v", false, "/question?q=v", true},
		{"/another/path?", false, "/another/path?", true}, // the trailing '?' stays
		{"/q?a=%3D&b%26=?", false, "/q?a=%3D&b%26=%3F", false},
		{"/hash#f", false, "/hash%23f", false},
		{"/a*b$", false, "/a%2Ab%24", false},
		{"/a*b", true, "/a*b", true},
		{"/a%2Ab", true, "/a%2Ab", false},
		{"/*?", true, "/*?", true},
		{"//[spam]/path", true, "//%5Bspam%5D/path", false},
		{"/a;b c", false, "/a%3Bb%20c", false},
	}
	for _, tt := range tests {
		var b strings.Builder
		b.WriteString("earlier patterns")
		got := pyNormalise(&b, tt.in, tt.wild)
		if got != tt.want {
			t.Errorf("pyNormalise(%q, wild %v) = %q, want %q", tt.in, tt.wild, got, tt.want)
		}
		if kept := b.Len() == len("earlier patterns"); kept != tt.keepsInput {
			t.Errorf("pyNormalise(%q): input kept %v, want %v", tt.in, kept, tt.keepsInput)
		}
	}
}

// TestPythonPattern: pyPattern keeps a final '$' as the anchor around the
// normalised body, into one builder that earlier patterns share.
func TestPythonPattern(t *testing.T) {
	for v, want := range map[string]string{
		"/a*b": "/a*b", "/*.gif$": "/*.gif$", "/a b*c$": "/a%20b*c$", "*": "*",
		"/é*?q=1$": "/%C3%A9*?q=1$", "/a$b": "/a%24b", "/dollar%24": "/dollar%24",
		"/$": "/$", "/p?*": "/p?*", "/x?a=b$": "/x?a=b$", "/%7e$": "/~$",
	} {
		var paths strings.Builder
		paths.WriteString("earlier patterns")
		first := pyPattern(&paths, v)
		second := pyPattern(&paths, v)
		if first != want || second != want {
			t.Errorf("%q: patterns %q, %q, want %q", v, first, second, want)
		}
	}
}

// TestPythonPercentEncoding gives every verdict of PercentEncodingTest,
// DisallowQueryStringTest and LocalNetworkTestCase, the test classes of
// python/cpython#138502, which gh-138907's change builds on: a body that
// is not UTF-8 among them (PercentEncodingTest's raw octet, and
// LocalNetworkTestCase's file).
func TestPythonPercentEncoding(t *testing.T) {
	cases := readExpectations(t, filepath.Join("testdata", "python", "percent-encoding.txt"))
	if len(cases) != 3 || len(cases[0].wants) < 100 {
		t.Fatalf("%d cases read, want PercentEncodingTest with its 100-odd URLs, DisallowQueryStringTest and LocalNetworkTestCase", len(cases))
	}
	n := 0
	for _, c := range cases {
		r := ParseString(c.body.String()).As(SemanticsPython)
		for _, w := range c.wants {
			n++
			if v := r.Match(w.url, []string{w.agent}); v.Allowed != w.allow {
				t.Errorf("%s: %s: allowed %v (line %d), want %v", c.name, w.url, v.Allowed, v.Line, w.allow)
			}
		}
	}
	if n != 153 {
		t.Errorf("%d expectations read, want the 153 the file keeps", n)
	}
}

// FuzzPythonNormalise: pyNormalise's output is a fixed point (a rule and
// a URL normalised apart compare alike however often either was
// normalised), holds no byte but those it keeps raw and escapes of two
// upper-case hex digits, and keeps the first raw '?' where it was.
func FuzzPythonNormalise(f *testing.F) {
	for _, s := range []string{"/a%2Fb?c=%3D&d", "/p%", "/%f0%9f*?q=?", "/hash#f", "/é?x=y$", "%%41"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, wild bool) {
		var b strings.Builder
		once := pyNormalise(&b, s, wild)
		if twice := pyNormalise(&b, once, wild); twice != once {
			t.Fatalf("%q: %q, then %q", s, once, twice)
		}
		query := false
		for i := 0; i < len(once); i++ {
			switch c := once[i]; {
			case c == '?' && !query:
				query = true
			case c == '%':
				if i+2 >= len(once) || !isHex(once[i+1]) || !isHex(once[i+2]) || once[i+1] > 'F' || once[i+2] > 'F' {
					t.Fatalf("%q: %q has a bad escape at %d", s, once, i)
				}
			case !pyKeptRaw(c, query, wild):
				t.Fatalf("%q: %q has the raw byte %q", s, once, c)
			}
		}
		if p, _, ok := strings.Cut(s, "?"); ok != strings.Contains(once, "?") || ok && pyNormalise(&b, p, wild) != once[:strings.IndexByte(once, '?')] {
			t.Fatalf("%q: %q moved or lost the first '?'", s, once)
		}
	})
}
