package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/robots"
)

const lintSample = "User-agent: *\nDisallow: private/\nSitemap: /s.xml\nDisallow: /a*\nDissallow: /b\n"

// lintAt runs lint on lintSample written to robots.txt in a fresh
// directory, as if standard output were a terminal or not.
func lintAt(t *testing.T, terminal bool, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Chdir(t.TempDir())
	if err := os.WriteFile("robots.txt", []byte(lintSample), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Terminal: func(io.Writer) bool { return terminal }}
	code = runEnv(env, append(append([]string{"lint"}, args...), "robots.txt"))
	return code, out.String(), errb.String()
}

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// Piped, lint prints the plain contract format, info findings included:
// the parse's findings of each line, then the parsers' readings of it
// (the '*' Python's robotparser before 3.13 takes literally, the
// misspelled key only Google reads).
func TestLintPlainWhenPiped(t *testing.T) {
	code, out, _ := lintAt(t, false)
	want := `robots.txt:2: error: pattern "private/" does not start with '/' or '*', so it never matches [path-not-absolute]
robots.txt:3: error: sitemap "/s.xml" is not an absolute URL (it needs https://host/...) [sitemap-relative]
robots.txt:4: info: pattern "/a*" uses the * wildcard [wildcard]
robots.txt:4: info: the trailing '*' in "/a*" changes nothing [redundant-wildcard]
robots.txt:4: info: '*' and '$' in this rule are wildcards for Google, literal characters for Python's robotparser before 3.13: python-legacy allows /a for Googlebot (no rule; Google disallows it, line 4) [parsers-disagree-wildcards]
robots.txt:5: warning: "Dissallow" is misspelled; Google accepts it, other crawlers may ignore the line [typo-accepted]
robots.txt:5: warning: Google reads this misspelled or colon-less line, other parsers ignore it: python-legacy allows /b for Googlebot (no rule; Google disallows it, line 5); rfc9309 allows /b for Googlebot (no rule; Google disallows it, line 5); python allows /b for Googlebot (no rule; Google disallows it, line 5) [parsers-disagree-key-spelling]
`
	if code != exitFailure || out != want {
		t.Errorf("exit %d, output\n%s\nwant\n%s", code, out, want)
	}
	if _, out2, _ := lintAt(t, true, "--color", "never"); out2 != want {
		t.Errorf("--color never on a terminal:\n%s", out2)
	}
}

// Lint of many files writes each one's findings as it reads them, into
// buffers it reuses from file to file (the body read, the line written):
// a long file and then a short one print what each prints alone, nothing
// of the long one left in the short one's findings.
func TestLintManyFilesReuseBuffers(t *testing.T) {
	t.Chdir(t.TempDir())
	long := "User-agent: *\n" + strings.Repeat("Disallow: private/long/path/of/many/bytes\nDissallow: /b\n", 400) + "Sitemap: /long.xml\n"
	short := "User-agent: *\nDisallow: p\n"
	for name, body := range map[string]string{"long.txt": long, "short.txt": short} {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lint := func(files ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Terminal: func(io.Writer) bool { return false }}
		if code := runEnv(env, append([]string{"lint"}, files...)); code != exitFailure {
			t.Fatalf("lint %v: exit %d\n%s", files, code, errb.String())
		}
		return out.String()
	}
	both, alone := lint("long.txt", "short.txt", "long.txt"), lint("long.txt")+lint("short.txt")+lint("long.txt")
	if both != alone {
		t.Errorf("lint of three files differs from the three alone:\n%.2000s\nwant\n%.2000s", both, alone)
	}
	if !strings.Contains(both, "\nshort.txt:2: error: pattern \"p\" does not start with '/' or '*', so it never matches [path-not-absolute]\nlong.txt:") {
		t.Errorf("short.txt's finding not between the long file's:\n%.2000s", both)
	}
}

