package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/robots"
)

// match --why notes when a rule after Google's 500 KiB cut would have
// decided otherwise; the verdict stays Google's.
func TestMatchWhyAfterCut(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /a\n")
	for b.Len() <= robots.MaxBytes {
		b.WriteString("# filler filler filler filler filler filler filler filler\n")
	}
	lines := strings.Count(b.String(), "\n")
	b.WriteString("Allow: /a/b\nDisallow: /c\n")
	name := filepath.Join(t.TempDir(), "big.txt")
	if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd(t, "", "match", "--why", "--agent", "FooBot", name, "/a/b", "/c", "/x")
	if want := "disallowed\t/a/b\t2\nallowed\t/c\t0\nallowed\t/x\t0\n"; code != exitOK || out != want {
		t.Errorf("exit %d, stdout\n%s\nwant\n%s", code, out, want)
	}
	for _, want := range []string{
		"/a/b: the rule on line " + itoa(lines+1) + ", after the 500 KiB Google reads, would allow it",
		"/c: the rule on line " + itoa(lines+2) + ", after the 500 KiB Google reads, would disallow it",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if strings.Contains(errs, "/x:") {
		t.Errorf("note for a URL the cut does not change:\n%s", errs)
	}
	// Without --why there is no note.
	if _, _, errs := runCmd(t, "", "match", "--agent", "FooBot", name, "/a/b"); errs != "" {
		t.Errorf("stderr without --why: %q", errs)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
