package robots

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// messageArgs, messageTexts and messageRefs are the sample diagnostics of
// TestMessagesUnchanged: for every code, every Arg with every Text and
// every Ref/RefArg. The Args cover the branches of the message funcs (quotes,
// escapes, invalid UTF-8, reader reasons, preference items, sizes).
var (
	messageArgs = []string{
		"", "x", "GPTBot", "*bot", "Googlebot/2.1", `a"b\c`, "é/ü", "\xff\xfe/", "/a%3Mb", "/a b c",
		"search=yes", "ai-train=maybe", "Train-AI=y", "use=foo", "train-ai", "1234567", "xml", "body-cap",
		"length", "https://example.com/sitemap.xml", "Host", "/dir/",
	}
	messageTexts = []func(arg string) string{
		func(string) string { return "" },
		func(a string) string { return "Disallow: " + a },
		func(a string) string { return "Content-Signal: " + a },
		func(a string) string { return "Content-Usage: /p " + a },
		func(a string) string { return "Host: " + a },
		func(a string) string { return "Crawl-delay: " + a },
	}
	messageRefs = []struct {
		ref    int
		refArg string
	}{{0, ""}, {7, ""}, {7, "Other\"bot"}, {12, "30"}}
)

// sampleMessages returns the messages of code for the sample diagnostics,
// one a line.
func sampleMessages(c Code) string {
	var b strings.Builder
	for _, arg := range messageArgs {
		for _, text := range messageTexts {
			for _, r := range messageRefs {
				b.WriteString(messageOf(c, 3, text(arg), arg, r.ref, r.refArg))
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}

// TestMessagesUnchanged pins the text of every code's message, byte for
// byte, over sample diagnostics: the dataset stores messages, so a rewrite
// of a message func for speed must not change one. The golden file holds
// the SHA-256 of each code's messages; rerun with -update after a change
// of wording that is meant, and -v to see a changed code's messages.
func TestMessagesUnchanged(t *testing.T) {
	var got strings.Builder
	all := map[string]string{}
	for _, ci := range Codes() {
		msgs := sampleMessages(ci.Code)
		sum := sha256.Sum256([]byte(msgs))
		fmt.Fprintf(&got, "%s %s\n", ci.Name, hex.EncodeToString(sum[:]))
		all[ci.Name] = msgs
	}
	path := filepath.Join("testdata", "messages.golden")
	if *update {
		if err := os.WriteFile(path, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	wantLines := strings.Split(string(want), "\n")
	for i, line := range strings.Split(got.String(), "\n") {
		if i >= len(wantLines) || line != wantLines[i] {
			name, _, _ := strings.Cut(line, " ")
			t.Errorf("messages of %s changed (golden %q, got %q)", name, wantLines[min(i, len(wantLines)-1)], line)
			t.Logf("messages of %s now:\n%s", name, all[name])
		}
	}
}
