package robots

import (
	"strconv"
	"strings"
)

// Mistake is one of the classic robots.txt mistakes of the survey of 2.4
// million DMOZ sites (about 75,000 robots.txt files, over 5% of them
// malformed and over 2% unreadable by any crawler), with the codes that
// detect it.
type Mistake struct {
	Number int    // 1 to 11 as the survey numbers them; 0 for domain farms
	Name   string // in a site owner's words, e.g. "reversed syntax"
	Survey string // the survey's example or description
	Codes  []Code // the codes that detect it; nil when no code can
	// Note says what the codes cannot see, or where else the mistake is
	// measured; "" when the codes say it all.
	Note string
}

// Mistakes returns the eleven classic mistakes of the robots.txt survey of
// 2.4 million DMOZ sites (seed 002 of the project: "Robots Exclusion
// Standard" and its survey: over 5% of 75,000 files malformed, over 2%
// unreadable) and the survey's domain farms (Number 0), each with the
// diagnostic codes that detect it, in the survey's order.
func Mistakes() []Mistake {
	return []Mistake{
		{1, "reversed syntax", "User-agent: * then Disallow: scooter, meant to block the crawler scooter",
			[]Code{ReversedSyntax, PathNotAbsolute},
			"reversed-syntax is reported with path-not-absolute: the first says what was meant, the second that the rule never matches"},
		{2, "several directories on one Disallow line", "Disallow: /css/ /cgi-bin/ /images/",
			[]Code{MultiplePaths}, ""},
		{3, "file edited in DOS mode", "CRLF line ends",
			[]Code{CRLFLineEndings, MixedLineEndings}, "Google reads CRLF fine: both codes are info"},
		{4, "comment at the end of a line", "Disallow: /cgi-bin/ # keep robots out",
			[]Code{EndOfLineComment}, ""},
		{5, "whitespace before a directive", "   User-agent: *",
			[]Code{LeadingWhitespace}, ""},
		{6, "missing robots.txt answered with a page", "a 404 redirected to, or a 200 with, an ordinary HTML page",
			[]Code{HTMLContent, HTMLMarkup, HTTPRedirect},
			"a redirect to a page is seen as http-redirect on the first fetch and html-content on the target"},
		{7, "upper-case directives and paths", "DISALLOW: /Images blocks nothing under /images",
			nil,
			"no code: Google reads directive names in any case, and paths match case-sensitively, but a path in the wrong case can only be seen against the site's URLs; a path written in two cases in one file was tried and left out (every sample was deliberate, and the check cost the parser 10%)"},
		{8, "every file listed one by one", "one file listed 4,000 files of one directory",
			[]Code{FilesListedOneByOne}, ""},
		{9, "Allow line", "Allow: was not in the 1994 standard; RFC 9309 has it, some crawlers still ignore it",
			nil, "no code: measured as captures.allow_count > 0 (a third of real files have an Allow line)"},
		{10, "path without a leading slash", "Disallow: john",
			[]Code{PathNotAbsolute}, ""},
		{11, "server answers with a binary file", "robots.txt served as a binary or in UTF-16",
			[]Code{BinaryContent, BOMUTF16, NonTextContentType}, ""},
		{0, "domain farms", "hundreds of domains serving one identical robots.txt",
			nil, "a property of hosts, not of a file: the report measures it by bodies shared across hosts"},
	}
}

// SurveyFigures are the figures of the survey of the DMOZ sites, as it
// states them.
type SurveyFigures struct {
	Sites int64 // sites crawled: 2.4 million
	Files int64 // robots.txt files found: about 75,000
	// The survey found "more than" these shares of the files malformed
	// and unreadable by any crawler (5% and 2%).
	MalformedOver, UnreadableOver float64
}

// Survey holds the survey's figures, the one place the report, the
// notebook's comparison columns (checked against it by the cross-check
// tests) and the README take them from.
var Survey = SurveyFigures{Sites: 2_400_000, Files: 75_000, MalformedOver: 0.05, UnreadableOver: 0.02}

// Malformed reports whether f has at least one finding of error severity:
// the survey's "malformed" (over 5% of files). Over the dataset it is
// captures.error_count > 0.
func Malformed(f *File) bool { return f.Stats.Errors > 0 }

// Unreadable reports whether no crawler can use anything in f's body: the
// survey's "unreadable by any crawler" (over 2% of files). It holds when the
// body is binary, HTML or UTF-16 (a finding of [NotRobotsCodes]), or when
// the body has content but no user-agent, allow, disallow or sitemap line
// (group_count = 0, sitemap_count = 0 and a no-rules finding). An empty body, or one not read because of the HTTP
// status, is not unreadable. Over the dataset:
//
//	EXISTS (SELECT 1 FROM diagnostics d WHERE d.crawl = c.crawl AND d.capture_id = c.capture_id
//	        AND list_contains(not_robots_codes(), d.code))
//	OR (c.group_count = 0 AND c.sitemap_count = 0
//	    AND EXISTS (SELECT 1 FROM diagnostics d WHERE d.crawl = c.crawl AND d.capture_id = c.capture_id
//	                AND d.code = 'no-rules'))
//
// for a capture c (notebooks/09_classic_mistakes.sql).
func Unreadable(f *File) bool {
	has := func(c Code) bool {
		for _, d := range f.Diagnostics {
			if d.Line > 0 {
				break // file findings come first
			}
			if d.Code == c {
				return true
			}
		}
		return false
	}
	return UnreadableFindings(has, f.Stats.Groups, f.Stats.Sitemaps)
}

