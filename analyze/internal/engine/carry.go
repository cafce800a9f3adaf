package engine

import (
	"os"
	"sync"
)

// A carry holds what the sections of one crawl of a report hand on to
// the next crawl of the report (the changes section's per-host state),
// and the temporary folder where they keep it on disk; the report removes
// the folder when it ends, whatever happened. It is safe for concurrent
// use.
type Carry struct {
	mu    sync.Mutex
	dir   string         // made on first use
	state map[string]any // by section name
	err   error          // the first failure a section reported
}

// tempDir returns the report's temporary folder, made on first use.
func (c *Carry) TempDir() (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dir == "" {
		dir, err := os.MkdirTemp("", "robocensus-report-")
		if err != nil {
			return "", err
		}
		c.dir = dir
	}
	return c.dir, nil
}

// take returns what a section handed on from the previous crawl, and
// forgets it; nil when nothing.
func (c *Carry) Take(section string) any {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := c.state[section]
	delete(c.state, section)
	return v
}

// put keeps what a section hands on to the next crawl.
func (c *Carry) Put(section string, v any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state == nil {
		c.state = map[string]any{}
	}
	c.state[section] = v
}

// fail records a failure of a section where the Accumulator interface
// returns no error (Finish); the report returns the first.
func (c *Carry) Fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		c.err = err
	}
}

// failed returns the first failure recorded.
func (c *Carry) Failed() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// close removes the temporary folder and what it holds.
func (c *Carry) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dir != "" {
		os.RemoveAll(c.dir)
		c.dir = ""
	}
	c.state = nil
}
