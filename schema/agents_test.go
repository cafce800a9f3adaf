package schema_test

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/parquet-go/parquet-go"
	pqzstd "github.com/parquet-go/parquet-go/compress/zstd"

	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// agentCase builds the rows of n captures for the given crawlers, with
// hosts that repeat, invalid UTF-8 and every verdict, and returns them both
// as AgentsWriter arguments and as the rows a reader must return.
type agentCapture struct {
	id, host string
	named    []bool
	access   []robots.Access
	via      []robots.Via
	source   []robots.VerdictSource
	cancel   []bool
}

func agentCases(n int, agents []string, seed uint64) ([]agentCapture, []schema.Agent) {
	rng := rand.New(rand.NewPCG(seed, 7))
	var caps []agentCapture
	var rows []schema.Agent
	for i := range n {
		c := agentCapture{id: fmt.Sprintf("%024x", i), host: fmt.Sprintf("h%d.example", rng.IntN(n/3+1))}
		if i%97 == 5 {
			c.host = "bad\xffhost.example"
		}
		star := robots.Access(rng.IntN(3))
		starVia := []robots.Via{robots.ViaStar, robots.ViaNone}[rng.IntN(2)]
		for range agents {
			named := rng.IntN(20) == 0
			v, via := star, starVia
			if named {
				v, via = robots.Access(rng.IntN(3)), robots.ViaNamed
			} else if rng.IntN(30) == 0 {
				v, via = robots.Access(rng.IntN(3)), robots.ViaFallback
			}
			c.named, c.access, c.via = append(c.named, named), append(c.access, v), append(c.via, via)
			c.source, c.cancel = append(c.source, robots.VerdictSource(rng.IntN(4))), append(c.cancel, rng.IntN(25) == 0)
		}
		caps = append(caps, c)
		for j, a := range agents {
			host := c.host
			if i%97 == 5 {
				host = "bad\uFFFDhost.example"
			}
			rows = append(rows, schema.Agent{CaptureID: c.id, URLHostName: host, Agent: a, Named: c.named[j], Verdict: c.access[j].String(), Via: c.via[j].String(),
				Source: c.source[j].String(), Cancelled: c.cancel[j]})
		}
	}
	return caps, rows
}

func writeAgents(t testing.TB, w io.Writer, agents []string, caps []agentCapture) {
	t.Helper()
	aw := schema.NewAgentsWriter(w, agents, schema.WithMetadata("robocensus.crawl", "test"))
	for _, c := range caps {
		if err := aw.Add(c.id, c.host, c.named, c.access, c.via, c.source, c.cancel); err != nil {
			t.Fatal(err)
		}
	}
	if err := aw.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestAgentsWriterRoundTrip(t *testing.T) {
	tokens := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("Bot%d", i)
		}
		return out
	}
	for _, tc := range []struct{ captures, agents int }{
		{0, 3}, {1, 1}, {1, 178}, {5, 7}, {300, 178}, {9000, 2}, // 9000 captures: three row groups
	} {
		t.Run(fmt.Sprintf("captures=%d/agents=%d", tc.captures, tc.agents), func(t *testing.T) {
			agents := tokens(tc.agents)
			caps, want := agentCases(tc.captures, agents, uint64(tc.captures))
			dir := t.TempDir()
			path := filepath.Join(schema.PartitionDir(dir, "agents", "test"), schema.PartName(0))
			os.MkdirAll(filepath.Dir(path), 0o755)
			var buf bytes.Buffer
			writeAgents(t, &buf, agents, caps)
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := parquet.ReadFile[schema.Agent](path)
			if err != nil {
				t.Fatalf("parquet-go: %v", err)
			}
			if len(got) != len(want) || len(want) > 0 && !reflect.DeepEqual(got, want) {
				t.Fatalf("parquet-go read %d rows, want %d; first %+v", len(got), len(want), got[:min(3, len(got))])
			}
			if arrowRows := readArrowRows[schema.Agent](t, path); len(want) > 0 && !reflect.DeepEqual(arrowRows, normalize(want)) {
				t.Fatalf("Arrow read differs")
			}
			v, err := schema.ReadVersion(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
			if err != nil || v != schema.Version {
				t.Errorf("version %q, %v", v, err)
			}
			db := testutil.DuckDB(t, dir)
			if got := testutil.Query(t, db, "SELECT count(*) FROM agents"); got != fmt.Sprint(len(want)) {
				t.Errorf("DuckDB counts %s rows", got)
			}
			if tc.captures > 0 {
				wantNamed := 0
				for _, r := range want {
					if r.Named && r.Verdict == "disallowed" {
						wantNamed++
					}
				}
				if got := testutil.Query(t, db, "SELECT count(*) FROM agents WHERE named AND verdict = 'disallowed'"); got != fmt.Sprint(wantNamed) {
					t.Errorf("DuckDB: %s named and disallowed, want %d", got, wantNamed)
				}
				wantVia := map[string]int{}
				for _, r := range want {
					wantVia[r.Via]++
				}
				if got := testutil.Query(t, db, "SELECT string_agg(via || '=' || n, ' ' ORDER BY via) FROM (SELECT via, count(*) AS n FROM agents GROUP BY via)"); got != viaCounts(wantVia) {
					t.Errorf("DuckDB: via counts %s, want %s", got, viaCounts(wantVia))
				}
				if got := testutil.Query(t, db, "SELECT string_agg(column_name || ' ' || column_type, ', ') FROM (DESCRIBE agents)"); got !=
					"capture_id VARCHAR, url_host_name VARCHAR, agent VARCHAR, named BOOLEAN, verdict VARCHAR, via VARCHAR, source VARCHAR, cancelled BOOLEAN, crawl VARCHAR" {
					t.Errorf("DuckDB: %s", got)
				}
			}
		})
	}
}

