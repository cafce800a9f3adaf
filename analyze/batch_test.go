package analyze_test

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/robocensus/robocensus/analyze"
	"github.com/robocensus/robocensus/schema"
)

// batchedDataset writes a crawl made so that every merge across host
// batches matters when the ranked lists hold 3 entries:
//
//   - bodies served by 12, 7, 7 and 7 hosts (sha1:A to sha1:D): the list
//     holds A, then B and C of the three tied at 7 (by digest);
//   - three hosts whose names sort first serve an HTML page with 200
//     under digest sha1:A: not-robots, not usable, so neither counted nor
//     sampled;
//   - farm hosts with a later redirect capture, which does not decide;
//   - six hosts with the same errors and warnings, tied in the worst hosts;
//   - hosts disallowing every AI crawler, naming some, or none.
func batchedDataset(dir string, opts ...schema.WriterOption) error {
	agents := []string{"Googlebot", "GPTBot", "CCBot"}
	var p partition
	n := 0
	add := func(host string, status int, body, digest string, at time.Time) {
		n++
		p.site(fmt.Sprintf("c%03d", n), host, status, body, at, agents...)
		p.captures[len(p.captures)-1].ContentDigest = digest
	}
	farm := func(digest string, hosts int) {
		body := "User-agent: *\nDisallow: /" + digest[5:] + "/\n"
		for i := range hosts {
			host := fmt.Sprintf("farm-%s-%02d.example", digest[5:], i)
			add(host, 200, body, digest, fetched)
			if i%3 == 0 {
				add(host, 301, "", "", fetched.Add(time.Hour))
			}
		}
	}
	farm("sha1:A", 12)
	for _, d := range []string{"sha1:D", "sha1:C", "sha1:B"} {
		farm(d, 7)
	}
	for i := range 3 {
		add(fmt.Sprintf("a-html-%d.example", i), 200, "<html><body>Not found</body></html>\n", "sha1:A", fetched)
	}
	for i := range 6 {
		add(fmt.Sprintf("worst-%d.example", i), 200, "User-agent: *\nDisalow: /x\nfoo bar baz\nDisallow: tmp\n", "sha1:W"+fmt.Sprint(i), fetched)
	}
	for i := range 9 {
		body := []string{
			"User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n",
			"User-agent: GPTBot\nDisallow: /\n",
			"User-agent: *\nDisallow: /\n",
		}[i%3]
		add(fmt.Sprintf("ai-%d.example", i), 200, body, "sha1:I"+fmt.Sprint(i), fetched.Add(-time.Duration(i)*time.Hour))
	}
	return p.write(dir, "CC-MAIN-2025-05", opts...)
}

// TestHostBatches checks that the crawl report is the same whatever the
// number of host batches, from one to more batches than hosts, and that the
// Arrow memory of every pass is freed.
func TestHostBatches(t *testing.T) {
	dir := t.TempDir()
	if err := batchedDataset(dir); err != nil {
		t.Fatal(err)
	}
	var want []byte
	for _, batches := range []int{1, 2, 3, 5, 8, 64} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		_, r := openReport(t, dir, analyze.WithHostBatches(batches), analyze.WithTop(3), analyze.WithAllocator(mem))
		mem.AssertSize(t, 0)
		var b bytes.Buffer
		if err := r.Write(&b, analyze.JSON, "batches"); err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = b.Bytes()
			checkBatchedFacts(t, r.Crawls[0])
			continue
		}
		if !bytes.Equal(b.Bytes(), want) {
			t.Errorf("%d host batches: the report differs from the one with 1\n%s", batches, b.String())
		}
	}

	// The same rows in row groups of 5: workers share out the row groups
	// of each file, in any order, and the report is the same.
	dir = t.TempDir()
	if err := batchedDataset(dir, schema.WithRowGroupRows(5)); err != nil {
		t.Fatal(err)
	}
	for _, opts := range [][]analyze.Option{{analyze.WithWorkers(1)}, {analyze.WithWorkers(4)}, {analyze.WithWorkers(3), analyze.WithHostBatches(3)}} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		_, r := openReport(t, dir, append(opts, analyze.WithTop(3), analyze.WithAllocator(mem))...)
		mem.AssertSize(t, 0)
		var b bytes.Buffer
		if err := r.Write(&b, analyze.JSON, "batches"); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), want) {
			t.Errorf("row groups of 5 rows, options %d: the report differs\n%s", len(opts), b.String())
		}
	}
}

// checkBatchedFacts checks the facts batchedDataset was made for, so that
// equal reports are not equally wrong.
func checkBatchedFacts(t *testing.T, c *analyze.Crawl) {
	t.Helper()
	var farms []string
	for _, f := range c.SharedBodies.Top {
		farms = append(farms, fmt.Sprint(f.Digest, " ", f.Hosts, " ", f.Sample[0], " ", len(f.Sample)))
	}
	wantFarms := []string{"sha1:A 12 farm-A-00.example 5", "sha1:B 7 farm-B-00.example 5", "sha1:C 7 farm-C-00.example 5"}
	if !slices.Equal(farms, wantFarms) || c.SharedBodies.Bodies != 4 {
		t.Errorf("farms %q (%d shared), want %q (4)", farms, c.SharedBodies.Bodies, wantFarms)
	}
	var worst []string
	for _, w := range c.WorstHosts {
		worst = append(worst, w.Host)
	}
	if want := []string{"worst-0.example", "worst-1.example", "worst-2.example"}; !slices.Equal(worst, want) || len(c.WorstHosts[0].Codes) == 0 {
		t.Errorf("worst hosts %q, want %q with codes", worst, want)
	}
	ai := c.Crawlers
	if ai.EveryAIDisallowed.N != 6 || ai.AnyAINamed.N != 6 || c.Hosts != 51 || c.Captures != 64 {
		t.Errorf("every AI crawler disallowed by %d hosts, AI named by %d, %d hosts, %d captures; want 6, 6, 51, 64",
			ai.EveryAIDisallowed.N, ai.AnyAINamed.N, c.Hosts, c.Captures)
	}
}
