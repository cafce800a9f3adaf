package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Exit codes shared by the commands (DESIGN.md, "Command line").
const (
	exitOK      = 0
	exitFailure = 1 // lint: an error finding; ingest: an input could not be read
	exitUsage   = 2 // bad flags or arguments, or (lint, match) a file that cannot be read
)

// Command is one subcommand: its flags, its help text and its action.
type Command struct {
	Name  string
	Usage string // the synopsis after "robocensus "
	Short string // one line for the command list
	Long  string // the help text
	// Flags declares the command's flags on fs and returns the action,
	// which reads the parsed flags and returns the exit code.
	Flags func(fs *flag.FlagSet) func(env *Env, args []string) int
}

// Env is what a command may touch: its standard streams.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Terminal reports whether w is a terminal; nil means [isTerminal].
	// Tests set it to see what a user at a terminal sees.
	Terminal func(w io.Writer) bool
}

// terminal reports whether w is a terminal.
func (e *Env) terminal(w io.Writer) bool {
	if e.Terminal != nil {
		return e.Terminal(w)
	}
	return isTerminal(w)
}

func (e *Env) errorf(format string, args ...any) {
	fmt.Fprintf(e.Stderr, "robocensus: "+format+"\n", args...)
}

func (c *Command) run(env *Env, args []string) int {
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	// Parse calls Usage both for -h and for a bad flag; the usage is
	// printed below, once: the full help on stdout for -h, the synopsis
	// and flags on stderr otherwise.
	fs.Usage = func() {}
	action := c.Flags(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			c.help(env.Stdout)
			return exitOK
		}
		fmt.Fprintf(env.Stderr, "usage: robocensus %s\n", c.Usage)
		fs.PrintDefaults()
		return exitUsage
	}
	return action(env, fs.Args())
}

func (c *Command) help(w io.Writer) {
	fmt.Fprintf(w, "usage: robocensus %s\n\n%s\n", c.Usage, strings.TrimSpace(c.Long))
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	c.Flags(fs)
	fs.SetOutput(w)
	fmt.Fprintln(w, "\nFlags:")
	fs.PrintDefaults()
}

func usage(w io.Writer) {
	fmt.Fprint(w, "robocensus turns crawled robots.txt files into Parquet and site-health reports.\n\nUsage:\n\n")
	for _, c := range commands {
		fmt.Fprintf(w, "\trobocensus %s\n", c.Usage)
	}
	fmt.Fprint(w, "\nCommands:\n\n")
	for _, c := range commands {
		fmt.Fprintf(w, "\t%-8s %s\n", c.Name, c.Short)
	}
	fmt.Fprint(w, "\nRun \"robocensus help COMMAND\" for more.\n")
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }
