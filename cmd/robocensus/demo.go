package main

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/robocensus/robocensus/ingest"
	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/internal/sysmem"
)

var demoCmd = &Command{
	Name:  "demo",
	Usage: "demo [-o DIR]",
	Short: "ingest the built-in sample corpus and summarise it",
	Long: `
Demo writes the sample corpus built into the binary (made-up robots.txt
fetches of some thirty sites: clean files, typos, HTML served as robots.txt,
redirects, 404s, 5xx, AI-crawler blocks, an oversize file, ...) as a Common
Crawl style robotstxt WARC, ingests it into DIR (default: a temporary
folder, removed afterwards) and summarises the dataset. It needs no network
and no files.`,
	Flags: func(fs *flag.FlagSet) func(*Env, []string) int {
		out := fs.String("o", "", "keep the WARC and the dataset in `DIR`")
		return func(env *Env, args []string) int {
			if len(args) > 0 {
				env.errorf("demo: takes no arguments")
				return exitUsage
			}
			return demo(env, *out)
		}
	},
}

//go:embed sample/captures.txt
var sampleCaptures string

// sampleTime is the fetch time of the sample captures.
var sampleTime = time.Date(2025, 1, 13, 4, 5, 6, 0, time.UTC)

func demo(env *Env, dir string) int {
	if dir == "" {
		tmp, err := os.MkdirTemp("", "robocensus-demo-")
		if err != nil {
			env.errorf("demo: %v", err)
			return exitFailure
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	warc := filepath.Join(dir, "sample", "crawl-data", "CC-MAIN-2025-05", "segments", "1736518059384.10", "robotstxt", "CC-MAIN-sample-00000.warc.gz")
	if err := writeSampleWARC(warc); err != nil {
		env.errorf("demo: %v", err)
		return exitFailure
	}
	fmt.Fprintf(env.Stdout, "sample corpus: %s\n", warc)
	cfg := ingest.Config{Dir: filepath.Join(dir, "dataset"), Crawl: "CC-MAIN-2025-05", Logger: newLogger(env.Stderr, false, true)}
	inputs := []string{warc}
	bound := chooseMemory(0, sysmem.Available(), func(m sysmem.Memory) memoryBound { return ingestMemory(cfg, inputs, m) })
	if code := runIngest(env, cfg, inputs, bound); code != exitOK {
		return code
	}
	return demoReport(env, dir, cfg.Dir)
}

// writeSampleWARC writes the sample fetches as one WARC file.
func writeSampleWARC(path string) error {
	fetches, err := sampleFetches()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	var buf bytes.Buffer
	w, err := archive.NewWARCWriter(&buf, filepath.Base(path))
	if err != nil {
		return err
	}
	for _, f := range fetches {
		if err := w.WriteCapture(f); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// sampleFetches reads the embedded sample: sections
// "-- URL STATUS [Content-Type] [-> LOCATION] --" each followed by a body,
// then the fetches whose bytes a text file cannot hold.
func sampleFetches() ([]archive.Fetch, error) {
	var out []archive.Fetch
	sections := strings.Split("\n"+sampleCaptures, "\n-- ")[1:]
	for i, sec := range sections {
		head, body, _ := strings.Cut(sec, "\n")
		f, err := parseSampleHead(strings.TrimSuffix(head, " --"))
		if err != nil {
			return nil, fmt.Errorf("sample section %d: %w", i+1, err)
		}
		f.Body = []byte(body)
		f.Time = sampleTime.Add(time.Duration(i) * time.Minute)
		if strings.Contains(f.URL, "crlf.") {
			f.Body = bytes.ReplaceAll(f.Body, []byte("\n"), []byte("\r\n"))
		}
		out = append(out, f)
	}
	return append(out, generatedFetches()...), nil
}

func parseSampleHead(head string) (archive.Fetch, error) {
	head, location, _ := strings.Cut(head, " -> ")
	fields := strings.Fields(head)
	if len(fields) < 2 {
		return archive.Fetch{}, fmt.Errorf("bad header %q", head)
	}
	status, err := strconv.Atoi(fields[1])
	if err != nil {
		return archive.Fetch{}, fmt.Errorf("bad status in %q", head)
	}
	return archive.Fetch{URL: fields[0], Status: status, ContentType: strings.Join(fields[2:], " "), Location: location}, nil
}

// generatedFetches are the sample's byte-level cases: a byte order mark, a
// legacy encoding, a gzip body served unasked, and an oversize file.
func generatedFetches() []archive.Fetch {
	at := sampleTime.Add(time.Hour)
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write([]byte("User-agent: *\nDisallow: /compressed/\n"))
	zw.Close()
	var big strings.Builder
	big.WriteString("User-agent: *\nDisallow: /first/\n")
	for i := 0; big.Len() < 600<<10; i++ {
		fmt.Fprintf(&big, "Disallow: /generated/page-%06d.html\n", i)
	}
	big.WriteString("Disallow: /after-the-limit/\n")
	return []archive.Fetch{
		{URL: "https://bom.example/robots.txt", Time: at, ContentType: "text/plain", Body: []byte("\xEF\xBB\xBFUser-agent: *\nDisallow: /bom/\n")},
		{URL: "https://latin1.example/robots.txt", Time: at, ContentType: "text/plain; charset=iso-8859-1", Body: []byte("User-agent: *\nDisallow: /caf\xe9/\n")},
		{URL: "https://gzipped.example/robots.txt", Time: at, ContentType: "application/octet-stream", Body: zipped.Bytes()},
		{URL: "https://huge.example/robots.txt", Time: at, ContentType: "text/plain", Body: []byte(big.String())},
	}
}
