package robots

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
)

// Diagnostics are checked against fixtures in testdata/diag: each holds an
// optional "response" section (status, content-type, url, location,
// truncated), the "robots.txt" body and the exact list of findings under
// "want", one "LINE code" a line. Byte-level cases that a text file cannot
// hold are in generatedCases.

type diagCase struct {
	name string
	resp Response
	body string
	want []string // "LINE code", sorted
	// readings: want holds File.ReadingDiagnostics too, as lint reports
	// them (a fixture with a "readings" section).
	readings bool
}

func loadFixtures(t *testing.T) []diagCase {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "diag", "*.txt"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	var out []diagCase
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		a := testutil.ParseArchive(string(data))
		body, ok := a.Files["robots.txt"]
		if !ok {
			t.Fatalf("%s: no robots.txt section", p)
		}
		_, readings := a.Files["readings"]
		c := diagCase{name: filepath.Base(p), body: body, resp: parseResponseSection(t, p, a.Files["response"]), readings: readings}
		for _, l := range strings.Split(strings.TrimSpace(a.Files["want"]), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				c.want = append(c.want, l)
			}
		}
		slices.Sort(c.want)
		out = append(out, c)
	}
	return out
}

func parseResponseSection(t *testing.T, file, s string) Response {
	var r Response
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch strings.TrimSpace(k) {
		case "status":
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatalf("%s: status %q", file, v)
			}
			r.Status = n
		case "content-type":
			r.ContentType = v
		case "url":
			r.URL = v
		case "location":
			r.Location = v
		case "truncated":
			r.Truncated = v
		case "stored-truncated":
			r.StoredTruncated = v
		default:
			t.Fatalf("%s: unknown response field %q", file, k)
		}
	}
	return r
}

// generatedCases hold bytes that do not belong in a text fixture.
func generatedCases() []diagCase {
	long := "Disallow: /" + strings.Repeat("x", MaxLineBytes)
	var huge strings.Builder
	huge.WriteString("User-agent: *\nDisallow: /x/\n")
	for huge.Len() <= MaxBytes {
		huge.WriteString("# filler filler filler filler filler filler filler\n")
	}
	return []diagCase{
		{name: "crlf-cut-between-cr-and-lf", body: crlfCutAfterCR(), want: []string{"0 crlf-line-endings", "0 oversize"}},
		{name: "bom-utf8", body: "\xEF\xBB\xBFUser-agent: *\nDisallow: /x/\n", want: []string{"0 bom-utf8"}},
		{name: "bom-utf16le", body: "\xFF\xFEU\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00n\x00t\x00", want: []string{"0 bom-utf16"}},
		{name: "bom-utf16be", body: "\xFE\xFF\x00U\x00s\x00e\x00r", want: []string{"0 bom-utf16"}},
		{name: "binary-nul", body: "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xcb\xc8\x04\x00", want: []string{"0 binary-content"}},
		{name: "binary-control", body: "\x01\x02\x03\x04\x05User-agent: *\x06\x07\x08\x0e\x0f\x10\x11\x12\x13\x14\x15\x16", want: []string{"0 binary-content"}},
		{name: "invalid-utf8", body: "User-agent: *\nDisallow: /caf\xe9/\n", want: []string{"2 invalid-utf8", "2 non-ascii-path"}},
		{name: "mixed-line-endings", body: "User-agent: *\r\nDisallow: /a/\nDisallow: /b/\r\n", want: []string{"0 mixed-line-endings"}},
		{name: "crlf-line-endings", body: "User-agent: *\r\nDisallow: /a/\r\n", want: []string{"0 crlf-line-endings"}},
		{name: "bare-cr", body: "User-agent: *\rDisallow: /a/\r", want: []string{"0 mixed-line-endings"}},
		{name: "line-too-long", body: "User-agent: *\n" + long + "\n", want: []string{"2 line-too-long"}},
		{name: "oversize", body: huge.String(), want: []string{"0 oversize"}},
		{name: "quiet-binary", body: "\x01\x02\x03\x04\x05\x06\x07\x08User-agent:\x00\nDissallow: /x\nFoo: bar\n", want: []string{"0 binary-content"}},
		{name: "binary-gif", body: "GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04", want: []string{"0 binary-content"}},
		{name: "binary-pdf", body: "%PDF-1.4\n% mostly text at first\n1 0 obj\n", want: []string{"0 binary-content"}},
		{name: "binary-random", body: pseudoRandom(1000), want: []string{"0 binary-content"}},
		{name: "binary-nul-only", body: "\x00\x00\x00", want: []string{"0 binary-content"}},
		{name: "binary-decoded-as-utf8", body: "\x1f\uFFFD\b\x00\x00\x00\x00\x00\x00\x03" + strings.Repeat("k\uFFFD}\uFFFDZ\uFFFD!]", 100), want: []string{"0 binary-content"}},
		{name: "binary-utf16-without-bom", body: "U\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00n\x00t\x00:\x00 \x00*\x00", want: []string{"0 binary-content"}},
		// A text file with a stray NUL is text: a finding on its line, and
		// all its other findings.
		{name: "nul-byte", body: "User-agent: *\nDisallow: /a\x00b\nDissallow: /x\n", want: []string{"2 nul-byte", "3 typo-accepted"}},
		{name: "nul-byte-whitespace", body: "\n\n   Error Page Messages.\n\n      \x00", want: []string{"0 no-rules", "3 unparsable-line", "5 nul-byte"}},
		{name: "nul-padding", body: "User-agent: *\nDissallow: /x\n\n\n" + strings.Repeat("\x00", 1028), want: []string{"2 typo-accepted", "5 nul-byte"}},
		// A Latin-1 body: Python's robotparser cannot decode it and
		// disallows everything, and RFC 9309 encodes the "\xe9" of a URL
		// as of a rule (lint compares readings).
		{name: "parsers-disagree-body-encoding", body: "User-agent: *\nDisallow: /caf\xe9/\n", readings: true,
			want: []string{"0 parsers-disagree-body-encoding", "2 invalid-utf8", "2 non-ascii-path", "2 parsers-disagree-percent-encoding"}},
		{name: "nul-in-html", body: "<html><head><title>404</title></head><body>\x00Not found</body></html>\n", want: []string{"0 html-content"}},
	}
}

