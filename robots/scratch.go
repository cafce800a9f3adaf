package robots

import "sync"

// scratch is the growing storage of one parse. A parse appends its rules,
// diagnostics, groups, agents and lines (File.lines) here, then copies
// each into a slice of exactly its length (see [parser.keep]): the File
// then costs one allocation per kind, sized by what it holds, and the
// doubling of append leaves no garbage. (Counting a text's lines first to
// make the line list at its length costs more than the copy.) The tables of the duplicate checks live here too, so
// that they are built once per process rather than once per file.
//
// Scratch space comes from a sync.Pool and is emptied before it goes back,
// so it never holds on to the text of a file. The tables are emptied by
// the parser at the cost of what they hold (see [firstTable]).
type scratch struct {
	rules  []Rule
	diags  []Diagnostic
	groups []Group
	agents []Agent
	lines  []lineRef
	sorted []Diagnostic // a Parser's diagnostics when they needed a sort (sortedDiagnostics)

	ruleTable  firstTable // the first rule of each pattern of a large current group (sameRule)
	ruleDirs   []uint8    // the directives of each pattern's rules, by its first rule in the group (recordRule)
	agentTable firstTable // the first agent line naming each crawler, in a file of many agents
	dirTable   firstTable // the first rule of each directory (filesOneByOne)
	dirEnds    []int32    // the length of the directory of each rule of a group that names a file (filesOneByOne)
	dirFirst   []int32    // the first rule in the same directory (filesOneByOne)
	dirCount   []int32    // rules in the directory of each first rule (filesOneByOne)
	// comments are the numbers of the comment lines long enough to be a
	// template's marker (templatematch.go).
	comments []int32
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// maxScratch is the largest slice, in elements, that goes back to the
// pool: bigger ones, left by rare huge files, are dropped for the GC.
const maxScratch = 1 << 16

// exact returns a copy of s with no spare capacity, or nil when s is empty.
// It is written as make then copy, the form the compiler turns into one
// call that does not zero the memory it then overwrites (makeslicecopy).
func exact[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	out := make([]T, len(s))
	copy(out, s)
	return out
}

// kept returns what a File keeps of a scratch slice: nil when it is
// empty; a copy at its length (exact); or, when shared, the slice itself,
// its capacity cut to its length so that appending to it cannot write
// into what the scratch holds past it.
func kept[T any](s []T, shared bool) []T {
	if len(s) == 0 {
		return nil
	}
	if shared {
		return s[:len(s):len(s)]
	}
	return exact(s)
}

// release clears what a parse left in s and returns it to the pool.
func (s *scratch) release() {
	s.clear()
	scratchPool.Put(s)
}

// clear empties what a parse left in s for the next parse.
func (s *scratch) clear() {
	s.rules = reuse(s.rules)
	s.diags = reuse(s.diags)
	s.groups = reuse(s.groups)
	s.agents = reuse(s.agents)
	s.lines = reuse(s.lines)
	s.ruleDirs = reuse(s.ruleDirs)
	s.dirEnds = reuse(s.dirEnds)
	s.dirFirst = reuse(s.dirFirst)
	s.dirCount = reuse(s.dirCount)
	s.comments = reuse(s.comments)
	s.sorted = reuse(s.sorted)
}

// reuse returns s empty, or nil when it grew too large to keep. What s
// held is not cleared: the scratch's elements hold no pointer
// (TestScratchHoldsNoPointers), so they keep nothing alive.
func reuse[T any](s []T) []T {
	if cap(s) > maxScratch {
		return nil
	}
	return s[:0]
}
