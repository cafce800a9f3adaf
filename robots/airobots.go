package robots

import (
	"math/bits"
	"slices"
	"strings"
)

// aiRobotsDelta is one release of the ai.robots.txt block list as
// airobots_releases.go stores it: what it changes in the release before.
type aiRobotsDelta struct {
	Tag, Date, Commit string
	Added, Removed    []string
}

// AIRobotsRelease is one release of the ai.robots.txt block list
// (github.com/ai-robots-txt/ai.robots.txt): a git tag of the project, the
// date of its commit and the user-agent values of its robots.txt, sorted
// ignoring case as the project sorts them. A release whose agents equal the one before (v1.3, v1.21, v1.40)
// is listed too; a copy is dated by the first release with its agents.
type AIRobotsRelease struct {
	Tag, Date, Commit string
	Agents            []string
}

// AIRobotsReleases returns every release, oldest first.
func AIRobotsReleases() []AIRobotsRelease {
	out := make([]AIRobotsRelease, len(aiRobotsReleases))
	var cur []string
	for i, d := range aiRobotsReleases {
		next := make([]string, 0, len(cur)+len(d.Added))
		for _, a := range cur {
			if !containsFold(d.Removed, a) {
				next = append(next, a)
			}
		}
		cur = append(next, d.Added...)
		// The list is sorted ignoring case, as the project writes it.
		slices.SortStableFunc(cur, func(a, b string) int { return strings.Compare(asciiLower(a), asciiLower(b)) })
		out[i] = AIRobotsRelease{Tag: d.Tag, Date: d.Date, Commit: d.Commit, Agents: cur}
	}
	return out
}

// aiRobotsTemplate is release i as a catalogue entry.
func aiRobotsTemplate(i int) Template {
	r := aiRobots.releases[i]
	return Template{
		Name: TemplateAIRobots, Version: r.Tag, Title: "the ai.robots.txt block list",
		Source: srcAIRobots + " commit " + r.Commit, Date: r.Date,
		Agents: r.Agents, Rules: []string{"Disallow: /"},
		Note: "a group naming this release's agents (compared ignoring case) with Disallow: /; a group near a release is dated by the nearest (Jaccard index of the agent sets)",
	}
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// agentSet is a set of agents of the releases, one bit per agent.
type agentSet [4]uint64

func (s *agentSet) add(i int)      { s[i>>6] |= 1 << (i & 63) }
func (s *agentSet) has(i int) bool { return s[i>>6]&(1<<(i&63)) != 0 }
func (s *agentSet) count() (n int) {
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

func (s *agentSet) intersect(o *agentSet) (n int) {
	for i := range s {
		n += bits.OnesCount64(s[i] & o[i])
	}
	return n
}

// aiRobotsIndex is the releases made ready for matching: every agent ever
// listed numbered, each release a set of those numbers.
type aiRobotsIndex struct {
	releases []AIRobotsRelease
	sets     []agentSet
	number   map[string]int // lower-case agent value -> bit
	names    []string       // bit -> agent as the newest release writing it spells it
}

// aiRobots is built once, at start-up.
var aiRobots = newAIRobotsIndex()

func newAIRobotsIndex() *aiRobotsIndex {
	x := &aiRobotsIndex{releases: AIRobotsReleases(), number: map[string]int{}}
	for _, r := range x.releases {
		var s agentSet
		for _, a := range r.Agents {
			k := asciiLower(a)
			n, ok := x.number[k]
			if !ok {
				n = len(x.names)
				x.number[k] = n
				x.names = append(x.names, a)
			}
			x.names[n] = a
			s.add(n)
		}
		x.sets = append(x.sets, s)
	}
	if len(x.names) > len(agentSet{})*64 {
		panic("robots: agentSet is too small for the ai.robots.txt releases")
	}
	return x
}

// aiRobotsMatch is how near a group's agents are to a release.
type aiRobotsMatch struct {
	release int     // index in aiRobots.releases
	jaccard float64 // |A∩R| / |A∪R|
	known   agentSet
}

// nearest returns the release nearest to the agents, f's (the first of the
// nearest ones, so an unchanged set is dated by its first release).
func (x *aiRobotsIndex) nearest(f *File, agents []Agent) aiRobotsMatch {
	var set agentSet
	size := 0 // distinct agents of the group
	for i := range agents {
		n, ok := x.lookup(agents[i].Value(f))
		if ok && set.has(n) {
			continue
		}
		size++
		if ok {
			set.add(n)
		}
	}
	best := aiRobotsMatch{release: -1, known: set}
	for i := range x.sets {
		both := set.intersect(&x.sets[i])
		j := float64(both) / float64(size+x.sets[i].count()-both)
		if j > best.jaccard {
			best.release, best.jaccard = i, j
		}
	}
	return best
}

// missing returns the agents of release r that the set lacks, in the
// release's order.
func (x *aiRobotsIndex) missing(set *agentSet, r int) []string {
	var out []string
	for _, a := range x.releases[r].Agents {
		if !set.has(x.number[asciiLower(a)]) {
			out = append(out, a)
		}
	}
	return out
}

// asciiLower returns s with its ASCII letters in lower case, as lookup
// compares them.
func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x80 {
			return rune(lowerByte(byte(r)))
		}
		return r
	}, s)
}

// lookup returns the number of an agent value, compared ignoring ASCII
// case, without allocating.
func (x *aiRobotsIndex) lookup(v string) (int, bool) {
	var buf [64]byte
	if len(v) > len(buf) {
		return 0, false // longer than any agent of the releases
	}
	b := buf[:len(v)]
	for i := 0; i < len(v); i++ {
		b[i] = lowerByte(v[i])
	}
	n, ok := x.number[string(b)]
	return n, ok
}
