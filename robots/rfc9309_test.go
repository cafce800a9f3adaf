package robots

import (
	"fmt"
	"strings"
	"testing"
)

// Tests of standard behaviour: RFC 9309, each citing its section. Google's
// own leniencies are in lenient_test.go.

// RFC 9309 §5.1, the simple example.
func TestRFC9309_SimpleExample(t *testing.T) {
	const body = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF
`
	expectVerdicts(t, body, "foobot", `
		allow https://www.example.com/example/page.html
		allow https://www.example.com/example/allowed.gif
		disallow https://www.example.com/
		disallow https://www.example.com/publications/x`)
	for _, bot := range []string{"barbot", "bazbot"} {
		expectVerdicts(t, body, bot, `
			disallow https://www.example.com/example/page.html
			allow https://www.example.com/example/other.html
			allow https://www.example.com/image.gif`)
	}
	expectVerdicts(t, body, "quxbot", `
		allow https://www.example.com/example/page.html
		allow https://www.example.com/image.gif`)
	expectVerdicts(t, body, "otherbot", `
		disallow https://www.example.com/image.gif
		disallow https://www.example.com/example/x
		allow https://www.example.com/publications/x
		allow https://www.example.com/`)
}

// RFC 9309 §5.2, longest match.
func TestRFC9309_LongestMatchExample(t *testing.T) {
	const body = "User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n"
	expectVerdicts(t, body, "foobot", `
		allow https://www.example.com/example/page/
		allow https://www.example.com/example/page/x.html
		disallow https://www.example.com/example/page/disallowed.gif`)
}

// RFC 9309 §2.2.1: the product token is matched case-insensitively.
func TestRFC9309_UserAgentCaseInsensitive(t *testing.T) {
	for _, ua := range []string{"FooBot", "foobot", "FOOBOT", "fOoBoT"} {
		body := "User-agent: " + ua + "\nDisallow: /\n"
		for _, agent := range []string{"foobot", "FOOBOT", "FooBot"} {
			if allowed(t, body, "http://e.com/x", agent) {
				t.Errorf("group %q should apply to agent %q", ua, agent)
			}
		}
	}
}

// RFC 9309 §2.2.1: groups naming the same agent are combined.
func TestRFC9309_MatchingGroupsCombined(t *testing.T) {
	const body = "user-agent: foobot\ndisallow: /a\n\nuser-agent: *\ndisallow: /b\n\nuser-agent: FOOBOT\ndisallow: /c\n"
	expectVerdicts(t, body, "foobot", `
		disallow http://e.com/a
		allow http://e.com/b
		disallow http://e.com/c`)
	expectVerdicts(t, body, "other", `
		allow http://e.com/a
		disallow http://e.com/b
		allow http://e.com/c`)
}

// RFC 9309 §2.2.1: without a matching group the '*' group applies; with
// neither, no rules apply.
func TestRFC9309_GlobalGroupFallback(t *testing.T) {
	const both = "user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n"
	if allowed(t, both, "http://e.com/x", "FooBot") {
		t.Error("FooBot must obey its own group")
	}
	if !allowed(t, both, "http://e.com/x", "BarBot") {
		t.Error("BarBot must obey the * group")
	}
	const onlyFoo = "user-agent: FooBot\ndisallow: /\n"
	if !allowed(t, onlyFoo, "http://e.com/x", "BarBot") {
		t.Error("no group applies to BarBot: everything is allowed")
	}
	if !allowed(t, "", "http://e.com/x", "FooBot") {
		t.Error("an empty file allows everything")
	}
}

// RFC 9309 §2.2.1: a specific group replaces the '*' group entirely.
func TestRFC9309_SpecificGroupReplacesGlobal(t *testing.T) {
	const body = "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n"
	expectVerdicts(t, body, "FooBot", `
		allow http://e.com/x/page
		disallow http://e.com/y/page`)
}