// viaCounts formats via counts as the DuckDB query above does.
func viaCounts(m map[string]int) string {
	var out []string
	for _, v := range []string{"fallback", "named", "none", "star"} {
		if m[v] > 0 {
			out = append(out, fmt.Sprintf("%s=%d", v, m[v]))
		}
	}
	return strings.Join(out, " ")
}

// Writer[Agent] and AgentsWriter write the same table.
func TestAgentsWriterMatchesWriter(t *testing.T) {
	agents := []string{"GPTBot", "Googlebot", "CCBot"}
	caps, rows := agentCases(50, agents, 1)
	var fast, slow bytes.Buffer
	writeAgents(t, &fast, agents, caps)
	w := schema.NewWriter[schema.Agent](&slow)
	w.Write(rows)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	a, _ := parquet.Read[schema.Agent](bytes.NewReader(fast.Bytes()), int64(fast.Len()))
	b, _ := parquet.Read[schema.Agent](bytes.NewReader(slow.Bytes()), int64(slow.Len()))
	if !reflect.DeepEqual(a, b) || len(a) != 150 {
		t.Errorf("the two writers differ (%d and %d rows)", len(a), len(b))
	}
}

func TestAgentsWriterErrors(t *testing.T) {
	aw := schema.NewAgentsWriter(io.Discard, []string{"a", "b"})
	src, cancel := []robots.VerdictSource{0, 1}, []bool{false, true}
	if err := aw.Add("x", "h", []bool{true}, []robots.Access{0, 1}, []robots.Via{0, 1}, src, cancel); err == nil {
		t.Error("Add with a short named list must fail")
	}
	if err := aw.Add("x", "h", []bool{true, false}, []robots.Access{0, 1}, nil, src, cancel); err == nil {
		t.Error("Add with a short via list must fail")
	}
	if err := aw.Add("x", "h", []bool{true, false}, []robots.Access{0, 1}, []robots.Via{0, 1}, src, nil); err == nil {
		t.Error("Add with a short cancelled list must fail")
	}
	if err := aw.Close(); err != nil {
		t.Error(err)
	}
	if err := aw.Add("x", "h", []bool{true, false}, []robots.Access{0, 1}, []robots.Via{0, 1}, src, cancel); err != schema.ErrClosed {
		t.Errorf("Add after Close: %v", err)
	}
	if err := schema.NewAgentsWriter(io.Discard, nil).Close(); err == nil {
		t.Error("no agents must fail")
	}
}

