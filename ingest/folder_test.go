package ingest

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
)

// A folder stands for its files: each is an input of its own, with its own
// inputs row and warc_filename, and a file no reader takes is skipped with
// its reason, not read as a body.
func TestRunFolderFilesAreInputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.example/robots.txt", []byte(robotsBody))
	write("b.example-robots.txt", []byte(robotsBody))
	write("README.md", []byte("# notes"))
	write("crawl.warc.gz", perRecord(t, ccFile("c.example")...))
	write("bodies.tar", makeTar(t))
	write(".hidden", []byte("x"))
	write("sub/block.warc.lz4", []byte{0x04, 0x22, 0x4d, 0x18, 0, 0})
	write("sub/robotstxt.paths.gz", gz(t, "crawl-data/x.warc.gz\n"))
	// A zstd dictionary: not a compression this package sniffs, binary.
	write("zstd-dictionary", []byte{0x37, 0xa4, 0x30, 0xec, 0xa4, 0x53, 0x7c, 0x01, 0x2f, 0x10, 0x00, 0x00, 0x00, 0x00, 0xc3, 0xa0})
	os.Symlink(filepath.Join(dir, "README.md"), filepath.Join(dir, "link"))

	out := t.TempDir()
	sum, err := Run(context.Background(), Config{Dir: out, Crawl: "folder", Workers: 2}, []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Failed != 0 || !sum.Published {
		t.Fatalf("summary %+v", sum)
	}
	db := testutil.DuckDB(t, out)
	rows := testutil.Query(t, db, `SELECT string_agg(substr(input, length(?) + 2) || '=' || captures || '/' || skipped_by_reason, ' ' ORDER BY input) FROM inputs`, dir)
	want := []string{
		"README.md=0/{\"not-body\":1}",
		"a.example/robots.txt=1/{}",
		"b.example-robots.txt=1/{}",
		"bodies.tar=4/{\"not-regular\":2}",
		"crawl.warc.gz=1/{\"request\":1,\"warcinfo\":1}",
		"link=0/{\"not-regular\":1}",
		"sub/block.warc.lz4=0/{\"unsupported\":1}",
		"sub/robotstxt.paths.gz=0/{\"manifest\":1}",
		"zstd-dictionary=0/{\"not-robots-txt\":1}",
	}
	if got := strings.Split(rows, " "); !slices.Equal(got, want) {
		t.Errorf("inputs:\n got %q\nwant %q", got, want)
	}
	// Each capture names its own file, never the folder: the captures of
	// each input are those with its warc_filename.
	if got := testutil.Query(t, db, "SELECT count(*) FROM inputs i WHERE captures <> (SELECT count(*) FROM captures c WHERE c.warc_filename = i.input)"); got != "0" {
		t.Errorf("%s inputs whose captures do not name them: %s", got, testutil.Query(t, db, "SELECT string_agg(DISTINCT warc_filename, ' ') FROM captures"))
	}
	if got := testutil.Query(t, db, "SELECT count(*) - count(DISTINCT capture_id) FROM captures"); got != "0" {
		t.Errorf("%s duplicate capture IDs", got)
	}
	if got := testutil.Query(t, db, "SELECT string_agg(url_host_name, ' ' ORDER BY url_host_name) FROM captures"); got != " 0002.com a.example b.example c.example example.com www.usda.gov" {
		t.Errorf("hosts %s", got)
	}
}

// Issue 27 item 1 and 4: in a folder of bodies named after their hosts, a
// name containing ".arc", ".warc" or ".tar" says nothing (each was taken
// for an archive and lost), and a gzip-compressed body is a body, read
// decompressed; gzip files of text are never "unsupported", and binary
// data once decompressed is not-robots-txt.
func TestRunFolderBodiesByTheirBytes(t *testing.T) {
	dir := t.TempDir()
	hosts := []string{"www.archives.gov", "www.arc.gov", "www.arctic.gov", "epa.maps.arcgis.com", "www.target.com", "www.tarot.com"}
	for _, h := range hosts {
		if err := os.WriteFile(filepath.Join(dir, h), []byte(robotsBody), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "shein.example-robots.txt"), gz(t, "User-agent: *\nDisallow: /compressed/\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "hi.gz"), gz(t, "hi\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "png.example"), gz(t, "\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00"), 0o644)

	out := t.TempDir()
	sum, err := Run(context.Background(), Config{Dir: out, Crawl: "bodies", Workers: 2}, []string{dir})
	if err != nil || sum.Failed != 0 || !sum.Published {
		t.Fatalf("summary %+v, err %v", sum, err)
	}
	db := testutil.DuckDB(t, out)
	want := slices.Concat(hosts, []string{"shein.example", "hi.gz"})
	slices.Sort(want)
	if got := testutil.Query(t, db, "SELECT string_agg(url_host_name, ' ' ORDER BY url_host_name) FROM captures WHERE url_host_name <> ''"); got != strings.Join(want, " ") {
		t.Errorf("hosts %s, want %s", got, strings.Join(want, " "))
	}
	if got := testutil.Query(t, db, "SELECT b.body FROM captures c JOIN bodies b USING (content_digest) WHERE url_host_name = 'shein.example'"); got != "User-agent: *\nDisallow: /compressed/\n" {
		t.Errorf("gzip body read as %q", got)
	}
	rows := testutil.Query(t, db, `SELECT string_agg(substr(input, length(?) + 2) || '=' || captures || '/' || skipped_by_reason, ' ' ORDER BY input) FROM inputs WHERE input LIKE '%.gz' OR input LIKE '%png%'`, dir)
	if rows != `hi.gz=1/{} png.example=0/{"not-robots-txt":1}` {
		t.Errorf("inputs %s", rows)
	}
}
