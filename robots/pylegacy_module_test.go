package robots

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The python-legacy reading against the real urllib.robotparser of the
// machine's python3 (3.12 or earlier), over generated files and over the
// shared corpus. testdata/python/robotparser_driver.py answers every case
// of a test in one process.

// pyCase is one file and the questions asked about it.
type pyCase struct {
	name   string
	body   []byte
	agents []string
	urls   []string
}

// pyAnswer is the module's verdict: "true", "false" or "raise".
type pyAnswer string

// legacyPython returns the path of a python3 whose urllib.robotparser has
// the legacy semantics, or skips.
func legacyPython(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: the python-legacy differential tests need CPython's urllib.robotparser (3.12 or earlier)")
	}
	out, err := exec.Command(py, "-c", "import sys; print(sys.version_info[0] * 100 + sys.version_info[1])").Output()
	if err != nil {
		t.Fatalf("python3 does not run: %v", err)
	}
	var v int
	fmt.Sscan(string(out), &v)
	if v >= 313 {
		t.Skipf("python3 is %d.%d: its urllib.robotparser may have the RFC 9309 semantics of gh-138907 (backported to 3.13); the python-legacy reading is that of 3.12 and earlier", v/100, v%100)
	}
	return py
}

// askPython answers every case with the real module, in one process.
func askPython(t *testing.T, py string, cases []pyCase) [][][]pyAnswer {
	t.Helper()
	cmd := exec.Command(py, filepath.Join("testdata", "python", "robotparser_driver.py"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	writeErr := make(chan error, 1)
	go func() {
		w := bufio.NewWriter(in)
		enc := json.NewEncoder(w)
		for _, c := range cases {
			if err := enc.Encode(map[string]any{"body": base64.StdEncoding.EncodeToString(c.body), "agents": c.agents, "urls": c.urls}); err != nil {
				writeErr <- err
				return
			}
		}
		if err := w.Flush(); err != nil {
			writeErr <- err
			return
		}
		writeErr <- in.Close()
	}()
	answers := make([][][]pyAnswer, 0, len(cases))
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var r struct{ Verdicts [][]any }
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("driver answer %q: %v", sc.Text(), err)
		}
		rows := make([][]pyAnswer, len(r.Verdicts))
		for i, row := range r.Verdicts {
			for _, v := range row {
				rows[i] = append(rows[i], pyAnswer(fmt.Sprint(v)))
			}
		}
		answers = append(answers, rows)
	}
	if err := <-writeErr; err != nil {
		t.Fatalf("writing to the driver: %v", err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("driver: %v\n%s", err, stderr.String())
	}
	if len(answers) != len(cases) {
		t.Fatalf("driver answered %d cases of %d\n%s", len(answers), len(cases), stderr.String())
	}
	return answers
}

// pyDifference is one question on which the reading and the module differ.
type pyDifference struct {
	c          *pyCase
	agent, url string
	ours       Verdict
	module     pyAnswer
}

func (d pyDifference) String() string {
	return fmt.Sprintf("%s: agent %q url %q: python-legacy says %s (line %d), urllib.robotparser says %s\nbody: %q",
		d.c.name, d.agent, d.url, verdictName(d.ours.Allowed), d.ours.Line, d.module, clipBody(d.c.body))
}

// clipBody is the start of a body, for a message.
func clipBody(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "..."
	}
	return string(b)
}

func verdictName(allowed bool) string {
	if allowed {
		return "true"
	}
	return "false"
}

// comparePython asks the module and the reading every question of cases
// and returns how many were asked and the differences. A question the
// module answers by raising counts as false: the crawler fetches nothing.
func comparePython(t *testing.T, py string, cases []pyCase) (int, []pyDifference) {
	answers := askPython(t, py, cases)
	asked := 0
	var diffs []pyDifference
	for i := range cases {
		c := &cases[i]
		reading := ParseUncut(c.body).As(SemanticsPythonLegacy)
		for ai, agent := range c.agents {
			for ui, url := range c.urls {
				asked++
				want := answers[i][ai][ui]
				got := reading.Match(url, []string{agent})
				if verdictName(got.Allowed) != string(want) && !(want == "raise" && !got.Allowed) {
					diffs = append(diffs, pyDifference{c, agent, url, got, want})
				}
			}
		}
	}
	return asked, diffs
}

