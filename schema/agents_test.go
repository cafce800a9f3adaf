package schema_test

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/parquet-go/parquet-go"

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
		}
		caps = append(caps, c)
		for j, a := range agents {
			host := c.host
			if i%97 == 5 {
				host = "bad\uFFFDhost.example"
			}
			rows = append(rows, schema.Agent{CaptureID: c.id, URLHostName: host, Agent: a, Named: c.named[j], Verdict: c.access[j].String(), Via: c.via[j].String()})
		}
	}
	return caps, rows
}

func writeAgents(t testing.TB, w io.Writer, agents []string, caps []agentCapture) {
	t.Helper()
	aw := schema.NewAgentsWriter(w, agents, schema.WithMetadata("robocensus.crawl", "test"))
	for _, c := range caps {
		if err := aw.Add(c.id, c.host, c.named, c.access, c.via); err != nil {
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
					"capture_id VARCHAR, url_host_name VARCHAR, agent VARCHAR, named BOOLEAN, verdict VARCHAR, via VARCHAR, crawl VARCHAR" {
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
	if err := aw.Add("x", "h", []bool{true}, []robots.Access{0, 1}, []robots.Via{0, 1}); err == nil {
		t.Error("Add with a short named list must fail")
	}
	if err := aw.Add("x", "h", []bool{true, false}, []robots.Access{0, 1}, nil); err == nil {
		t.Error("Add with a short via list must fail")
	}
	if err := aw.Close(); err != nil {
		t.Error(err)
	}
	if err := aw.Add("x", "h", []bool{true, false}, []robots.Access{0, 1}, []robots.Via{0, 1}); err != schema.ErrClosed {
		t.Errorf("Add after Close: %v", err)
	}
	if err := schema.NewAgentsWriter(io.Discard, nil).Close(); err == nil {
		t.Error("no agents must fail")
	}
}

// BenchmarkAgentsWriter writes the agents rows of 10,000 captures with 178
// crawlers, next to Writer[Agent] writing the same rows.
func BenchmarkAgentsWriter(b *testing.B) {
	agents := make([]string, 178)
	for i := range agents {
		agents[i] = fmt.Sprintf("Bot%d", i)
	}
	caps, rows := agentCases(10000, agents, 3)
	b.Run("impl=AgentsWriter", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			writeAgents(b, io.Discard, agents, caps)
		}
		b.ReportMetric(float64(len(rows))*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
	b.Run("impl=Writer", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			w := schema.NewWriter[schema.Agent](io.Discard)
			for i := 0; i < len(rows); i += 17800 {
				w.Write(rows[i:min(i+17800, len(rows))])
			}
			w.Close()
		}
		b.ReportMetric(float64(len(rows))*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
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