// RFC 9309 §2.2.2: the longest match wins; on a tie, allow wins.
func TestRFC9309_LongestMatchAndTies(t *testing.T) {
	f := func(body, url string, want bool) {
		t.Helper()
		if got := allowed(t, "User-agent: FooBot\n"+body, url, "FooBot"); got != want {
			t.Errorf("%q on %q: got %v, want %v", body, url, got, want)
		}
	}
	f("Disallow: /x/page.html\nAllow: /x/page.html\n", "http://e.com/x/page.html", true)
	f("Allow: /x/page.html\nDisallow: /x/page.html\n", "http://e.com/x/page.html", true)
	f("Allow: /page\nDisallow: /*.html\n", "http://e.com/page.html", false)
	f("Allow: /page\nDisallow: /*.html\n", "http://e.com/page", true)
	f("Allow: /x/page.\nDisallow: /*.html\n", "http://e.com/x/page.html", true)
	f("Allow: /x/page.\nDisallow: /*.html\n", "http://e.com/x/y.html", false)
	f("Allow: /\nDisallow: /\n", "http://e.com/", true)
	f("Allow: /folder\nDisallow: /folder/\n", "http://e.com/folder/page", false)
	f("Allow: /folder/\nDisallow: /folder\n", "http://e.com/folder/page", true)
}

// RFC 9309 §2.2.2: paths are case-sensitive.
func TestRFC9309_PathCaseSensitive(t *testing.T) {
	expectVerdicts(t, "User-agent: *\nDisallow: /x/\n", "FooBot", `
		disallow http://e.com/x/page
		allow http://e.com/X/page`)
}

// RFC 9309 §2.2.2: an empty disallow (or no match) allows.
func TestRFC9309_EmptyRuleAllows(t *testing.T) {
	expectVerdicts(t, "User-agent: *\nDisallow:\n", "FooBot", "allow http://e.com/x")
	expectVerdicts(t, "User-agent: FooBot\n", "FooBot", "allow http://e.com/x")
}

// RFC 9309 §2.2.2: non-ASCII octets of patterns are percent-encoded before
// comparison. The URL is compared as given (Google's parser expects it
// encoded already).
func TestRFC9309_PercentEncoding(t *testing.T) {
	const raw = "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n"
	expectVerdicts(t, raw, "FooBot", `
		allow http://foo.bar/foo/bar/%E3%83%84
		disallow http://foo.bar/foo/bar/ツ`)
	const encoded = "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n"
	expectVerdicts(t, encoded, "FooBot", `
		allow http://foo.bar/foo/bar/%E3%83%84
		disallow http://foo.bar/foo/bar/ツ`)
	// Percent-encoded unreserved characters are not decoded on either side.
	const unreserved = "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n"
	expectVerdicts(t, unreserved, "FooBot", `
		allow http://foo.bar/foo/bar/%62%61%7A
		disallow http://foo.bar/foo/bar/baz`)
	// Lower-case escapes in patterns are upper-cased.
	expectVerdicts(t, "User-agent: FooBot\nDisallow: /a%2fb\n", "FooBot", `
		disallow http://foo.bar/a%2Fb
		allow http://foo.bar/a%2fb`)
	// Query strings are matched too.
	expectVerdicts(t, "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n", "FooBot",
		"allow http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par")
}