// A capture ID that repeats in a row group (two captures given the same
// ID) is stored once in the dictionary: Arrow rebuilds a dictionary as a
// hash table, so a repeated value shifted every later index past the end
// (a crawl report panicked on such a file).
func TestAgentsWriterRepeatedCaptureID(t *testing.T) {
	agents := []string{"GPTBot", "CCBot"}
	caps, rows := agentCases(40, agents, 3)
	for i := range caps {
		if i%3 == 1 { // every third capture repeats the ID before it
			caps[i].id = caps[i-1].id
			rows[2*i].CaptureID, rows[2*i+1].CaptureID = caps[i].id, caps[i].id
		}
	}
	var buf bytes.Buffer
	writeAgents(t, &buf, agents, caps)
	r, err := schema.NewArrowReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()), schema.WithTable("agents"),
		schema.WithColumns("capture_id"), schema.WithDictionary("capture_id"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var got []string
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		d := rec.Column(0).(*array.Dictionary)
		vals := d.Dictionary().(*array.String)
		for i := range d.Len() {
			if j := d.GetValueIndex(i); j >= vals.Len() {
				t.Fatalf("row %d: index %d in a dictionary of %d", len(got), j, vals.Len())
			} else {
				got = append(got, vals.Value(j))
			}
		}
	}
	if len(got) != len(rows) {
		t.Fatalf("%d rows, want %d", len(got), len(rows))
	}
	for i, row := range rows {
		if got[i] != row.CaptureID {
			t.Fatalf("row %d: capture_id %q, want %q", i, got[i], row.CaptureID)
		}
	}
}

// benchAgentCaptures are the captures of the public-API benchmark: 20,000
// captures with every tracked crawler (robots.TrackedCrawlers), 3.5M rows with
// the 175 of today.
const benchAgentCaptures = 20_000

// realisticAgentCaptures builds n captures for the tracked crawlers as the
// ingest sees them: most files name no tracked crawler, so a capture's
// verdicts and vias are mostly those of its '*' group; a few crawlers are
// named (GPTBot, CCBot, ... more often than the rest), a few fall back on
// another token. Hosts repeat (several captures per host).
func realisticAgentCaptures(n int, agents []string, seed uint64) []agentCapture {
	rng := rand.New(rand.NewPCG(seed, 11))
	caps := make([]agentCapture, n)
	for i := range caps {
		c := agentCapture{id: fmt.Sprintf("%024x", rng.Uint64()), host: fmt.Sprintf("www.h%d.example", rng.IntN(n/2+1))}
		star := []robots.Access{robots.AccessAllowed, robots.AccessAllowed, robots.AccessAllowed, robots.AccessPartial, robots.AccessPartial, robots.AccessDisallowed}[rng.IntN(6)]
		starVia := robots.ViaStar
		if rng.IntN(5) == 0 {
			starVia, star = robots.ViaNone, robots.AccessAllowed
		}
		namesSome := rng.IntN(4) == 0 // a quarter of the files name tracked crawlers
		c.named, c.access, c.via = make([]bool, len(agents)), make([]robots.Access, len(agents)), make([]robots.Via, len(agents))
		c.source, c.cancel = make([]robots.VerdictSource, len(agents)), make([]bool, len(agents))
		for j := range agents {
			v, via, named := star, starVia, false
			if namesSome && (j < 20 && rng.IntN(3) == 0 || rng.IntN(60) == 0) {
				v, via, named = []robots.Access{robots.AccessDisallowed, robots.AccessDisallowed, robots.AccessAllowed, robots.AccessPartial}[rng.IntN(4)], robots.ViaNamed, true
			} else if namesSome && rng.IntN(40) == 0 {
				v, via = robots.AccessDisallowed, robots.ViaFallback
			}
			c.named[j], c.access[j], c.via[j] = named, v, via
			if v == robots.AccessDisallowed {
				c.source[j] = robots.SourceSite
			}
		}
		caps[i] = c
	}
	return caps
}

// writeAgentsPublic writes caps with the public API, as the ingest would
// without AgentsWriter: the rows of some captures at a time turned into
// schema.Agent rows (buf is reused) and given to Writer[Agent], which is
// parquet.GenericWriter[Agent] with the dataset's options (zstd fastest,
// the dictionary columns of the struct tags).
func writeAgentsPublic(tb testing.TB, w io.Writer, agents []string, caps []agentCapture, buf *[]schema.Agent) {
	tb.Helper()
	pw := schema.NewWriter[schema.Agent](w, schema.WithMetadata("robocensus.crawl", "test"))
	agentRowBatches(tb, agents, caps, buf, pw.Write, pw.Close)
}

// agentRowBatches turns the rows of 100 captures at a time (about what a
// worker hands over) into schema.Agent rows in *buf, gives them to write,
// and closes the writer.
func agentRowBatches(tb testing.TB, agents []string, caps []agentCapture, buf *[]schema.Agent, write func([]schema.Agent) (int, error), close func() error) {
	const batch = 100
	for i := 0; i < len(caps); i += batch {
		rows := (*buf)[:0]
		for _, c := range caps[i:min(i+batch, len(caps))] {
			for j, a := range agents {
				rows = append(rows, schema.Agent{CaptureID: c.id, URLHostName: c.host, Agent: a, Named: c.named[j],
					Verdict: c.access[j].String(), Via: c.via[j].String(), Source: c.source[j].String(), Cancelled: c.cancel[j]})
			}
		}
		if _, err := write(rows); err != nil {
			tb.Fatal(err)
		}
		*buf = rows
	}
	if err := close(); err != nil {
		tb.Fatal(err)
	}
}

