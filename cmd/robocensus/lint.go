package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"text/tabwriter"

	"github.com/robocensus/robocensus/robots"
)

var lintCmd = &Command{
	Name:  "lint",
	Usage: "lint [--format text|json] [--codes] FILE...",
	Short: "check robots.txt files the way Google reads them",
	Long: `
Lint reads each robots.txt FILE ("-" is standard input) and reports every
problem Google's parser would meet, one finding a line:

	FILE:LINE: SEVERITY: MESSAGE [CODE]

LINE 0 is the whole file. SEVERITY is error (Google ignores or misreads the
line or the file), warning (probably not what was meant, or crawler-specific)
or info (a fact worth knowing). CODE is a stable name from the diagnostic
catalogue; --codes lists them all.

With --format json the findings are one JSON array of
{"file","line","code","severity","message"} objects.

Exit status: 1 when any finding is an error, 0 otherwise, 2 on a usage error
or a file that cannot be read.`,
	Flags: func(fs *flag.FlagSet) func(*Env, []string) int {
		format := fs.String("format", "text", "output `format`: text or json")
		codes := fs.Bool("codes", false, "list the diagnostic codes and exit")
		return func(env *Env, args []string) int {
			if *codes {
				listCodes(env)
				return exitOK
			}
			if *format != "text" && *format != "json" {
				env.errorf("lint: unknown format %q (want text or json)", *format)
				return exitUsage
			}
			if len(args) == 0 {
				env.errorf("lint: no FILE given (use - for standard input)")
				return exitUsage
			}
			return lint(env, args, *format)
		}
	},
}

// finding is one line of lint output; its JSON form is the contract.
type finding struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

func lint(env *Env, files []string, format string) int {
	findings := []finding{}
	code := exitOK
	for _, name := range files {
		f, err := parseRobotsFile(env, name)
		if err != nil {
			env.errorf("lint: %v", err)
			code = exitUsage
			continue
		}
		for _, d := range f.Diagnostics {
			findings = append(findings, finding{name, d.Line, d.Code.String(), d.Severity().String(), d.Message()})
			if d.Severity() == robots.Error && code == exitOK {
				code = exitFailure
			}
		}
	}
	if format == "json" {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(findings); err != nil {
			env.errorf("lint: %v", err)
			return exitUsage
		}
		return code
	}
	for _, f := range findings {
		fmt.Fprintf(env.Stdout, "%s:%d: %s: %s [%s]\n", f.File, f.Line, f.Severity, f.Message, f.Code)
	}
	return code
}

func listCodes(env *Env) {
	w := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "CODE\tSEVERITY\tWHEN")
	for _, c := range robots.Codes() {
		fmt.Fprintf(w, "%s\t%s\t%s\n", c.Name, c.Severity, c.Summary)
	}
	w.Flush()
}
