package archive

import "fmt"

// Limits: defaults and bounds of the options. Every limit is recorded when
// hit (a Problem or Damage), never fatal.
const (
	// DefaultMaxBody is the default cap on stored body bytes: 1 MiB, like
	// Common Crawl's crawler.
	DefaultMaxBody = 1 << 20
	// MinMaxBody is the smallest body cap accepted: 500 KiB (512,000 bytes),
	// the least RFC 9309 §2.5 asks parsers to handle.
	MinMaxBody = 500 << 10
	// DefaultMaxHeaderBytes caps a WARC header block and an HTTP header
	// block.
	DefaultMaxHeaderBytes = 256 << 10
	// MinMaxHeaderBytes is the smallest header cap accepted.
	MinMaxHeaderBytes = 4 << 10
	// DefaultMaxHeaders caps the number of fields of a WARC or HTTP header.
	DefaultMaxHeaders = 1000
	// MinMaxHeaders is the smallest field-count cap accepted.
	MinMaxHeaders = 32
	// DefaultMaxRecordBytes caps the payload bytes decoded and counted for
	// one capture (decompressed, de-chunked): 64 MiB.
	DefaultMaxRecordBytes = 64 << 20
	// MaxZstdDictionary is the largest .warc.zst dictionary accepted (the
	// draft asks decoders to support 8 MiB; twice that is accepted).
	MaxZstdDictionary = 16 << 20
	// maxRedirectTargets bounds the set of pending redirect targets kept in
	// general mode (oldest evicted first).
	maxRedirectTargets = 1 << 16
)

// Mode says which records of a WARC or ARC file become captures.
type Mode int

const (
	// ModeAuto (the default) uses ModeRobotstxt for a Common Crawl
	// robotstxt file, recognised by a path containing "/robotstxt/" or a
	// warcinfo record mentioning "robotstxt", and ModeGeneral otherwise.
	ModeAuto Mode = iota
	// ModeRobotstxt makes every http(s) response or resource record a
	// capture, redirect targets included.
	ModeRobotstxt
	// ModeGeneral keeps responses and resources whose URL path is exactly
	// "/robots.txt" with no query, plus the targets of redirects from them
	// (chains followed); the rest is Skipped["not-robots-url"].
	ModeGeneral
)

// String returns "auto", "robotstxt" or "general".
func (m Mode) String() string {
	switch m {
	case ModeAuto:
		return "auto"
	case ModeRobotstxt:
		return "robotstxt"
	case ModeGeneral:
		return "general"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// config holds the settings of a reader; see the With* options.
type config struct {
	maxBody        int
	maxHeaderBytes int
	maxHeaders     int
	maxRecordBytes int64
	mode           Mode
	revisit        func(*Revisit)
	streamOnly     bool // no whole-member inflation (withStreamedMembers)
}

func defaultConfig() config {
	return config{
		maxBody:        DefaultMaxBody,
		maxHeaderBytes: DefaultMaxHeaderBytes,
		maxHeaders:     DefaultMaxHeaders,
		maxRecordBytes: DefaultMaxRecordBytes,
	}
}

// An Option changes a reader's settings; each checks its argument.
type Option func(*config) error

func newConfig(opts []Option) (config, error) {
	c := defaultConfig()
	for _, o := range opts {
		if err := o(&c); err != nil {
			return c, err
		}
	}
	if c.maxRecordBytes < int64(c.maxBody) {
		return c, fmt.Errorf("%w: MaxRecordBytes %d is below MaxBody %d", ErrInvalidOption, c.maxRecordBytes, c.maxBody)
	}
	return c, nil
}

// withStreamedMembers makes a reader stream every gzip member, as a build
// without libdeflate does: the reference of the tests that hold the
// whole-member path to the streaming one.
func withStreamedMembers() Option {
	return func(c *config) error { c.streamOnly = true; return nil }
}

// WithMaxBody caps the bytes of Capture.Body (default DefaultMaxBody, at
// least MinMaxBody). The rest of a larger payload is counted in BodySize.
func WithMaxBody(n int) Option {
	return func(c *config) error {
		if n < MinMaxBody {
			return fmt.Errorf("%w: MaxBody %d is below %d", ErrInvalidOption, n, MinMaxBody)
		}
		c.maxBody = n
		return nil
	}
}

// WithMaxHeaderBytes caps a WARC or HTTP header block (default
// DefaultMaxHeaderBytes, at least MinMaxHeaderBytes). A WARC header over
// the cap makes its record corrupt; an HTTP header over it is a Problem.
func WithMaxHeaderBytes(n int) Option {
	return func(c *config) error {
		if n < MinMaxHeaderBytes {
			return fmt.Errorf("%w: MaxHeaderBytes %d is below %d", ErrInvalidOption, n, MinMaxHeaderBytes)
		}
		c.maxHeaderBytes = n
		return nil
	}
}

// WithMaxHeaders caps the number of fields of a WARC or HTTP header
// (default DefaultMaxHeaders, at least MinMaxHeaders).
func WithMaxHeaders(n int) Option {
	return func(c *config) error {
		if n < MinMaxHeaders {
			return fmt.Errorf("%w: MaxHeaders %d is below %d", ErrInvalidOption, n, MinMaxHeaders)
		}
		c.maxHeaders = n
		return nil
	}
}

// WithMaxRecordBytes caps the payload bytes decoded and counted for one
// capture (default DefaultMaxRecordBytes; at least MaxBody). Beyond it the
// payload is passed over without decoding: a decompression bomb costs at
// most this much work and MaxBody of memory.
func WithMaxRecordBytes(n int64) Option {
	return func(c *config) error {
		if n < MinMaxBody {
			return fmt.Errorf("%w: MaxRecordBytes %d is below %d", ErrInvalidOption, n, MinMaxBody)
		}
		c.maxRecordBytes = n
		return nil
	}
}

// WithMode sets which records become captures (default ModeAuto).
func WithMode(m Mode) Option {
	return func(c *config) error {
		if m < ModeAuto || m > ModeGeneral {
			return fmt.Errorf("%w: unknown mode %d", ErrInvalidOption, int(m))
		}
		c.mode = m
		return nil
	}
}

// WithRevisitFunc sets a function called, from inside Next, with each
// revisit record that would have been a capture (see Revisit). The Revisit
// is only valid during the call. Default: none.
func WithRevisitFunc(f func(*Revisit)) Option {
	return func(c *config) error {
		c.revisit = f
		return nil
	}
}

// CheckOptions returns the error an opener or reader would return for
// opts: an ErrInvalidOption for a value out of range.
func CheckOptions(opts ...Option) error {
	_, err := newConfig(opts)
	return err
}
