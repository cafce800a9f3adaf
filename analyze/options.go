package analyze

import (
	"fmt"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

// DefaultTop is the default length of the report's ranked lists (the user
// agents most often named, domain farms, worst hosts, trends of AI
// crawlers).
const DefaultTop = 20

// An Option configures [Open]. Options check their arguments; an invalid one
// makes Open return an error wrapping [ErrBadOption].
type Option func(*config) error

type config struct {
	workers int
	top     int
	mem     memory.Allocator
	checks  []*Check
}

func newConfig(opts []Option) (config, error) {
	c := config{top: DefaultTop, checks: Checks()}
	for _, opt := range opts {
		if err := opt(&c); err != nil {
			return config{}, err
		}
	}
	return c, nil
}

// WithWorkers sets the number of files read at once, at least 1. Defaults
// to GOMAXPROCS.
func WithWorkers(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("%w: WithWorkers(%d): want at least 1", ErrBadOption, n)
		}
		c.workers = n
		return nil
	}
}

// WithTop sets the length of the ranked lists of the crawl report, at
// least 1. Defaults to [DefaultTop].
func WithTop(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("%w: WithTop(%d): want at least 1", ErrBadOption, n)
		}
		c.top = n
		return nil
	}
}

// WithAllocator sets the allocator of the Arrow records read, not nil.
// Defaults to memory.DefaultAllocator.
func WithAllocator(mem memory.Allocator) Option {
	return func(c *config) error {
		if mem == nil {
			return fmt.Errorf("%w: WithAllocator(nil)", ErrBadOption)
		}
		c.mem = mem
		return nil
	}
}

// WithChecks sets the checks the site report runs, at least one, each with
// a name and a Run function. Defaults to [Checks].
func WithChecks(checks ...*Check) Option {
	return func(c *config) error {
		if len(checks) == 0 {
			return fmt.Errorf("%w: WithChecks(): no check", ErrBadOption)
		}
		for _, ch := range checks {
			if ch == nil || ch.Name == "" || ch.Run == nil {
				return fmt.Errorf("%w: WithChecks: a check needs a Name and a Run function", ErrBadOption)
			}
		}
		c.checks = checks
		return nil
	}
}
