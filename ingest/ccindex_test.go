package ingest

import (
	"testing"

	"github.com/robocensus/robocensus/schema"
)

// TestCCIndexColumns: the columns Common Crawl's index derives from a
// capture's URL, for URLs of real robots.txt captures and the cases of
// the surt library's documented examples.
func TestCCIndexColumns(t *testing.T) {
	f := func(url, host, surt, tld, domain, protocol string, port int32) {
		t.Helper()
		row := schema.Capture{URL: url, URLHostName: host}
		setURLColumns(&row, nil)
		got := [...]any{row.URLSurtKey, row.URLHostTLD, row.URLHostRegisteredDomain, row.URLProtocol, row.URLPort}
		want := [...]any{surt, tld, domain, protocol, port}
		if got != want {
			t.Errorf("%s:\n got %q\nwant %q", url, got, want)
		}
	}
	f("https://commoncrawl.org/robots.txt", "commoncrawl.org", "org,commoncrawl)/robots.txt", "org", "commoncrawl.org", "https", 0)
	f("http://www.bbc.co.uk/robots.txt", "www.bbc.co.uk", "uk,co,bbc)/robots.txt", "uk", "bbc.co.uk", "http", 0)
	f("https://data.commoncrawl.org/robots.txt", "data.commoncrawl.org", "org,commoncrawl,data)/robots.txt", "org", "commoncrawl.org", "https", 0)
	// A private suffix (blogspot.com) is not a registry's: the
	// registered domain is one label below com, as Common Crawl's.
	f("https://myblog.blogspot.com/robots.txt", "myblog.blogspot.com", "com,blogspot,myblog)/robots.txt", "com", "blogspot.com", "https", 0)
	// www2. goes as www. does; a port is kept unless it is the default,
	// and url_port has it whenever written.
	f("http://WWW2.Example.COM:8080/Robots.TXT", "www2.example.com", "com,example:8080)/robots.txt", "com", "example.com", "http", 8080)
	f("https://example.com:443/robots.txt", "example.com", "com,example)/robots.txt", "com", "example.com", "https", 443)
	// The surt library's examples: trailing slash, empty and sorted query.
	f("http://archive.org/goo/?", "archive.org", "org,archive)/goo", "org", "archive.org", "http", 0)
	f("http://archive.org/goo/?a=2&b&a=1", "archive.org", "org,archive)/goo?a=1&a=2&b", "org", "archive.org", "http", 0)
	f("http://www.archive.org", "www.archive.org", "org,archive)/", "org", "archive.org", "http", 0)
	// IP addresses: no host parts, the SURT reverses IPv4 and keeps IPv6.
	f("http://192.0.2.1/robots.txt", "192.0.2.1", "1,2,0,192)/robots.txt", "", "", "http", 0)
	f("http://[2001:db8::1]:8000/robots.txt", "2001:db8::1", "2001:db8::1:8000)/robots.txt", "", "", "http", 8000)
	// A trailing dot, a user, a fragment, a port that is not one.
	f("https://user@example.org./robots.txt#x", "example.org.", "org,example)/robots.txt", "org", "example.org", "https", 0)
	f("https://example.org:99999/robots.txt", "example.org", "org,example:99999)/robots.txt", "org", "example.org", "https", 0)
	// No scheme: the host parts only.
	f("", "", "", "", "", "", 0)
}

func TestWARCSegment(t *testing.T) {
	for name, want := range map[string]string{
		"crawl-data/CC-MAIN-2025-05/segments/1736518059384.10/robotstxt/CC-MAIN-20250112135213-20250112165213-00000.warc.gz": "1736518059384.10",
		"crawl-data/CC-MAIN-2017-39/segments/1505818689752.21/warc/CC-MAIN-20170923160736-20170923180736-00256.warc.gz":      "1505818689752.21",
		"crawl-data/CC-MAIN-2025-05/segments/1736518059384.10/wat/x.warc.wat.gz":                                             "",
		"crawl-data/CC-MAIN-2025-05/robotstxt/x.warc.gz":                                                                     "",
		"https://example.org/crawl-data.warc.gz":                                                                             "",
		"local/file.warc.gz":                                                                                                 "",
	} {
		if got := WARCSegment(name); got != want {
			t.Errorf("WARCSegment(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestContentType(t *testing.T) {
	for ct, want := range map[string][2]string{
		"text/plain; charset=UTF-8":           {"text/plain", "UTF-8"},
		`Text/Plain;Charset="iso-8859-1"`:     {"text/plain", "iso-8859-1"},
		"text/html":                           {"text/html", ""},
		"":                                    {"", ""},
		"text/plain; charset=utf-8; charset=": {"text/plain; charset=utf-8; charset=", ""},
	} {
		if mt, cs := contentType(ct); [2]string{mt, cs} != want {
			t.Errorf("contentType(%q) = %q, %q, want %q", ct, mt, cs, want)
		}
	}
}

// BenchmarkURLColumns: the cost per capture of the Common Crawl columns.
func BenchmarkURLColumns(b *testing.B) {
	b.ReportAllocs()
	var buf []byte
	row := schema.Capture{URL: "https://www.example.co.uk/robots.txt", URLHostName: "www.example.co.uk"}
	for b.Loop() {
		buf = setURLColumns(&row, buf)
	}
	if row.URLSurtKey != "uk,co,example)/robots.txt" {
		b.Fatal(row.URLSurtKey)
	}
}
