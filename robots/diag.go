package robots

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Severity ranks a diagnostic.
type Severity uint8

const (
	// Info is a fact worth counting.
	Info Severity = iota + 1
	// Warning is probably not what the author meant, or crawler-specific.
	Warning
	// Error means Google ignores or misreads the line or the file.
	Error
)

// String returns "info", "warning" or "error".
func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return "unknown"
}

// Code is a stable diagnostic code. Its [Code.String] form ("html-content",
// "typo-accepted", ...) is the contract: it is what lint prints and what the
// dataset stores. Codes are never renumbered in meaning; new ones are appended.
type Code uint8

// CodeInfo describes one code of the catalogue.
type CodeInfo struct {
	Code     Code
	Name     string   // the stable name, e.g. "typo-accepted"
	Severity Severity // how bad it is
	Summary  string   // when it is reported, in one line
	Doc      string   // what it means and what crawlers do, with references
	// Reader marks a problem that ingest's archive readers find with a
	// record ("ingest-..."), not one the engine finds in a file.
	Reader bool
	// Readings marks a line other parsers read differently from Google's
	// ("parsers-disagree-..."), found by [File.ReadingDiagnostics], not
	// in File.Diagnostics: lint reports it, the dataset's diagnostics
	// table does not.
	Readings bool

	message func(m message, arg string) message // Diagnostic.Message
}

// Codes returns the whole catalogue in a stable order.
func Codes() []CodeInfo {
	out := make([]CodeInfo, 0, numCodes-1)
	for c := codeNone + 1; c < numCodes; c++ {
		out = append(out, c.Info())
	}
	return out
}

// LookupCode returns the code with the given stable name.
func LookupCode(name string) (Code, bool) {
	for c := codeNone + 1; c < numCodes; c++ {
		if catalogue[c].Name == name {
			return c, true
		}
	}
	return codeNone, false
}

// String returns the stable name of the code.
func (c Code) String() string {
	if c == codeNone || c >= numCodes {
		return fmt.Sprintf("code(%d)", uint8(c))
	}
	return catalogue[c].Name
}

// codeSeverity is the severity of each code, 0 for a value that is no
// code: one lookup, for Code.Severity and the parser's counts.
var codeSeverity = func() (t [256]Severity) {
	for c := codeNone + 1; c < numCodes; c++ {
		t[c] = catalogue[c].Severity
	}
	return t
}()

// Severity returns the severity of the code.
func (c Code) Severity() Severity { return codeSeverity[c] }

// Info returns the catalogue entry of the code.
func (c Code) Info() CodeInfo {
	if c == codeNone || c >= numCodes {
		return CodeInfo{}
	}
	ci := catalogue[c]
	ci.Code = c
	return ci
}

// Diagnostic is one finding: a code on a line of a file. It holds no
// pointer: the part of its line the finding is about is kept as offsets
// into that line of the [File] that found it, which makes the strings when
// asked ([Diagnostic.Text], [Diagnostic.Arg], [Diagnostic.Message] and
// [AppendMessage], each given that File). A finding whose argument is not
// a part of its line (a size, a list of names, what other parsers read)
// keeps an index into a list of its File instead. Making a Diagnostic, and
// keeping thousands of them, costs the collector nothing to scan.
type Diagnostic struct {
	Line int // 1-based line number as Google counts lines; 0 for the whole file
	// ref is [Diagnostic.Ref]: a line of a File, which a uint32 holds (a
	// File's text is at most 4 GiB: maxLinesText); it keeps a Diagnostic
	// at 32 bytes (TestFindingsHoldNoPointers).
	ref  uint32
	Code Code // what was found
	// arg is the part of the line the finding is about, or a detail;
	// refArg what Ref is about, in line Ref (see [Diagnostic.RefArg]).
	arg, refArg span
}

// Ref returns another line the finding refers to, 0 if none: for
// DuplicateGroup the earlier user-agent line naming the same crawler, for
// Oversize the last line Google reads.
func (d Diagnostic) Ref() int { return int(d.ref) }

// refer sets the line d refers to and what it is about in that line.
func (d *Diagnostic) refer(line int, arg span) { d.ref, d.refArg = uint32(line), arg }

// span is where one string of a finding is kept: bytes [start, end) of
// the finding's line when start >= 0, else the string at index -start-1
// of the File's details (see [File.spanIn]). The zero span is the empty
// string.
type span struct{ start, end int32 }

// isDetail reports whether the span is an index into the File's details
// rather than a range of its text.
func (s span) isDetail() bool { return s.start < 0 }

// Text returns the line of f the finding is on, as written (without its
// end of line); "" for line 0. f is the File whose Diagnostics (or
// ReadingDiagnostics) hold d. It makes no copy: the string is a part of
// f's text.
func (d Diagnostic) Text(f *File) string { return f.lineText(d.Line) }