// writeAgentsPublicTuned is writeAgentsPublic at its best: straight to
// parquet.GenericWriter[Agent] (the strings are valid UTF-8 already, so
// Writer's repair is skipped), no min/max bounds on any column (AgentsWriter
// writes none), and row groups of AgentsWriter's size. The rest is the
// dataset's options: zstd fastest, version 1 data pages, 1 MiB pages and
// dictionaries.
func writeAgentsPublicTuned(tb testing.TB, w io.Writer, agents []string, caps []agentCapture, buf *[]schema.Agent) {
	tb.Helper()
	opts := []parquet.WriterOption{
		parquet.Compression(&pqzstd.Codec{Level: pqzstd.SpeedFastest}),
		parquet.MaxRowsPerRowGroup(int64(2048 * len(agents))),
		parquet.PageBufferSize(schema.DefaultPageBufferSize),
		parquet.DictionaryMaxBytes(schema.DefaultDictionaryMaxBytes),
		parquet.DataPageVersion(1),
		parquet.KeyValueMetadata(schema.VersionKey, schema.Version),
		parquet.KeyValueMetadata(schema.TableKey, "agents"),
		parquet.KeyValueMetadata("robocensus.crawl", "test"),
	}
	for _, col := range []string{"capture_id", "url_host_name", "agent", "named", "verdict", "via"} {
		opts = append(opts, parquet.SkipPageBounds(col))
	}
	pw := parquet.NewGenericWriter[schema.Agent](w, opts...)
	agentRowBatches(tb, agents, caps, buf, pw.Write, pw.Close)
}

// countWriter counts the bytes of a file written to it, keeping none.
type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

func trackedTokens() []string {
	crawlers := robots.TrackedCrawlers()
	agents := make([]string, len(crawlers))
	for i, c := range crawlers {
		agents[i] = c.Token
	}
	return agents
}

// BenchmarkAgentsWriterVsPublic writes the agents table of 20,000
// captures (3.5M rows with the 175 tracked crawlers of today) with
// AgentsWriter and with the public API: Writer[Agent] as the dataset
// configures it (impl=public) and parquet.GenericWriter[Agent] at its best
// (impl=public-tuned). Each of the impl= sub-benchmarks reports ns/row and
// the file's size; impl=both writes the same rows with all three in each
// iteration and reports the ratios (public / AgentsWriter) of time,
// allocated bytes, allocations and file size, measured in the same run. The figures are in AgentsWriter's doc
// comment:
//
//	go test ./schema -run '^$' -bench AgentsWriterVsPublic -benchtime 3x -count 5
func BenchmarkAgentsWriterVsPublic(b *testing.B) {
	agents := trackedTokens()
	caps := realisticAgentCaptures(benchAgentCaptures, agents, 1)
	rows := float64(len(caps) * len(agents))
	var buf []schema.Agent
	fast := func() int64 {
		var cw countWriter
		writeAgents(b, &cw, agents, caps)
		return cw.n
	}
	public := func() int64 {
		var cw countWriter
		writeAgentsPublic(b, &cw, agents, caps, &buf)
		return cw.n
	}
	tuned := func() int64 {
		var cw countWriter
		writeAgentsPublicTuned(b, &cw, agents, caps, &buf)
		return cw.n
	}
	for _, impl := range []struct {
		name  string
		write func() int64
	}{{"AgentsWriter", fast}, {"public", public}, {"public-tuned", tuned}} {
		b.Run("impl="+impl.name, func(b *testing.B) {
			b.ReportAllocs()
			var size int64
			for b.Loop() {
				size = impl.write()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/rows/float64(b.N), "ns/row")
			b.ReportMetric(float64(size), "file-bytes")
		})
	}
	b.Run("impl=both", func(b *testing.B) {
		var dt [3]time.Duration
		var alloc, mallocs, size [3]float64
		var m0, m1 runtime.MemStats
		for b.Loop() {
			for k, write := range []func() int64{fast, public, tuned} {
				runtime.ReadMemStats(&m0)
				t := time.Now()
				n := write()
				dt[k] += time.Since(t)
				runtime.ReadMemStats(&m1)
				alloc[k] += float64(m1.TotalAlloc - m0.TotalAlloc)
				mallocs[k] += float64(m1.Mallocs - m0.Mallocs)
				size[k] = float64(n)
			}
		}
		b.ReportMetric(float64(dt[1])/float64(dt[0]), "time-ratio")
		b.ReportMetric(alloc[1]/alloc[0], "alloc-bytes-ratio")
		b.ReportMetric(mallocs[1]/mallocs[0], "allocs-ratio")
		b.ReportMetric(size[1]/size[0], "size-ratio")
		b.ReportMetric(float64(dt[2])/float64(dt[0]), "tuned-time-ratio")
		b.ReportMetric(alloc[2]/alloc[0], "tuned-alloc-bytes-ratio")
		b.ReportMetric(size[2]/size[0], "tuned-size-ratio")
		b.ReportMetric(float64(dt[0].Nanoseconds())/rows/float64(b.N), "AgentsWriter-ns/row")
		b.ReportMetric(float64(dt[1].Nanoseconds())/rows/float64(b.N), "public-ns/row")
		b.ReportMetric(float64(dt[2].Nanoseconds())/rows/float64(b.N), "tuned-ns/row")
	})
}

