package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/robocensus/robocensus/robots"
)

var lintCmd = &Command{
	Name:  "lint",
	Usage: "lint [--format text|json|sarif] [--severity LEVEL] [--ignore CODE,...] [--readings=false] [--color WHEN] [-j N] [--codes] [--explain CODE] [--cpuprofile FILE] FILE...",
	Short: "check robots.txt files the way Google reads them",
	Long: `
Lint reads each robots.txt FILE ("-" is standard input) and reports every
problem Google's parser would meet, one finding a line:

	FILE:LINE: SEVERITY: MESSAGE [CODE]

LINE 0 is the whole file. SEVERITY is error (Google ignores or misreads the
line or the file), warning (probably not what was meant, or crawler-specific)
or info (a fact worth knowing). CODE is a stable name from the diagnostic
catalogue; --codes lists them all, --explain CODE documents one.

On a terminal each finding is in colour, followed by its line of the file
with a caret under what is wrong, and a summary ends the output
("1 error, 2 warnings, 3 notes"); info findings are left out unless
--severity info asks for them. When the output is not a terminal it is the
plain format above, info findings included. --color always uses the
terminal form anyway, --color never the plain one.

--severity error|warning|info shows only findings of that severity or worse.
--ignore CODE,... drops findings with those codes (repeatable).

Lint also names the lines other parsers read differently from Google's
(the parsers-disagree-CLASS codes, one per difference class of the
dataset's readings table): it asks every reading of match --semantics
(RFC 9309, Python's urllib.robotparser before and after gh-138907,
crawler-commons) about the tracked crawlers and the crawlers the file
names, at the root and at the path each of the first 200 rules names, and
reports each line whose reading changes a verdict, with the parsers, a
crawler and a path for each. --readings=false leaves them out.

With --format json the findings are one JSON array of
{"file","line","code","severity","message"} objects. With --format sarif they
are a SARIF 2.1.0 log with one run, for code-scanning tools; a finding on
standard input has no location, one about the whole file no region.

-j N checks N files at once (default: the number of CPUs); the output is
the same, in the order the files are given.

Exit status: 1 when any error finding remains after --ignore, 0 otherwise,
2 on a usage error or a file that cannot be read.`,
	Flags: func(fs *flag.FlagSet) func(*Env, []string) int {
		var o lintOptions
		var ignore stringList
		fs.StringVar(&o.format, "format", "text", "output `format`: text, json or sarif")
		fs.StringVar(&o.color, "color", "auto", "terminal form with colours: auto (when standard output is a terminal), always or never")
		fs.StringVar(&o.severity, "severity", "", "show findings of this `level` or worse: error, warning or info (default: warning on a terminal, info otherwise)")
		fs.Var(&ignore, "ignore", "drop findings with these `codes` (comma-separated, repeatable)")
		fs.BoolVar(&o.readings, "readings", true, "also name the lines other parsers read differently (parsers-disagree-CLASS)")
		fs.IntVar(&o.jobs, "j", 0, "files checked at once (default: the number of CPUs)")
		codes := fs.Bool("codes", false, "list the diagnostic codes and exit")
		explain := fs.String("explain", "", "print the documentation of the diagnostic `CODE` and exit")
		profile := profileFlag(fs)
		return func(env *Env, args []string) int {
			if *codes {
				listCodes(env)
				return exitOK
			}
			if *explain != "" {
				return explainCode(env, *explain)
			}
			if err := o.setup(env, ignore); err != nil {
				env.errorf("lint: %v", err)
				return exitUsage
			}
			if len(args) == 0 {
				env.errorf("lint: no FILE given (use - for standard input)")
				return exitUsage
			}
			return withProfile(env, *profile, func() int { return lint(env, args, &o) })
		}
	},
}

// lintOptions are the parsed flags of lint.
type lintOptions struct {
	format, color, severity string
	readings                bool // compare the other parsers' readings
	jobs                    int  // files checked at once; 0: GOMAXPROCS

	term   bool            // the terminal form
	min    robots.Severity // the least severity shown
	ignore map[string]bool // codes dropped
}

