package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/robocensus/robocensus/robots"
)

var matchCmd = &Command{
	Name:  "match",
	Usage: "match --agent UA [--agent UA]... [--why] ROBOTS_FILE URL...",
	Short: "tell whether URLs may be crawled, with Google's verdict",
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

Each URL is an absolute URL (https://host/path?query) or a path starting
with "/"; anything else is a usage error.

With --why, a third column gives the line of the rule that decided, or 0
when no rule matched. For a file over 500 KiB, of which Google reads only
the first 500 KiB, a note on standard error tells when a rule after the cut
would have decided otherwise.

Exit status: 0 when every URL was judged, 2 on a usage error or a file that
cannot be read.`,
	Flags: func(fs *flag.FlagSet) func(*Env, []string) int {
		var agents stringList
		fs.Var(&agents, "agent", "user agent `token` to match (repeatable)")
		why := fs.Bool("why", false, "add the line of the deciding rule")
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
			for _, a := range agents {
				if !robots.ValidAgent(a) {
					env.errorf("match: warning: agent %q has characters outside [A-Za-z_-]; Google's matcher compares it whole, so only a group named exactly %q can match", a, robots.ExtractAgentToken(a))
				}
			}
			return match(env, args[0], args[1:], agents, *why)
		}
	},
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