// pseudoRandom returns n bytes that look like compressed data: no magic
// number, about one control character in nine.
func pseudoRandom(n int) string {
	b := make([]byte, n)
	x := uint32(2463534242)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x >> 24)
	}
	return string(b)
}

// crlfCutAfterCR returns a CRLF body over MaxBytes whose cut falls between
// the CR and the LF of a line ending, like protegez-vous.ca's in the corpus.
func crlfCutAfterCR() string {
	var b strings.Builder
	b.WriteString("User-agent: *\r\nDisallow: /x/\r\n")
	for b.Len() < MaxBytes-200 {
		b.WriteString("# filler filler filler filler filler filler filler\r\n")
	}
	b.WriteString("#" + strings.Repeat("x", MaxBytes-1-b.Len()-1) + "\r\n")
	b.WriteString("# after the cut\r\n")
	return b.String()
}

func check(t *testing.T, c diagCase) []string {
	t.Helper()
	f := ParseResponseString(c.resp, c.body)
	var got []string
	for _, d := range f.Diagnostics {
		got = append(got, strconv.Itoa(d.Line)+" "+d.Code.String())
	}
	if c.readings {
		for _, d := range f.ReadingDiagnostics() {
			got = append(got, strconv.Itoa(d.Line)+" "+d.Code.String())
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, c.want) {
		t.Errorf("%s:\n got  %q\n want %q", c.name, got, c.want)
	}
	for i := 1; i < len(f.Diagnostics); i++ {
		if f.Diagnostics[i].Line < f.Diagnostics[i-1].Line {
			t.Errorf("%s: diagnostics not sorted by line", c.name)
		}
	}
	return got
}

func TestDiagnosticFixtures(t *testing.T) {
	for _, c := range loadFixtures(t) {
		check(t, c)
	}
	for _, c := range generatedCases() {
		check(t, c)
	}
}

// Every code of the catalogue is triggered by at least one case.
func TestEveryCodeHasAFixture(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range append(loadFixtures(t), generatedCases()...) {
		for _, w := range c.want {
			seen[strings.Fields(w)[1]] = true
		}
	}
	engine := 0
	for _, ci := range Codes() {
		if ci.Code == DisagreeOther {
			// No reading's difference is known to reach the class other
			// (the classes before it explain every one the readings make):
			// TestExplainerLines finds it from its lines, and
			// TestDisagreementDiagnostic words its finding.
			continue
		}
		if ci.Reader {
			if seen[ci.Name] {
				t.Errorf("the engine reported %s, a reader's code", ci.Name)
			}
			continue // ingest's tests find these
		}
		engine++
		if !seen[ci.Name] {
			t.Errorf("code %s has no fixture", ci.Name)
		}
	}
	if engine != len(seen) {
		t.Errorf("fixtures name %d codes, the catalogue has %d engine codes", len(seen), engine)
	}
}

// Clean files trigger no error or warning.
func TestCleanFiles(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "clean", "*.txt"))
	if len(paths) == 0 {
		t.Fatal("no clean files")
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f := Parse(data)
		for _, d := range f.Diagnostics {
			if d.Severity() != Info {
				t.Errorf("%s:%d: %s: %s", p, d.Line, d.Code, d.Message(f))
			}
		}
		if f.Stats.Rules == 0 {
			t.Errorf("%s: no rules parsed", p)
		}
	}
}

