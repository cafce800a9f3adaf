package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/robocensus/robocensus/robots"
)

var matchCmd = &Command{
	Name:  "match",
	Usage: "match --agent UA [--agent UA]... [--why] [--semantics NAME] ROBOTS_FILE URL...",
	Short: "tell whether URLs may be crawled, with Google's verdict or another parser's",
	Long: `
Match parses ROBOTS_FILE ("-" is standard input) and prints, for each URL,
the verdict of Google's robots.txt parser for a crawler that answers to the
given agents:

	allowed<TAB>URL
	disallowed<TAB>URL

An agent is a product token such as Googlebot, compared case-insensitively
with the user-agent lines of the file (each cut at its first character
outside [A-Za-z_-]). When a group names one of the agents, the groups naming
them are merged and obeyed; otherwise the '*' groups are. The longest
matching pattern wins, an allow winning a tie. URLs are matched as given:
pass them percent-encoded.

The name of a tracked crawler that is not a product token ("Linguee Bot",
"MistralAI-User/1.0") is matched as its product token ("Linguee",
"MistralAI-User"), as the dataset's agents table and the report match it,
and a note on standard error says so. Any other agent that is not a
product token ("Googlebot/2.1", "*") is compared whole, as Google's matcher
compares it: no user-agent line can equal it, and a warning says so.

Each URL is an absolute URL (https://host/path?query) or a path starting
with "/"; anything else is a usage error.

With --why, a third column gives the line of the rule that decided, or 0
when no rule matched. For a file over 500 KiB, of which Google reads only
the first 500 KiB, a note on standard error tells when a rule after the cut
would have decided otherwise.

With --semantics, the verdict is that of another parser's reading of the
file: google (the default, as above), python-legacy (Python's
urllib.robotparser of CPython 3.12 and earlier: first match in file order,
groups ended by an empty line, user-agent values matched as substrings of
the crawler's name, paths percent-decoded and re-encoded; agents are given
to it as written, as a Python crawler passes its name to can_fetch),
python (urllib.robotparser after gh-138907, CPython main and 3.13 since May
2026: groups merged, longest match, '*' and '$', a user-agent value matched
whole before it is matched as a substring; agents as written),
crawler-commons (SimpleRobotRulesParser of crawler-commons 1.6, default
configuration, what CCBot obeys: user-agent values matched whole or by
their leading product token against the agents lower-cased and split at
commas and white space, its own misspelt keys, paths normalised, HTML tags
cut, /robots.txt always allowed, a crawl delay over 300 s disallowing
everything; agents as written) or rfc9309 (RFC 9309 by its letter: no misspelled keys or missing colons,
whole product tokens, escapes of unreserved characters decoded,
/robots.txt always allowed, 429 allowing everything; agents as Google gets
them). The robots package's SemanticsPythonLegacy, SemanticsPython,
SemanticsCrawlerCommons and SemanticsRFC9309 list every difference from Google's reading. With --semantics all, each
URL gets one line with every reading's verdict:

	URL<TAB>google=allowed<TAB>python-legacy=disallowed<TAB>rfc9309=allowed<TAB>python=allowed<TAB>crawler-commons=allowed

and, where the readings differ, a last column says which rule decided for
each ("line 0" when none did) and, for each reading whose verdict is not
Google's, the difference class that explains it, as the dataset's readings
table names it (lint --explain parsers-disagree-CLASS documents each):

	# differ: google line 3 "Allow: /wp-admin/admin-ajax.php"; python-legacy line 2 "Disallow: /wp-admin/" (allow-order)

A class about another line than the deciding rules names it: "(agent-matching,
line 4)" where the other parser obeys the group of the user-agent line 4.

Exit status: 0 when every URL was judged, 2 on a usage error or a file that
cannot be read.`,
	Flags: func(fs *flag.FlagSet) func(*Env, []string) int {
		var agents stringList
		fs.Var(&agents, "agent", "user agent `token` to match (repeatable)")
		why := fs.Bool("why", false, "add the line of the deciding rule")
		semantics := fs.String("semantics", "google", "whose reading: "+robots.SemanticsNames(", ")+" or all")
		return func(env *Env, args []string) int {
			if len(agents) == 0 || len(args) < 2 {
				env.errorf("match: want --agent UA, a ROBOTS_FILE and at least one URL")
				return exitUsage
			}
			for _, u := range args[1:] {
				if !isURLOrPath(u) {
					env.errorf("match: %q is neither an absolute URL (https://host/path) nor a path starting with \"/\"", u)
					return exitUsage
				}
			}
			sems, ok := parseSemanticsFlag(*semantics)
			if !ok {
				env.errorf("match: unknown --semantics %q: want %s or all", *semantics, robots.SemanticsNames(", "))
				return exitUsage
			}
			if len(sems) > 1 || sems[0] != robots.SemanticsGoogle {
				return matchReadings(env, args[0], args[1:], agents, sems, *why)
			}
			return match(env, args[0], args[1:], matchAgents(env, agents), *why)
		}
	},
}

