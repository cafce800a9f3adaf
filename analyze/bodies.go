package analyze

import (
	"context"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"

	"github.com/robocensus/robocensus/robots"
)

// bodyBatch is the batch size used to read the body column: at most this
// many bodies of up to 500 KiB each are decoded at once.
const bodyBatch = 64

// findBodies returns the texts of the given payload digests that the
// bodies table of a crawl holds. Each file's digest column is read first;
// the body column only of files holding a wanted digest.
func (d *Dataset) findBodies(ctx context.Context, crawl string, digests []string) (map[string]string, error) {
	found := map[string]string{}
	if len(digests) == 0 {
		return found, nil
	}
	want := map[string]bool{}
	for _, dg := range digests {
		want[dg] = true
	}
	files, err := d.files("bodies", crawl)
	if err != nil {
		return nil, err
	}
	var mu sync.Mutex
	for _, name := range files {
		hit, err := d.fileHasDigest(ctx, name, want)
		if err != nil || !hit {
			if err != nil {
				return nil, err
			}
			continue
		}
		spec := scanSpec{table: "bodies", columns: []string{"payload_digest", "body"}, batch: bodyBatch}
		err = d.scanFile(ctx, name, spec, func(rec arrow.Record) error {
			mu.Lock()
			defer mu.Unlock()
			return collectBodies(rec, want, found)
		})
		if err != nil {
			return nil, err
		}
	}
	return found, nil
}

// fileHasDigest reports whether a bodies file holds one of the digests.
func (d *Dataset) fileHasDigest(ctx context.Context, name string, want map[string]bool) (bool, error) {
	hit := false
	spec := scanSpec{table: "bodies", columns: []string{"payload_digest"}}
	err := d.scanFile(ctx, name, spec, func(rec arrow.Record) error {
		dg, err := column[*array.String](rec, "payload_digest")
		if err != nil {
			return err
		}
		for i := range dg.Len() {
			hit = hit || want[dg.Value(i)]
		}
		return nil
	})
	return hit, err
}

func collectBodies(rec arrow.Record, want map[string]bool, found map[string]string) error {
	cs := columnSet{rec: rec}
	dg, body := cs.str("payload_digest"), cs.str("body")
	if cs.err != nil {
		return cs.err
	}
	for i := range dg.Len() {
		if k := dg.Value(i); want[k] {
			if _, ok := found[k]; !ok {
				found[strings.Clone(k)] = strings.Clone(body.Value(i))
			}
		}
	}
	return nil
}

// headLines is the number of lines of a shared body shown.
const headLines = 4

// maxShownLine is the most bytes of a line the report shows.
const maxShownLine = 160

// bodiesPass fills the line counts and first lines of the shared bodies.
func (s *crawlState) bodiesPass(ctx context.Context) error {
	top := s.out.Farms.Top
	digests := make([]string, len(top))
	for i, f := range top {
		digests[i] = f.Digest
	}
	texts, err := s.d.findBodies(ctx, s.label, digests)
	if err != nil {
		return err
	}
	for i := range top {
		if text, ok := texts[top[i].Digest]; ok {
			top[i].Lines, top[i].Head = head(text)
		}
	}
	return nil
}

// head returns the number of lines of a robots.txt text, as the engine
// counts them, and its first lines that are not blank.
func head(text string) (int, []string) {
	f := robots.ParseString(text)
	out := []string{}
	for l := range f.Lines() {
		if len(out) == headLines {
			break
		}
		if strings.TrimSpace(l.Text) != "" {
			out = append(out, clip(l.Text, maxShownLine))
		}
	}
	return f.Stats.Lines, out
}

// clip cuts s to at most n bytes at a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 { // do not split a UTF-8 sequence
		cut--
	}
	return s[:cut] + "…"
}

// sortedKeys returns the keys of m, sorted.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
