package robots

import (
	"encoding/csv"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
)

// The engine over every robots.txt body of the shared corpus: no panic, the
// invariants of the fuzz tests, agreement with the reference matcher on a
// sample, and stable statistics recorded in testdata/corpus-summary.golden
// (how many files raise each code). Run with -update to rewrite the golden
// file after a deliberate change, and review the diff.

var update = flag.Bool("update", false, "rewrite golden files")

// corpusSet is one set of bodies of the shared corpus.
type corpusSet struct {
	name   string
	bodies []testutil.Body
}

var (
	corpusOnce sync.Once
	corpusSets []corpusSet
)

// loadCorpus reads every body of ../shared/corpus/robots once per test
// binary, or skips when the corpus is absent.
func loadCorpus(t testing.TB) []corpusSet {
	t.Helper()
	dir := testutil.Corpus(t, "robots")
	corpusOnce.Do(func() { corpusSets = readCorpus(t, dir) })
	return corpusSets
}

func readCorpus(t testing.TB, dir string) []corpusSet {
	var sets []corpusSet
	archives, _ := filepath.Glob(filepath.Join(dir, "*", "*.tar.gz"))
	for _, a := range archives {
		sets = append(sets, corpusSet{name: rel(dir, a), bodies: testutil.TarBodies(t, a)})
	}
	for _, d := range []string{"psj224535-academic-publishers", "crawler-commons-test-robots", "ai-robots-txt"} {
		files, _ := filepath.Glob(filepath.Join(dir, d, "*.txt"))
		set := corpusSet{name: d}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			set.bodies = append(set.bodies, testutil.Body{Name: filepath.Base(f), Data: data})
		}
		sets = append(sets, set)
	}
	sets = append(sets, csvBodies(t, filepath.Join(dir, "hemangi31-wayback-news-publishers", "robots_data_final.csv")))
	if len(sets) < 8 {
		t.Fatalf("corpus at %s has %d sets, want at least 8", dir, len(sets))
	}
	return sets
}

func rel(dir, path string) string {
	r, _ := filepath.Rel(dir, path)
	return filepath.ToSlash(r)
}

// csvBodies reads the "content" column of the rows whose status is success.
func csvBodies(t testing.TB, path string) corpusSet {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	set := corpusSet{name: "hemangi31-wayback-news-publishers"}
	content, status := slices.Index(rows[0], "content"), slices.Index(rows[0], "status")
	for i, r := range rows[1:] {
		if r[status] == "success" {
			set.bodies = append(set.bodies, testutil.Body{Name: fmt.Sprint("row", i+1), Data: []byte(r[content])})
		}
	}
	return set
}

func TestCorpusSummary(t *testing.T) {
	sets := loadCorpus(t)
	var b strings.Builder
	total := map[Code]int{}
	files, bytes := 0, 0
	for _, s := range sets {
		perSet := map[Code]int{}
		for _, body := range s.bodies {
			f := Parse(body.Data)
			if len(body.Data) <= 4<<10 {
				checkInvariants(t, f, string(body.Data))
			}
			for _, c := range distinctCodes(f) {
				perSet[c]++
				total[c]++
			}
			files++
			bytes += len(body.Data)
		}
		fmt.Fprintf(&b, "set %s: %d files\n", s.name, len(s.bodies))
		for _, ci := range Codes() {
			if n := perSet[ci.Code]; n > 0 {
				fmt.Fprintf(&b, "  %-32s %d\n", ci.Name, n)
			}
		}
	}
	fmt.Fprintf(&b, "all: %d files, %d bytes\n", files, bytes)
	for _, ci := range Codes() {
		// The parse never reports the readers' codes, nor those found by
		// comparing readings (File.ReadingDiagnostics).
		if !ci.Reader && !ci.Readings {
			fmt.Fprintf(&b, "  %-32s %d\n", ci.Name, total[ci.Code])
		}
	}
	golden(t, filepath.Join("testdata", "corpus-summary.golden"), b.String())
}

// distinctCodes returns each code of f once.
func distinctCodes(f *File) []Code {
	var seen [numCodes]bool
	var out []Code
	for _, d := range f.Diagnostics {
		if !seen[d.Code] {
			seen[d.Code] = true
			out = append(out, d.Code)
		}
	}
	return out
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs; run go test -run %s -update and review the diff.\ngot:\n%s", path, t.Name(), got)
	}
}