// Lint on several workers prints what it prints on one, in the order the
// files are given, whatever order they finish in: many files of different
// sizes (a long one first, so that later ones finish before it), a missing
// file and standard input among them, in every format; standard input is
// read once, in its turn.
func TestLintWorkersKeepOrder(t *testing.T) {
	t.Chdir(t.TempDir())
	var files []string
	for i := range 60 {
		body := fmt.Sprintf("User-agent: bot%d\nDisallow: p%d\nDissallow: /b\n", i, i)
		if i%7 == 0 {
			body += strings.Repeat("Disallow: /a*\nAllow: /x/\n", 300*(1+i%3))
		}
		name := fmt.Sprintf("r%02d.txt", i)
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
		switch i {
		case 20:
			files = append(files, "missing.txt")
		case 40:
			files = append(files, "-")
		}
	}
	lint := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		env := &Env{Stdin: strings.NewReader("User-agent: *\nDisallow: stdin\n"), Stdout: &out, Stderr: &errb, Terminal: func(io.Writer) bool { return false }}
		code := runEnv(env, append(append([]string{"lint"}, args...), files...))
		return code, out.String(), errb.String()
	}
	for _, format := range []string{"text", "json", "sarif"} {
		code1, out1, err1 := lint("-j", "1", "--format", format)
		if !strings.Contains(out1, "stdin") || !strings.Contains(out1, "r59.txt") || !strings.Contains(err1, "missing.txt") {
			t.Fatalf("%s: one worker's output lacks a file:\n%.1000s\n%s", format, out1, err1)
		}
		for _, j := range []string{"2", "5", "16"} {
			code, out, errs := lint("-j", j, "--format", format)
			if code != code1 || out != out1 || errs != err1 {
				t.Errorf("%s, -j %s: exit %d, output differs from -j 1's (exit %d):\n%.1500s\nwant\n%.1500s\nstderr %q, want %q", format, j, code, code1, out, out1, errs, err1)
			}
		}
	}
}

// On a terminal: colour, the source line with a caret under the pattern,
// no info findings, a summary.
func TestLintTerminal(t *testing.T) {
	code, out, _ := lintAt(t, true)
	if code != exitFailure || !strings.Contains(out, "\x1b[1;31merror:") {
		t.Fatalf("exit %d, no red error in\n%q", code, out)
	}
	plain := ansi.ReplaceAllString(out, "")
	want := `robots.txt:2: error: pattern "private/" does not start with '/' or '*', so it never matches [path-not-absolute]
    2 | Disallow: private/
      |           ^~~~~~~~
robots.txt:3: error: sitemap "/s.xml" is not an absolute URL (it needs https://host/...) [sitemap-relative]
    3 | Sitemap: /s.xml
      |          ^~~~~~
robots.txt:5: warning: "Dissallow" is misspelled; Google accepts it, other crawlers may ignore the line [typo-accepted]
    5 | Dissallow: /b
      | ^~~~~~~~~
robots.txt:5: warning: Google reads this misspelled or colon-less line, other parsers ignore it: python-legacy allows /b for Googlebot (no rule; Google disallows it, line 5); rfc9309 allows /b for Googlebot (no rule; Google disallows it, line 5); python allows /b for Googlebot (no rule; Google disallows it, line 5) [parsers-disagree-key-spelling]
    5 | Dissallow: /b
      | ^
2 errors, 2 warnings, 0 notes (3 notes not shown: --severity info shows them)
`
	if plain != want {
		t.Errorf("output\n%s\nwant\n%s", plain, want)
	}
	if _, out2, _ := lintAt(t, false, "--color", "always"); out2 != out {
		t.Errorf("--color always when piped differs from the terminal:\n%s", out2)
	}
}

