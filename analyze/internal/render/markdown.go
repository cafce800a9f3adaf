package render

import (
	"bufio"
	"fmt"
	"strings"
)

// mdWriter writes Markdown, keeping the first error.
type Markdown struct {
	W    *bufio.Writer
	err  error
	tail string // the last bytes written, to tell a blank line
}

func (m *Markdown) Printf(format string, args ...any) {
	if m.err != nil {
		return
	}
	s := fmt.Sprintf(format, args...)
	_, m.err = m.W.WriteString(s)
	m.tail = (m.tail + s)[max(0, len(m.tail)+len(s)-2):]
}

// heading writes a heading with a blank line before and after.
func (m *Markdown) Heading(level int, text string) {
	if m.tail != "\n\n" {
		m.Printf("\n")
	}
	m.Printf("%s %s\n\n", strings.Repeat("#", level), text)
}

func (m *Markdown) Para(format string, args ...any) {
	m.Printf(format+"\n\n", args...)
}

// table writes a table; cells must be escaped already.
func (m *Markdown) Table(header []string, rows [][]string) {
	names := make([]string, len(header))
	for i, h := range header {
		names[i] = strings.TrimSpace(h)
	}
	m.Printf("| %s |\n|", strings.Join(names, " | "))
	for _, h := range header {
		if strings.HasPrefix(h, " ") { // right-aligned column
			m.Printf("---:|")
		} else {
			m.Printf("---|")
		}
	}
	m.Printf("\n")
	for _, r := range rows {
		m.Printf("| %s |\n", strings.Join(r, " | "))
	}
	m.Printf("\n")
}

func (m *Markdown) Flush() error {
	if m.err != nil {
		return m.err
	}
	return m.W.Flush()
}

// mdEscaper escapes Markdown punctuation and HTML in running text.
var mdEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "|", `\|`,
	"<", "&lt;", ">", "&gt;", "&", "&amp;", "#", `\#`, "\r", " ", "\n", " ",
)

// md escapes text from the dataset for running text or a table cell.
func Escape(s string) string { return mdEscaper.Replace(s) }

// code writes s as an inline code span that a table cell can hold.
func Code(s string) string {
	s = strings.NewReplacer("\r", " ", "\n", " ", "|", `\|`).Replace(s)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || s == "" {
		pad = " "
	}
	return fence + pad + s + pad + fence
}

// fence returns a code fence longer than any run of backticks in s.
func Fence(s string) string {
	f := "```"
	for strings.Contains(s, f) {
		f += "`"
	}
	return f
}

func Pad(s string, n int) string {
	if len(s) >= n {
		return s
	}
	return strings.Repeat(" ", n-len(s)) + s
}
