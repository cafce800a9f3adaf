package ingest

import (
	"crypto/sha256"
	"encoding/hex"
	"mime"
	"slices"
	"strconv"
	"strings"

	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/ingest/dataset"
	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// job is one capture handed from a reader to a worker, with what the
// worker needs to know of its input.
type job struct {
	c        archive.Capture // Body points into the batch's arena
	input    string          // the input as given, the inputs table's key
	file     string          // the warc_filename of its captures
	segment  string          // the warc_segment of its captures
	keepBody bool            // the first capture of the input with its payload digest
}

// rowMaker turns parsed captures into rows. It holds what a worker reuses
// from capture to capture.
type rowMaker struct {
	crawlers    []robots.Crawler
	tokens      [][]string            // Tokens of each crawler: its MatchToken, then its fallbacks
	lowerTokens [][]string            // the same, lower case
	byToken     map[string][]tokenRef // lower-case token -> the crawlers that obey it
	hits        []uint8               // per crawler, for the capture at hand: hitOwn, hitFallback
	touched     []int                 // the crawlers with hits
	surt        []byte                // the SURT key being built
	messages    []byte                // the messages of the capture at hand, one after the other
	messageEnds []int                 // where each of them ends in messages
	census      *census               // the census of parsers (census.go); nil for none
	parser      robots.Parser         // parses each capture into the storage of the one before: its File is read before the next
	attribute   bool                  // attribute full blocks in files with templates (templates.go)
}

// tokenRef is one of the tokens crawler obeys: its own (fallback false) or
// one it falls back on.
type tokenRef struct {
	crawler  int
	fallback bool
}

const (
	hitOwn      = 1 << iota // a group names the crawler's own token
	hitFallback             // a group names one of its fallbacks
)

func newRowMaker(crawlers []robots.Crawler) *rowMaker {
	m := &rowMaker{crawlers: crawlers, byToken: map[string][]tokenRef{}, hits: make([]uint8, len(crawlers)), census: newCensus(), attribute: true}
	for i, c := range crawlers {
		ts := c.Tokens()
		m.tokens = append(m.tokens, ts)
		lower := make([]string, 0, len(ts)+1)
		for _, t := range slices.Concat(ts, []string{c.Token}) {
			lower = append(lower, strings.ToLower(t))
		}
		m.lowerTokens = append(m.lowerTokens, lower)
		for j, t := range ts {
			k := strings.ToLower(t)
			m.byToken[k] = append(m.byToken[k], tokenRef{crawler: i, fallback: j > 0})
		}
	}
	return m
}

// add parses one capture and appends its rows to rs.
func (m *rowMaker) add(rs *dataset.Rows, j *job) {
	c := &j.c
	resp := robots.Response{Status: c.Status, ContentType: c.ContentType, URL: c.URL, Location: c.Location}
	resp.Truncated, resp.StoredTruncated = c.TruncatedBy()
	f := m.parser.ParsePrefix(resp, c.Body, int(min(c.BodySize, int64(^uint(0)>>1))))
	id := CaptureID(j.file, c.Source.Offset, c.RecordID)
	host := c.Host
	rs.Captures = append(rs.Captures, captureRow(id, j, f))
	m.surt = setURLColumns(&rs.Captures[len(rs.Captures)-1], m.surt)
	m.addDiagnostics(rs, id, host, c, f)
	m.addRules(rs, id, host, f)
	for _, s := range f.Sitemaps {
		rs.Sitemaps = append(rs.Sitemaps, schema.Sitemap{CaptureID: id, URLHostName: host, URL: s.URL(f), Line: int32(s.Line), Valid: s.Valid})
	}
	addExtensions(rs, id, host, f)
	addTemplates(rs, id, host, f)
	first := len(rs.Agents.Via)
	m.addAgents(rs, id, host, f)
	if m.census != nil {
		m.census.add(m, rs, id, host, f, rs.Agents.Via[first:])
	}
	if j.keepBody && readByCrawlers(f) {
		text := f.Text()
		rs.Bodies = append(rs.Bodies, schema.Body{ContentDigest: c.PayloadDigest, Body: text})
		rs.BodyBytes += len(text)
	}
}

// readByCrawlers reports whether crawlers read the body: a 2xx or unknown
// status.
func readByCrawlers(f *robots.File) bool {
	s := f.Response.Status
	return s == 0 || s >= 200 && s < 300
}

// CaptureID returns the stable identifier of a capture: 24 hexadecimal
// digits of the SHA-256 of its file name, offset and record ID. The same
// record read again, by any run on any machine, gets the same ID.
func CaptureID(file string, offset int64, recordID string) string {
	h := sha256.New()
	h.Write([]byte(file))
	h.Write([]byte{0})
	h.Write(strconv.AppendInt(nil, offset, 10))
	h.Write([]byte{0})
	h.Write([]byte(recordID))
	var sum [sha256.Size]byte
	return hex.EncodeToString(h.Sum(sum[:0])[:12])
}

func captureRow(id string, j *job, f *robots.File) schema.Capture {
	c := &j.c
	s := &f.Stats
	mimeType, charset := contentType(c.ContentType)
	detected, _ := contentType(c.DetectedType)
	realLength := max(c.BodySize, int64(len(c.Body)))
	row := schema.Capture{
		CaptureID: id, URL: c.URL, URLHostName: c.Host, FetchTime: c.FetchTime.UTC(),
		FetchStatus: int32(c.Status), ContentMimeType: mimeType, ContentMimeDetected: detected,
		ContentCharset: charset, PayloadLength: int64(len(c.Body)), PayloadLengthReal: &realLength,
		ContentDigest: c.PayloadDigest, ContentTruncated: c.Truncated, Oversize: s.Oversize,
		WARCFilename: j.file, WARCRecordOffset: c.Source.Offset, WARCRecordLength: c.Source.Length, WARCSegment: j.segment,
		WARCRecordID: warcRecordID(c.RecordID), Outcome: f.Outcome().String(),
		LineCount: int32(s.Lines), GroupCount: int32(s.Groups), RuleCount: int32(s.Rules),
		AllowCount: int32(s.Allows), DisallowCount: int32(s.Disallows), SitemapCount: int32(s.Sitemaps),
		WildcardRuleCount: int32(s.WildcardRules), ErrorCount: int32(s.Errors), WarningCount: int32(s.Warnings),
		InfoCount: int32(s.Infos), UserAgents: f.UserAgents(), StarDisallowsAll: s.StarDisallowsAll, Input: j.input,
	}
	if c.Status >= 300 && c.Status < 400 {
		row.FetchRedirect = c.Location
	}
	if row.UserAgents == nil {
		row.UserAgents = []string{}
	}
	return row
}

// warcRecordID keeps WARC-Record-IDs and drops the IDs the readers make up
// for ARC records, tar entries and files.
func warcRecordID(id string) string {
	if strings.HasPrefix(id, "<urn:") || strings.HasPrefix(id, "urn:") {
		return id
	}
	return ""
}

// contentType returns the media type of a Content-Type, lower case,
// without parameters (the value as given when it cannot be parsed), and
// its charset parameter as written ("" when none or unparsable).
func contentType(ct string) (mediaType, charset string) {
	if ct == "" {
		return "", ""
	}
	if mt, params, err := mime.ParseMediaType(ct); err == nil {
		return mt, params["charset"]
	}
	return strings.TrimSpace(ct), ""
}

// addDiagnostics appends the engine's findings and the reader's problems
// with the capture: each problem is its kind's catalogue code (see
// problemCodes), with the problem's detail as argument. The messages of
// all the capture's rows are written one after the other into one reused
// buffer, from the findings' offsets into the file, and made into one
// string that the rows' messages are parts of: one allocation a capture,
// not one a finding.
func (m *rowMaker) addDiagnostics(rs *dataset.Rows, id, host string, c *archive.Capture, f *robots.File) {
	if len(f.Diagnostics)+len(c.Problems) == 0 {
		return
	}
	buf, ends := m.messages[:0], m.messageEnds[:0]
	for _, d := range f.Diagnostics {
		buf = robots.AppendMessage(buf, f, d)
		ends = append(ends, len(buf))
	}
	for _, p := range c.Problems {
		buf = robots.AppendRecordMessage(buf, problemCode(p.Code), p.Detail)
		ends = append(ends, len(buf))
	}
	m.messages, m.messageEnds = buf, ends
	all, start := string(buf), 0
	message := func(i int) string {
		msg := all[start:ends[i]]
		start = ends[i]
		return msg
	}
	for i, d := range f.Diagnostics {
		rs.Diagnostics = append(rs.Diagnostics, schema.Diagnostic{
			CaptureID: id, URLHostName: host, Line: int32(d.Line), Code: d.Code.String(),
			Severity: d.Severity().String(), Text: schema.ClipText(d.Text(f)), Message: message(i),
		})
	}
	for i, p := range c.Problems {
		code := problemCode(p.Code)
		rs.Diagnostics = append(rs.Diagnostics, schema.Diagnostic{
			CaptureID: id, URLHostName: host, Code: code.String(), Severity: code.Severity().String(),
			Message: message(len(f.Diagnostics) + i),
		})
	}
}

// problemCodes maps each kind of a reader's problem, by its number, to its
// catalogue code: the reader's entry named "ingest-" + the kind's name.
// It is built once, so that a problem's code is an index, not a string
// built and searched for; TestProblemCodesInCatalogue checks that every
// kind has its entry and every reader's entry its kind.
var problemCodes = readerCodesByKind()

// readerCodesByKind builds problemCodes from the catalogue: each reader's
// entry goes at the number of the kind it names (a kind without an entry
// keeps the zero Code, which no entry has).
func readerCodesByKind() []robots.Code {
	byName := make(map[string]robots.Code)
	for _, ci := range robots.Codes() {
		if ci.Reader {
			byName[ci.Name] = ci.Code
		}
	}
	kinds := archive.ProblemKinds()
	codes := make([]robots.Code, int(kinds[len(kinds)-1])+1)
	for _, k := range kinds {
		codes[k] = byName["ingest-"+k.String()]
	}
	return codes
}

// problemCode returns the catalogue code of a reader's problem kind (the
// zero Code for a number that is no kind).
func problemCode(kind archive.ProblemKind) robots.Code {
	if int(kind) >= len(problemCodes) {
		return 0
	}
	return problemCodes[kind]
}

func (m *rowMaker) addRules(rs *dataset.Rows, id, host string, f *robots.File) {
	for gi := range f.Groups {
		g := &f.Groups[gi]
		agents, rules := agentValues(f, g.Agents(f)), g.Rules(f)
		for ri := range rules {
			r := &rules[ri]
			rs.Rules = append(rs.Rules, schema.Rule{
				CaptureID: id, URLHostName: host, GroupIndex: int32(gi), UserAgents: agents,
				Directive: r.Directive.String(), Pattern: r.Value(f), Line: int32(r.Line),
				HasWildcard: r.HasWildcard(), HasEndAnchor: r.HasEndAnchor(),
			})
		}
	}
}

// addExtensions appends the extension directives and the usage
// preferences of the file; most files have none.
func addExtensions(rs *dataset.Rows, id, host string, f *robots.File) {
	for i := range f.Extensions {
		e := &f.Extensions[i]
		d := schema.Directive{CaptureID: id, URLHostName: host, Line: int32(e.Line), UserAgents: agentValues(f, e.Agents(f)), Key: e.Key(f), Value: e.Value(f), Valid: e.Valid}
		if e.Group >= 0 {
			g := int32(e.Group)
			d.GroupIndex = &g
		}
		rs.Directives = append(rs.Directives, d)
	}
	for i := range f.Preferences {
		p := &f.Preferences[i]
		row := schema.Preference{CaptureID: id, URLHostName: host, Line: int32(p.Line), Source: p.Source.String(),
			UserAgents: agentValues(f, p.Agents(f)), Path: p.Path(f), Category: p.Category(f), Value: p.Value(f)}
		if allowed, known := p.Allowed.Bool(); known {
			row.Allowed = &allowed
		}
		rs.Preferences = append(rs.Preferences, row)
	}
}

// agentValues returns the user-agent values as written of agents, f's.
func agentValues(f *robots.File, agents []robots.Agent) []string {
	var out []string
	for _, a := range agents {
		out = append(out, a.Value(f))
	}
	return out
}

// addAgents appends one row per tracked crawler. A crawler none of whose
// tokens a group names gets the verdict of the '*' groups (or of no group),
// computed once; the others are found from the file's own user-agent names
// and get robots.File.TokensAccess: the group of their own token, or of the
// first fallback token named (schema.Agent.Via).
func (m *rowMaker) addAgents(rs *dataset.Rows, id, host string, f *robots.File) {
	a := &rs.Agents
	first := len(a.Named)
	star, starVia := f.TokensAccess(nil)
	for range m.crawlers {
		a.Named = append(a.Named, false)
		a.Access = append(a.Access, star)
		a.Via = append(a.Via, starVia)
		a.Source = append(a.Source, robots.SourceNone)
		a.Cancelled = append(a.Cancelled, false)
	}
	a.IDs, a.Hosts = append(a.IDs, id), append(a.Hosts, host)
	for gi := range f.Groups {
		for _, ag := range f.Groups[gi].Agents(f) {
			token := ag.Token(f)
			if token == "" {
				continue
			}
			for _, r := range m.byToken[lowerASCII(token)] {
				if m.hits[r.crawler] == 0 {
					m.touched = append(m.touched, r.crawler)
				}
				if r.fallback {
					m.hits[r.crawler] |= hitFallback
				} else {
					m.hits[r.crawler] |= hitOwn
				}
			}
		}
	}
	for _, i := range m.touched {
		a.Named[first+i] = m.hits[i]&hitOwn != 0
		a.Access[first+i], a.Via[first+i] = f.TokensAccess(m.tokens[i])
		m.hits[i] = 0
	}
	m.touched = m.touched[:0]
	m.addSources(a, first, f)
}

// lowerASCII lower-cases an ASCII token without allocating when it is
// already lower case.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}
