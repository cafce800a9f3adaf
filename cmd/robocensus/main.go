// Command robocensus turns crawled robots.txt captures into Parquet and
// site-health reports, and checks robots.txt files the way Google reads them.
//
//	robocensus ingest [-o DIR] [--crawl LABEL] [-j N] [-v] INPUT...
//	robocensus demo   [-o DIR]
//	robocensus report [--site HOST] [--format html|md|json] [-o FILE] DATASET
//	robocensus lint   [--format text|json|sarif] [--severity LEVEL] [--ignore CODE,...] [--color WHEN] [--codes] FILE...
//	robocensus match  --agent UA [--agent UA]... [--why] ROBOTS_FILE URL...
//	robocensus version
//
// Run "robocensus help COMMAND" for the details of a command.
package main

import (
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// commands are the subcommands, in the order help lists them.
var commands = []*Command{ingestCmd, demoCmd, lintCmd, matchCmd, reportCmd, versionCmd}

// run executes one command line and returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runEnv(&Env{Stdin: stdin, Stdout: stdout, Stderr: stderr}, args)
}

// runEnv is run with a given Env.
func runEnv(env *Env, args []string) int {
	stdout, stderr := env.Stdout, env.Stderr
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "--help" || name == "-help" {
		if len(args) > 1 {
			if c := lookup(args[1]); c != nil {
				c.help(stdout)
				return exitOK
			}
		}
		usage(stdout)
		return exitOK
	}
	if name == "--version" || name == "-version" {
		name = "version"
	}
	c := lookup(name)
	if c == nil {
		env.errorf("unknown command %q", name)
		usage(stderr)
		return exitUsage
	}
	return c.run(env, args[1:])
}

func lookup(name string) *Command {
	for _, c := range commands {
		if c.Name == name {
			return c
		}
	}
	return nil
}
