package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/robocensus/robocensus/analyze"
	"github.com/robocensus/robocensus/ingest"
	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/internal/testutil"
)

// The HTML reports are loaded in a real headless Chromium (Debian's
// chromium package; scripts/ci-deps.sh installs it). Without it the tests
// skip, unless ROBOCENSUS_REQUIRE_BROWSER=1, as in CI, makes them fail.
const requireBrowserEnv = "ROBOCENSUS_REQUIRE_BROWSER"

// chromium returns the path of the browser, or skips the test.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "headless browser test: chromium is not installed (run scripts/ci-deps.sh)"
	if os.Getenv(requireBrowserEnv) == "1" {
		t.Fatal(msg + "; " + requireBrowserEnv + "=1 requires it")
	}
	t.Skip(msg)
	return ""
}

// dumpDOM loads a file in headless Chromium, lets timers and load events
// run, and returns the DOM as the browser then serialises it.
func dumpDOM(t *testing.T, browser, file string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--virtual-time-budget=3000", "--dump-dom", "file://"+file)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, errb.String())
	}
	if out.Len() == 0 {
		t.Fatalf("chromium printed no DOM\n%s", errb.String())
	}
	return out.String()
}

// ran is what the payloads write into the page if they run: the marker is
// only made by executing the concatenation, never written whole.
const ran = "XSSRAN"

// hostile is a robots.txt whose lines try to escape into markup, in every
// context the reports use: text, table cells, attributes, SVG text, code.
var hostile = strings.Join([]string{
	`User-agent: <script>document.title='X'+'SS'+'RAN'</script>`,
	`Disallow: /<img src=x onerror="document.title='X'+'SS'+'RAN'">`,
	`Disallow: /"><svg onload="document.body.innerHTML='X'+'SS'+'RAN'">`,
	`</textarea></pre></td></table></style><script>document.title='X'+'SS'+'RAN'</script>`,
	`Sitemap: javascript:document.title='X'+'SS'+'RAN'`,
	`User-agent: */--><iframe srcdoc="<script>parent.document.title='X'+'SS'+'RAN'</script>"></iframe>`,
	`Allow: /{{.}}<!--<meta http-equiv="refresh" content="0;url=javascript:document.title='X'+'SS'+'RAN'">`,
	`Dissalow: /<b onmouseover="document.title='X'+'SS'+'RAN'">bold</b>`,
	`<a href="javascript:document.title='X'+'SS'+'RAN'">click</a>`,
}, "\n") + "\n"

// hostileDataset writes the hostile body (and a redirect with a hostile
// Location) as a WARC with archive.WARCWriter and ingests it.
func hostileDataset(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	warc := filepath.Join(dir, "hostile.warc.gz")
	var buf bytes.Buffer
	w, err := archive.NewWARCWriter(&buf, "hostile.warc.gz")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2025, 1, 13, 0, 0, 0, 0, time.UTC)
	fetches := []archive.Fetch{
		{URL: "https://evil.example/robots.txt", Time: at, Status: 200, ContentType: "text/plain", Body: []byte(hostile)},
		{URL: "https://twin.example/robots.txt", Time: at, Status: 200, ContentType: "text/plain", Body: []byte(hostile)},
		{URL: "https://cf.example/robots.txt", Time: at, Status: 200, ContentType: "text/plain", Body: cloudflareHostile(t)},
		{URL: "https://moved.example/robots.txt", Time: at, Status: 301, ContentType: "text/html",
			Location: `javascript:document.title='X'+'SS'+'RAN'"><script>document.title='X'+'SS'+'RAN'</script>`, Body: []byte("<p>moved</p>")},
	}
	for _, f := range fetches {
		if err := w.WriteCapture(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(warc, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "dataset")
	if _, err := ingest.Run(context.Background(), ingest.Config{Dir: data, Crawl: "CC-MAIN-2025-05"}, []string{warc}); err != nil {
		t.Fatal(err)
	}
	return data
}

// cloudflareHostile is Cloudflare's managed block whose GPTBot block the
// site's own group cancels (the robots package's fixture), then the
// hostile lines: the template sections draw it.
func cloudflareHostile(t *testing.T) []byte {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(testutil.RepoRoot(), "robots", "testdata", "diag", "template-block-cancelled.txt"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := strings.CutPrefix(string(text), "-- robots.txt --\n")
	body, _, _ = strings.Cut(body, "\n-- ")
	return []byte(body + "\n" + hostile)
}

// drawn are what the pages must show: the sections drawn from the
// hostile dataset's rows (the template blocks of cf.example).
var drawn = map[string][]string{
	"report.html":     {"<h2>Who wrote these files</h2>", "cloudflare-managed@2025-09", "cf.example"},
	"cf.example.html": {"<h3>Who wrote this file</h3>", "cloudflare-managed@2025-09", "cancels it"},
}

// TestHTMLEscapesHostileRobotsTxt renders the crawl report and the site
// reports of hosts serving the hostile file and checks, in the browser,
// that no payload ran or became an element, and that the lines show as
// written.
func TestHTMLEscapesHostileRobotsTxt(t *testing.T) {
	browser := chromium(t)
	data := hostileDataset(t)
	d, err := analyze.Open(os.DirFS(data))
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]func(*os.File) error{
		"report.html": func(f *os.File) error {
			r, err := d.Report(context.Background())
			if err != nil {
				return err
			}
			return r.Write(f, analyze.HTML, `<script>document.title='X'+'SS'+'RAN'</script>`)
		},
	}
	for _, host := range []string{"evil.example", "moved.example", "cf.example"} {
		pages[host+".html"] = func(f *os.File) error {
			r, err := d.Site(context.Background(), host)
			if err != nil {
				return err
			}
			return r.Write(f, analyze.HTML, "dataset")
		}
	}
	for name, write := range pages {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := write(f); err != nil {
				t.Fatal(err)
			}
			f.Close()
			dom := dumpDOM(t, browser, path)
			checkDOM(t, name, dom)
			for _, want := range drawn[name] {
				if !strings.Contains(dom, want) {
					t.Errorf("%s: the browser draws no %q", name, want)
				}
			}
		})
	}
}

