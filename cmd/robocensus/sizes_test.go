package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/analyze"
	"github.com/robocensus/robocensus/internal/testutil"
)

// cstxSize is the size of cstx.gov's robots.txt in the shared corpus
// (nrjones8-gov-robots-archive): the largest body the issue met.
const cstxSize = 2_695_790

// TestIssue27Sizes (issue 27 item 7), end to end through the command
// line: a WARC with a body of 2.6 MiB is ingested, stored cut to 1 MiB;
// the report's largest size is the real one, and its crawler-truncated
// share counts the crawler's cut only, robocensus's own being
// stored-truncated. A crawl published with schema 2.0, which has no
// payload_length_real, is still reported, by the bytes stored.
func TestIssue27Sizes(t *testing.T) {
	src := t.TempDir()
	cut := "User-agent: *\nDisallow: /a\n"
	warc := filepath.Join(src, "sizes.warc.gz")
	data := testutil.PerRecord(t,
		testutil.Robots200("cstx.example", testutil.BigRobots(cstxSize)),
		testutil.Robots200("small.example", "User-agent: *\nDisallow: /x\n"),
		testutil.Response("https://cut.example/robots.txt", "HTTP/1.1 200 OK",
			"Content-Type: text/plain\r\nContent-Length: "+strconv.Itoa(len(cut))+"\r\n", cut, "WARC-Truncated: length"),
	)
	if err := os.WriteFile(warc, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ds := filepath.Join(t.TempDir(), "data")
	const crawl, older = "CC-MAIN-2099-02", "CC-MAIN-2099-01"
	if code, out, errs := runCmd(t, "", "ingest", "-o", ds, "--crawl", crawl, warc); code != exitOK {
		t.Fatalf("ingest: exit %d\n%s\n%s", code, out, errs)
	}
	olderCrawl(t, ds, crawl, older, "2.0", func(table string) string {
		if table == "captures" {
			return "* EXCLUDE (payload_length_real)"
		}
		return "*"
	})

	code, md, errs := runCmd(t, "", "report", "--format", "md", ds)
	if code != exitOK {
		t.Fatalf("report: exit %d\n%s", code, errs)
	}
	if !strings.Contains(md, "largest 2.6 MiB") {
		t.Errorf("the Markdown report's largest size is not cstx.example's 2.6 MiB:\n%s", section(md, "### Sizes"))
	}
	code, out, errs := runCmd(t, "", "report", "--format", "json", ds)
	if code != exitOK {
		t.Fatalf("report --format json: exit %d\n%s", code, errs)
	}
	var r analyze.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		crawl: "captures 3, largest 2695790, over 500 KiB 1, crawler-truncated 1, stored-truncated 1",
		older: "captures 3, largest 1048576, over 500 KiB 1, crawler-truncated 1, stored-truncated 1",
	}
	for _, c := range r.Crawls {
		shares := map[string]int64{}
		for _, d := range c.Diagnostics {
			shares[d.Code] = d.Captures.N
		}
		got := "captures " + strconv.FormatInt(c.Sizes.Captures, 10) + ", largest " + strconv.FormatInt(c.Sizes.Max, 10) +
			", over 500 KiB " + strconv.FormatInt(c.Sizes.Oversize.N, 10) +
			", crawler-truncated " + strconv.FormatInt(shares["crawler-truncated"], 10) +
			", stored-truncated " + strconv.FormatInt(shares["stored-truncated"], 10)
		if got != want[c.Crawl] {
			t.Errorf("crawl %s: %s, want %s", c.Crawl, got, want[c.Crawl])
		}
		delete(want, c.Crawl)
	}
	if len(want) > 0 {
		t.Errorf("crawls missing from the report: %v", want)
	}
}

// section returns the part of a Markdown report from heading to the next
// heading of any level, for error messages.
func section(md, heading string) string {
	_, rest, ok := strings.Cut(md, heading)
	if !ok {
		return "(no " + heading + ")"
	}
	if i := strings.Index(rest, "\n#"); i >= 0 {
		rest = rest[:i]
	}
	return heading + rest
}
