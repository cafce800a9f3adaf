package analyze

import (
	"bufio"
	"fmt"
	"strings"
)

// mdWriter writes Markdown, keeping the first error.
type mdWriter struct {
	w    *bufio.Writer
	err  error
	tail string // the last bytes written, to tell a blank line
}

func (m *mdWriter) printf(format string, args ...any) {
	if m.err != nil {
		return
	}
	s := fmt.Sprintf(format, args...)
	_, m.err = m.w.WriteString(s)
	m.tail = (m.tail + s)[max(0, len(m.tail)+len(s)-2):]
}

// heading writes a heading with a blank line before and after.
func (m *mdWriter) heading(level int, text string) {
	if m.tail != "\n\n" {
		m.printf("\n")
	}
	m.printf("%s %s\n\n", strings.Repeat("#", level), text)
}

func (m *mdWriter) para(format string, args ...any) {
	m.printf(format+"\n\n", args...)
}

// table writes a table; cells must be escaped already.
func (m *mdWriter) table(header []string, rows [][]string) {
	names := make([]string, len(header))
	for i, h := range header {
		names[i] = strings.TrimSpace(h)
	}
	m.printf("| %s |\n|", strings.Join(names, " | "))
	for _, h := range header {
		if strings.HasPrefix(h, " ") { // right-aligned column
			m.printf("---:|")
		} else {
			m.printf("---|")
		}
	}
	m.printf("\n")
	for _, r := range rows {
		m.printf("| %s |\n", strings.Join(r, " | "))
	}
	m.printf("\n")
}

func (m *mdWriter) flush() error {
	if m.err != nil {
		return m.err
	}
	return m.w.Flush()
}

// mdEscaper escapes Markdown punctuation and HTML in running text.
var mdEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "|", `\|`,
	"<", "&lt;", ">", "&gt;", "&", "&amp;", "#", `\#`, "\r", " ", "\n", " ",
)

// md escapes text from the dataset for running text or a table cell.
func md(s string) string { return mdEscaper.Replace(s) }

// code writes s as an inline code span that a table cell can hold.
func code(s string) string {
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
func fence(s string) string {
	f := "```"
	for strings.Contains(s, f) {
		f += "`"
	}
	return f
}

func pad(s string, n int) string {
	if len(s) >= n {
		return s
	}
	return strings.Repeat(" ", n-len(s)) + s
}