// matchAgents returns the agents to match for those given, by the one rule
// for crawler names (robots.ExtractAgentToken): the name of a tracked
// crawler is its product token; any other agent is compared whole, as
// Google's matcher compares it. It says on stderr which names it reduced
// and which agents no group can name.
func matchAgents(env *Env, given []string) []string {
	agents := make([]string, 0, len(given))
	for _, a := range given {
		if robots.ValidAgent(a) {
			agents = append(agents, a)
			continue
		}
		if c, ok := robots.TrackedCrawler(a); ok && c.MatchToken() != "" {
			t := c.MatchToken()
			env.errorf("match: note: %q is a tracked crawler's name, not a product token: it is matched as %q, the part of \"User-agent: %s\" Google reads, as the agents table and the report match it", a, t, c.Token)
			agents = append(agents, t)
			continue
		}
		env.errorf("match: warning: %s", unmatchableAgent(a))
		agents = append(agents, a)
	}
	return agents
}

// unmatchableAgent says what Google's matcher does with agent a, which is
// not a product token, and which agent would name the groups it meant.
func unmatchableAgent(a string) string {
	const obeysStar = "a crawler no group names obeys the '*' groups"
	switch a {
	case "":
		return "agent \"\" is empty: no group names it (" + obeysStar + ")"
	case "*":
		return "agent \"*\" is not a crawler's name: no group names it, \"User-agent: *\" included (" + obeysStar + ")"
	}
	s := fmt.Sprintf("agent %q is not a product token: Google compares it whole with each user-agent line, which it cuts at the first character outside [A-Za-z_-], so no line can equal it and no group names it", a)
	if t := robots.ExtractAgentToken(a); t != "" {
		return s + fmt.Sprintf("; for the groups Google reads as %q, use --agent %s", t, t)
	}
	return s + " (" + obeysStar + ")"
}

// match prints the verdict for each URL. With why it adds the deciding
// line, and notes on stderr when a rule after the 500 KiB cut would have
// decided otherwise.
func match(env *Env, name string, urls, agents []string, why bool) int {
	limit := int64(robots.MaxBytes)
	if why {
		limit = uncutMaxBytes
	}
	body, size, err := readRobots(env, name, limit)
	if err != nil {
		env.errorf("match: %v", err)
		return exitUsage
	}
	f := robots.ParsePrefix(robots.Response{}, body, size)
	var uncut *robots.File
	if why && len(body) > robots.MaxBytes {
		uncut = robots.ParseUncut(body)
	}
	for _, u := range urls {
		v := f.Match(u, agents)
		if !why {
			fmt.Fprintf(env.Stdout, "%s\t%s\n", verdictWord(v.Allowed), u)
			continue
		}
		fmt.Fprintf(env.Stdout, "%s\t%s\t%d\n", verdictWord(v.Allowed), u, v.Line)
		if uncut != nil {
			if w := uncut.Match(u, agents); w.Allowed != v.Allowed {
				env.errorf("match: note: %s: the rule on line %d, after the 500 KiB Google reads, would %s it; Google never sees it", u, w.Line, strings.TrimSuffix(verdictWord(w.Allowed), "ed"))
			}
		}
	}
	return exitOK
}

func verdictWord(allowed bool) string {
	if allowed {
		return "allowed"
	}
	return "disallowed"
}

// isURLOrPath reports whether u is an absolute URL (a scheme, "://" and a
// host) or a path starting with '/'.
func isURLOrPath(u string) bool {
	if strings.HasPrefix(u, "/") {
		return true
	}
	i := strings.Index(u, "://")
	if i <= 0 || !isSchemeName(u[:i]) {
		return false
	}
	host := u[i+3:]
	if j := strings.IndexAny(host, "/?#"); j >= 0 {
		host = host[:j]
	}
	return host != ""
}