// Every code has a catalogue entry and a message of its own.
func TestCatalogue(t *testing.T) {
	names := map[string]bool{}
	for _, ci := range Codes() {
		if ci.Name == "" || ci.Severity == 0 || ci.Summary == "" || len(ci.Doc) < 20 || ci.message == nil {
			t.Errorf("code %d: incomplete entry %+v", ci.Code, ci)
		}
		if names[ci.Name] {
			t.Errorf("duplicate name %s", ci.Name)
		}
		names[ci.Name] = true
		if c, ok := LookupCode(ci.Name); !ok || c != ci.Code {
			t.Errorf("LookupCode(%s) = %v %v", ci.Name, c, ok)
		}
		msg := messageOf(ci.Code, 0, "", "x", 0, "")
		if msg == ci.Name || strings.Contains(msg, "%!") {
			t.Errorf("%s: message %q", ci.Name, msg)
		}
	}
	if len(names) != 70+15+17 {
		t.Errorf("catalogue has %d codes; want the engine's 70 (DESIGN.md lists 53; bom-double-encoded, pattern-bad-percent-escape, the seven of issue 10, the three of issue 14 (reversed-syntax, crlf-line-endings, files-listed-one-by-one), nul-byte and stored-truncated of issue 27 and the three template codes of issue 32 are new; DESIGN.md lists stored-truncated beside crawler-truncated), the 15 parsers-disagree codes of issue 31 and the readers' 17", len(names))
	}
}

// goIdentifier matches what the catalogue's texts must not show a user: a
// Go name in camel case (MaxBody, RefArg) or a field of a type (File.Rules).
var goIdentifier = regexp.MustCompile(`\b[A-Z][a-z0-9]{2,}[A-Z][a-z]|\b[A-Z][a-z]+\.[A-Z]|\b(Arg|Ref|Body|Detail)\b`)

// lowercasedHeader matches a header name whose first letter was lowered
// ("transfer-Encoding"): the mark of a sentence cut in the wrong place.
var lowercasedHeader = regexp.MustCompile(`\b[a-z]+-[A-Z][a-z]`)

// The summary and documentation of every code are whole and speak the
// user's language: lint --codes and --explain print them as they are.
func TestCatalogueText(t *testing.T) {
	for _, ci := range Codes() {
		for _, f := range [...]struct{ field, text string }{{"summary", ci.Summary}, {"doc", ci.Doc}} {
			field, text := f.field, f.text
			if m := goIdentifier.FindString(strings.ReplaceAll(text, "WordPress", "Wordpress")); m != "" {
				t.Errorf("%s: %s names the Go identifier %q: %q", ci.Name, field, m, text)
			}
			if m := lowercasedHeader.FindString(text); m != "" {
				t.Errorf("%s: %s has %q, a header name cut short: %q", ci.Name, field, m, text)
			}
			if strings.Count(text, "(") != strings.Count(text, ")") || strings.Count(text, `"`)%2 != 0 {
				t.Errorf("%s: %s has unbalanced brackets or quotes: %q", ci.Name, field, text)
			}
		}
		if len(strings.Fields(ci.Summary)) < 3 || strings.HasSuffix(ci.Summary, ".") {
			t.Errorf("%s: summary %q is not one whole line of at least three words", ci.Name, ci.Summary)
		}
	}
}

