package robots

// Vocabularies of the engine that the dataset stores and the reports and
// notebooks read, each defined here once. Package schema turns them into
// the notebooks' SQL (notebooks/vocabulary.sql); internal/archtest fails on
// a second spelling of one of them in the repository's Go or SQL.

// notRobotsCodes are the whole-file findings that make a body with no rule
// not a robots.txt at all: binary, HTML (or XML) and UTF-16 content.
var notRobotsCodes = [...]Code{BinaryContent, HTMLContent, BOMUTF16}

// NotRobotsCodes returns the whole-file findings (binary-content,
// html-content, bom-utf16) that make a body with no rule not a robots.txt
// ([OutcomeNotRobots]) and a file unreadable by any crawler
// ([Unreadable]). The notebooks get them as the list macro
// not_robots_codes().
func NotRobotsCodes() []Code { return append([]Code(nil), notRobotsCodes[:]...) }

// IsNotRobotsCode reports whether c is one of [NotRobotsCodes].
func IsNotRobotsCode(c Code) bool {
	for _, n := range notRobotsCodes {
		if c == n {
			return true
		}
	}
	return false
}

// Reasons a reader gives for keeping only part of a body
// ([Response.StoredTruncated], captures.content_truncated when the record
// has no WARC-Truncated field): stored-truncated. Package ingest/archive,
// which writes them and may import nothing of this repository, spells them
// again as its Truncated* constants; a test of package ingest (which sees
// both) fails when the two differ.
const (
	StoredBodyCap   = "body-cap"   // the reader's cap on stored body bytes: the kept part is the file's first bytes
	StoredRecordCap = "record-cap" // the reader's cap on the bytes read of a record: the file's size is a lower bound
	StoredInputEnd  = "input-end"  // the input ended or broke inside the record: the rest was not read
)

// StoredTruncationReasons returns the reasons of [StoredBodyCap],
// [StoredRecordCap] and [StoredInputEnd], in that order. The notebooks get
// them as the list macro stored_truncation_reasons().
func StoredTruncationReasons() []string {
	return []string{StoredBodyCap, StoredRecordCap, StoredInputEnd}
}