func TestLintSeverityAndIgnore(t *testing.T) {
	f := func(terminal bool, args []string, wantCode int, wantCodes ...string) {
		t.Helper()
		code, out, errs := lintAt(t, terminal, args...)
		got := regexp.MustCompile(`\[([a-z0-9-]+)\]`).FindAllStringSubmatch(ansi.ReplaceAllString(out, ""), -1)
		var codes []string
		for _, m := range got {
			codes = append(codes, m[1])
		}
		if code != wantCode || strings.Join(codes, " ") != strings.Join(wantCodes, " ") {
			t.Errorf("%v: exit %d, codes %v, want %d %v (stderr %q)", args, code, codes, wantCode, wantCodes, errs)
		}
	}
	f(false, []string{"--severity", "warning"}, 1, "path-not-absolute", "sitemap-relative", "typo-accepted", "parsers-disagree-key-spelling")
	f(false, []string{"--severity", "error"}, 1, "path-not-absolute", "sitemap-relative")
	f(true, []string{"--severity", "info"}, 1, "path-not-absolute", "sitemap-relative", "wildcard", "redundant-wildcard", "parsers-disagree-wildcards", "typo-accepted", "parsers-disagree-key-spelling")
	f(false, []string{"--ignore", "path-not-absolute,sitemap-relative"}, 0, "wildcard", "redundant-wildcard", "parsers-disagree-wildcards", "typo-accepted", "parsers-disagree-key-spelling")
	f(false, []string{"--ignore", "path-not-absolute", "--ignore", "wildcard", "--severity", "warning"}, 1, "sitemap-relative", "typo-accepted", "parsers-disagree-key-spelling")
	f(false, []string{"--readings=false", "--severity", "warning"}, 1, "path-not-absolute", "sitemap-relative", "typo-accepted")
	f(false, []string{"--ignore", "parsers-disagree-wildcards,parsers-disagree-key-spelling", "--severity", "info"}, 1, "path-not-absolute", "sitemap-relative", "wildcard", "redundant-wildcard", "typo-accepted")
	f(false, []string{"--ignore", "no-such-code"}, 2)
	f(false, []string{"--severity", "fatal"}, 2)
	f(false, []string{"--color", "sometimes"}, 2)
}

// --format sarif is a SARIF 2.1.0 log: one run, the catalogue as rules,
// one result per finding with its level and location.
func TestLintSARIF(t *testing.T) {
	code, out, _ := lintAt(t, true, "--format", "sarif")
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name, Version string
					Rules         []struct {
						ID                   string `json:"id"`
						DefaultConfiguration struct{ Level string }
					}
				}
			}
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Level     string
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine, StartColumn, EndColumn int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if code != exitFailure || log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("exit %d, version %q, %d runs", code, log.Version, len(log.Runs))
	}
	run := log.Runs[0]
	engine := 0 // the rules are the engine's codes, not the readers'
	for _, c := range robots.Codes() {
		if !c.Reader {
			engine++
		}
	}
	if run.Tool.Driver.Name != "robocensus" || run.Tool.Driver.Version == "" || len(run.Tool.Driver.Rules) != engine || engine < 60 {
		t.Errorf("driver %+v", run.Tool.Driver)
	}
	if len(run.Results) != 7 {
		t.Fatalf("%d results, want 7 (info and the parsers' readings included)", len(run.Results))
	}
	r := run.Results[0]
	loc := r.Locations[0].PhysicalLocation
	if r.RuleID != "path-not-absolute" || r.Level != "error" || !strings.Contains(r.Message.Text, "private/") ||
		run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID || loc.ArtifactLocation.URI != "robots.txt" ||
		loc.Region.StartLine != 2 || loc.Region.StartColumn != 11 || loc.Region.EndColumn != 19 {
		t.Errorf("result %+v", r)
	}
	levels := map[string]bool{}
	for _, r := range run.Results {
		levels[r.Level] = true
	}
	if !levels["note"] || !levels["warning"] {
		t.Errorf("levels %v", levels)
	}
}