// setup checks the flags and settles what auto means.
func (o *lintOptions) setup(env *Env, ignore []string) error {
	switch o.format {
	case "text", "json", "sarif":
	default:
		return fmt.Errorf("unknown format %q (want text, json or sarif)", o.format)
	}
	switch o.color {
	case "auto":
		o.term = o.format == "text" && env.terminal(env.Stdout)
	case "always":
		o.term = o.format == "text"
	case "never":
	default:
		return fmt.Errorf("unknown --color %q (want auto, always or never)", o.color)
	}
	switch o.severity {
	case "":
		o.min = robots.Info
		if o.term {
			o.min = robots.Warning
		}
	case "info":
		o.min = robots.Info
	case "warning":
		o.min = robots.Warning
	case "error":
		o.min = robots.Error
	default:
		return fmt.Errorf("unknown --severity %q (want error, warning or info)", o.severity)
	}
	o.ignore = map[string]bool{}
	for _, list := range ignore {
		for _, c := range strings.Split(list, ",") {
			if c = strings.TrimSpace(c); c == "" {
				continue
			}
			if _, ok := robots.LookupCode(c); !ok {
				return fmt.Errorf("--ignore: unknown code %q (lint --codes lists them)", c)
			}
			o.ignore[c] = true
		}
	}
	return nil
}