// Diagnostics carry the text of their line and the part they are about.
func TestDiagnosticText(t *testing.T) {
	f := ParseString("User-agent: *\n  Disallow: private/ # x\n")
	for _, d := range f.Diagnostics {
		if d.Line != 2 || d.Text(f) != "  Disallow: private/ # x" {
			t.Errorf("%+v: text %q", d, d.Text(f))
		}
		if d.Code == PathNotAbsolute && d.Arg(f) != "private/" {
			t.Errorf("arg %q", d.Arg(f))
		}
	}
	if len(f.Diagnostics) != 3 {
		t.Errorf("codes %v", codesOf(f))
	}
}

// An HTML page is not a robots.txt, but Google obeys the rules it finds in
// it: the outcome says so.
func TestOutcomeOfMarkup(t *testing.T) {
	page := ParseResponseString(Response{Status: 200}, "<html><body><pre>\nUser-agent: *\nDisallow: /\n</pre></body></html>\n")
	if page.Outcome() != OutcomeRules || page.Allowed("http://e.com/x", "FooBot") {
		t.Errorf("HTML with rules: outcome %v", page.Outcome())
	}
	if codes := codesOf(page); len(codes) != 1 || codes[0] != "0:html-content" {
		t.Errorf("codes %v", codes)
	}
	soft404 := ParseResponseString(Response{Status: 200}, "<!DOCTYPE html><html><body>Not found</body></html>")
	if soft404.Outcome() != OutcomeNotRobots {
		t.Errorf("soft 404: outcome %v", soft404.Outcome())
	}
}

// The duplicate-group finding names the earlier group's line and, when
// the names differ, why Google takes them for one crawler; with few agents
// (linear scan) and many (map).
func TestDuplicateGroupMessage(t *testing.T) {
	f := func(prefix string, line int) {
		t.Helper()
		body := prefix + "User-agent: bot1\nDisallow: /a\n\nUser-agent: bot2\nDisallow: /b\n\nUser-agent: BOT1\nDisallow: /c\n"
		var msgs []string
		file := ParseString(body)
		for _, d := range file.Diagnostics {
			if d.Code == DuplicateGroup {
				msgs = append(msgs, d.Message(file))
			}
		}
		want := []string{
			fmt.Sprintf(`"bot2" already has a group on line %d ("bot1"): Google reads both names as "bot", so it merges the rules of both groups`, line),
			fmt.Sprintf(`"BOT1" already has a group on line %d ("bot1"); Google merges the rules of both groups`, line),
		}
		if !slices.Equal(msgs, want) {
			t.Errorf("messages\n %q\nwant\n %q", msgs, want)
		}
	}
	f("", 1)
	var many strings.Builder
	for i := range linearAgents + 10 {
		fmt.Fprintf(&many, "User-agent: a%c%c\nDisallow: /\n", 'a'+i/26, 'a'+i%26)
	}
	f(many.String(), 2*(linearAgents+10)+1)
}

// The oversize finding says where Google stops reading.
func TestOversizeMessage(t *testing.T) {
	line := "#" + strings.Repeat("x", 98) + "\n" // 100 bytes
	f := func(body, want string) {
		t.Helper()
		file := ParseString(body)
		d := file.Diagnostics[0]
		if d.Code != Oversize || !strings.Contains(d.Message(file), want) {
			t.Errorf("%s: %q, want it to contain %q", d.Code, d.Message(file), want)
		}
	}
	f("User-agent: *\n"+strings.Repeat(line, 6000), "Google stops reading inside line 5121")
	f(strings.Repeat(line, 6000), "Google stops reading after line 5120")
}

// A finding's span is where its argument is in the line, or nothing.
func TestDiagnosticSpan(t *testing.T) {
	f := ParseString("User-agent: *\nDisallow: private/\nSitemap: /s.xml\n" + strings.Repeat("x", MaxLineBytes+1) + "\n")
	got := map[Code][2]int{}
	for _, d := range f.Diagnostics {
		s, e := d.Span()
		got[d.Code] = [2]int{s, e}
	}
	want := map[Code][2]int{PathNotAbsolute: {10, 18}, SitemapRelative: {9, 15}, LineTooLong: {0, 0}, UnparsableLine: {0, 0}}
	for c, w := range want {
		if got[c] != w {
			t.Errorf("%s: span %v, want %v", c, got[c], w)
		}
	}
}

