package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeRobots writes body to a robots.txt in a temporary directory.
func writeRobots(t *testing.T, body string) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// match --semantics python-legacy gives urllib.robotparser's verdict
// (first match, WordPress's default file) where Google's differs,
// --semantics python that of the module after gh-138907 (longest match),
// and --semantics google the default's.
func TestMatchSemanticsOne(t *testing.T) {
	name := writeRobots(t, "User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n")
	for _, tt := range []struct{ semantics, want string }{
		{"google", "allowed\t/wp-admin/admin-ajax.php\t3\n"},
		{"python-legacy", "disallowed\t/wp-admin/admin-ajax.php\t2\n"},
		{"python", "allowed\t/wp-admin/admin-ajax.php\t3\n"},
	} {
		code, out, errs := runCmd(t, "", "match", "--semantics", tt.semantics, "--why", "--agent", "GPTBot", name, "/wp-admin/admin-ajax.php")
		if code != exitOK || out != tt.want || errs != "" {
			t.Errorf("--semantics %s: exit %d, stdout %q, stderr %q; want %q", tt.semantics, code, out, errs, tt.want)
		}
	}
}

// match --semantics all prints every reading's verdict a URL and, where
// they differ, the rule that decided for each.
func TestMatchSemanticsAll(t *testing.T) {
	name := writeRobots(t, "User-agent: GPTBot\n\nDisallow: /\n\nUser-agent: *\nDisallow: /private\n")
	code, out, _ := runCmd(t, "", "match", "--semantics", "all", "--agent", "GPTBot", name, "/", "/private/x")
	want := "/\tgoogle=disallowed\tpython-legacy=allowed\trfc9309=disallowed\tpython=disallowed\tcrawler-commons=disallowed\t# differ: google line 3 \"Disallow: /\"; python-legacy line 0 (blank-line-ends-group); rfc9309 line 3 \"Disallow: /\"; python line 3 \"Disallow: /\"; crawler-commons line 3 \"Disallow: /\"\n" +
		"/private/x\tgoogle=disallowed\tpython-legacy=disallowed\trfc9309=disallowed\tpython=disallowed\tcrawler-commons=disallowed\n"
	if code != exitOK || out != want {
		t.Errorf("exit %d, stdout\n%s\nwant\n%s", code, out, want)
	}
}

// match --semantics all names, for each reading whose verdict is not
// Google's, the difference class that explains it, and the line the class
// is about when it is not a deciding rule; on robots's sample file and on
// a WordPress default file with a group Python's substring match gives
// GPTBot.
func TestMatchSemanticsAllClasses(t *testing.T) {
	sample := filepath.Join("..", "..", "robots", "testdata", "sample-robots.txt")
	wordpress := writeRobots(t, "User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n\nUser-agent: bot\nDisallow: /x\n")
	for _, tt := range []struct{ agent, file, url, want string }{
		{"BadBot", sample, "/everything", "/everything\tgoogle=disallowed\tpython-legacy=allowed\trfc9309=allowed\tpython=allowed\tcrawler-commons=disallowed\t" +
			`# differ: google line 24 "Disallow /everything"; python-legacy line 0 (key-spelling); rfc9309 line 0 (key-spelling); python line 0 (key-spelling); crawler-commons line 24 "Disallow /everything"` + "\n"},
		{"Google-Extended", wordpress, "/wp-admin/admin-ajax.php", "/wp-admin/admin-ajax.php\tgoogle=allowed\tpython-legacy=disallowed\trfc9309=allowed\tpython=allowed\tcrawler-commons=allowed\t" +
			`# differ: google line 3 "Allow: /wp-admin/admin-ajax.php"; python-legacy line 2 "Disallow: /wp-admin/" (allow-order); rfc9309 line 3 "Allow: /wp-admin/admin-ajax.php"; python line 3 "Allow: /wp-admin/admin-ajax.php"; crawler-commons line 3 "Allow: /wp-admin/admin-ajax.php"` + "\n"},
		{"GPTBot", wordpress, "/x", "/x\tgoogle=allowed\tpython-legacy=disallowed\trfc9309=allowed\tpython=disallowed\tcrawler-commons=allowed\t" +
			`# differ: google line 0; python-legacy line 6 "Disallow: /x" (agent-matching, line 5); rfc9309 line 0; python line 6 "Disallow: /x" (agent-matching, line 5); crawler-commons line 0` + "\n"},
	} {
		code, out, errs := runCmd(t, "", "match", "--semantics", "all", "--agent", tt.agent, tt.file, tt.url)
		if code != exitOK || out != tt.want || errs != "" {
			t.Errorf("%s %s: exit %d, stderr %q, stdout\n%s\nwant\n%s", tt.agent, tt.url, code, errs, out, tt.want)
		}
	}
}