func mustRead(t *testing.T, b []byte) []schema.Agent {
	rows, err := parquet.Read[schema.Agent](bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// The benchmark's writers write the same rows, which DuckDB reads
// with the same column types.
func TestAgentsWriterVsPublicSameRows(t *testing.T) {
	agents := trackedTokens()
	caps := realisticAgentCaptures(3000, agents, 2) // two row groups of AgentsWriter, five of Writer
	var fast, public, tuned bytes.Buffer
	var buf []schema.Agent
	writeAgents(t, &fast, agents, caps)
	writeAgentsPublic(t, &public, agents, caps, &buf)
	writeAgentsPublicTuned(t, &tuned, agents, caps, &buf)
	pt, err := parquet.Read[schema.Agent](bytes.NewReader(tuned.Bytes()), int64(tuned.Len()))
	if err != nil || !reflect.DeepEqual(pt, mustRead(t, public.Bytes())) {
		t.Fatalf("the tuned public writer differs (%d rows, %v)", len(pt), err)
	}
	a, err := parquet.Read[schema.Agent](bytes.NewReader(fast.Bytes()), int64(fast.Len()))
	if err != nil {
		t.Fatal(err)
	}
	p, err := parquet.Read[schema.Agent](bytes.NewReader(public.Bytes()), int64(public.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(caps)*len(agents) || len(a) != len(p) {
		t.Fatalf("%d and %d rows, want %d", len(a), len(p), len(caps)*len(agents))
	}
	for i := range a {
		if a[i] != p[i] {
			t.Fatalf("row %d: %+v and %+v", i, a[i], p[i])
		}
	}
	dir := t.TempDir()
	var paths [2]string
	for k, b := range [][]byte{fast.Bytes(), public.Bytes()} {
		paths[k] = filepath.Join(dir, fmt.Sprintf("%d.parquet", k))
		if err := os.WriteFile(paths[k], b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := testutil.DuckDB(t, dir)
	types := `SELECT string_agg(column_name || ' ' || column_type, ', ') FROM (DESCRIBE SELECT * FROM read_parquet('%s'))`
	if ta, tp := testutil.Query(t, db, fmt.Sprintf(types, paths[0])), testutil.Query(t, db, fmt.Sprintf(types, paths[1])); ta != tp ||
		ta != "capture_id VARCHAR, url_host_name VARCHAR, agent VARCHAR, named BOOLEAN, verdict VARCHAR, via VARCHAR, source VARCHAR, cancelled BOOLEAN" {
		t.Errorf("DuckDB column types: %s and %s", ta, tp)
	}
	for _, q := range []string{
		`SELECT count(*) FROM (SELECT * FROM read_parquet('%[1]s') EXCEPT ALL SELECT * FROM read_parquet('%[2]s'))`,
		`SELECT count(*) FROM (SELECT * FROM read_parquet('%[2]s') EXCEPT ALL SELECT * FROM read_parquet('%[1]s'))`,
	} {
		if n := testutil.Query(t, db, fmt.Sprintf(q, paths[0], paths[1])); n != "0" {
			t.Errorf("%s: %s rows", q, n)
		}
	}
}
