package main

import (
	"io"
	"os"

	"github.com/robocensus/robocensus/robots"
)

// readRobots reads what robots.Parse needs of a local file ("-" is stdin):
// its first robots.MaxBytes bytes. The rest is counted, not kept, so a
// file of any size costs bounded memory.
func readRobots(env *Env, name string) (prefix []byte, size int, err error) {
	var r io.Reader = env.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, 0, err
		}
		defer f.Close()
		r = f
	}
	prefix, err = io.ReadAll(io.LimitReader(r, robots.MaxBytes))
	if err != nil {
		return nil, 0, err
	}
	rest, err := io.Copy(io.Discard, r)
	return prefix, len(prefix) + int(rest), err
}

func parseRobotsFile(env *Env, name string) (*robots.File, error) {
	prefix, size, err := readRobots(env, name)
	if err != nil {
		return nil, err
	}
	return robots.ParsePrefix(robots.Response{}, prefix, size), nil
}