// Arg returns the part of the line the finding is about ("Dissallow" for
// TypoAccepted, the pattern for Wildcard), or its detail when that is not
// a part of the line (the size for Oversize and LineTooLong, the line
// endings counted for MixedLineEndings, the examples of other parsers'
// readings for parsers-disagree-...); "" when there is none. f is the
// File that found d.
func (d Diagnostic) Arg(f *File) string {
	if d.arg.isDetail() && d.Code < numCodes && catalogue[d.Code].Readings {
		return f.readingArg(int(-d.arg.start - 1))
	}
	return f.spanText(d.Line, d.arg)
}

// RefArg returns what Ref is about: for DuplicateGroup the earlier agent
// as written, for Oversize the part of line Ref that Google reads when the
// cut falls inside it ("" when it falls at the end of the line), for
// UsagePreferenceConflict the earlier preference, for FilesListedOneByOne
// the number of files. f is the File that found d.
func (d Diagnostic) RefArg(f *File) string { return f.spanText(d.Ref(), d.refArg) }

// Span returns the byte range of the line ([Diagnostic.Text]) the finding
// is about: where its argument is in the line (for a key or a value, the
// place the parser read it from: the value of "Allow: All" is bytes 7-10,
// not the "All" of "Allow"). It is (0, 0) for a finding about the whole line or file, or
// whose argument is a detail (a size) rather than a part of the line. It
// needs no File: the argument is kept as offsets into the line.
func (d Diagnostic) Span() (start, end int) {
	a := d.arg
	if d.Line == 0 || a.isDetail() || a.start == a.end || d.Code == LineTooLong {
		return 0, 0
	}
	return int(a.start), int(a.end)
}

// Severity returns the severity of the diagnostic's code.
func (d Diagnostic) Severity() Severity { return d.Code.Severity() }

// Message explains the finding to a site owner, in one sentence. f is the
// File that found d. [AppendMessage] writes the same bytes without making
// a string.
func (d Diagnostic) Message(f *File) string { return string(AppendMessage(nil, f, d)) }

// AppendMessage appends the message of d ([Diagnostic.Message]) to dst and
// returns the extended buffer. It makes no intermediate string: the parts of
// the line the message quotes are read from f's text, so a caller that
// reuses dst formats any number of messages without allocating.
func AppendMessage(dst []byte, f *File, d Diagnostic) []byte {
	m := message{b: dst, line: d.Line, ref: d.Ref(), text: d.Text(f), refArg: d.RefArg(f)}
	return m.write(d.Code, d.Arg(f))
}

// AppendRecordMessage appends to dst the message of a finding of code c
// that is about no file's text but the record that carried it (a code
// whose CodeInfo.Reader is set), with the reader's detail as its argument.
func AppendRecordMessage(dst []byte, c Code, detail string) []byte {
	m := message{b: dst}
	return m.write(c, detail)
}

// message is the buffer a catalogue entry writes its message into, with the
// strings of the finding it explains. Its methods append and return the
// message, so that an entry reads as the sentence it writes. It is passed
// and returned by value: a pointer given to a catalogue entry's func would
// make it escape, an allocation a message.
type message struct {
	b         []byte
	line, ref int    // Diagnostic.Line and Ref
	text      string // Diagnostic.Text
	refArg    string // Diagnostic.RefArg
}

// write appends the message of a finding of code c whose argument is arg,
// and returns the buffer.
func (m message) write(c Code, arg string) []byte {
	if c == codeNone || c >= numCodes {
		return append(m.b, c.String()...)
	}
	return catalogue[c].message(m, arg).b
}

// add appends s as it is.
func (m message) add(s string) message {
	m.b = append(m.b, s...)
	return m
}

// int appends n in decimal.
func (m message) int(n int) message {
	m.b = strconv.AppendInt(m.b, int64(n), 10)
	return m
}

// quote appends s as strconv.Quote writes it.
func (m message) quote(s string) message {
	m.b = appendQuote(m.b, s)
	return m
}

// quoteClipped appends s cut to at most n bytes at the start of a
// character, the cut marked with "...", as strconv.Quote writes it.
func (m message) quoteClipped(s string, n int) message {
	if len(s) <= n {
		return m.quote(s)
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	m.b = appendQuote(m.b, s[:n])
	m.b = append(m.b[:len(m.b)-1], `..."`...)
	return m
}

// appendQuote is strconv.AppendQuote with a shortcut for the common case,
// printable ASCII without '"' or '\\', which it appends between double
// quotes as is: ingest formats a message for every diagnostic row.
func appendQuote(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return strconv.AppendQuote(dst, s)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}