// checkDOM fails the test on every problem domProblems finds.
func checkDOM(t *testing.T, name, dom string) {
	t.Helper()
	for _, p := range domProblems(name, dom) {
		t.Error(p)
	}
}

// Markup only a payload could have made: an event handler attribute or a
// javascript: URL on a real element.
var (
	handlerAttr = regexp.MustCompile(`<[a-zA-Z][^<>]*\son[a-z]+=`)
	scriptURL   = regexp.MustCompile(`<[a-zA-Z][^<>]*=["']?javascript:`)
)

// domProblems checks a page as the browser built it. In the serialised
// DOM, "<" starts a real element; text shows "<" as "&lt;".
func domProblems(name, dom string) []string {
	var out []string
	if strings.Contains(dom, ran) {
		out = append(out, name+": a payload ran: the page holds "+ran)
	}
	for _, tag := range []string{"<script", "<img", "<iframe", "<meta http-equiv=\"refresh\"", "<b ", "<textarea"} {
		if strings.Contains(dom, tag) {
			out = append(out, name+": the page has a "+tag+" element made from robots.txt text")
		}
	}
	if m := handlerAttr.FindString(dom); m != "" {
		out = append(out, name+": an element has an event handler: "+m)
	}
	if m := scriptURL.FindString(dom); m != "" {
		out = append(out, name+": an element has a javascript: URL: "+m)
	}
	if !strings.Contains(dom, "<title>robots.txt") {
		out = append(out, name+": the title changed")
	}
	if strings.HasPrefix(name, "evil.example") {
		for _, line := range strings.Split(strings.TrimSpace(hostile), "\n") {
			if want := domText(line); !strings.Contains(dom, want) {
				out = append(out, name+": line not shown as written: "+want)
			}
		}
	}
	return out
}

// TestBrowserRunsPayloads checks the checker: the hostile lines pasted
// unescaped into a page do run in this browser, and domProblems sees it.
func TestBrowserRunsPayloads(t *testing.T) {
	browser := chromium(t)
	path := filepath.Join(t.TempDir(), "evil.example.raw.html")
	page := "<!DOCTYPE html><html><head><title>robots.txt raw</title></head><body><pre>" + hostile + "</pre></body></html>"
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	problems := strings.Join(domProblems("raw", dumpDOM(t, browser, path)), "\n")
	if !strings.Contains(problems, "a payload ran") {
		t.Errorf("unescaped payloads did not run: the browser test would see nothing; got:\n%s", problems)
	}
	// Elements made from payloads, as Chromium serialises them.
	dom := `<title>robots.txt</title><img src="x" onerror="a()"><a href="javascript:b()">c</a>`
	problems = strings.Join(domProblems("raw", dom), "\n")
	for _, want := range []string{"<img element", "event handler", "javascript: URL"} {
		if !strings.Contains(problems, want) {
			t.Errorf("want a problem %q, got:\n%s", want, problems)
		}
	}
}

// domText is how Chromium serialises a text node: &, < and > escaped.
func domText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
