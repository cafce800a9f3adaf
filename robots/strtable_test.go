package robots

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The duplicate checks (rules, groups, directories of files) find what a
// plain scan of the earlier lines finds, in files small enough for their
// linear scans and large enough for their hash tables, one file after
// another (the tables are pooled and emptied between files and groups).
func TestDuplicateChecksAgreeWithScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 1))
	for round := range 300 {
		groups, rules := 1+rng.IntN(6), 3*linearRules // large groups
		if round%2 == 1 {
			groups, rules = 20+rng.IntN(60), 4 // many agents
		}
		body, want := duplicatesFile(rng, groups, rules)
		var got []string
		for _, d := range ParseString(body).Diagnostics {
			switch d.Code {
			case DuplicateRule, ConflictingRules, DuplicateGroup, FilesListedOneByOne:
				got = append(got, fmt.Sprintf("%d:%s:%d", d.Line, d.Code, d.Ref()))
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: findings\n %q\nwant\n %q\nfile:\n%s", round, got, want, body)
		}
	}
}

// duplicatesFile writes a file of groups of up to maxRules rules drawn
// from few patterns (so that they repeat) under agents drawn from few
// names in random case, and the findings a plain scan expects of it, as
// "line:code:ref".
func duplicatesFile(rng *rand.Rand, groups, maxRules int) (string, []string) {
	var b strings.Builder
	var want []string
	type agent struct {
		key  string
		line int
	}
	var agents []agent
	line := 0
	emit := func(s string) int {
		b.WriteString(s + "\n")
		line++
		return line
	}
	for range groups {
		for range 1 + rng.IntN(3) {
			name := fmt.Sprintf("bot%c", 'a'+rng.IntN(26)) // a token: letters only
			if rng.IntN(8) == 0 {
				name = "*"
			}
			if rng.IntN(2) == 0 {
				name = strings.ToUpper(name)
			}
			n := emit("User-agent: " + name)
			key := strings.ToLower(name)
			if i := slices.IndexFunc(agents, func(a agent) bool { return a.key == key }); i >= 0 && !sameGroup(agents[i].line, n, &b) {
				want = append(want, fmt.Sprintf("%d:%s:%d", n, DuplicateGroup, agents[i].line))
			}
			agents = append(agents, agent{key, n})
		}
		type rule struct{ directive, pattern string }
		var rules []rule
		dirs := map[string][]int{}
		for range rng.IntN(maxRules + 1) {
			dir := fmt.Sprintf("/d%d/", rng.IntN(2))
			pattern := fmt.Sprintf("%sf%d", dir, rng.IntN(60))
			directive := []string{"Allow", "Disallow"}[rng.IntN(2)]
			n := emit(directive + ": " + pattern)
			for _, r := range rules {
				if r.pattern == pattern {
					code := ConflictingRules
					if slices.ContainsFunc(rules, func(q rule) bool { return q.pattern == pattern && q.directive == directive }) {
						code = DuplicateRule
					}
					want = append(want, fmt.Sprintf("%d:%s:0", n, code))
					break
				}
			}
			rules = append(rules, rule{directive, pattern})
			dirs[dir] = append(dirs[dir], n)
		}
		for _, lines := range dirs {
			if len(lines) >= minFilesOneByOne {
				want = append(want, fmt.Sprintf("0:%s:%d", FilesListedOneByOne, lines[0]))
			}
		}
	}
	return b.String(), want
}

// sameGroup reports whether the agent lines from and to are in one group:
// no rule line between them in the text written so far.
func sameGroup(from, to int, b *strings.Builder) bool {
	lines := strings.Split(b.String(), "\n")
	for _, l := range lines[from : to-1] {
		if !strings.HasPrefix(l, "User-agent:") {
			return false
		}
	}
	return true
}