// An unknown --semantics is a usage error that names the accepted ones.
func TestMatchSemanticsUnknown(t *testing.T) {
	name := writeRobots(t, "User-agent: *\nDisallow: /\n")
	code, out, errs := runCmd(t, "", "match", "--semantics", "bing", "--agent", "GPTBot", name, "/")
	if code != exitUsage || out != "" || !strings.Contains(errs, `unknown --semantics "bing": want google, python-legacy, rfc9309, python, crawler-commons or all`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// match --semantics rfc9309 reads the file by RFC 9309's letter: the
// /robots.txt URI is always allowed, a misspelled key is no rule, and a
// tracked crawler's name is matched as its product token, as for Google.
func TestMatchSemanticsRFC9309(t *testing.T) {
	name := writeRobots(t, "User-agent: *\nDisallow: /\nUser-agent: Linguee\nDissallow: /a\n")
	for _, tt := range []struct{ agent, url, want string }{
		{"GPTBot", "/robots.txt", "allowed\t/robots.txt\t0\n"},
		{"GPTBot", "/x", "disallowed\t/x\t2\n"},
		{"Linguee Bot", "/a", "allowed\t/a\t0\n"},
	} {
		code, out, _ := runCmd(t, "", "match", "--semantics", "rfc9309", "--why", "--agent", tt.agent, name, tt.url)
		if code != exitOK || out != tt.want {
			t.Errorf("%s %s: exit %d, stdout %q; want %q", tt.agent, tt.url, code, out, tt.want)
		}
	}
	code, out, _ := runCmd(t, "", "match", "--semantics", "google", "--why", "--agent", "Linguee Bot", name, "/a")
	if code != exitOK || out != "disallowed\t/a\t4\n" {
		t.Errorf("google: exit %d, stdout %q: the misspelled key is a rule for Google", code, out)
	}
}

// match --semantics python gives the agent to the reading as written and
// prefers a user-agent value equal to the crawler's name over one that is
// a part of it, where python-legacy takes the first that is a part.
func TestMatchSemanticsPython(t *testing.T) {
	name := writeRobots(t, "User-agent: Bot\nDisallow: /a\n\nUser-agent: GPTBot\nDisallow: /b\n")
	for _, tt := range []struct{ semantics, url, want string }{
		{"python", "/a", "allowed\t/a\t0\n"},
		{"python", "/b", "disallowed\t/b\t5\n"},
		{"python-legacy", "/a", "disallowed\t/a\t2\n"},
	} {
		code, out, _ := runCmd(t, "", "match", "--semantics", tt.semantics, "--why", "--agent", "GPTBot/1.1", name, tt.url)
		if code != exitOK || out != tt.want {
			t.Errorf("--semantics %s %s: exit %d, stdout %q; want %q", tt.semantics, tt.url, code, out, tt.want)
		}
	}
}

// match --semantics crawler-commons gives the verdict of crawler-commons
// 1.6: its own misspelt keys count, /robots.txt is always allowed, and a
// user-agent value with a digit names the crawler whole, where Google cuts
// it before the digit.
func TestMatchSemanticsCrawlerCommons(t *testing.T) {
	name := writeRobots(t, "User-agent: *\nDesallow: /a\nDisallow: /\n\nUser-agent: bot2\nDisallow: /b\n")
	for _, tt := range []struct{ semantics, agent, url, want string }{
		{"crawler-commons", "CCBot", "/a", "disallowed\t/a\t2\n"},
		{"google", "CCBot", "/a", "disallowed\t/a\t3\n"},
		{"crawler-commons", "CCBot", "/robots.txt", "allowed\t/robots.txt\t0\n"},
		{"google", "CCBot", "/robots.txt", "disallowed\t/robots.txt\t3\n"},
		{"crawler-commons", "bot2", "/x", "allowed\t/x\t0\n"},
		{"crawler-commons", "bot2", "/b", "disallowed\t/b\t6\n"},
	} {
		code, out, _ := runCmd(t, "", "match", "--semantics", tt.semantics, "--why", "--agent", tt.agent, name, tt.url)
		if code != exitOK || out != tt.want {
			t.Errorf("--semantics %s %s %s: exit %d, stdout %q; want %q", tt.semantics, tt.agent, tt.url, code, out, tt.want)
		}
	}
}
