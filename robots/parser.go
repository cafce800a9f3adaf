package robots

// A Parser parses one body after another into storage it keeps from one
// parse to the next. The File a Parser returns is that storage: the same
// File, its Rules, Groups, Diagnostics, the groups' agents and the line
// list behind [File.As] are overwritten by the Parser's next parse, so a
// File from a Parser is read before the next call and not kept (parse with
// [Parse] a File to keep). The strings read from it (its text, a rule's
// pattern, a sitemap's URL) stay valid: they are the body's and the
// parse's own, as from Parse.
//
// This is for callers that turn each File into something else at once, as
// ingest turns it into rows: each parse then writes
// into memory the last one left in the processor's cache, and makes no
// copies for the collector to reclaim, where Parse copies every slice into
// memory fresh from the allocator. One Parser serves one goroutine at a
// time; the zero Parser is ready to use.
type Parser struct {
	s scratch
	f File // the File of the last parse
}

// Parse is [Parse] into the Parser's storage.
func (ps *Parser) Parse(body []byte) *File {
	return ps.ParsePrefix(Response{}, body, len(body))
}

// ParseString is [ParseString] into the Parser's storage.
func (ps *Parser) ParseString(body string) *File {
	return ps.parse(Response{}, body, len(body))
}

// ParsePrefix is [ParsePrefix] into the Parser's storage.
func (ps *Parser) ParsePrefix(r Response, prefix []byte, size int) *File {
	return ps.parse(r, string(prefix[:min(len(prefix), MaxBytes)]), max(size, len(prefix)))
}

// ParseResponseString is [ParseResponseString] into the Parser's storage.
func (ps *Parser) ParseResponseString(r Response, body string) *File {
	return ps.parse(r, body, len(body))
}

// parse is the package's parse into the Parser's storage: text cut at
// MaxBytes, a body of size bytes.
func (ps *Parser) parse(r Response, text string, size int) *File {
	ps.s.clear()
	ps.f = File{Response: r, Size: size, text: text[:min(len(text), MaxBytes)]}
	parseIn(parser{keepLines: true, shared: true}, &ps.s, &ps.f)
	return &ps.f
}