// A value that is also a part of its key is found where the parser read it,
// not in the key ("All" in "Allow: All" is bytes 7-10, not 0-3).
func TestDiagnosticSpanOfValueInKey(t *testing.T) {
	for body, want := range map[string][2]int{
		"User-agent: *\nAllow: All\n":                    {7, 10},
		"User-agent: *\nDisallow: Disallow:\n":           {10, 19},
		"allow all\n":                                    {6, 9},
		"User-agent: *\nDisallow:s\n":                    {9, 10},
		"User-agent: *\n  Disallow \t:  all # comment\n": {15, 18},
	} {
		f := ParseString(body)
		var d *Diagnostic
		for i := range f.Diagnostics {
			if c := f.Diagnostics[i].Code; c == PathNotAbsolute || c == RuleOutsideGroup {
				d = &f.Diagnostics[i]
			}
		}
		if d == nil {
			t.Errorf("%q: no path-not-absolute or rule-outside-group finding", body)
			continue
		}
		if s, e := d.Span(); [2]int{s, e} != want {
			t.Errorf("%q: %s span %d-%d, want %v (%q)", body, d.Code, s, e, want, d.Text(f)[s:e])
		}
	}
}

// mixed-line-endings says "mixed" only of a file that mixes them: a file of
// bare CRs is told so.
func TestLineEndingsMessage(t *testing.T) {
	f := func(body, want string) {
		t.Helper()
		file := ParseString(body)
		for _, d := range file.Diagnostics {
			if d.Code == MixedLineEndings {
				if msg := d.Message(file); msg != want {
					t.Errorf("%q: %q, want %q", body, msg, want)
				}
				return
			}
		}
		t.Errorf("%q: no mixed-line-endings finding", body)
	}
	f("User-agent: *\rDisallow: /a/\rDisallow: /b/\r", "every line ends in a bare CR (3 CR), as old Mac OS editors saved files; Google and RFC 9309 accept it, older parsers may read the file as one long line: use LF or CRLF")
	f("User-agent: *\r\nDisallow: /a/\rDisallow: /b/\n", "line endings are mixed (1 LF, 1 CRLF, 1 CR); use one style, LF or CRLF")
}

// non-ascii-path says how Google encodes the pattern: UTF-8 text as its
// UTF-8 bytes, other bytes as they are, which is what matching does (a
// Latin-1 pattern, as on line 18 of 123recht.net's file in the corpus).
func TestNonASCIIPathMessage(t *testing.T) {
	f := func(value, wantPattern, wantMsg string) {
		t.Helper()
		file := ParseString("User-agent: *\nDisallow: " + value + "\n")
		if len(file.Rules) != 1 || file.Rules[0].Pattern(file) != wantPattern {
			t.Fatalf("%q: rules %+v, want pattern %q", value, file.Rules, wantPattern)
		}
		if file.Allowed("http://e.com"+wantPattern, "FooBot") {
			t.Errorf("%q does not block %s", value, wantPattern)
		}
		for _, d := range file.Diagnostics {
			if d.Code == NonASCIIPath && d.Message(file) != wantMsg {
				t.Errorf("%q: %q, want %q", value, d.Message(file), wantMsg)
			}
		}
	}
	f("/unseri\xf6se", "/unseri%F6se", `pattern "/unseri\xf6se" has bytes that are not UTF-8 (a legacy encoding?); Google percent-encodes each byte as it is ("\xf6" as %F6), so the rule matches only URLs with those bytes, not the UTF-8 form of the same characters`)
	f("/unseriöse", "/unseri%C3%B6se", `pattern "/unseriöse" has non-ASCII characters; Google matches their percent-encoded UTF-8 form`)
}