// moduleAgents are the crawlers the differential tests ask about.
var moduleAgents = []string{"GPTBot", "CCBot", "Googlebot", "Googlebot-Mobile/2.1"}

// TestPythonLegacyAgainstModuleGenerated compares the reading with the
// module on seeded random files built from the lines where the two parsers'
// readings of robots.txt differ from Google's: user-agent substrings and
// empty names, blank lines in groups, rules before any user-agent, allow
// and disallow order, empty paths, percent-encoding, queries, params and
// fragments, wildcards, the extensions that close a group, unknown keys,
// byte order marks and Python-only line breaks.
func TestPythonLegacyAgainstModuleGenerated(t *testing.T) {
	py := legacyPython(t)
	rng := rand.New(rand.NewPCG(31, 2026))
	cases := make([]pyCase, 3000)
	for i := range cases {
		cases[i] = pyCase{name: fmt.Sprintf("generated #%d", i), body: []byte(generateRobots(rng)), agents: moduleAgents, urls: pyURLs}
	}
	asked, diffs := comparePython(t, py, cases)
	t.Logf("generated: %d questions over %d files, %d differences", asked, len(cases), len(diffs))
	for i, d := range diffs {
		if i == 10 {
			t.Errorf("... and %d more", len(diffs)-10)
			break
		}
		t.Error(d)
	}
}

// pyURLs are the URLs of the generated cases.
var pyURLs = []string{
	"/", "/a", "/a/", "/a/b", "/ab", "/A", "/a?", "/a?x=1", "/?", "/?q", "/a;p", "/a;p/b", "/a#f",
	"/~joe/", "/%7Ejoe/", "/%7ejoe/", "/%E9t%E9", "/%C3%A9t%C3%A9", "/\u00e9t\u00e9", "/a%2Fb", "/a/b%3Fc",
	"/robots.txt", "/index.html", "/a*b", "/a$", "/%2A", "https://example.com/a/b?c=d#e", "http://example.com",
	"/a b", "/a%20b", "/%", "/%zz", "//x/a",
}

// pyLinePool are the lines generated files are made of.
var pyLinePool = []string{
	"User-agent: *", "User-agent: *", "User-agent: GPTBot", "User-agent: gptbot", "User-agent: GPT",
	"User-agent: bot", "User-agent:", "User-agent: CCBot/2.0", "User-agent: Googlebot", "User-agent: Googlebot-Mobile",
	"User-agent: Googlebot Mobile", "User-agent: * # all", "user-agent : ccbot", "USER-AGENT: GPTBot", "User-agent: GPT%42ot",
	"Useragent: GPTBot", "User agent: *", "User-agent: \u00a0GPTBot",
	"", "", "", " ", "\t", "# comment", " # indented comment",
	"Disallow: /", "Disallow: /a", "Disallow: /a/", "Disallow:", "Disallow: /a?", "Disallow: /?", "Disallow: /a?x=1",
	"Disallow: /a*b", "Disallow: /*b", "Disallow: /a$", "Disallow: *", "Disallow: a", "Disallow: /robots.txt",
	"Disallow: /%7Ejoe/", "Disallow: /~joe/", "Disallow: /%E9t%E9", "Disallow: /\u00e9t\u00e9", "Disallow: /a%2Fb",
	"Disallow: /a;p", "Disallow: /a%23f", "Disallow: http://example.com/a", "Disallow: //x/a", "Disallow: /a b",
	"Disallow: /%", "Disallow: /%zz", "Disallow: /%2A", "Disallow:\u00a0/a", "Disallow: /a # why",
	"Disallow /a", "Dissallow: /a", "DISALLOW: /ab", "Disallowed: /a", "  Disallow: /a/b",
	"Allow: /", "Allow: /a", "Allow: /a/b", "Allow:", "Allow: /a?", "Allow: /ab$", "Allow: /%7ejoe/",
	"Crawl-delay: 1", "Crawl-delay: pears", "Crawl-delay: \u00b2", "Request-rate: 3/15", "Request-rate: 1/\u00b9",
	"Sitemap: https://example.com/sitemap.xml", "Host: example.com", "Noindex: /a", "Clean-param: x /a",
	"Disallow: //[x/a", "this is not a directive",
}

