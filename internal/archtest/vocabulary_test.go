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

// A vocabulary (schema/vocabulary.go, robots/vocabulary.go) has one
// definition; the notebooks hold the generated copy of it between these
// lines (notebooks/vocabulary_test.go writes them).
const (
	generatedBegin = "-- Vocabulary: generated from package schema"
	generatedEnd   = "-- End of the vocabulary."
)

// thisFile is this test's file, relative to the repository root.
const thisFile = "internal/archtest/vocabulary_test.go"

// secondSpellings are the vocabularies whose spelling outside their one
// definition fails TestVocabularySpelledOnce: what finds a spelling in a
// file's text, and the files, relative to the repository root, allowed to
// hold it.
var secondSpellings = []struct {
	name    string
	found   func(text string) bool
	allowed []string
}{
	{
		name:    "the deciding-capture order in SQL (schema.DecidingOrderSQL; notebooks: deciding_captures)",
		found:   regexp.MustCompile(`(?i)\(\s*outcome\s*=\s*'redirect'\s*\)\s*,\s*fetch_time\s+DESC`).MatchString,
		allowed: []string{"schema/vocabulary.go", "notebooks/vocabulary.sql"},
	},
	{
		name: "the not-robots codes (robots.NotRobotsCodes; notebooks: not_robots_codes())",
		found: lineWith(3, spelledAs([]string{"binary-content", "html-content", "bom-utf16"},
			"BinaryContent", "HTMLContent", "BOMUTF16")...),
		allowed: []string{"robots/vocabulary.go", "notebooks/vocabulary.sql"},
	},
	{
		name: "the fetch classes (schema.FetchClassesBestFirst, FetchClassColumns, UsableFetchClasses; notebooks: fetch_classes() ...)",
		found: anyOf(lineWith(2, spelledAs(fetchClasses)...),
			// a list of them one a line; a comparison in SQL
			regexp.MustCompile(`(?m)["'](`+strings.Join(fetchClasses, "|")+`)["']\s*,\s*(//.*)?$`).MatchString,
			regexp.MustCompile(`(?i)fetch_class\s*(=|IN\s*\()\s*'(`+strings.Join(fetchClasses, "|")+`)'`).MatchString),
		allowed: []string{"schema/vocabulary.go", "notebooks/vocabulary.sql"},
	},
	{
		name: "the stored truncation reasons (robots.StoredTruncationReasons; notebooks: stored_truncation_reasons())",
		found: anyOf(lineWith(2, spelledAs([]string{"body-cap", "record-cap", "input-end"})...),
			regexp.MustCompile(`case\s+"(body-cap|record-cap|input-end)"`).MatchString),
		// archive writes them and may import nothing of the repository:
		// package ingest's TestStoredTruncationReasons holds its spelling
		// to robots'.
		allowed: []string{"robots/vocabulary.go", "ingest/archive/capture.go", "notebooks/vocabulary.sql"},
	},
	{
		name:    "the followed AI crawlers (schema.FollowedAICrawlers; notebooks: followed_ai_crawlers())",
		found:   listOfFollowed,
		allowed: []string{"schema/vocabulary.go", "notebooks/vocabulary.sql"},
	},
}

// followedAICrawlers are the names TestVocabularySpelledOnce looks for as
// the followed AI crawlers.
var followedAICrawlers = []string{"GPTBot", "ClaudeBot", "CCBot", "Google-Extended", "PerplexityBot", "Bytespider", "Applebot-Extended"}

// followedLiteral finds a followed AI crawler spelled as a string literal
// of Go or SQL.
var followedLiteral = regexp.MustCompile(`["'](` + strings.Join(quotedMeta(followedAICrawlers), "|") + `)["']`)

// listSeparator is what may stand between two names of one list: commas,
// white space (a list one a line included), and the parentheses and
// numbers of an SQL VALUES list.
var listSeparator = regexp.MustCompile(`^[\s,()0-9]*$`)

// listOfFollowed finds the followed AI crawlers spelled again: a list of
// at least four of them, PerplexityBot among them, in a row. The crawlers
// that train (analyze's trainingCrawlers, a list of its own) name six of
// them but not PerplexityBot, and the Web Almanac's list of notebook 07
// names others between them.
func listOfFollowed(text string) bool {
	matches := followedLiteral.FindAllStringSubmatchIndex(text, -1)
	run, perplexity := 0, false
	for i, m := range matches {
		if i > 0 && !listSeparator.MatchString(text[matches[i-1][1]:m[0]]) {
			run, perplexity = 0, false
		}
		run++
		perplexity = perplexity || text[m[2]:m[3]] == "PerplexityBot"
		if run >= 4 && perplexity {
			return true
		}
	}
	return false
}

// quotedMeta returns words with their regular-expression metacharacters
// escaped.
func quotedMeta(words []string) []string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = regexp.QuoteMeta(w)
	}
	return quoted
}

// fetchClasses are the names TestVocabularySpelledOnce looks for as the
// fetch classes.
var fetchClasses = []string{"robots-with-rules", "robots-no-rules", "not-robots", "http-allow-all",
	"http-forbidden", "http-defer-visits", "redirect-not-resolved"}

// spelledAs returns, for each word, its spellings as a string literal of
// Go or SQL ("word" and 'word'), and as the Go name in idents at the same
// index, if any.
func spelledAs(words []string, idents ...string) [][]string {
	spellings := make([][]string, len(words))
	for i, w := range words {
		spellings[i] = []string{`"` + w + `"`, "'" + w + "'"}
		if i < len(idents) {
			spellings[i] = append(spellings[i], idents[i])
		}
	}
	return spellings
}

// lineWith returns a finder of a line of text that holds at least min of
// the words, each word given by its spellings: a list of them spelled
// again.
func lineWith(min int, words ...[]string) func(text string) bool {
	return func(text string) bool {
		for line := range strings.Lines(text) {
			n := 0
			for _, spellings := range words {
				if slices.ContainsFunc(spellings, func(s string) bool { return strings.Contains(line, s) }) {
					n++
				}
			}
			if n >= min {
				return true
			}
		}
		return false
	}
}

// anyOf returns a finder that finds what any of finders finds.
func anyOf(finders ...func(text string) bool) func(text string) bool {
	return func(text string) bool {
		return slices.ContainsFunc(finders, func(f func(string) bool) bool { return f(text) })
	}
}

// TestVocabularySpelledOnce fails when a vocabulary is spelled again in a .go or .sql file of the repository, tests included,
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
		if rel == thisFile {
			return nil // it spells what it looks for
		}
		body := withoutGeneratedBlocks(string(text))
		for _, v := range secondSpellings {
			if !slices.Contains(v.allowed, rel) && v.found(body) {
				t.Errorf("%s spells %s again: use its one definition", rel, v.name)
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
