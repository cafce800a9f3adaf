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
	return readRobotsInto(env, name, limit, nil)
}

// readRobotsInto is readRobots reading into buf's storage (grown as
// needed, from 512 bytes when it has none), for a caller that reads many
// files one after the other and keeps none of them: lint.
func readRobotsInto(env *Env, name string, limit int64, buf []byte) (prefix []byte, size int, err error) {
	var r io.Reader = env.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, 0, err
		}
		defer f.Close()
		r = f
	}
	prefix, err = readAllInto(io.LimitReader(r, limit), buf)
	if err != nil {
		return nil, 0, err
	}
	rest, err := io.Copy(io.Discard, r)
	return prefix, len(prefix) + int(rest), err
}

// readAllInto is io.ReadAll appending to buf[:0].
func readAllInto(r io.Reader, buf []byte) ([]byte, error) {
	if cap(buf) == 0 {
		buf = make([]byte, 0, 512)
	}
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// parseRobotsFile reads and parses a local file ("-" is stdin) as lint
// does, reading into *buf's storage, which it keeps for the next file:
// the File keeps a copy of what it needs.
func parseRobotsFile(env *Env, name string, buf *[]byte) (*robots.File, error) {
	prefix, size, err := readRobotsInto(env, name, robots.MaxBytes, *buf)
	if err != nil {
		return nil, err
	}
	*buf = prefix
	return robots.ParsePrefix(robots.Response{}, prefix, size), nil
}
