package robots

import "strings"

// Semantics names a parser whose reading of robots.txt files a [Reading]
// gives: the verdicts that parser would give for the same file.
type Semantics uint8

const (
	// SemanticsGoogle is Google's open-source parser: [File.Match].
	SemanticsGoogle Semantics = iota
	// SemanticsPythonLegacy is urllib.robotparser of CPython 3.12 and
	// earlier; see [pythonLegacy] for every way it differs from Google.
	SemanticsPythonLegacy
)

// semanticsNames are the names of the semantics, as the command line and
// the dataset spell them, in the order of the constants.
var semanticsNames = [...]string{"google", "python-legacy"}

// String returns the name of the semantics ("google", "python-legacy").
func (s Semantics) String() string { return semanticsNames[s] }

// AllSemantics returns every semantics, Google's first.
func AllSemantics() []Semantics {
	all := make([]Semantics, len(semanticsNames))
	for i := range all {
		all[i] = Semantics(i)
	}
	return all
}

// ParseSemantics returns the semantics named name; ok is false for an
// unknown name.
func ParseSemantics(name string) (s Semantics, ok bool) {
	for i, n := range semanticsNames {
		if n == name {
			return Semantics(i), true
		}
	}
	return 0, false
}

// SemanticsNames returns the names of every semantics joined with sep.
func SemanticsNames(sep string) string { return strings.Join(semanticsNames[:], sep) }

// A Reading is a parsed file read as one parser reads it. It is built from
// the File's one parse, from its groups (Google) or its line list (the
// other parsers, which group lines differently), without splitting the
// body again. A Reading is immutable and safe for concurrent use.
type Reading struct {
	f   *File
	sem Semantics
	py  *pyReading // python-legacy
}

// As returns the file read with semantics s. Build it once and match many
// URLs with it: for s other than Google, As derives that parser's groups
// from the file's lines.
func (f *File) As(s Semantics) *Reading {
	r := &Reading{f: f, sem: s}
	if s == SemanticsPythonLegacy {
		r.py = readPythonLegacy(f)
	}
	return r
}

// Semantics returns the semantics of the reading.
func (r *Reading) Semantics() Semantics { return r.sem }

// Match returns the verdict for url and a crawler that answers to any of
// agents, as the reading's parser would give it. Verdict.Line is the line
// of the rule that decided, 0 when none did.
func (r *Reading) Match(url string, agents []string) Verdict {
	if r.sem == SemanticsPythonLegacy {
		return r.py.match(r.f, url, agents)
	}
	return r.f.Match(url, agents)
}