// UnreadableFindings is [Unreadable] for a file known by its findings and
// counts, as a dataset keeps it: has reports whether the file has a
// finding of a code (its diagnostics rows), groups and sitemaps are its
// Stats.Groups and Stats.Sitemaps (captures.group_count and
// sitemap_count).
func UnreadableFindings(has func(Code) bool, groups, sitemaps int) bool {
	for _, c := range notRobotsCodes {
		if has(c) {
			return true
		}
	}
	return groups == 0 && sitemaps == 0 && has(NoRules)
}

// minFilesOneByOne is how many file rules of one directory, in one group
// and without a rule for the directory, make FilesListedOneByOne.
const minFilesOneByOne = 20

// classicCrawlers are names of crawlers of the survey's time that the
// generated list of tracked crawlers ([TrackedCrawlers]) does not hold.
var classicCrawlers = [...]string{"scooter", "slurp", "msnbot", "teoma", "ia_archiver", "lycos", "infoseek", "webcrawler", "architext", "fast-webcrawler", "gulliver", "inktomi"}

// looksLikeAgent reports whether a rule value v that starts with neither
// '/' nor '*' is a bare word naming a crawler: a known crawler's token or
// a word ending in bot, spider or crawler.
func looksLikeAgent(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	for _, s := range [...]string{"bot", "spider", "crawler"} {
		if len(v) > len(s) && strings.EqualFold(v[len(v)-len(s):], s) {
			return true
		}
	}
	for _, n := range classicCrawlers {
		if strings.EqualFold(v, n) {
			return true
		}
	}
	for i := range trackedCrawlers {
		if strings.EqualFold(v, trackedCrawlers[i].Token) {
			return true
		}
	}
	return false
}

// filesOneByOne reports, for the group whose rules are rules, each
// directory of which at least minFilesOneByOne rules list files while no
// rule names the directory itself. Groups with fewer rules cost nothing.
// A rule's directory is kept as its length in the rule's pattern
// (fileDirEnd), not as a string.
func (p *parser) filesOneByOne(rules []Rule) {
	if len(rules) < minFilesOneByOne {
		return
	}
	f := p.f
	ends, files := p.s.dirEnds[:0], 0
	for i := range rules {
		end := fileDirEnd(&rules[i], rules[i].Pattern(f))
		files += btoi(end > 0)
		ends = append(ends, end) // 0 when the rule names no file
	}
	p.s.dirEnds = ends
	if files < minFilesOneByOne {
		return
	}
	dir := func(i int) string { return rules[i].Pattern(f)[:ends[i]] }
	// first[i] is the index of the first rule in rule i's directory,
	// count[j] the rules in the directory of rule j.
	// Lists of files are mostly written a directory at a time: a rule in
	// the directory of the file rule before it needs no hash.
	t := &p.s.dirTable
	first, count := grow(p.s.dirFirst, len(ends)), grow(p.s.dirCount, len(ends))
	p.s.dirFirst, p.s.dirCount = first, count
	prev := -1 // the last rule naming a file
	for i, end := range ends {
		if end == 0 {
			continue
		}
		d := dir(i)
		var j int32
		if prev >= 0 && ends[prev] == end && dir(prev) == d {
			j = first[prev]
		} else {
			h := hashString(d)
			var slot int
			j, slot = t.find(h, func(k int32) bool { return ends[k] == end && dir(int(k)) == d })
			if j < 0 {
				j = int32(i)
				t.insert(h, j, slot)
			}
		}
		first[i], prev = j, i
		count[j]++
	}
	t.reset()
	for i, end := range ends {
		n := int(count[i])
		if end == 0 || first[i] != int32(i) || n < minFilesOneByOne {
			continue // decided once, at the directory's first file
		}
		if hasDirRule(f, rules, dir(i)) {
			continue
		}
		p.addFile(FilesListedOneByOne, dir(i))
		d := &f.Diagnostics[len(f.Diagnostics)-1]
		d.refer(rules[i].Line, f.spanIn(f.lineText(rules[i].Line), strconv.Itoa(n)))
	}
}

// grow returns s with length n, zeroed.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// fileDirEnd returns the length of the directory of pattern, r's, when it
// names one file: an absolute path without '*' whose last segment is not
// empty, in a directory other than the root; 0 when it names none. The
// cheap tests come first: a pattern ending in '/' names a directory, and
// the rule knows whether its pattern has a '*'.
func fileDirEnd(r *Rule, pattern string) int32 {
	n := len(pattern)
	if n < 3 || pattern[0] != '/' || pattern[n-1] == '/' || r.pat.star >= 0 {
		return 0
	}
	if i := strings.LastIndexByte(pattern, '/'); i > 0 {
		return int32(i + 1)
	}
	return 0 // a file in the root
}

// hasDirRule reports whether one of rules, f's, names dir ("/a/", "/a" or
// "/a/*").
func hasDirRule(f *File, rules []Rule, dir string) bool {
	for i := range rules {
		q := rules[i].Pattern(f)
		if q == dir || q == dir[:len(dir)-1] || len(q) == len(dir)+1 && q[len(dir)] == '*' && q[:len(dir)] == dir {
			return true
		}
	}
	return false
}