// RFC 9309 §2.2.3: '*' matches any sequence, a final '$' anchors the end,
// '#' starts a comment.
func TestRFC9309_SpecialCharacters(t *testing.T) {
	expectVerdicts(t, "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "FooBot", `
		disallow http://foo.bar/foo/bar/quz
		allow http://foo.bar/foo/quz
		allow http://foo.bar/foo//quz
		allow http://foo.bar/foo/bax/quz`)
	expectVerdicts(t, "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", "FooBot", `
		disallow http://foo.bar/foo/bar
		allow http://foo.bar/foo/bar/qux
		allow http://foo.bar/foo/bar/
		allow http://foo.bar/foo/bar/baz`)
	expectVerdicts(t, "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n", "FooBot", `
		allow http://foo.bar/foo/bar
		disallow http://foo.bar/foo/quz`)
}

// RFC 9309 §2.2.2: field names are case-insensitive, values of allow and
// disallow case-sensitive.
func TestRFC9309_KeysCaseInsensitive(t *testing.T) {
	for _, body := range []string{
		"USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n",
		"user-agent: FooBot\nallow: /x/\ndisallow: /\n",
		"uSeR-aGeNt: FooBot\nAlLoW: /x/\nDiSaLlOw: /\n",
	} {
		expectVerdicts(t, body, "FooBot", `
			allow http://e.com/x/y
			disallow http://e.com/a/b`)
	}
}

// RFC 9309 §2.2.4: sitemap lines do not belong to groups and do not end
// them.
func TestRFC9309_SitemapIsNotAGroupMember(t *testing.T) {
	const body = "User-agent: foo\nSitemap: https://e.com/s.xml\nUser-agent: bar\nDisallow: /\nSitemap: http://e.com/s2.xml\n"
	f := ParseString(body)
	if len(f.Groups) != 1 || len(f.Groups[0].Agents(f)) != 2 {
		t.Fatalf("want one group with two agents, got %+v", f.Groups)
	}
	if len(f.Sitemaps) != 2 || !f.Sitemaps[0].Valid || f.Sitemaps[1].URL(f) != "http://e.com/s2.xml" {
		t.Errorf("sitemaps: %+v", f.Sitemaps)
	}
	expectVerdicts(t, body, "foo", "disallow http://e.com/x")
}

// RFC 9309 §2.3.1.3 and §2.3.1.4: 4xx allows everything, 5xx disallows
// everything, whatever the body says.
func TestRFC9309_StatusCodes(t *testing.T) {
	const body = "User-agent: *\nDisallow: /private\n"
	f := func(status int, url string, want bool, outcome Outcome) {
		t.Helper()
		file := ParseResponse(Response{Status: status}, []byte(body))
		if got := file.Allowed(url, "FooBot"); got != want {
			t.Errorf("status %d, %s: got %v, want %v", status, url, got, want)
		}
		if got := file.Outcome(); got != outcome {
			t.Errorf("status %d: outcome %v, want %v", status, got, outcome)
		}
	}
	f(200, "http://e.com/private", false, OutcomeRules)
	f(200, "http://e.com/public", true, OutcomeRules)
	f(404, "http://e.com/private", true, OutcomeAllowAll)
	f(403, "http://e.com/private", true, OutcomeAllowAll)
	f(410, "http://e.com/private", true, OutcomeAllowAll)
	f(500, "http://e.com/public", false, OutcomeDisallowAll)
	f(503, "http://e.com/public", false, OutcomeDisallowAll)
	f(429, "http://e.com/public", false, OutcomeDisallowAll)
	f(301, "http://e.com/public", true, OutcomeRedirect)
	f(0, "http://e.com/private", false, OutcomeUnknown)
}

// Which outcomes are usable robots.txt files, and every outcome's name
// parses back to it.
func TestOutcomeUsable(t *testing.T) {
	usable := map[Outcome]bool{OutcomeRules: true, OutcomeNoRules: true, OutcomeUnknown: true}
	for o := OutcomeUnknown; o <= OutcomeDisallowAll; o++ {
		if o.Usable() != usable[o] {
			t.Errorf("%v: usable %v", o, o.Usable())
		}
		if got, ok := ParseOutcome(o.String()); !ok || got != o {
			t.Errorf("ParseOutcome(%q) = %v, %v", o.String(), got, ok)
		}
	}
	for _, name := range []string{"", "Rules", "other"} {
		if _, ok := ParseOutcome(name); ok {
			t.Errorf("ParseOutcome(%q) parses", name)
		}
	}
}

// A body with no HTTP status (a tar entry, a file) is judged by its
// content as a 2xx body is: without a rule, HTML, XML, binary or UTF-16
// content is not-robots and not usable; with a rule, or as plain text, it
// is unknown and usable.
func TestStatuslessOutcome(t *testing.T) {
	for _, c := range []struct {
		name, body string
		want       Outcome
	}{
		{"html without rules", "<!DOCTYPE html><html><body>Not found</body></html>\n", OutcomeNotRobots},
		{"xml without rules", "<?xml version=\"1.0\"?>\n<urlset></urlset>\n", OutcomeNotRobots},
		{"binary", "\x00\x01\x02\x03\xff\xfe binary \x00\x00", OutcomeNotRobots},
		{"utf-16", "\xFF\xFEU\x00s\x00e\x00r\x00", OutcomeNotRobots},
		{"html with a rule", "<html><body><pre>\nUser-agent: *\nDisallow: /\n</pre></body></html>\n", OutcomeUnknown},
		{"plain text without rules", "# nothing to obey\n", OutcomeUnknown},
		{"empty", "", OutcomeUnknown},
	} {
		f := ParseResponseString(Response{}, c.body)
		if got := f.Outcome(); got != c.want || got.Usable() != (c.want == OutcomeUnknown) {
			t.Errorf("%s: outcome %v (usable %v), want %v", c.name, got, got.Usable(), c.want)
		}
	}
}

// RFC 9309 §2.5: crawlers must parse at least 500 KiB; content after the
// limit is ignored.
func TestRFC9309_SizeLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /first\n")
	for b.Len() < MaxBytes {
		b.WriteString("# padding padding padding padding padding padding\n")
	}
	b.WriteString("Disallow: /after-limit\n")
	f := ParseString(b.String())
	if !f.Stats.Oversize || f.Size != b.Len() {
		t.Errorf("oversize=%v size=%d, want true %d", f.Stats.Oversize, f.Size, b.Len())
	}
	if f.Allowed("http://e.com/first", "x") || !f.Allowed("http://e.com/after-limit", "x") {
		t.Error("rules before the limit apply, rules after it do not")
	}
	if codes := codesOf(f); len(codes) == 0 || codes[0] != "0:oversize" {
		t.Errorf("want oversize first, got %v", codes)
	}
	// ParsePrefix, given only the first bytes and the size, agrees.
	g := ParsePrefix(Response{}, []byte(b.String()[:MaxBytes]), b.Len())
	if g.Size != f.Size || !g.Stats.Oversize || len(g.Rules) != len(f.Rules) {
		t.Errorf("ParsePrefix: size %d oversize %v rules %d", g.Size, g.Stats.Oversize, len(g.Rules))
	}
}

