package robots

import (
	"fmt"
	"strings"
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

	message func(d Diagnostic, arg string) string // Diagnostic.Message
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

// Severity returns the severity of the code.
func (c Code) Severity() Severity {
	if c == codeNone || c >= numCodes {
		return 0
	}
	return catalogue[c].Severity
}

// Info returns the catalogue entry of the code.
func (c Code) Info() CodeInfo {
	if c == codeNone || c >= numCodes {
		return CodeInfo{}
	}
	ci := catalogue[c]
	ci.Code = c
	return ci
}

// Diagnostic is one finding. Text and Arg are substrings of the parsed file:
// making one costs no allocation.
type Diagnostic struct {
	Line int    // 1-based line number as Google counts lines; 0 for the whole file
	Code Code   // what was found
	Text string // the line as written (without its end of line); "" for line 0
	Arg  string // the part of the line the finding is about, or a detail
	// Ref is another line the finding refers to, 0 if none: for
	// DuplicateGroup the earlier user-agent line naming the same crawler,
	// for Oversize the last line Google reads.
	Ref int
	// RefArg is what Ref is about: for DuplicateGroup the earlier agent as
	// written, for Oversize the part of line Ref that Google reads when the
	// cut falls inside it ("" when it falls at the end of the line).
	RefArg string
}

// Span returns the byte range of Text the finding is about: where Arg is
// in the line. It is (0, 0) for a finding about the whole line or file, or
// whose Arg is a detail (a size) rather than a part of the line.
func (d Diagnostic) Span() (start, end int) {
	if d.Line == 0 || d.Arg == "" || d.Code == LineTooLong {
		return 0, 0
	}
	i := strings.Index(d.Text, d.Arg)
	if i < 0 {
		return 0, 0
	}
	return i, i + len(d.Arg)
}

// Severity returns the severity of the diagnostic's code.
func (d Diagnostic) Severity() Severity { return d.Code.Severity() }

// Message explains the finding to a site owner, in one sentence.
func (d Diagnostic) Message() string {
	if d.Code == codeNone || d.Code >= numCodes {
		return d.Code.String()
	}
	return catalogue[d.Code].message(d, d.Arg)
}