// binary-content names the formats it knows by their magic numbers and says
// "served compressed" only of compressed data; a text file with a stray NUL
// is not binary: it has its rules, which match obeys, and a nul-byte
// finding that says what Google reads.
func TestBinaryAndNULMessages(t *testing.T) {
	f := func(body string, line int, code Code, want string) {
		t.Helper()
		file := ParseString(body)
		for _, d := range file.Diagnostics {
			if d.Line == line && d.Code == code {
				if msg := d.Message(file); msg != want {
					t.Errorf("%q: %q, want %q", body, msg, want)
				}
				return
			}
		}
		t.Errorf("%q: no %s finding on line %d", body, code, line)
	}
	f("GIF89a\x01\x00\x01\x00\x80\x00\x00", 0, BinaryContent, "the file is a GIF image, not text; crawlers find no usable rules in it")
	f("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 0, BinaryContent, "the file is gzip-compressed data, not text: it may be served compressed without a Content-Encoding header saying so, or compressed twice; crawlers find no usable rules in it")
	f("\x28\xb5\x2f\xfd\x04\x00", 0, BinaryContent, "the file is zstd-compressed data, not text: it may be served compressed without a Content-Encoding header saying so, or compressed twice; crawlers find no usable rules in it")
	f(pseudoRandom(500), 0, BinaryContent, "the file is binary (full of control characters, NUL bytes or replacement characters), not text; crawlers find no usable rules in it")
	f("User-agent: *\nDisallow: /a\x00b\n", 2, NULByte, `this line has a NUL byte: Google's parser reads the line only up to it ("Disallow: /a") and ignores the rest ("b"); other crawlers may take the whole file for binary`)
	f(strings.Repeat("\x00", 3000)+"User-agent: *\nDisallow: /\n", 1, NULByte, `this line starts with a NUL byte: Google's parser ignores the whole line ("User-agent: *"); other crawlers may take the whole file for binary`)
	f("User-agent: *\nDisallow: /"+strings.Repeat("é", 40)+"\x00"+strings.Repeat("x", 100)+"\n", 2, NULByte, `this line has a NUL byte: Google's parser reads the line only up to it ("Disallow: /`+strings.Repeat("é", 24)+`...") and ignores the rest ("`+strings.Repeat("x", 60)+`..."); other crawlers may take the whole file for binary`)
	f("User-agent: *\nDisallow: /a\x00\x00\n", 2, NULByte, "this line ends in NUL bytes; Google's parser ignores them, other crawlers may take the whole file for binary: delete them")
	f("User-agent: *\nDisallow: /a\n\x00\x00\x00", 3, NULByte, "this line is only NUL bytes (padding?); Google's parser skips them, other crawlers may take the whole file for binary: delete them")

	file := ParseResponseString(Response{Status: 200}, "User-agent: *\nDisallow: /private/\x00\n")
	if file.Outcome() != OutcomeRules || file.Allowed("http://e.com/private/x", "FooBot") || !file.Allowed("http://e.com/public", "FooBot") {
		t.Errorf("stray NUL: outcome %v, rules %+v", file.Outcome(), file.Rules)
	}
}

// crawler-truncated blames the crawler for its WARC-Truncated reasons;
// the reader's own reasons are stored-truncated (issue 27 item 7), which
// blames robocensus.
func TestTruncatedMessage(t *testing.T) {
	f := func(code Code, reason, want string) {
		t.Helper()
		msg := messageOf(code, 0, "", reason, 0, "")
		if !strings.Contains(msg, want) {
			t.Errorf("%s %s: %q, want it to contain %q", code, reason, msg, want)
		}
	}
	f(CrawlerTruncated, "length", "the crawler cut this capture (length)")
	f(StoredTruncated, "body-cap", "robocensus stored only the first part of this capture (body-cap: its own cap on stored bytes, not the crawler's)")
	f(StoredTruncated, "record-cap", "robocensus stopped reading this record at its own size cap (record-cap)")
	f(StoredTruncated, "input-end", "the input ended inside this record (input-end)")
	f(StoredTruncated, "other", "robocensus stored only part of this capture (other)")
}

// The response's two reasons give one code each: the crawler's cut is
// crawler-truncated, the reader's stored-truncated, and both are reported
// when the crawler cut a body the reader then capped.
func TestTruncatedCodes(t *testing.T) {
	f := func(r Response, want ...string) {
		t.Helper()
		got := codesOf(ParseResponseString(r, "User-agent: *\nDisallow: /a\n"))
		if !slices.Equal(got, want) {
			t.Errorf("%+v: codes %v, want %v", r, got, want)
		}
	}
	f(Response{Status: 200})
	f(Response{Status: 200, Truncated: "length"}, "0:crawler-truncated")
	f(Response{Status: 200, StoredTruncated: "body-cap"}, "0:stored-truncated")
	f(Response{Status: 200, Truncated: "time", StoredTruncated: "body-cap"}, "0:crawler-truncated", "0:stored-truncated")
}
