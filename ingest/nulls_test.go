package ingest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
)

// TestIssue16PublishedNulls: in a published partition merged from several
// segments and parts, every optional (nullable) column of every table is
// NULL where the value is absent in Go, never the zero value ("", 0, the
// zero time), and holds both NULLs and values in this fixture. A failed
// input sits between inputs read to their end, whose error must be NULL
// (issue 16: the next one read ”).
func TestIssue16PublishedNulls(t *testing.T) {
	src := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(src, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mixed := func(host string) []byte {
		badDate := strings.Replace(robots200("nodate."+host, "User-agent: *\nDisallow: /d\n"),
			"WARC-Date: 2024-05-18T01:58:10Z", "WARC-Date: yesterday", 1)
		return perRecord(t,
			robots200("a."+host, "User-agent: *\nDisallow: /a\n\nUser-agent: b\nDisallow:\n"),
			response("https://redir."+host+"/robots.txt", "HTTP/1.1 301 Moved", "Location: https://a."+host+"/robots.txt\r\n", ""),
			// A redirect to a URL never captured (hosts.effective_capture_id
			// NULL), and an IP address (no registered domain).
			response("https://gone."+host+"/robots.txt", "HTTP/1.1 301 Moved", "Location: https://nowhere."+host+"/robots.txt\r\n", ""),
			robots200("192.0.2.1", "User-agent: *\nDisallow: /ip\n"),
			response("https://none."+host+"/robots.txt", "HTTP/1.1 404 Not Found", "", "nope"),
			badDate,
			response("https://cut."+host+"/robots.txt", "HTTP/1.1 200 OK", "Content-Type: text/plain\r\n", "User-agent: *\nDisal", "WARC-Truncated: length"),
			robots200("b."+host, "User-agent: *\nDisallow: /b\n"),
			// Parsers that disagree (readings): one decides by no rule
			// (readings.line NULL), the other Google (google_line NULL).
			robots200("blank."+host, "User-agent: GPTBot\n\nDisallow: /\n"),
			robots200("query."+host, "User-agent: *\nDisallow: /?\n"),
			// Template blocks: WordPress's dated default and Blogger's,
			// which no source dates (templates.released NULL).
			robots200("wp."+host, "User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n\nSitemap: https://wp."+host+"/wp-sitemap.xml\n"),
			robots200("blogger."+host, "User-agent: Mediapartners-Google\nDisallow:\n\nUser-agent: *\nDisallow: /search\nAllow: /\n"),
			// A file-wide preference (group NULL), one in a group, and a
			// value not understood (allowed NULL).
			robots200("prefs."+host, "Content-Signal: search=yes, ai-train=maybe\nUser-agent: *\nCrawl-delay: 5\nDisallow: /e\n"),
			response("https://c."+host+"/robots.txt", "HTTP/1.1 200 OK",
				"Content-Type: text/plain\r\n", "User-agent: *\nDisallow: /c\n", "WARC-Identified-Payload-Type: text/plain"),
			// An explicit port and a declared charset (url_port,
			// content_charset).
			response("https://port."+host+":8443/robots.txt", "HTTP/1.1 200 OK",
				"Content-Type: text/plain; charset=UTF-8\r\n", "User-agent: *\nDisallow: /p\n"),
		)
	}
	damaged := append(append(mixed("damaged.example"), "garbage between records\n"...), mixed("damaged2.example")...)
	inputs := []string{
		write("a.warc.gz", mixed("one.example")),
		filepath.Join(src, "b-missing.warc.gz"),
		write("c.warc.gz", mixed("three.example")),
		write("d.tar.gz", testTar(t)),
		write("e.warc.gz", damaged),
		// A Common Crawl path: its captures have a warc_segment.
		write("crawl-data/CC-MAIN-2025-05/segments/1736518059384.10/robotstxt/g.warc.gz", mixed("seven.example")),
	}
	dir := t.TempDir()
	cfg := Config{Dir: dir, Crawl: "nulls", Workers: 2, SegmentInputs: 1, PartCaptures: 3, PartBytes: 1}
	sum, err := Run(context.Background(), cfg, inputs)
	if err != nil || !sum.Published || sum.Failed != 1 {
		t.Fatalf("Run: %+v, %v", sum, err)
	}
	if n, _ := filepath.Glob(filepath.Join(dir, "captures", "crawl=nulls", "*.parquet")); len(n) < 2 {
		t.Fatalf("%d captures parts, want several", len(n))
	}
	db := testutil.DuckDB(t, dir)
	// Columns that this fixture cannot make NULL, and why.
	neverNull := map[string]bool{
		"captures.content_digest": true, // computed when the record has none
		// Readers keep http(s) URLs only, and make up one with a host for
		// tar entries and files: NULL only for a URL without a host.
		"captures.url_protocol": true,
		"captures.url_surtkey":  true,
		// NULL only in rows a rerun keeps from a partition written before
		// schema 2.1 (issue 27 item 7).
		"captures.payload_length_real": true,
	}
	// Columns where the zero value is a value, stored from a pointer: NULL
	// is nil.
	zeroIsValue := map[string]bool{
		"directives.group_index":       true, // 0: the first group
		"captures.payload_length_real": true, // 0: an empty body
	}
	tables, _ := os.ReadDir(dir)
	checked := 0
	for _, e := range tables {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		table := e.Name()
		glob := filepath.Join(dir, table, "**", "*.parquet")
		rows, err := db.Query(fmt.Sprintf("SELECT DISTINCT name FROM parquet_schema('%s') WHERE repetition_type = 'OPTIONAL' AND num_children IS NULL AND name <> 'element'", glob))
		if err != nil {
			t.Fatal(err)
		}
		var cols []string
		for rows.Next() {
			var c string
			rows.Scan(&c)
			cols = append(cols, c)
		}
		rows.Close()
		for _, col := range cols {
			checked++
			q := fmt.Sprintf("SELECT count(*) FILTER (%[1]s IS NULL) || ' ' || (count(%[1]s) > 0) || ' ' || "+
				"count(*) FILTER (CAST(%[1]s AS VARCHAR) IN ('', '0', '0001-01-01 00:00:00')) FROM %[2]s", col, table)
			var nulls, values, zeros string
			fmt.Sscan(testutil.Query(t, db, q), &nulls, &values, &zeros)
			name := table + "." + col
			if zeros != "0" && !zeroIsValue[name] {
				t.Errorf("%s: %s zero values stored instead of NULL", name, zeros)
			}
			if values != "true" {
				t.Errorf("%s: no value in the fixture", name)
			}
			if nulls == "0" && !neverNull[name] {
				t.Errorf("%s: no NULL in the fixture", name)
			}
		}
	}
	if checked < 11 {
		t.Errorf("%d optional columns checked, want every one (at least 11)", checked)
	}
	f := func(query, want string) {
		t.Helper()
		if got := testutil.Query(t, db, query); got != want {
			t.Errorf("%s\n got %s, want %s", query, got, want)
		}
	}
	f("SELECT string_agg(replace(input, '"+src+"', '') || '=' || (error IS NULL), ' ' ORDER BY input) FROM inputs",
		"/a.warc.gz=true /b-missing.warc.gz=false /c.warc.gz=true /crawl-data/CC-MAIN-2025-05/segments/1736518059384.10/robotstxt/g.warc.gz=true /d.tar.gz=true /e.warc.gz=true")
	f("SELECT count(*) FROM inputs WHERE error IS NULL", "5")
}