// finding is one line of lint output; its JSON form is the contract.
type finding struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`

	sev        robots.Severity
	text       string // the line as written
	start, end int    // the bytes of text the finding is about
}

// lintResult is what lint found in all files.
type lintResult struct {
	shown  []finding
	hidden [robots.Error + 1]int // findings below --severity, by severity
}

func lint(env *Env, files []string, o *lintOptions) int {
	var res lintResult
	res.shown = []finding{}
	code := exitOK
	// The plain form is written as it is found, each finding formatted
	// into one reused buffer: nothing is kept from one file to the next.
	var plain *bufio.Writer
	var line []byte
	if o.format == "text" && !o.term {
		plain = bufio.NewWriterSize(env.Stdout, 64<<10)
	}
	lintFiles(env, files, o, func(l *linted) {
		file, f := l.name, l.f
		if l.err != nil {
			env.errorf("lint: %v", l.err)
			code = exitUsage
			return
		}
		for _, d := range l.findings {
			name, sev := d.Code.String(), d.Severity()
			if o.ignore[name] {
				continue
			}
			if sev == robots.Error && code == exitOK {
				code = exitFailure
			}
			if sev < o.min {
				res.hidden[sev]++
				continue
			}
			if plain != nil {
				line = appendPlainFinding(line[:0], file, f, d)
				plain.Write(line) // an error sticks: Flush reports it
				continue
			}
			start, end := d.Span()
			res.shown = append(res.shown, finding{File: file, Line: d.Line, Code: name, Severity: sev.String(),
				Message: d.Message(f), sev: sev, text: d.Text(f), start: start, end: end})
		}
	})
	var err error
	switch {
	case plain != nil:
		err = plain.Flush()
	case o.format == "json":
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(res.shown)
	case o.format == "sarif":
		err = writeSARIF(env.Stdout, res.shown)
	default:
		err = writeTerminal(env.Stdout, &res)
	}
	if err != nil {
		env.errorf("lint: %v", err)
		return exitUsage
	}
	return code
}

// linted is one file read and checked: its File and findings, or the
// error that kept it from being read.
type linted struct {
	name     string
	f        *robots.File
	findings []robots.Diagnostic
	err      error
	done     chan struct{} // closed when the fields above are set
}

// check reads and checks l's file, reusing buf for its bytes.
func (l *linted) check(env *Env, o *lintOptions, buf *[]byte) {
	if l.f, l.err = parseRobotsFile(env, l.name, buf); l.err == nil {
		l.findings = fileFindings(l.f, o.readings)
	}
}

// lintFiles reads and checks files on o.jobs goroutines (GOMAXPROCS when
// 0) and calls emit with each, on the caller's goroutine, in the order of
// files. At most lintWindow files a worker are in flight, so memory
// follows the workers, not the files. Standard input ("-") is read on
// the caller's goroutine, in its turn.
func lintFiles(env *Env, files []string, o *lintOptions, emit func(*linted)) {
	jobs := o.jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	var buf []byte
	if jobs == 1 {
		for _, name := range files {
			l := &linted{name: name}
			l.check(env, o, &buf)
			emit(l)
		}
		return
	}
	work, inOrder := make(chan *linted), make(chan *linted, lintWindow*jobs)
	for range jobs {
		go func() {
			var buf []byte
			for l := range work {
				l.check(env, o, &buf)
				close(l.done)
			}
		}()
	}
	go func() {
		defer close(work)
		defer close(inOrder)
		for _, name := range files {
			l := &linted{name: name, done: make(chan struct{})}
			inOrder <- l
			if name != "-" {
				work <- l
			}
		}
	}()
	for l := range inOrder {
		if l.name == "-" {
			l.check(env, o, &buf)
		} else {
			<-l.done
		}
		emit(l)
	}
}

// lintWindow is how many files a worker may have read ahead of the one
// being written.
const lintWindow = 4

// appendPlainFinding appends the plain form of finding d of f, read from
// file, to dst: "FILE:LINE: SEVERITY: MESSAGE [CODE]" and a newline.
func appendPlainFinding(dst []byte, file string, f *robots.File, d robots.Diagnostic) []byte {
	dst = append(dst, file...)
	dst = append(dst, ':')
	dst = strconv.AppendInt(dst, int64(d.Line), 10)
	dst = append(dst, ": "...)
	dst = append(dst, d.Severity().String()...)
	dst = append(dst, ": "...)
	dst = robots.AppendMessage(dst, f, d)
	dst = append(dst, " ["...)
	dst = append(dst, d.Code.String()...)
	return append(dst, "]\n"...)
}

// fileFindings returns the diagnostics of f and, with readings, the
// lines other parsers read differently (robots.File.ReadingDiagnostics),
// in line order (the whole file first), each line's parse findings first.
func fileFindings(f *robots.File, readings bool) []robots.Diagnostic {
	if !readings {
		return f.Diagnostics
	}
	all := append(slices.Clone(f.Diagnostics), f.ReadingDiagnostics()...)
	slices.SortStableFunc(all, func(a, b robots.Diagnostic) int { return a.Line - b.Line })
	return all
}

// explainCode prints a code's catalogue entry: name, severity, summary
// and documentation.
func explainCode(env *Env, name string) int {
	c, ok := robots.LookupCode(name)
	if !ok {
		env.errorf("lint: unknown code %q (lint --codes lists them)", name)
		return exitUsage
	}
	ci := c.Info()
	fmt.Fprintf(env.Stdout, "%s (%s): %s\n\n%s\n", ci.Name, ci.Severity, ci.Summary, wrapText(ci.Doc, 76))
	return exitOK
}

// wrapText breaks text into lines of at most width bytes at spaces.
func wrapText(text string, width int) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(text) {
		switch {
		case i == 0:
		case n+1+len(w) > width:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}

func listCodes(env *Env) {
	w := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "CODE\tSEVERITY\tWHEN")
	for _, c := range robots.Codes() {
		summary := c.Summary
		if c.Reader {
			summary = "(ingest, in the record) " + summary
		}
		if c.Readings {
			summary = "(comparing parsers) " + summary
		}
		fmt.Fprintf(w, "%s\t%s\t%s\n", c.Name, c.Severity, summary)
	}
	w.Flush()
	fmt.Fprintln(env.Stdout, "\nThe classic mistakes of the 2.4-million-site robots.txt survey, and the codes that find them:")
	w = tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "MISTAKE\tCODES\tNOTE")
	for _, m := range robots.Mistakes() {
		if m.Number == 0 {
			continue // domain farms: a report figure, not a finding
		}
		var codes []string
		for _, c := range m.Codes {
			codes = append(codes, c.String())
		}
		if len(codes) == 0 {
			codes = []string{"(none)"}
		}
		fmt.Fprintf(w, "%d %s\t%s\t%s\n", m.Number, m.Name, strings.Join(codes, ", "), m.Note)
	}
	w.Flush()
}
