package ingest

import (
	"slices"
	"strings"

	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/ingest/hosts"
	"github.com/robocensus/robocensus/schema"
)

// The captures columns that Common Crawl's columnar index derives from a
// capture's URL and file (commoncrawl/cc-index-table: the column
// descriptions of src/main/resources/schema/cc-index-schema-flat.json,
// the host parts of src/main/java/org/commoncrawl/net/HostName.java, the
// segment of the file path in CCIndex2Table.java). They are computed for
// every capture, so they parse by hand, with no regular expression and no
// allocation but the SURT key's string.

// urlParts are the parts of a URL the columns need, as substrings of it.
type urlParts struct {
	scheme string // as written
	port   string // as written, "" when none
	path   string // "" when none
	query  string // after '?', "" when none
}

// splitURL splits an absolute URL ("scheme://authority/path?query#frag").
// ok is false when it has no scheme.
func splitURL(u string) (p urlParts, ok bool) {
	p.scheme = archive.URLScheme(u)
	if p.scheme == "" {
		return p, false
	}
	rest := u[len(p.scheme)+len("://"):]
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest = rest[:i]
	}
	end := strings.IndexAny(rest, "/?")
	if end < 0 {
		end = len(rest)
	}
	authority, rest := rest[:end], rest[end:]
	if i := strings.LastIndexByte(authority, '@'); i >= 0 {
		authority = authority[i+1:]
	}
	if i := strings.LastIndexByte(authority, ':'); i >= 0 && !strings.Contains(authority[i:], "]") {
		p.port = authority[i+1:]
	}
	p.path, p.query, _ = strings.Cut(rest, "?")
	return p, true
}

// protocol returns a scheme in lower case, without allocating for http
// and https.
func protocol(scheme string) string {
	switch {
	case strings.EqualFold(scheme, "https"):
		return "https"
	case strings.EqualFold(scheme, "http"):
		return "http"
	}
	return strings.ToLower(scheme)
}

// portNumber returns a port written in a URL, or 0 (NULL) when none is
// written or it is not a port number (1 to 65535).
func portNumber(port string) int32 {
	if port == "" || len(port) > 5 {
		return 0
	}
	n := 0
	for i := 0; i < len(port); i++ {
		if port[i] < '0' || port[i] > '9' {
			return 0
		}
		n = n*10 + int(port[i]-'0')
	}
	if n > 65535 {
		return 0
	}
	return int32(n)
}

// isDefaultPort reports whether port is the default one of the scheme.
func isDefaultPort(scheme, port string) bool {
	return port == "80" && scheme == "http" || port == "443" && scheme == "https"
}

// hostTLD returns the last label of a host name, as Common Crawl's
// url_host_tld; "" for an IP address.
func hostTLD(host string) string {
	host = strings.TrimSuffix(host, ".")
	if host == "" || hosts.IsIPAddress(host) {
		return ""
	}
	return host[strings.LastIndexByte(host, '.')+1:]
}

// appendSURT appends the SURT key of a URL whose lower-case host is host,
// as Common Crawl's CDX index and url_surtkey write it (the default
// canonicalization of the Internet Archive's surt, documented by its
// tests: "http://www.archive.org/goo/?b&a" is "org,archive)/goo?a&b"):
// the scheme dropped; the host without a trailing dot and without a
// leading "www." or "www" and digits and a dot, its labels reversed and
// joined by commas (an IPv6 address as it is); a port that is not the
// scheme's default after a colon; ")"; the path lower case, "/" when
// empty, without a trailing slash unless it is "/"; the query, when not
// empty, lower case with its parameters sorted. It does not strip
// session IDs or normalise percent escapes as the canonicalizer does.
func appendSURT(dst []byte, host string, p urlParts) []byte {
	host = stripWWW(strings.TrimSuffix(host, "."))
	if strings.IndexByte(host, ':') >= 0 {
		dst = append(dst, host...)
	} else {
		for end := len(host); end >= 0; {
			start := strings.LastIndexByte(host[:end], '.') + 1
			dst = append(dst, host[start:end]...)
			if start == 0 {
				break
			}
			dst = append(dst, ',')
			end = start - 1
		}
	}
	if p.port != "" && !isDefaultPort(protocol(p.scheme), p.port) {
		dst = append(append(dst, ':'), p.port...)
	}
	dst = append(dst, ')')
	path := p.path
	if path == "" {
		path = "/"
	}
	if len(path) > 1 {
		path = strings.TrimSuffix(path, "/")
	}
	dst = appendLower(dst, path)
	if p.query == "" {
		return dst
	}
	dst = append(dst, '?')
	params := strings.Split(p.query, "&")
	slices.Sort(params)
	for i, q := range params {
		if i > 0 {
			dst = append(dst, '&')
		}
		dst = appendLower(dst, q)
	}
	return dst
}

// stripWWW drops a leading "www." or "www" followed by digits and a dot,
// unless nothing would be left.
func stripWWW(host string) string {
	if !strings.HasPrefix(host, "www") {
		return host
	}
	i := 3
	for i < len(host) && host[i] >= '0' && host[i] <= '9' {
		i++
	}
	if i+1 < len(host) && host[i] == '.' {
		return host[i+1:]
	}
	return host
}

// appendLower appends s with ASCII letters in lower case.
func appendLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// setURLColumns fills the URL columns of a captures row from its URL and
// host (url_host_name), using buf for the SURT key; it returns buf for
// reuse.
func setURLColumns(row *schema.Capture, buf []byte) []byte {
	row.URLHostTLD = hostTLD(row.URLHostName)
	row.URLHostRegisteredDomain = hosts.RegisteredDomain(row.URLHostName)
	p, ok := splitURL(row.URL)
	if !ok {
		return buf
	}
	row.URLProtocol, row.URLPort = protocol(p.scheme), portNumber(p.port)
	if row.URLHostName != "" {
		buf = appendSURT(buf[:0], row.URLHostName, p)
		row.URLSurtKey = string(buf)
	}
	return buf
}

// WARCSegment returns the segment of a Common Crawl file from its path,
// as warc_filename spells it ("crawl-data/CC-MAIN-2025-05/segments/
// 1736518059384.10/robotstxt/..." has 1736518059384.10), the segment
// Common Crawl's index gives its captures; "" for other inputs.
func WARCSegment(warcFilename string) string {
	rest, ok := strings.CutPrefix(warcFilename, "crawl-data/")
	if !ok {
		return ""
	}
	parts := strings.SplitN(rest, "/", 5) // crawl, "segments", segment, subset, file
	if len(parts) < 5 || parts[0] == "" || parts[1] != "segments" || parts[2] == "" {
		return ""
	}
	switch parts[3] {
	case "robotstxt", "crawldiagnostics", "warc":
		return parts[2]
	}
	return ""
}