// TestCorpusAgreesWithReference checks verdicts on real files against the
// reference matcher: for a sample of bodies, the URLs built from each of
// their own patterns, for Googlebot, an unnamed crawler and the first agent
// the file names.
func TestCorpusAgreesWithReference(t *testing.T) {
	sets := loadCorpus(t)
	checked := 0
	for _, s := range sets {
		for i, body := range s.bodies {
			if i%199 != 0 || len(body.Data) > 64<<10 {
				continue
			}
			text := string(body.Data)
			f := ParseString(text)
			agents := [][]string{{"Googlebot"}, {"UnnamedBot"}}
			if len(f.Groups) > 0 && f.Groups[0].Agents(f)[0].Token(f) != "" {
				agents = append(agents, []string{f.Groups[0].Agents(f)[0].Token(f)})
			}
			for _, u := range probeURLs(f) {
				for _, a := range agents {
					if got, want := f.Allowed(u, a...), refAllowed(text, a, u); got != want {
						t.Errorf("%s %s: %v on %q: Allowed=%v, reference=%v", s.name, body.Name, a, u, got, want)
					}
					checked++
				}
			}
		}
	}
	// The sample is fixed (every 199th body of a fixed corpus): a change
	// that made the loop compare nothing, or far less, must fail here.
	if len(sets) == 0 || checked < 30_000 {
		t.Fatalf("%d verdicts compared over %d sets, want at least 30,000", checked, len(sets))
	}
	t.Logf("%d verdicts compared", checked)
}

// probeURLs turns the patterns of a file into URLs that they match or
// nearly match.
func probeURLs(f *File) []string {
	urls := []string{"http://e.com/", "http://e.com/index.html"}
	for i, r := range f.Rules {
		if i > 20 {
			break
		}
		p := strings.TrimSuffix(r.Pattern(f), "$")
		p = strings.ReplaceAll(p, "*", "x")
		if !strings.HasPrefix(p, "/") {
			p = "/" + p
		}
		urls = append(urls, "http://e.com"+p, "http://e.com"+p+"z")
	}
	return urls
}

// TestIssue27LintOnRealFiles checks the findings of issue 27 item 9 on the
// real files that showed them: a CRLF file cut between a CR and its LF, a
// Latin-1 pattern, a text file padded with NUL bytes and a GIF image.
func TestIssue27LintOnRealFiles(t *testing.T) {
	bodies := map[string][]byte{}
	for _, s := range loadCorpus(t) {
		if s.name == "danielmiessler-alexa100k-2015/nonhtml-unique.tar.gz" {
			for _, b := range s.bodies {
				bodies[b.Name] = b.Data
			}
		}
	}
	file := func(name string) *File {
		t.Helper()
		data, ok := bodies["robots/"+name+"-robots.txt"]
		if !ok {
			t.Fatalf("%s is not in the corpus", name)
		}
		return Parse(data)
	}
	find := func(f *File, line int, c Code) *Diagnostic {
		for i, d := range f.Diagnostics {
			if d.Line == line && d.Code == c {
				return &f.Diagnostics[i]
			}
		}
		return nil
	}

	protegez := file("protegez-vous.ca")
	if find(protegez, 0, MixedLineEndings) != nil || find(protegez, 0, CRLFLineEndings) == nil {
		t.Errorf("protegez-vous.ca: %v, want crlf-line-endings and no mixed-line-endings", codesOf(protegez))
	}
	recht := file("123recht.net")
	if d := find(recht, 18, NonASCIIPath); d == nil || !strings.Contains(d.Message(recht), "Google percent-encodes each byte as it is (\"\\xf6\" as %F6)") {
		t.Errorf("123recht.net line 18: %+v", d)
	}
	puritan := file("puritan.com")
	if find(puritan, 0, BinaryContent) != nil || len(puritan.Rules) != 75 || find(puritan, puritan.Stats.Lines, NULByte) == nil {
		t.Errorf("puritan.com (NUL padding): %d rules, codes %v", len(puritan.Rules), codesOf(puritan))
	}
	babidou := file("babidou.com")
	if d := find(babidou, 0, BinaryContent); d == nil || !strings.HasPrefix(d.Message(babidou), "the file is a GIF image, not text") {
		t.Errorf("babidou.com: %+v", d)
	}
}
