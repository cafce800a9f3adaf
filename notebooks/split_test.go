package notebooks_test

import (
	"strings"
	"testing"
)

// Statements splits SQL text into statements at semicolons that end a
// statement, outside string literals, quoted names and "--" comments;
// comment lines are dropped and empty statements skipped.
func Statements(text string) []string {
	var out []string
	var b strings.Builder
	inString, inName, inComment := false, false, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case inComment:
			if c == '\n' {
				inComment = false
				b.WriteByte(c)
			}
			continue
		case inString:
			inString = c != '\''
		case inName:
			inName = c != '"'
		case c == '-' && i+1 < len(text) && text[i+1] == '-':
			inComment = true
			continue
		case c == '\'':
			inString = true
		case c == '"':
			inName = true
		case c == ';':
			if s := strings.TrimSpace(b.String()); s != "" {
				out = append(out, s)
			}
			b.Reset()
			continue
		}
		b.WriteByte(c)
	}
	if s := strings.TrimSpace(b.String()); s != "" {
		out = append(out, s)
	}
	return out
}

func TestStatements(t *testing.T) {
	got := Statements("-- a; comment\nSELECT 'x;y' AS \"a;b\"; -- trailing; comment\n\nSELECT 2;\n-- only a comment\n")
	if len(got) != 2 || got[0] != `SELECT 'x;y' AS "a;b"` || got[1] != "SELECT 2" {
		t.Errorf("%q", got)
	}
}
