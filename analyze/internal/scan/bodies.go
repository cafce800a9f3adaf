package scan

import (
	"context"
	"strings"
	"sync"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
)

// bodyBatch is the batch size used to read the body column: at most this
// many bodies of up to 500 KiB each are decoded at once.
const bodyBatch = 64

// findBodies returns the texts of the given payload digests that the
// bodies table of a crawl holds. Each file's digest column is read first;
// the body column only of files holding a wanted digest.
func (d *Dataset) FindBodies(ctx context.Context, crawl string, digests []string) (map[string]string, error) {
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
		spec := Spec{Table: "bodies", Columns: []string{"content_digest", "body"}, batch: bodyBatch}
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
	spec := Spec{Table: "bodies", Columns: []string{"content_digest"}}
	err := d.scanFile(ctx, name, spec, func(rec arrow.Record) error {
		dg, err := Column[*array.String](rec, "content_digest")
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
	cs := Columns{Rec: rec}
	dg, body := cs.Str("content_digest"), cs.Str("body")
	if cs.Err != nil {
		return cs.Err
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
