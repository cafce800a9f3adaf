package robots

import (
	"fmt"
	"strings"
	"testing"
)

// Each validator against its definition (see extensionDefs for sources).
func TestExtensionSyntax(t *testing.T) {
	f := func(key, value string, want bool) {
		t.Helper()
		d := lookupExtension(key)
		if d == nil || d.valid == nil {
			t.Fatalf("%s: no validator", key)
		}
		if got := d.valid(value); got != want {
			t.Errorf("%s: %q valid=%v, want %v", key, value, got, want)
		}
	}
	f("Crawl-delay", "0.5", true)
	f("crawl-delay", "-1", false)
	f("host", "www.example.com", true)
	f("host", "https://example.com:8443", true)
	f("host", "example.com/", true) // leniency: the root
	f("host", "example.com/index.html", false)
	f("host", "", false)
	f("clean-param", "ref /some_dir/get_book.pl", true)
	f("clean-param", "utm_source&utm_medium", true)
	f("clean-param", "&ref", true) // leniency: a leading '&'
	f("clean-param", "a&&b", false)
	f("clean-param", "/articles/", false)
	f("clean-param", "ref /a/ /b/", false)
	f("request-rate", "1/5", true)
	f("request-rate", "10/1m", true)
	f("request-rate", "20/1h 0600-0845", true)
	f("request-rate", "10", false)
	f("request-rate", "1/5x", false)
	f("visit-time", "0600-0845", true)
	f("visit-time", "0100 - 0800", true)
	f("visit-time", "03:00-11:00", false)
	f("visit-time", "2500-0100", false)
	f("noindex", "/drafts/", true)
	f("noindex", "drafts", false)
	f("license", "https://example.com/license.xml", true)
	f("license", "/license.xml", false)
	f("license", "https:///license.xml", false)
	f("ACAP-crawler", "*", true)
}

// Preferences as written: a quoted comma does not split members,
// parameters are ignored, a bad key makes the whole Content-Usage line
// unknown, and a path is optional.
func TestPreferenceParsing(t *testing.T) {
	f := func(line, want string) {
		t.Helper()
		var got []string
		file := ParseString("User-agent: *\nDisallow: /x\n" + line + "\n")
		for _, p := range file.Preferences {
			got = append(got, fmt.Sprintf("%s %s %s=%s %s", p.Source, p.Path(file), p.Category(file), p.Value(file), p.Allowed))
		}
		if g := strings.Join(got, "; "); g != want {
			t.Errorf("%s:\n got  %s\n want %s", line, g, want)
		}
	}
	f("Content-Usage: / train-ai=n", "content-usage / train-ai=n disallowed")
	f("Content-Usage: train-ai=y, search=n", "content-usage / train-ai=y allowed; content-usage / search=n disallowed")
	f(`Content-Usage: /a/ train-ai=y;why="a, b", ai-use=n`, "content-usage /a/ train-ai=y allowed; content-usage /a/ ai-use=n disallowed")
	f("Content-Usage: / Train-AI=n, search=y", "content-usage / Train-AI=n unknown; content-usage / search=y unknown")
	f("Content-Usage: / search", "content-usage / search= unknown")
	f("Content-Signal: Search=Yes, ai-train=no,", "content-signal / Search=Yes allowed; content-signal / ai-train=no disallowed")
	f("Content-Signal: use=reference", "content-signal / use=reference unknown")
	f("Content-Signal: ai-input=maybe", "content-signal / ai-input=maybe unknown")
}

// An extension line belongs to its group as Google forms it: a user-agent
// line after it, before any rule, joins the group (crawler-commons'
// extensions-group-merging.txt reads it the same way).
func TestExtensionScope(t *testing.T) {
	f := ParseString("Content-Signal: ai-train=no\nUser-agent: mybot\nRequest-rate: 10/1m\nUser-agent: yourbot\nDisallow: /private/\n")
	if len(f.Extensions) != 2 {
		t.Fatalf("%d extensions", len(f.Extensions))
	}
	if e := f.Extensions[0]; e.Group != -1 || e.Agents(f) != nil {
		t.Errorf("file-wide line: group %d, agents %v", e.Group, e.Agents(f))
	}
	e := f.Extensions[1]
	if agents := e.Agents(f); e.Group != 0 || len(agents) != 2 || agents[1].Value(f) != "yourbot" || !e.Valid || e.Key(f) != "request-rate" || e.Value(f) != "10/1m" {
		t.Errorf("%+v", e)
	}
	if !f.Allowed("http://e.com/x", "otherbot") || f.Allowed("http://e.com/private/", "yourbot") {
		t.Error("verdicts changed")
	}
}

// A file without extension lines allocates nothing for them.
func TestNoExtensionsNoSlices(t *testing.T) {
	f := ParseString("User-agent: *\nDisallow: /x\n")
	if f.Extensions != nil || f.Preferences != nil {
		t.Errorf("%v %v", f.Extensions, f.Preferences)
	}
}
