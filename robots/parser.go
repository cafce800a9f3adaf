package robots

// A Parser parses one body after another into storage it keeps from one
// parse to the next. The File a Parser returns shares that storage: its
// Rules, Groups, Diagnostics, the groups' agents and the line list behind
// [File.As] are overwritten by the Parser's next parse, so a File from a
// Parser is read before the next call and not kept (parse with [Parse] a
// File to keep). What a File holds besides (its text, sitemaps, extensions,
// preferences, templates) is its own, as from Parse.
//
// This is for callers that turn each File into something else at once, as
// ingest turns it into rows and lint into findings: each parse then writes
// into memory the last one left in the processor's cache, and makes no
// copies for the collector to reclaim, where Parse copies every slice into
// memory fresh from the allocator. One Parser serves one goroutine at a
// time; the zero Parser is ready to use.
type Parser struct {
	s scratch
}

// Parse is [Parse] into the Parser's storage.
func (ps *Parser) Parse(body []byte) *File {
	return ps.ParsePrefix(Response{}, body, len(body))
}

// ParseString is [ParseString] into the Parser's storage.
func (ps *Parser) ParseString(body string) *File {
	return ps.parse(Response{}, body[:min(len(body), MaxBytes)], len(body))
}

// ParsePrefix is [ParsePrefix] into the Parser's storage.
func (ps *Parser) ParsePrefix(r Response, prefix []byte, size int) *File {
	return ps.parse(r, string(prefix[:min(len(prefix), MaxBytes)]), max(size, len(prefix)))
}

// ParseResponseString is [ParseResponseString] into the Parser's storage.
func (ps *Parser) ParseResponseString(r Response, body string) *File {
	return ps.parse(r, body[:min(len(body), MaxBytes)], len(body))
}

func (ps *Parser) parse(r Response, text string, size int) *File {
	ps.s.clear()
	return parseIn(parser{keepLines: true, shared: true}, &ps.s, r, text, size)
}