// generateRobots makes one robots.txt file: a few groups of pool lines,
// joined by LF, CRLF or CR, sometimes with a byte order mark, a form feed
// or a NUL.
func generateRobots(rng *rand.Rand) string {
	var lines []string
	for range 1 + rng.IntN(12) {
		lines = append(lines, pyLinePool[rng.IntN(len(pyLinePool))])
	}
	if rng.IntN(3) > 0 { // most files start with a user-agent line
		lines = append([]string{pyLinePool[rng.IntN(18)]}, lines...)
	}
	eol := []string{"\n", "\n", "\n", "\r\n", "\r"}[rng.IntN(5)]
	body := strings.Join(lines, eol)
	switch rng.IntN(20) {
	case 0:
		body = "\uFEFF" + body
	case 1:
		body = strings.Replace(body, eol, "\f", 1)
	case 2:
		body = strings.Replace(body, eol, "\u2028", 1)
	case 3:
		body = strings.Replace(body, "/a", "/a\x00", 1)
	case 4:
		body += "\n\xE9" // not UTF-8: read() raises
	}
	if rng.IntN(2) == 0 {
		body += eol
	}
	return body
}

// TestPythonLegacyAgainstModuleCorpus compares the reading with the module
// on the distinct bodies of the shared corpus, for GPTBot, CCBot and
// Googlebot, on the paths the file's own rules name and on common paths. It
// takes a sample of the bodies; ROBOCENSUS_PYTHON_CORPUS=all takes every
// one (a few minutes) and reports the agreement figure.
func TestPythonLegacyAgainstModuleCorpus(t *testing.T) {
	py := legacyPython(t)
	all := os.Getenv("ROBOCENSUS_PYTHON_CORPUS") == "all"
	seen := map[string]bool{}
	var cases []pyCase
	for _, set := range loadCorpus(t) {
		for i, b := range set.bodies {
			if seen[string(b.Data)] {
				continue
			}
			seen[string(b.Data)] = true
			if !all && i%40 != 0 {
				continue
			}
			cases = append(cases, pyCase{name: set.name + "/" + b.Name, body: b.Data, agents: moduleAgents[:3], urls: derivedURLs(b.Data)})
		}
	}
	asked, diffs := comparePython(t, py, cases)
	t.Logf("corpus: %d bodies x agents x URLs = %d questions, %d differences (%.4f%% agree)",
		len(cases), asked, len(diffs), 100*(1-float64(len(diffs))/float64(max(asked, 1))))
	bodies := map[string]bool{}
	for _, d := range diffs {
		if !bodies[d.c.name] && len(bodies) < 10 {
			t.Error(d)
		}
		bodies[d.c.name] = true
	}
	if len(diffs) > 0 {
		t.Errorf("%d differences in %d bodies", len(diffs), len(bodies))
	}
}

// commonPaths are the paths asked about every file, beside its own.
var commonPaths = []string{"/", "/index.html", "/about", "/search", "/search?q=x", "/images/logo.png", "/robots.txt"}

// derivedURLs are the common paths and up to 30 paths the file's rules
// name: each rule's value cut at its first '*' and its final '$', made to
// start with '/'.
func derivedURLs(body []byte) []string {
	urls := append([]string(nil), commonPaths...)
	seen := map[string]bool{}
	f := ParseUncut(body)
	for _, r := range f.Rules {
		p, _, _ := strings.Cut(r.Value(f), "*")
		p = strings.TrimSuffix(p, "$")
		if !strings.HasPrefix(p, "/") {
			p = "/" + p
		}
		if !seen[p] {
			seen[p] = true
			urls = append(urls, p)
		}
		if len(seen) == 30 {
			break
		}
	}
	return urls
}