// RFC 9309 §2.2: lines end at CR, LF or CRLF.
func TestRFC9309_LineEndings(t *testing.T) {
	for name, nl := range map[string]string{"LF": "\n", "CRLF": "\r\n", "CR": "\r"} {
		body := strings.Join([]string{"User-agent: FooBot", "Disallow: /a", "Allow: /a/b", ""}, nl)
		f := ParseString(body)
		if f.Stats.Lines != 3 || f.Stats.Rules != 2 {
			t.Errorf("%s: stats %+v", name, f.Stats)
		}
		expectVerdicts(t, body, "FooBot", `
			disallow http://e.com/a/c
			allow http://e.com/a/b`)
	}
}

// RFC 9309 §2.2.2 says /robots.txt is implicitly allowed; Google's parser,
// whose verdicts this package reproduces, has no such rule. The crawler
// fetches robots.txt before it consults it, so the difference never shows.
func TestRFC9309_RobotsTxtItselfFollowsTheRules(t *testing.T) {
	if allowed(t, "User-agent: *\nDisallow: /\n", "http://e.com/robots.txt", "FooBot") {
		t.Error("Google's matcher disallows /robots.txt under Disallow: /")
	}
}

// RFC 9309 §2.2.1: groups naming the same agent are combined however many
// groups the file has. The matcher keeps the groups naming the agents in a
// 64-bit set and asks the later ones again: a group past the 64th naming
// the agent counts, one naming another agent does not (issue 27 item 16).
func TestRFC9309_MatchingGroupsCombinedPast64(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: FooBot\nDisallow: /early\n\n")
	// Product tokens are letters, '_' and '-': bot-b-o names group 66.
	token := func(i int) string { return fmt.Sprintf("bot-%c-%c", 'a'+i/26, 'a'+i%26) }
	for i := 1; i <= 70; i++ {
		fmt.Fprintf(&b, "User-agent: %s\nDisallow: /g%d\n\n", token(i), i)
	}
	b.WriteString("User-agent: FooBot\nDisallow: /late\n")
	body := b.String()
	if n := len(ParseString(body).Groups); n != 72 {
		t.Fatalf("%d groups, want 72", n)
	}
	expectVerdicts(t, body, "FooBot", `
		disallow http://e.com/early
		disallow http://e.com/late
		allow http://e.com/g3
		allow http://e.com/g66`)
	expectVerdicts(t, body, token(66), `
		disallow http://e.com/g66
		allow http://e.com/g65
		allow http://e.com/early
		allow http://e.com/late`)
	expectVerdicts(t, body, "OtherBot", `
		allow http://e.com/early
		allow http://e.com/g66`)
	if v := ParseString(body).Match("http://e.com/late", []string{"FooBot"}); v.Allowed || v.Line != 3+3*70+2 {
		t.Errorf("/late for FooBot: %+v, want disallowed by line %d", v, 3+3*70+2)
	}
}

