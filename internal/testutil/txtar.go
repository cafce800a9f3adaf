package testutil

import (
	"strings"
)

// Archive is a txtar-style text holding named files: a comment, then
// sections introduced by lines "-- NAME --". Each file's data is the lines
// up to the next marker, every line ending in "\n".
type Archive struct {
	Comment string
	Files   map[string]string
	Order   []string // file names in the order they appear
}

// ParseArchive splits text into its comment and files.
func ParseArchive(text string) Archive {
	a := Archive{Files: map[string]string{}}
	name, inFile := "", false
	var b strings.Builder
	flush := func() {
		if inFile {
			a.Files[name] = b.String()
			a.Order = append(a.Order, name)
		} else {
			a.Comment = b.String()
		}
		b.Reset()
	}
	for _, line := range strings.SplitAfter(text, "\n") {
		if line == "" {
			continue
		}
		t := strings.TrimRight(line, "\n")
		if strings.HasPrefix(t, "-- ") && strings.HasSuffix(t, " --") && len(t) > 6 {
			flush()
			name, inFile = strings.TrimSpace(t[3:len(t)-3]), true
			continue
		}
		if !strings.HasSuffix(line, "\n") {
			line += "\n"
		}
		b.WriteString(line)
	}
	flush()
	return a
}
