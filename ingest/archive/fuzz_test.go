package archive

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
)

// maxSeed bounds the corpus files used as fuzz seeds.
const maxSeed = 16 << 10

// corpusSeeds adds the shared corpus's files whose name ends in one of the
// suffixes (matched on the whole name, so ".warc.gz.open" and ".arc" are
// found) and that are small enough. Without the corpus only the built-in
// seeds are used.
func corpusSeeds(f *testing.F, suffixes ...string) {
	files, _ := filepath.Glob(filepath.Join(testutil.CorpusDir(), "warc", "*", "*"))
	for _, p := range files {
		name := filepath.Base(p)
		match := false
		for _, s := range suffixes {
			match = match || strings.HasSuffix(name, s)
		}
		if fi, err := os.Stat(p); !match || err != nil || fi.Size() > maxSeed {
			continue
		}
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
}

// fuzzLimits keep allocations small whatever the input says.
var fuzzLimits = []Option{WithMaxBody(MinMaxBody), WithMaxRecordBytes(MinMaxBody), WithMaxHeaderBytes(MinMaxHeaderBytes), WithMaxHeaders(MinMaxHeaders)}

// checkFuzzRead reads r to its end and checks the properties every input
// must keep: no panic, the invariant, a sticky error, bodies within the cap,
// Bytes within the input.
func checkFuzzRead(t *testing.T, r CaptureReader, size int) {
	var n int
	for {
		c, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if _, again := r.Next(); again != err {
				t.Fatalf("error does not stick: %v then %v", err, again)
			}
			return
		}
		if len(c.Body) > MinMaxBody || c.BodySize < int64(len(c.Body)) || c.Source.Length < 0 || c.Source.Offset < 0 {
			t.Fatalf("capture out of bounds: len %d size %d source %+v", len(c.Body), c.BodySize, c.Source)
		}
		if n++; n > size+1 {
			t.Fatalf("more captures (%d) than input bytes (%d)", n, size)
		}
	}
	cn := r.Counts()
	if cn.Records != cn.Captures+cn.SkippedTotal() {
		t.Fatalf("invariant: records %d captures %d skipped %v", cn.Records, cn.Captures, cn.Skipped)
	}
	if cn.Bytes > int64(size) {
		t.Fatalf("consumed %d bytes of %d", cn.Bytes, size)
	}
}

// FuzzWARCReader feeds WARC and ARC data, plain and compressed, to the
// WARC reader (both modes) and the ARC reader.
func FuzzWARCReader(f *testing.F) {
	f.Add([]byte(robots200("a.example", robotsBody)))
	f.Add(perRecord(f, ccFile("a.example", "b.example")...))
	f.Add([]byte(response("https://a.example/robots.txt", "HTTP/1.1 200 OK", "Transfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n", chunk(string(gz(f, robotsBody))))))
	f.Add(zstdWARC(&testing.T{}, nil, false, ccFile("a.example")...))
	corpusSeeds(f, ".warc", ".warc.gz", ".warc.gz.open", ".arc", ".arc.gz", ".bad")
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, m := range []Mode{ModeGeneral, ModeRobotstxt} {
			r, err := NewWARCReader(bytes.NewReader(data), "fuzz.warc", append(fuzzLimits, WithMode(m))...)
			if err != nil {
				t.Fatal(err)
			}
			checkFuzzRead(t, r, len(data))
		}
		a, err := NewARCReader(bytes.NewReader(data), "fuzz.arc", append(fuzzLimits, WithMode(ModeRobotstxt))...)
		if err != nil {
			t.Fatal(err)
		}
		checkFuzzRead(t, a, len(data))
	})
}

// FuzzTarReader feeds tar archives, plain and compressed, to the tar
// reader.
func FuzzTarReader(f *testing.F) {
	plain := makeTar(f)
	f.Add(plain)
	f.Add(gz(f, string(plain)))
	f.Add(plain[:700])
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewTarReader(bytes.NewReader(data), "fuzz.tar", fuzzLimits...)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		checkFuzzRead(t, r, 1<<30) // a tar.gz may hold more entries than bytes
	})
}
