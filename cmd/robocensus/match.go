package main

import (
	"flag"
	"fmt"

	"github.com/robocensus/robocensus/robots"
)

var matchCmd = &Command{
	Name:  "match",
	Usage: "match --agent UA [--agent UA]... ROBOTS_FILE URL...",
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

With --why, a third column gives the line of the rule that decided, or 0
when no rule matched.

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
			for _, a := range agents {
				if !robots.ValidAgent(a) {
					env.errorf("match: warning: agent %q has characters outside [A-Za-z_-]; Google's matcher compares it whole, so only a group named exactly %q can match", a, robots.ExtractAgentToken(a))
				}
			}
			f, err := parseRobotsFile(env, args[0])
			if err != nil {
				env.errorf("match: %v", err)
				return exitUsage
			}
			for _, u := range args[1:] {
				v := f.Match(u, agents)
				verdict := "disallowed"
				if v.Allowed {
					verdict = "allowed"
				}
				if *why {
					fmt.Fprintf(env.Stdout, "%s\t%s\t%d\n", verdict, u, v.Line)
				} else {
					fmt.Fprintf(env.Stdout, "%s\t%s\n", verdict, u)
				}
			}
			return exitOK
		}
	},
}
