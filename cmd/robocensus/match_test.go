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

// An agent that is not a product token gets Google's verdict, and stderr
// says what Google does with it: compared whole, no group names it; the
// product token is suggested when there is one (issue 27 item 5). A
// tracked crawler's name is matched as its product token, with a note
// (item 6).
func TestMatchAgentNotProductToken(t *testing.T) {
	name := filepath.Join(t.TempDir(), "robots.txt")
	body := "User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nUser-agent: MJ12bot\nUser-agent: Linguee Bot\nAllow: /\nDisallow: /private\n"
	if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	f := func(agent, wantOut string, wantErr ...string) {
		t.Helper()
		code, out, errs := runCmd(t, "", "match", "--agent", agent, name, "/x", "/private")
		if code != exitOK || out != wantOut {
			t.Errorf("--agent %q: exit %d, stdout\n%s\nwant\n%s", agent, code, out, wantOut)
		}
		for _, w := range wantErr {
			if !strings.Contains(errs, w) {
				t.Errorf("--agent %q: stderr lacks %q:\n%s", agent, w, errs)
			}
		}
		if len(wantErr) == 0 && errs != "" {
			t.Errorf("--agent %q: stderr %q, want none", agent, errs)
		}
		if strings.Contains(errs, "named exactly") || strings.Contains(errs, "--agent \n") || strings.Contains(errs, `as ""`) {
			t.Errorf("--agent %q: stderr contradicts the verdict or suggests nothing:\n%s", agent, errs)
		}
	}
	const star = "disallowed\t/x\ndisallowed\t/private\n"
	const named = "allowed\t/x\ndisallowed\t/private\n"
	f("Googlebot", named)
	f("Googlebot/2.1", star, `warning: agent "Googlebot/2.1" is not a product token: Google compares it whole`, "no group names it", "use --agent Googlebot\n")
	f("MJ12bot", star, `agent "MJ12bot" is not a product token`, `for the groups Google reads as "MJ", use --agent MJ`+"\n")
	f("*", star, `warning: agent "*" is not a crawler's name: no group names it`, "obeys the '*' groups")
	f("", star, `warning: agent "" is empty: no group names it`, "obeys the '*' groups")
	f("Linguee Bot", named, `note: "Linguee Bot" is a tracked crawler's name, not a product token: it is matched as "Linguee"`)
	f("LINGUEE BOT", named, `it is matched as "Linguee"`)
}