// isSchemeName reports an RFC 3986 scheme: a letter, then letters, digits,
// '+', '-' or '.'.
func isSchemeName(s string) bool {
	for i, c := range []byte(s) {
		letter := 'a' <= c|0x20 && c|0x20 <= 'z'
		if !letter && (i == 0 || !('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return s != ""
}

// parseSemanticsFlag returns the semantics --semantics names: one, or
// every one for "all".
func parseSemanticsFlag(name string) ([]robots.Semantics, bool) {
	if name == "all" {
		return robots.AllSemantics(), true
	}
	s, ok := robots.ParseSemantics(name)
	return []robots.Semantics{s}, ok
}

// matchReadings prints the verdicts of the given readings for each URL:
// with one reading the lines of match; with several one line a URL with
// each reading's verdict and, where they differ, the rule that decided for
// each. Google's and RFC 9309's readings get the agents as match gives
// them to Google (matchAgents: product tokens); the others get them as
// written.
func matchReadings(env *Env, name string, urls, given []string, sems []robots.Semantics, why bool) int {
	body, size, err := readRobots(env, name, robots.MaxBytes)
	if err != nil {
		env.errorf("match: %v", err)
		return exitUsage
	}
	f := robots.ParsePrefix(robots.Response{}, body, size)
	readings := make([]*robots.Reading, len(sems))
	agents := make([][]string, len(sems))
	var tokens []string // the agents as product tokens, made once
	for i, s := range sems {
		readings[i], agents[i] = f.As(s), given
		if s == robots.SemanticsGoogle || s == robots.SemanticsRFC9309 {
			if tokens == nil {
				tokens = matchAgents(env, given)
			}
			agents[i] = tokens
		}
	}
	var explainer robots.Explainer
	for _, u := range urls {
		vs := make([]robots.Verdict, len(readings))
		for i, r := range readings {
			vs[i] = r.Match(u, agents[i])
		}
		if len(vs) == 1 {
			if why {
				fmt.Fprintf(env.Stdout, "%s\t%s\t%d\n", verdictWord(vs[0].Allowed), u, vs[0].Line)
			} else {
				fmt.Fprintf(env.Stdout, "%s\t%s\n", verdictWord(vs[0].Allowed), u)
			}
			continue
		}
		fmt.Fprintln(env.Stdout, verdictsLine(f, &explainer, u, sems, vs))
	}
	return exitOK
}

// verdictsLine is the line of match --semantics all for one URL: each
// reading's verdict and, where they differ, each reading's deciding rule
// and, for a reading whose verdict is not Google's, the difference class
// that explains it.
func verdictsLine(f *robots.File, x *robots.Explainer, u string, sems []robots.Semantics, vs []robots.Verdict) string {
	cols := []string{u}
	differ := false
	for i, v := range vs {
		cols = append(cols, sems[i].String()+"="+verdictWord(v.Allowed))
		differ = differ || v.Allowed != vs[0].Allowed
	}
	if differ {
		google := slices.Index(sems, robots.SemanticsGoogle)
		why := make([]string, len(vs))
		for i, v := range vs {
			why[i] = fmt.Sprintf("%s line %d", sems[i], v.Line)
			if v.Line > 0 {
				why[i] += fmt.Sprintf(" %q", lineText(f, v.Line))
			}
			if google >= 0 && v.Allowed != vs[google].Allowed {
				q := robots.Question{Semantics: sems[i], Path: robots.PathOf(u), Google: vs[google], Other: v}
				why[i] += " (" + differenceNote(x.ExplainQuestion(f, q), vs[google].Line, v.Line) + ")"
			}
		}
		cols = append(cols, "# differ: "+strings.Join(why, "; "))
	}
	return strings.Join(cols, "\t")
}

// differenceNote names the class of d and, when the line it is about is
// neither deciding rule (gl, rl), that line.
func differenceNote(d robots.Difference, gl, rl int) string {
	if d.Line == 0 || d.Line == gl || d.Line == rl {
		return d.Class.String()
	}
	return fmt.Sprintf("%s, line %d", d.Class, d.Line)
}

// lineText returns line n of the parsed file, trimmed.
func lineText(f *robots.File, n int) string {
	for l := range f.Lines() {
		if l.Number == n {
			return strings.TrimSpace(l.Text)
		}
	}
	return ""
}
