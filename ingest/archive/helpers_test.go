package archive

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
)

// readResult is everything a reader yielded.
type readResult struct {
	caps   []*Capture
	counts Counts
	err    error // the error that ended reading, nil for io.EOF
}

// drain reads r to its end, cloning the captures, and checks the
// invariant Records == Captures + sum(Skipped) when it ended at io.EOF.
func drain(tb testing.TB, r CaptureReader) readResult {
	tb.Helper()
	var res readResult
	for {
		c, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			res.err = err
			if _, again := r.Next(); again != err {
				tb.Errorf("error does not stick: %v then %v", err, again)
			}
			break
		}
		res.caps = append(res.caps, c.Clone())
	}
	res.counts = r.Counts()
	if res.err == nil {
		checkInvariant(tb, res.counts)
	}
	return res
}

func checkInvariant(tb testing.TB, c Counts) {
	tb.Helper()
	if c.Records != c.Captures+c.SkippedTotal() {
		tb.Errorf("invariant broken: records %d != captures %d + skipped %v", c.Records, c.Captures, c.Skipped)
	}
}

// readWARC reads a WARC held in memory.
func readWARC(tb testing.TB, data []byte, opts ...Option) readResult {
	tb.Helper()
	r, err := NewWARCReader(bytes.NewReader(data), "test.warc", opts...)
	if err != nil {
		tb.Fatal(err)
	}
	return drain(tb, r)
}

// Builders of test inputs, shared with the other stages' tests.
var (
	warcRecord = testutil.WARCRecord
	response   = testutil.Response
	robots200  = testutil.Robots200
	gz         = testutil.Gzip
	perRecord  = testutil.PerRecord
)

// damageKinds lists the kinds of the damage recorded.
func damageKinds(c Counts) []string {
	var out []string
	for _, d := range c.Damage {
		out = append(out, d.Kind)
	}
	return out
}

// problemCodes lists the codes of a capture's problems.
func problemCodes(c *Capture) []ProblemKind {
	var out []ProblemKind
	for _, p := range c.Problems {
		out = append(out, p.Code)
	}
	return out
}

// failingReader returns data, then err.
type failingReader struct {
	data []byte
	err  error
}

func (f *failingReader) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, f.err
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

var errDisk = errors.New("disk on fire")

func errorsIs(err, target error) bool { return errors.Is(err, target) }

var (
	robotsBody = testutil.RobotsBody
	ccFile     = testutil.CCFile
	makeTar    = testutil.MixedTar
	mtime      = testutil.TarTime
)
