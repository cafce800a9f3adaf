package remote

import (
	"bytes"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/internal/testutil"
)

// ccPaths are manifest lines as Common Crawl writes them.
var ccPaths = []string{
	"crawl-data/CC-MAIN-2025-05/segments/1736703361941.29/robotstxt/CC-MAIN-20250113203450-20250113233450-00000.warc.gz",
	"crawl-data/CC-MAIN-2025-05/segments/1736703361941.29/robotstxt/CC-MAIN-20250113203450-20250113233450-00001.warc.gz",
	"crawl-data/CC-MAIN-2025-05/segments/1736703362003.86/robotstxt/CC-MAIN-20250114010203-20250114040203-00002.warc.gz",
}

// manifestOf is a gzip'd manifest of the lines, with a blank line, CRLF
// line ends and surrounding spaces, which are all ignored.
func manifestOf(tb testing.TB, lines ...string) []byte {
	text := "\n" + strings.Join(lines, "\r\n") + "\n  \n"
	if len(lines) > 0 {
		text = strings.Replace(text, lines[0], "  "+lines[0]+" ", 1)
	}
	return testutil.Gzip(tb, text)
}

func TestReadManifest(t *testing.T) {
	f := func(base string, want ...string) {
		t.Helper()
		got, err := ReadManifest(bytes.NewReader(manifestOf(t, ccPaths...)), base)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("base %q: %q, %v\nwant %q", base, got, err, want)
		}
	}
	var https, mirror, local []string
	for _, p := range ccPaths {
		https = append(https, "https://data.commoncrawl.org/"+p)
		mirror = append(mirror, "http://127.0.0.1:8080/cc/"+p)
		local = append(local, filepath.Join("/data/cc", filepath.FromSlash(p)))
	}
	f(DefaultBaseURL, https...)
	f("https://data.commoncrawl.org", https...) // a "/" is added
	f("http://127.0.0.1:8080/cc/", mirror...)
	f("http://127.0.0.1:8080/cc", mirror...)
	f("/data/cc", local...)
	f("/data/cc/", local...)

	// Plain text is accepted too; URLs are kept; paths are escaped.
	got, err := ReadManifest(strings.NewReader("a/b c.warc.gz\nhttps://example.org/x.warc.gz\n"), "http://h/")
	if want := []string{"http://h/a/b%20c.warc.gz", "https://example.org/x.warc.gz"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("plain: %q, %v", got, err)
	}
}

// TestReadManifestRefuses: lines that could name a file outside the base,
// corrupt data and a bad base are errors that say where.
func TestReadManifestRefuses(t *testing.T) {
	f := func(data []byte, base string, want error, wantText string) {
		t.Helper()
		_, err := ReadManifest(bytes.NewReader(data), base)
		if !errors.Is(err, want) || !strings.Contains(fmtErr(err), wantText) {
			t.Errorf("%q: %v, want %v containing %q", data, err, want, wantText)
		}
	}
	for _, bad := range []string{"../etc/passwd", "/etc/passwd", "a/../../b", "a//b", "./a", "a/", "..", "s3://x/y.warc.gz", "s3://bucket/", "https:///x"} {
		f(manifestOf(t, "ok/x.warc.gz", bad), "/data", ErrManifest, "line 3")
	}
	f(append(manifestOf(t, ccPaths...)[:40], 0, 0, 0), DefaultBaseURL, ErrManifest, "")
	f([]byte{0x1f, 0x8b, 0x08, 0xff}, DefaultBaseURL, ErrManifest, "gzip")
	f([]byte(strings.Repeat("x", 70000)), DefaultBaseURL, ErrManifest, "line 1")
	f(manifestOf(t, ccPaths...), "ftp://mirror/", archive.ErrInvalidOption, "s3")
	f(manifestOf(t, ccPaths...), "s3://a/", archive.ErrInvalidOption, "BUCKET")
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestIsManifest(t *testing.T) {
	for name, want := range map[string]bool{
		"robotstxt.paths.gz": true,
		"/mirror/crawl-data/CC-MAIN-2025-05/robotstxt.paths.gz":                      true,
		"https://data.commoncrawl.org/crawl-data/CC-MAIN-2025-05/robotstxt.paths.gz": true,
		"https://h/warc.PATHS.GZ?sig=abc":                                            true,
		"https://h/x.warc.gz?f=a.paths.gz":                                           false,
		"robotstxt.paths":                                                            false,
		"x.warc.gz":                                                                  false,
	} {
		if IsManifest(name) != want {
			t.Errorf("IsManifest(%q) = %v", name, !want)
		}
	}
}

// TestExpandInputsManifests expands local and remote manifests, also from
// an @FILE list, and finds the crawl label in the result.
func TestExpandInputsManifests(t *testing.T) {
	data := manifestOf(t, ccPaths...)
	local := writeTemp(t, "crawl-data/CC-MAIN-2025-05/robotstxt.paths.gz", data)
	var log requestLog
	srv := startServer(t, dropping(data, `"m"`, 40, &log)) // resumed every 40 bytes
	remote := srv + "/crawl-data/CC-MAIN-2025-05/robotstxt.paths.gz"
	list := writeTemp(t, "inputs.txt", []byte("# inputs\nfirst.warc.gz\n"+local+"\n"))
	var want []string
	for _, p := range ccPaths {
		want = append(want, "http://mirror.example/"+p)
	}
	opts := append([]Option{WithBaseURL("http://mirror.example/")}, fast...)
	for _, args := range [][]string{{local}, {remote}, {"@" + list}} {
		got, err := ExpandInputs(args, opts...)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		if args[0][0] == '@' {
			got = got[1:] // first.warc.gz
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: %q\nwant %q", args, got, want)
		}
		if label := CrawlLabel(got, time.Now()); label != "CC-MAIN-2025-05" {
			t.Errorf("%q: crawl label %q", args, label)
		}
	}
	if log.len() < 3 {
		t.Errorf("the remote manifest was read in %d requests; want several (resumed)", log.len())
	}
	// The default base is Common Crawl's.
	if got, _ := ExpandInputs([]string{local}); len(got) != 3 || !strings.HasPrefix(got[0], DefaultBaseURL+"crawl-data/") {
		t.Errorf("default base: %q", got)
	}
}

func TestExpandInputsManifestErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.paths.gz")
	url := startServer(t, http.NotFoundHandler())
	bad := writeTemp(t, "bad.paths.gz", manifestOf(t, "../x"))
	f := func(arg string, want ...error) {
		t.Helper()
		_, err := ExpandInputs([]string{"a.warc.gz", arg}, fast...)
		if err == nil || !strings.Contains(err.Error(), "reading manifest") {
			t.Errorf("%s: %v", arg, err)
		}
		for _, w := range want {
			if !errors.Is(err, w) {
				t.Errorf("%s: %v, want %v", arg, err, w)
			}
		}
	}
	f(missing, os.ErrNotExist)
	f(url+"/robotstxt.paths.gz", ErrHTTPStatus, archive.ErrRead)
	f(bad, ErrManifest)
	if _, err := ExpandInputs([]string{"x"}, WithBaseURL("s3://x/")); !errors.Is(err, archive.ErrInvalidOption) {
		t.Errorf("bad base: %v", err)
	}
}