// RFC 9309 §2.2.2: the longest match decides, an allow winning a tie. The
// line that decides (Verdict.Line, what "robocensus match --why" prints) is
// the first of the equally long matches of the winning directive, within
// a group or across the groups combined (issue 27 item 16).
func TestRFC9309_DecidingLineOnTies(t *testing.T) {
	f := func(rules, url string, allowed bool, line int) {
		t.Helper()
		v := ParseString("User-agent: FooBot\n"+rules).Match(url, []string{"FooBot"})
		if v.Allowed != allowed || v.Line != line {
			t.Errorf("%q on %s: %+v, want allowed=%v by line %d", rules, url, v, allowed, line)
		}
	}
	f("Disallow: /ab\nDisallow: /a*\n", "http://e.com/abc", false, 2)
	f("Disallow: /a*\nDisallow: /ab\n", "http://e.com/abc", false, 2)
	f("Allow: /ab\nAllow: /a*\nDisallow: /\n", "http://e.com/abc", true, 2)
	f("Disallow: /ab\nAllow: /a*\n", "http://e.com/abc", true, 3)
	f("Disallow: /ab\n\nUser-agent: FooBot\nDisallow: /a*\n", "http://e.com/abc", false, 2)
	f("Disallow: /abc\nDisallow: /ab\n", "http://e.com/abc", false, 2)
	f("Disallow: /ab\nDisallow: /abc\n", "http://e.com/abc", false, 3)
}

// RFC 9309 §2.2.2: "Allow: /" and "Disallow: /" tie, and the allow wins
// everywhere, so the access a crawler has (File.Access, the agents table's
// verdict) is "allowed", as the matcher's verdicts are (issue 27 item 16).
func TestRFC9309_AllowAllTiesDisallowAll(t *testing.T) {
	f := func(rules string, want Access) {
		t.Helper()
		file := ParseString("User-agent: *\n" + rules)
		if got := file.Access("FooBot"); got != want {
			t.Errorf("%q: access %s, want %s", rules, got, want)
		}
		if got := file.Stats.StarDisallowsAll; got != (want == AccessDisallowed) {
			t.Errorf("%q: StarDisallowsAll %v", rules, got)
		}
	}
	f("Allow: /\nDisallow: /\n", AccessAllowed)
	f("Disallow: /\nAllow: /\n", AccessAllowed)
	f("Allow: /*\nDisallow: /\n", AccessAllowed)
	f("Disallow: /\n", AccessDisallowed)
	f("Allow: /$\nDisallow: /\n", AccessPartial)
	if !allowed(t, "User-agent: *\nAllow: /\nDisallow: /\n", "http://e.com/any/page", "FooBot") {
		t.Error(`"Allow: /" and "Disallow: /": /any/page disallowed, want allowed`)
	}
}
