package archive

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A binary file named as an input is a failed input with a clear error, not
// a capture with no host.
func TestOpenBinaryFileFails(t *testing.T) {
	p := filepath.Join(t.TempDir(), "zstd-dictionary")
	os.WriteFile(p, []byte{0x37, 0xa4, 0x30, 0xec, 0, 0, 0, 0, 1, 2, 3}, 0o644)
	_, _, err := Open(p)
	if err == nil || !strings.Contains(err.Error(), "binary data") {
		t.Fatalf("Open: %v", err)
	}
}

// Text is plausibly a robots.txt body, whatever its encoding; binary data is
// not.
func TestPlausibleBody(t *testing.T) {
	for _, c := range []struct {
		head string
		want bool
	}{
		{"", true},
		{"User-agent: *\r\nDisallow: /\r\n", true},
		{"<html><body>\xe9t\xe9</body></html>", true},
		{"\xff\xfeU\x00s\x00e\x00r\x00", true},
		{"User-agent: *\x00", false},
		{"\x01\x02\x03\x04 abc", false},
		{strings.Repeat("a", 40) + "\x01", true},
	} {
		if got := PlausibleBody([]byte(c.head)); got != c.want {
			t.Errorf("PlausibleBody(%q) = %v, want %v", c.head, got, c.want)
		}
	}
}
