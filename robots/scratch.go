package robots

import "sync"

// scratch is the growing storage of one parse. A parse appends its rules,
// diagnostics, groups and agents here, then copies each into a slice of
// exactly its length (see [parser.keep]): the File then costs one
// allocation per kind, sized by what it holds, and the doubling of append
// leaves no garbage. The maps of the duplicate checks live here too, so
// that they are built once per process rather than once per file.
//
// Scratch space comes from a sync.Pool and is emptied before it goes back,
// so it never holds on to the text of a file. The maps are emptied key by
// key by the parser (clear costs their largest capacity, every time).
type scratch struct {
	rules  []Rule
	diags  []Diagnostic
	groups []Group
	agents []Agent

	groupRules map[string]Directive // patterns of a large current group
	agentIndex map[string]int       // agent token (lower case) -> first agent line naming it
	agentKeys  []string             // the keys of agentIndex, to empty it
	dirFiles   map[string]int       // directory -> rules listing a file in it (filesOneByOne)
	dirs       []string             // the directory of each rule of a group that names a file (filesOneByOne)
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// maxScratch is the largest slice, in elements, that goes back to the
// pool: bigger ones, left by rare huge files, are dropped for the GC.
const maxScratch = 1 << 16

// exact returns a copy of s with no spare capacity, or nil when s is empty.
func exact[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}

// release clears what a parse left in s and returns it to the pool.
func (s *scratch) release() {
	s.rules = reuse(s.rules)
	s.diags = reuse(s.diags)
	s.groups = reuse(s.groups)
	s.agents = reuse(s.agents)
	s.dirs = reuse(s.dirs)
	s.agentKeys = reuse(s.agentKeys)
	scratchPool.Put(s)
}

// reuse clears the used part of s and returns it empty, or nil when it grew
// too large to keep.
func reuse[T any](s []T) []T {
	if cap(s) > maxScratch {
		return nil
	}
	clear(s)
	return s[:0]
}
