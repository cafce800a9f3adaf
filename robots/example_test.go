package robots_test

import (
	"fmt"

	"github.com/robocensus/robocensus/robots"
)

const exampleRobots = `User-agent: *
Disallow: /private/
Allow: /private/press/

User-agent: Googlebot/2.1
Disalow: /drafts/

Sitemap: /sitemap.xml
`

// Parse a file, then ask about URLs: the Googlebot group applies to
// Googlebot (its name is cut at the '/'), the '*' group to everyone else.
func ExampleFile_Allowed() {
	f := robots.ParseString(exampleRobots)
	fmt.Println(f.Allowed("https://example.com/private/x", "Googlebot"))
	fmt.Println(f.Allowed("https://example.com/drafts/x", "Googlebot"))
	fmt.Println(f.Allowed("https://example.com/private/x", "OtherBot"))
	fmt.Println(f.Allowed("https://example.com/private/press/x", "OtherBot"))
	// Output:
	// true
	// false
	// false
	// true
}

// Match tells which line decided.
func ExampleFile_Match() {
	f := robots.ParseString(exampleRobots)
	v := f.Match("https://example.com/private/press/release.html", []string{"OtherBot"})
	fmt.Println(v.Allowed, v.Line)
	// Output: true 3
}

// Every problem is a diagnostic with a line, a stable code and a message.
func ExampleParse() {
	f := robots.Parse([]byte(exampleRobots))
	for _, d := range f.Diagnostics {
		fmt.Printf("%d: %s: %s [%s]\n", d.Line, d.Severity(), d.Message(f), d.Code)
	}
	fmt.Printf("%d groups, %d rules, %d sitemap\n", f.Stats.Groups, f.Stats.Rules, f.Stats.Sitemaps)
	// Output:
	// 5: warning: user-agent "Googlebot/2.1" has characters outside [A-Za-z_-]; Google matches only "Googlebot" [user-agent-truncated]
	// 6: warning: "Disalow" is misspelled; Google accepts it, other crawlers may ignore the line [typo-accepted]
	// 8: error: sitemap "/sitemap.xml" is not an absolute URL (it needs https://host/...) [sitemap-relative]
	// 2 groups, 3 rules, 1 sitemap
}

// A Parser parses a stream of files into storage it reuses: read each
// File before parsing the next (parse with robots.Parse a File to keep).
func ExampleParser() {
	bodies := []string{
		"User-agent: *\nDisallow: /a/\nDisallow: /b/\n",
		"User-agent: *\nDisalow: /c/\n",
	}
	var p robots.Parser
	for _, body := range bodies {
		f := p.ParseString(body)
		fmt.Println(len(f.Rules), "rules,", len(f.Diagnostics), "findings:", f.Allowed("https://example.com/c/", "Bot"))
	}
	// Output:
	// 2 rules, 0 findings: true
	// 1 rules, 1 findings: false
}

// A Diagnostic keeps offsets into the text of the File that found it, not
// strings: its line, the part of the line it is about and its message are
// read through that File. AppendMessage writes a message into a buffer the
// caller reuses, so that formatting many findings makes no string at all.
func ExampleAppendMessage() {
	f := robots.ParseString(exampleRobots)
	var buf []byte
	for _, d := range f.Diagnostics {
		start, end := d.Span()
		fmt.Printf("line %d %q: %q at %d-%d\n", d.Line, d.Text(f), d.Arg(f), start, end)
		buf = robots.AppendMessage(buf[:0], f, d)
		fmt.Printf("  %s\n", buf)
	}
	// Output:
	// line 5 "User-agent: Googlebot/2.1": "Googlebot/2.1" at 12-25
	//   user-agent "Googlebot/2.1" has characters outside [A-Za-z_-]; Google matches only "Googlebot"
	// line 6 "Disalow: /drafts/": "Disalow" at 0-7
	//   "Disalow" is misspelled; Google accepts it, other crawlers may ignore the line
	// line 8 "Sitemap: /sitemap.xml": "/sitemap.xml" at 9-21
	//   sitemap "/sitemap.xml" is not an absolute URL (it needs https://host/...)
}

// Walk the groups: their agents and rules, and a rule's value as written
// and pattern as Google matches it, are read through the File that parsed
// them, without a copy.
func ExampleGroup_Rules() {
	f := robots.ParseString("User-agent: Googlebot/2.1\nUser-agent: bingbot\nDisallow: /caf\u00e9/\nAllow: /a%2fb$\n")
	for _, g := range f.Groups {
		for _, a := range g.Agents(f) {
			fmt.Printf("agent %q token %q\n", a.Value(f), a.Token(f))
		}
		for _, r := range g.Rules(f) {
			fmt.Printf("%d %s %q matches %q\n", r.Line, r.Directive, r.Value(f), r.Pattern(f))
		}
	}
	// Output:
	// agent "Googlebot/2.1" token "Googlebot"
	// agent "bingbot" token "bingbot"
	// 3 disallow "/café/" matches "/caf%C3%A9/"
	// 4 allow "/a%2fb$" matches "/a%2Fb$"
}

// The HTTP status decides before the body: a 503 shuts every crawler out.
func ExampleParseResponse() {
	f := robots.ParseResponse(robots.Response{Status: 503}, []byte("User-agent: *\nAllow: /\n"))
	fmt.Println(f.Outcome(), f.Allowed("https://example.com/", "Googlebot"))
	for _, d := range f.Diagnostics {
		fmt.Println(d.Code, d.Severity())
	}
	// Output:
	// disallow-all false
	// http-5xx error
}

