package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/robocensus/robocensus/robots"
)

// ANSI styles of the terminal form of lint.
const (
	styleBold  = "\x1b[1m"
	styleCaret = "\x1b[1;32m"
	styleDim   = "\x1b[2m"
	styleReset = "\x1b[0m"
)

var severityStyle = [...]string{
	robots.Info:    "\x1b[1;36m",
	robots.Warning: "\x1b[1;33m",
	robots.Error:   "\x1b[1;31m",
}

// maxSourceRunes is how much of a long line the terminal form shows.
const maxSourceRunes = 160

// writeTerminal writes lint's findings for a person at a terminal: in
// colour, each with its line and a caret under what is wrong, then a
// summary.
func writeTerminal(w io.Writer, res *lintResult) error {
	bw := bufio.NewWriter(w)
	var shown [robots.Error + 1]int
	for _, f := range res.shown {
		shown[f.sev]++
		fmt.Fprintf(bw, "%s%s:%d:%s %s%s:%s %s %s[%s]%s\n", styleBold, printable(f.File), f.Line, styleReset,
			severityStyle[f.sev], f.Severity, styleReset, printable(f.Message), styleDim, f.Code, styleReset)
		if f.Line > 0 {
			writeSource(bw, f)
		}
	}
	fmt.Fprintln(bw, summary(shown, res.hidden))
	return bw.Flush()
}

// writeSource writes the line of a finding and a caret line under the part
// the finding is about (under the line start when it is about the line).
// A line longer than maxSourceRunes is cut after that many runes, the part
// the finding is about too, unless that part starts further right.
func writeSource(w io.Writer, f finding) {
	pre, mid, post := f.text[:f.start], f.text[f.start:f.end], f.text[f.end:]
	if utf8.RuneCountInString(f.text) > maxSourceRunes {
		n, m := utf8.RuneCountInString(pre), utf8.RuneCountInString(mid)
		switch {
		case n+m <= maxSourceRunes:
			post = cutRunes(post, maxSourceRunes-n-m) + "…"
		case n < maxSourceRunes:
			mid, post = cutRunes(mid, maxSourceRunes-n), "…"
		}
	}
	gutter := fmt.Sprintf("%5d | ", f.Line)
	fmt.Fprintf(w, "%s%s%s%s%s\n", styleDim, gutter, styleReset, printable(pre+mid), printable(post))
	width := max(1, utf8.RuneCountInString(printable(mid)))
	fmt.Fprintf(w, "%s%s|%s %s%s%s%s\n", styleDim, strings.Repeat(" ", len(gutter)-2), styleReset,
		blank(printable(pre)), styleCaret, "^"+strings.Repeat("~", width-1), styleReset)
}

// printable makes s safe to print on a terminal: invalid UTF-8 and control
// characters other than tab become U+FFFD, one a byte or rune, so columns
// still line up.
func printable(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 || r != '\t' && unicode.IsControl(r) {
			r = utf8.RuneError
		}
		b.WriteRune(r)
		i += max(n, 1)
	}
	return b.String()
}

// blank turns s into the same width of spaces, keeping its tabs.
func blank(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' {
			return r
		}
		return ' '
	}, s)
}

// cutRunes returns the first n runes of s.
func cutRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// summary counts the findings shown by severity ("1 error, 2 warnings,
// 3 notes") and says how many --severity hid.
func summary(shown, hidden [robots.Error + 1]int) string {
	s := plural(shown[robots.Error], "error", "errors") + ", " + plural(shown[robots.Warning], "warning", "warnings") + ", " + plural(shown[robots.Info], "note", "notes")
	var h []string
	if n := hidden[robots.Warning]; n > 0 {
		h = append(h, plural(n, "warning", "warnings"))
	}
	if n := hidden[robots.Info]; n > 0 {
		h = append(h, plural(n, "note", "notes"))
	}
	if len(h) > 0 {
		lowest := "info"
		if hidden[robots.Info] == 0 {
			lowest = "warning"
		}
		s += " (" + strings.Join(h, " and ") + " not shown: --severity " + lowest + " shows them)"
	}
	return s
}
