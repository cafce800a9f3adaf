package archtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
)

// A vocabulary of package schema (schema/vocabulary.go) has one
// definition; the notebooks hold the generated copy of it between these
// lines (notebooks/vocabulary_test.go writes them).
const (
	generatedBegin = "-- Vocabulary: generated from package schema"
	generatedEnd   = "-- End of the vocabulary."
)

// secondSpellings are the vocabularies whose spelling outside their one
// definition fails TestVocabularySpelledOnce: a pattern for each, and the
// files, relative to the repository root, allowed to hold it.
var secondSpellings = []struct {
	name    string
	pattern *regexp.Regexp
	allowed []string
}{
	{
		name:    "the deciding-capture order in SQL (schema.DecidingOrderSQL; notebooks: deciding_captures)",
		pattern: regexp.MustCompile(`(?i)\(\s*outcome\s*=\s*'redirect'\s*\)\s*,\s*fetch_time\s+DESC`),
		allowed: []string{"schema/vocabulary.go", "notebooks/vocabulary.sql"},
	},
}

// TestVocabularySpelledOnce fails when a vocabulary of package schema is
// spelled again in a .go or .sql file of the repository, tests included,
// outside its definition and the notebooks' generated blocks.
func TestVocabularySpelledOnce(t *testing.T) {
	root := testutil.RepoRoot()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(path); ext != ".go" && ext != ".sql" {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		body := withoutGeneratedBlocks(string(text))
		for _, v := range secondSpellings {
			if !slices.Contains(v.allowed, rel) && v.pattern.MatchString(body) {
				t.Errorf("%s spells %s again: use the definition in package schema", rel, v.name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read %d .go and .sql files under %s, too few for the repository", files, root)
	}
}

// withoutGeneratedBlocks returns text without its generated vocabulary
// blocks, each from its begin line to its end line.
func withoutGeneratedBlocks(text string) string {
	var b strings.Builder
	for {
		i := strings.Index(text, generatedBegin)
		if i < 0 {
			break
		}
		n := strings.Index(text[i:], generatedEnd)
		if n < 0 {
			break
		}
		b.WriteString(text[:i])
		text = text[i+n+len(generatedEnd):]
	}
	b.WriteString(text)
	return b.String()
}