// Control characters in a line do not reach the terminal.
func TestLintTerminalSanitises(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "r.txt")
	os.WriteFile(name, []byte("User-agent: *\nDisallow: x\x1b[2J\nUser-agent: a\x1b[2Jb\n"), 0o644)
	var out bytes.Buffer
	env := &Env{Stdout: &out, Stderr: &out, Terminal: func(io.Writer) bool { return true }}
	runEnv(env, []string{"lint", "--severity", "info", name})
	if strings.Contains(out.String(), "\x1b[2J") {
		t.Errorf("escape sequence printed: %q", out.String())
	}
}

// On a terminal a long line is cut after maxSourceRunes runes, the part a
// finding is about too: a line of NUL padding gets one screen line and one
// caret line, not thousands of characters.
func TestLintTerminalLongSpan(t *testing.T) {
	f := func(text string, start, end int, wantSource string) {
		t.Helper()
		var b strings.Builder
		writeSource(&b, finding{Line: 3, text: text, start: start, end: end})
		lines := strings.Split(ansi.ReplaceAllString(b.String(), ""), "\n")
		if lines[0] != "    3 | "+wantSource {
			t.Errorf("source line %q, want %q", lines[0], "    3 | "+wantSource)
		}
		if carets := strings.Count(lines[1], "^") + strings.Count(lines[1], "~"); carets > maxSourceRunes {
			t.Errorf("%d carets for a line cut at %d runes", carets, maxSourceRunes)
		}
	}
	nuls := strings.Repeat("\x00", 3000)
	f("Disallow: /a"+nuls, 12, 3012, "Disallow: /a"+strings.Repeat("\uFFFD", maxSourceRunes-12)+"…")
	f(nuls+"User-agent: *", 0, 3013, strings.Repeat("\uFFFD", maxSourceRunes)+"…")
	long := strings.Repeat("x", 200)
	f("Disallow: /"+long, 10, 211, "Disallow: /"+long[:maxSourceRunes-11]+"…")
	f("Disallow: "+long+" /b", 10, 210, "Disallow: "+long[:maxSourceRunes-10]+"…")
	f("Disallow: /a "+long, 10, 12, "Disallow: /a "+long[:maxSourceRunes-13]+"…")
}

// lint names the lines of robots's sample file (a real-looking file with
// the usual mistakes) that other parsers read differently, one finding a
// line and class, each message naming the parsers, a crawler and a path;
// --readings=false leaves them out.
func TestLintReadings(t *testing.T) {
	sample := filepath.Join("..", "..", "robots", "testdata", "sample-robots.txt")
	code, out, errs := runCmd(t, "", "lint", "--format", "json", sample)
	var findings []finding
	if err := json.Unmarshal([]byte(out), &findings); err != nil || code != exitFailure || errs != "" {
		t.Fatalf("exit %d, stderr %q, %v:\n%s", code, errs, err, out)
	}
	var got []string
	for _, f := range findings {
		if strings.HasPrefix(f.Code, "parsers-disagree-") {
			got = append(got, fmt.Sprintf("%d %s %s", f.Line, f.Severity, f.Code))
		}
	}
	want := []string{
		"4 warning parsers-disagree-agent-matching",
		"6 warning parsers-disagree-url-normalisation",
		"8 warning parsers-disagree-key-spelling",
		"11 warning parsers-disagree-agent-matching",
		"14 info parsers-disagree-allow-order",
		"15 info parsers-disagree-wildcards",
		"21 warning parsers-disagree-blank-line-ends-group",
		"24 warning parsers-disagree-key-spelling",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("parsers-disagree findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, f := range findings {
		if f.Code == "parsers-disagree-allow-order" && !strings.HasSuffix(f.Message, ": python-legacy disallows /staging/press/ for Googlebot (line 13; Google allows it, line 14)") {
			t.Errorf("allow-order message %q", f.Message)
		}
	}
	_, out, _ = runCmd(t, "", "lint", "--readings=false", sample)
	if strings.Contains(out, "parsers-disagree") {
		t.Errorf("--readings=false:\n%s", out)
	}
}
