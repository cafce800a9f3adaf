package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestIssue27IngestFailures (issue 27 item 8): an input whose server
// refuses connections is retried with word of each retry (info level, as
// stderr is not a terminal) and is said to be worth running again; inputs
// whose names no run can read (a host that does not exist, another scheme,
// a malformed URL) fail at once, without a retry, and are not.
func TestIssue27IngestFailures(t *testing.T) {
	ds := filepath.Join(t.TempDir(), "ds")
	code, out, errs := runCLI("ingest", "-o", ds, "--crawl", "refused", "--retries", "2", "--retry-wait", "1ms",
		"http://127.0.0.1:1/x.warc.gz")
	if code != 1 || !strings.Contains(out, "still failed: 1 input; run again with them to read them again") || strings.Contains(out, "failed for good") {
		t.Errorf("refused: exit %d, want 1 and an input to read again\n%s", code, out)
	}
	for _, attempt := range []string{`attempt="2 of 3"`, `attempt="3 of 3"`} {
		if !strings.Contains(errs, `msg="retrying remote input" input=http://127.0.0.1:1/x.warc.gz `+attempt+` wait=`) {
			t.Errorf("refused: stderr does not say the retry %s with its wait:\n%s", attempt, errs)
		}
	}

	code, out, errs = runCLI("ingest", "-o", ds, "--crawl", "bad-names", "--retry-wait", "1h",
		"http://robots.invalid/x.warc.gz", "ftp://example.com/x.warc.gz", "http://[::1/x.warc.gz")
	if code != 1 || !strings.Contains(out, "failed for good: 3 inputs whose name no run can read") || strings.Contains(out, "run again") {
		t.Errorf("bad names: exit %d, want 1 and 3 inputs failed for good, none to read again\n%s", code, out)
	}
	if strings.Contains(errs, "retrying") {
		t.Errorf("bad names were retried:\n%s", errs)
	}
}

// TestLogLinesPlainOffTerminal: log lines clear the progress line only on
// a terminal, also when the caller asks for the terminal's level (demo).
func TestLogLinesPlainOffTerminal(t *testing.T) {
	var buf strings.Builder
	newLogger(&buf, false, true).Warn("w")
	if strings.Contains(buf.String(), "\033") || !strings.Contains(buf.String(), "msg=w") {
		t.Errorf("log line %q, want one without escape sequences", buf.String())
	}
}
