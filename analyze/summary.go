package analyze

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
)

// WriteSummary writes a summary of the latest crawl that fits a terminal:
// the headline figures, the outcomes, the most frequent errors and
// warnings, the AI crawlers most often named and the worst hosts.
func (r *Report) WriteSummary(w io.Writer) error {
	if len(r.Crawls) == 0 {
		return nil
	}
	c := r.Crawls[len(r.Crawls)-1]
	var b strings.Builder
	fmt.Fprintf(&b, "crawl %s: %s captures of %s hosts, %s with a usable robots.txt\n",
		c.Crawl, fmtInt(c.Captures), fmtInt(c.Hosts), fmtRatio(Ratio{c.UsableHosts, c.Hosts}))
	b.WriteString("outcomes:")
	for _, o := range c.Outcomes {
		if o.Captures.N > 0 {
			fmt.Fprintf(&b, " %s %s", o.Outcome, fmtShare(o.Captures.Share()))
		}
	}
	fmt.Fprintf(&b, "\ncaptures with an error: %s; over 500 KiB: %s\n", fmtRatio(c.WithErrors), fmtRatio(c.Sizes.Oversize))
	b.WriteString("most frequent problems:")
	var problems []CodeShare
	for _, d := range c.Diagnostics {
		if d.Severity != "info" && d.Captures.N > 0 {
			problems = append(problems, d)
		}
	}
	slices.SortStableFunc(problems, func(a, b CodeShare) int { return cmp.Compare(b.Captures.N, a.Captures.N) })
	for _, d := range problems[:min(6, len(problems))] {
		fmt.Fprintf(&b, "\n  %-32s %-8s %s", d.Code, d.Severity, fmtRatio(d.Captures))
	}
	ai := &c.Crawlers
	fmt.Fprintf(&b, "\nAI crawlers: named by %s of usable robots.txt, fully disallowed by name by %s\n", fmtShare(ai.AnyAINamed.Share()), fmtShare(ai.AnyAINamedDisallowed.Share()))
	for _, agent := range trendAgents(c, 5) {
		v := crawlerUsable(c, agent)
		fmt.Fprintf(&b, "  %-24s named %-6s fully disallowed %s\n", agent, fmtShare(share(v.Named, v.Hosts)), fmtShare(share(v.Disallowed, v.Hosts)))
	}
	b.WriteString("hosts with the most errors:")
	for i, h := range c.WorstHosts {
		if i == 5 {
			break
		}
		fmt.Fprintf(&b, "\n  %-32s %d %s: %s", termSafe(h.Host), h.Errors, plural(int64(h.Errors), "error", "errors"), strings.Join(h.Codes, ", "))
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// termSafe replaces control characters, which could drive a terminal, by
// U+FFFD.
func termSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return '\uFFFD'
		}
		return r
	}, s)
}
