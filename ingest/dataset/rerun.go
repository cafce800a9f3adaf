package dataset

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// Reruns of a published crawl.
//
// A run that ends with failed inputs publishes the crawl all the same, the
// failures recorded in the inputs table. Running it again (without
// Config.Fresh) reads only what that partition lacks: the inputs that
// failed there, and inputs it does not have. The rows of the inputs read
// to their end (error NULL) are kept: before reading anything, the run
// copies them from the published partition into a committed segment of
// its work folder (a "kept" segment), leaving out the rows of every other
// input (the partial captures of a failed input, which is read again, and
// their diagnostics, rules, sitemaps, agents and bodies). The run then
// goes on as the resume of an interrupted run whose kept segment holds
// those inputs, and publishes a partition with the rows a single clean run
// would have written: capture IDs depend only on the input and the record.
//
// A shard keeps the inputs of its own share, so a sharded rerun needs every
// shard to run again, as the first run did. The copy is made only when the
// shard has no committed segment yet: a rerun interrupted after it resumes
// from its segments, and a work folder left by a run that crashed after
// publishing already holds every input.

// keptSegment marks the manifest of a segment copied from the published
// partition.
const keptSegment = "kept"

// PublishedInputs reads the inputs table of the published partition of
// crawl; nil when there is none.
func PublishedInputs(root, crawl string) ([]schema.Input, error) {
	files, err := filepath.Glob(filepath.Join(schema.PartitionDir(root, schema.TableName[schema.Input](), crawl), "*.parquet"))
	if err != nil || len(files) == 0 {
		return nil, err
	}
	var rows []schema.Input
	for _, f := range files {
		err := eachRow(f, func(r *schema.Input) error {
			rows = append(rows, *r)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// upToDate reports whether the published partition is what a run over all
// would publish: the same inputs, every one read to its end.
func upToDate(published []schema.Input, all []string) bool {
	if len(published) != len(all) {
		return false
	}
	for _, row := range published {
		if row.Error != "" || !slices.Contains(all, row.Input) {
			return false
		}
	}
	return true
}

// keepPublished copies the rows of the inputs of the run (and of its
// shard) that the published partition has read to their end into a
// committed segment, unless the shard already has committed segments. It
// returns the number of inputs kept.
func (w *Work) keepPublished(published []schema.Input, all []string, crawlers []robots.Crawler) (int, error) {
	segs, err := w.Committed()
	if err != nil {
		return 0, err
	}
	if resumed, kept := ShardSegments(segs, w.shard); resumed {
		return kept, nil
	}
	run := map[string]bool{}
	for _, in := range all {
		run[in] = w.shard.Has(in)
	}
	var kept []schema.Input
	keep := map[string]bool{}
	for _, row := range published {
		if row.Error == "" && run[row.Input] {
			kept = append(kept, row)
			keep[row.Input] = true
		}
	}
	if len(kept) == 0 {
		return 0, nil
	}
	if err := checkCurrentSchema(w.root, w.crawl); err != nil {
		return 0, err
	}
	seg, err := w.NewSegment(0)
	if err != nil {
		return 0, err
	}
	seg.name = w.shard.tag() + "-" + keptSegment + "-" + randomHex(4)
	err = copyKept(w.root, w.crawl, seg.stage, keep, crawlers)
	if err == nil {
		err = seg.commitAs(kept, keptSegment)
	}
	if err != nil {
		seg.Discard()
		return 0, err
	}
	return len(kept), nil
}

// ShardSegments reports whether the shard has committed segments (a run
// of it was interrupted, or a rerun already kept the published rows), and
// how many inputs its kept segments hold.
func ShardSegments(segs []SegmentManifest, shard Shard) (resumed bool, kept int) {
	for _, s := range segs {
		if s.Shard == shard.String() {
			resumed = true
			if s.From == keptSegment {
				kept += len(s.Inputs)
			}
		}
	}
	return resumed, kept
}

// dropped is what copyKept leaves out: the captures of inputs not kept,
// and how many bodies rows each of their digests has (one per input that
// kept the body: see readCaptures).
type dropped struct {
	ids    map[string]bool
	bodies map[string]int
}

// copyKept writes the rows of the kept inputs of the published partition
// to stage, one part per table.
func copyKept(root, crawl string, stage *Staging, keep map[string]bool, crawlers []robots.Crawler) error {
	part := schema.PartName(0)
	d := dropped{ids: map[string]bool{}, bodies: map[string]int{}}
	seen := map[[2]string]bool{}
	err := copyTable(root, crawl, stage, part, func(c *schema.Capture) bool {
		if keep[c.Input] {
			return true
		}
		d.ids[c.CaptureID] = true
		read := c.FetchStatus == 0 || c.FetchStatus >= 200 && c.FetchStatus < 300
		if k := [2]string{c.Input, c.ContentDigest}; c.ContentDigest != "" && read && !seen[k] {
			seen[k] = true
			d.bodies[c.ContentDigest]++
		}
		return false
	})
	if err == nil {
		err = copyTable(root, crawl, stage, part, func(r *schema.Diagnostic) bool { return !d.ids[r.CaptureID] })
	}
	if err == nil {
		err = copyTable(root, crawl, stage, part, func(r *schema.Rule) bool { return !d.ids[r.CaptureID] })
	}
	if err == nil {
		err = copyTable(root, crawl, stage, part, func(r *schema.Sitemap) bool { return !d.ids[r.CaptureID] })
	}
	if err == nil {
		err = copyTable(root, crawl, stage, part, func(r *schema.Directive) bool { return !d.ids[r.CaptureID] })
	}
	if err == nil {
		err = copyTable(root, crawl, stage, part, func(r *schema.Preference) bool { return !d.ids[r.CaptureID] })
	}
	if err == nil {
		err = copyTable(root, crawl, stage, part, func(r *schema.Body) bool {
			if d.bodies[r.ContentDigest] > 0 {
				d.bodies[r.ContentDigest]--
				return false
			}
			return true
		})
	}
	if err == nil && len(crawlers) > 0 {
		err = copyAgents(root, crawl, stage, part, d.ids, crawlers)
	}
	return err
}

// checkCurrentSchema refuses to keep the rows of a partition published
// with an older major schema version (1.x): they lack columns of the
// current one that the kept rows cannot be given without their inputs
// (content_charset, from the HTTP headers), so the crawl is ingested again
// instead, with Config.Fresh (robocensus ingest --fresh), which rewrites
// the whole partition in the current schema.
func checkCurrentSchema(root, crawl string) error {
	files, err := partFiles(root, crawl, schema.TableName[schema.Capture]())
	if err != nil {
		return err
	}
	for _, f := range files {
		v, err := fileVersion(f)
		if err != nil {
			return err
		}
		if !schema.IsCurrentMajor(v) {
			return fmt.Errorf("ingest: the published partition of crawl %s was written with schema %s, this version writes %s: "+
				"a rerun cannot keep its rows; ingest the crawl again with --fresh (Config.Fresh): %w", crawl, v, schema.Version, schema.ErrRenamedColumns)
		}
	}
	return nil
}

// fileVersion returns the schema version of the Parquet file at path.
func fileVersion(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	v, err := schema.ReadVersion(f, fi.Size())
	if err != nil {
		return "", fmt.Errorf("ingest: reading %s: %w", path, err)
	}
	return v, nil
}

// partFiles lists the published part files of a table.
func partFiles(root, crawl, table string) ([]string, error) {
	return filepath.Glob(filepath.Join(schema.PartitionDir(root, table, crawl), "*.parquet"))
}

// copyTable copies the rows of table T that keep accepts into one part.
func copyTable[T schema.Row](root, crawl string, stage *Staging, part string, keep func(*T) bool) error {
	files, err := partFiles(root, crawl, schema.TableName[T]())
	if err != nil || len(files) == 0 {
		return err
	}
	out, err := openTable[T](stage, part, schema.WithPageBufferSize(pipelinePageSize))
	if err != nil {
		return err
	}
	var buf []T
	for _, f := range files {
		err = eachRow(f, func(r *T) error {
			if !keep(r) {
				return nil
			}
			if buf = append(buf, *r); len(buf) >= FlushRows {
				err := out.write(buf)
				clear(buf)
				buf = buf[:0]
				return err
			}
			return nil
		})
		if err != nil {
			break
		}
	}
	if err == nil {
		err = out.write(buf)
	}
	return errors.Join(err, out.close())
}

// copyAgents copies the agents rows of the captures not dropped. The rows
// of a capture are consecutive, one per tracked crawler in order. A
// partition written before schema 1.3 has no via column: its rows cannot
// be copied (and its fallback crawlers' verdicts are those of '*'), so the
// rerun fails and says to ingest the crawl again.
func copyAgents(root, crawl string, stage *Staging, part string, drop map[string]bool, crawlers []robots.Crawler) error {
	files, err := partFiles(root, crawl, schema.TableName[schema.Agent]())
	if err != nil || len(files) == 0 {
		return err
	}
	out, err := openAgents(stage, part, crawlers)
	if err != nil {
		return err
	}
	verdicts := map[string]robots.Access{}
	for _, a := range []robots.Access{robots.AccessAllowed, robots.AccessPartial, robots.AccessDisallowed} {
		verdicts[a.String()] = a
	}
	vias := map[string]robots.Via{}
	for _, v := range []robots.Via{robots.ViaNone, robots.ViaNamed, robots.ViaFallback, robots.ViaStar} {
		vias[v.String()] = v
	}
	var id, host string
	var named []bool
	var access []robots.Access
	var via []robots.Via
	flush := func() error {
		if id == "" || drop[id] {
			return nil
		}
		if len(named) != len(crawlers) {
			return fmt.Errorf("ingest: published agents of capture %s: %d rows for %d tracked crawlers", id, len(named), len(crawlers))
		}
		return out.w.Add(id, host, named, access, via)
	}
	for _, f := range files {
		err = eachRow(f, func(r *schema.Agent) error {
			if r.CaptureID != id {
				if err := flush(); err != nil {
					return err
				}
				id, host, named, access, via = r.CaptureID, r.URLHostName, named[:0], access[:0], via[:0]
			}
			if k := len(named); k >= len(crawlers) || r.Agent != crawlers[k].Token {
				return fmt.Errorf("ingest: published agents of capture %s: crawler %q is not the run's crawler %d: the crawl was classified with another crawler list; ingest it again with --fresh (ingest.Config.Fresh)", id, r.Agent, k)
			}
			v, ok := vias[r.Via]
			if !ok {
				return fmt.Errorf("ingest: published agents of capture %s: via %q (a partition written before schema 1.3 has none): ingest the crawl again", id, r.Via)
			}
			named, access, via = append(named, r.Named), append(access, verdicts[r.Verdict]), append(via, v)
			return nil
		})
		if err != nil {
			break
		}
	}
	if err == nil {
		err = flush()
	}
	return errors.Join(err, out.close())
}

// eachRow calls f with each row of the Parquet file at path.
func eachRow[T schema.Row](path string, f func(*T) error) error {
	file, size, err := openSized(path)
	if err != nil {
		return err
	}
	defer file.Close()
	r, err := schema.NewReader[T](file, size)
	if err != nil {
		return fmt.Errorf("ingest: reading %s: %w", path, err)
	}
	defer r.Close()
	return readEach(path, r.Read, f)
}

// openSized opens the file at path and returns its size.
func openSized(path string) (*os.File, int64, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	fi, err := file.Stat()
	if err != nil {
		file.Close()
		return nil, 0, err
	}
	return file, fi.Size(), nil
}

// readEach calls f with each row that read gives, 1024 at a time, until
// io.EOF; path names the file in errors.
func readEach[T any](path string, read func([]T) (int, error), f func(*T) error) error {
	rows := make([]T, 1024)
	for {
		n, err := read(rows)
		for i := range rows[:n] {
			if ferr := f(&rows[i]); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("ingest: reading %s: %w", path, err)
		}
	}
}

// Rerun prepares a run over a crawl that may be published (see above), with
// the crawlers of the agents table. It
// returns the number of inputs kept from the published partition, or, when
// that partition is already what the run would publish and no work is
// under way, its inputs rows (current): there is nothing to do.
func (w *Work) Rerun(crawlers []robots.Crawler, all []string) (kept int, current []schema.Input, err error) {
	published, err := PublishedInputs(w.root, w.crawl)
	if err != nil || published == nil {
		return 0, nil, err
	}
	segs, err := w.Committed()
	if err != nil {
		return 0, nil, err
	}
	if len(segs) == 0 && upToDate(published, all) {
		removeEmptyWork(w.path)
		return 0, published, nil
	}
	kept, err = w.keepPublished(published, all, crawlers)
	return kept, nil, err
}
