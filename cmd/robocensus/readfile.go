package main

import (
	"io"
	"os"

	"github.com/robocensus/robocensus/robots"
)

// uncutMaxBytes is how much of a file match --why reads to tell what the
// rules after Google's 500 KiB cut would decide.
const uncutMaxBytes = 64 << 20

// readRobots reads the first limit bytes of a local file ("-" is stdin),
// robots.MaxBytes for what robots.Parse needs. The rest is counted, not
// kept, so a file of any size costs bounded memory.
func readRobots(env *Env, name string, limit int64) (prefix []byte, size int, err error) {
	var r io.Reader = env.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, 0, err
		}
		defer f.Close()
		r = f
	}
	prefix, err = io.ReadAll(io.LimitReader(r, limit))
	if err != nil {
		return nil, 0, err
	}
	rest, err := io.Copy(io.Discard, r)
	return prefix, len(prefix) + int(rest), err
}

func parseRobotsFile(env *Env, name string) (*robots.File, error) {
	prefix, size, err := readRobots(env, name, robots.MaxBytes)
	if err != nil {
		return nil, err
	}
	return robots.ParsePrefix(robots.Response{}, prefix, size), nil
}