// Access sums up what a crawler may fetch.
func ExampleFile_Access() {
	f := robots.ParseString("User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /admin/\n")
	fmt.Println(f.Access("GPTBot"), f.Access("Googlebot"), f.Access("CCBot"))
	// Output: disallowed partially-disallowed partially-disallowed
}

// Lines shows the file as Google's parser sees it.
func ExampleFile_Lines() {
	f := robots.ParseString("User-agent *\nDisallow: /x # old\n\nnonsense here too\n")
	for l := range f.Lines() {
		fmt.Printf("%d %-9s %q %q\n", l.Number, l.Kind, l.Key, l.Value)
	}
	// Output:
	// 1 directive "user-agent" "*"
	// 2 directive "disallow" "/x"
	// 3 empty     "unknown" ""
	// 4 invalid   "unknown" ""
	// 5 empty     "unknown" ""
}

// PathOf is the part of a URL that rules match.
func ExamplePathOf() {
	fmt.Println(robots.PathOf("https://example.com/a/b?c=d#frag"))
	fmt.Println(robots.PathOf("https://example.com"))
	// Output:
	// /a/b?c=d
	// /
}

// Extensions and Preferences hold what Google ignores: each extension
// line with its value and validity, and each usage preference with whom
// and what it addresses; Explain puts a preference in words.
func ExamplePreference_Explain() {
	f := robots.ParseString(`License: https://example.com/license.xml
User-agent: *
Content-Signal: search=yes, ai-train=no
Content-Usage: /blog/ train-ai=y
Crawl-delay: soon
Disallow: /admin/
`)
	for _, e := range f.Extensions {
		fmt.Printf("%d %s %q group=%d agents=%d valid=%v\n", e.Line, e.Key(f), e.Value(f), e.Group, len(e.Agents(f)), e.Valid)
	}
	for _, p := range f.Preferences {
		fmt.Printf("%d %s %s %s=%s %s\n  %s\n", p.Line, p.Source, p.Path(f), p.Category(f), p.Value(f), p.Allowed, p.Explain(f))
	}
	// Output:
	// 1 license "https://example.com/license.xml" group=-1 agents=0 valid=true
	// 3 content-signal "search=yes, ai-train=no" group=0 agents=1 valid=true
	// 4 content-usage "/blog/ train-ai=y" group=0 agents=1 valid=true
	// 5 crawl-delay "soon" group=0 agents=1 valid=false
	// 3 content-signal / search=yes allowed
	//   allows content to be used to build a search index and show search results (links and short excerpts, not AI-generated summaries); this is a preference, not an access rule
	// 3 content-signal / ai-train=no disallowed
	//   asks that content not be used to train or fine-tune AI models; this is a preference, not an access rule
	// 4 content-usage /blog/ train-ai=y allowed
	//   allows content under /blog/ to be used to train generative AI models; this is a preference, not an access rule
}

// Templates names the blocks a CDN, a CMS or a block list wrote, with
// their lines, version and state; Attribute says who shuts a crawler out.
func ExampleFile_Templates() {
	f := robots.ParseString(`# BEGIN Cloudflare Managed content
User-agent: *
Content-signal: search=yes, ai-train=no
Allow: /

User-agent: GPTBot
Disallow: /

User-agent: CCBot
Disallow: /
# END Cloudflare Managed Content
User-agent: *
Disallow: /wp-admin/
Allow: /wp-admin/admin-ajax.php

User-agent: GPTBot
Allow: /
`)
	for _, b := range f.Templates() {
		fmt.Println(b.Start, b.End, b.Key(), b.State)
	}
	for _, a := range f.Attribute([]robots.Crawler{{Token: "GPTBot"}, {Token: "CCBot"}}) {
		fmt.Println(a.Crawler, a.Access, a.Source, a.Cancelled)
	}
	for _, d := range f.Diagnostics {
		if d.Code == robots.TemplateBlockCancelled {
			fmt.Println(d.Line, d.Code)
		}
	}
	// Output:
	// 1 11 cloudflare-managed@2025-09 edited
	// 12 14 wordpress-core@4.4 intact
	// GPTBot allowed none true
	// CCBot disallowed template false
	// 16 template-block-cancelled
}

// A reading gives another parser's verdicts. To ask many URLs for many
// crawlers, select each crawler's groups once (Select) and make each URL
// ready for the reading once (Probe): MatchProbe then only matches.
// Python's robotparser before 3.13 takes '*' in a path literally.
func ExampleReading_Probe() {
	f := robots.ParseString("User-agent: *\nDisallow: /*.pdf\n\nUser-agent: GPTBot\nDisallow: /\n")
	legacy := f.As(robots.SemanticsPythonLegacy)
	urls := []string{"https://example.com/a.pdf", "https://example.com/a.html"}
	probes := make([]robots.Probe, len(urls))
	for i, u := range urls {
		probes[i] = legacy.Probe(u)
	}
	var sel robots.Selection
	for _, crawler := range []string{"GPTBot", "OtherBot"} {
		legacy.Select([]string{crawler}, &sel)
		for i, u := range urls {
			fmt.Println(crawler, u, sel.MatchProbe(probes[i]).Allowed, f.Allowed(u, crawler))
		}
	}
	// Output:
	// GPTBot https://example.com/a.pdf false false
	// GPTBot https://example.com/a.html false false
	// OtherBot https://example.com/a.pdf true false
	// OtherBot https://example.com/a.html true true
}
