package dataset

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/robocensus/robocensus/ingest/objstore"
	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// Reruns of a published crawl.
//
// A run that ends with failed inputs publishes the crawl all the same, the
// failures recorded in the inputs table. Running it again (without
// Carry.Fresh) reads only what that partition lacks: the inputs that
// failed there, and inputs it does not have. The rows of the inputs read
// to their end (error NULL) are kept: before reading anything, the run
// copies them from the published partition into a committed segment of
// its work folder (a "kept" segment), leaving out the rows of every other
// input (the partial captures of a failed input, which is read again, and
// their diagnostics, rules, sitemaps, agents and bodies). Each published
// part gives a part of the kept segment, the part itself, byte for byte,
// when it keeps every row (copyPart): the publication merges such a part
// alone, so that it publishes it unchanged. The run then
// goes on as the resume of an interrupted run whose kept segment holds
// those inputs, and publishes a partition with the rows a single clean run
// would have written: capture IDs depend only on the input and the record.
//
// The published inputs a run does not name are inputs of the run all the
// same: their rows are kept as published (a failed one with its error and
// the captures read before it), and they are never read, so a rerun with
// some of the inputs loses none of the others. Only Carry.DropMissing
// drops them. The hosts table, computed at publication from every capture
// of the partition, is computed from the kept captures too.
//
// A shard keeps the inputs of its own share, so a sharded rerun needs every
// shard to run again, as the first run did. A shard copies only the inputs
// that no committed segment holds yet: a rerun interrupted after the copy
// resumes from its segments, and a work folder left by a run that crashed
// after publishing already holds every input. A kept segment that holds an
// input the run does not keep (one that a rerun with --drop-missing or
// --fresh reads again or drops) is discarded first.

// keptSegment marks the manifest of a segment copied from the published
// partition.
const keptSegment = "kept"

// Carry says what a run does with the rows of a published partition.
type Carry struct {
	// Fresh makes the run read again every input it names, also those
	// the partition read to their end.
	Fresh bool
	// DropMissing drops the published inputs the run does not name;
	// without it their rows are kept.
	DropMissing bool
}

// keeps reports whether a run naming the inputs of named keeps the
// published rows of the input of row rather than reading it.
func (c Carry) keeps(row schema.Input, named map[string]bool) bool {
	if !named[row.Input] {
		return !c.DropMissing
	}
	return !c.Fresh && row.Error == ""
}

// Carried is what a run does with the published partition of its crawl.
type Carried struct {
	// Unnamed are the published inputs, of every shard, that the run
	// keeps without naming them: inputs of the run that it never reads.
	Unnamed []string
	// Kept are the inputs rows of the shard's inputs whose rows the run
	// keeps from the published partition.
	Kept []schema.Input
	// Dropped are the inputs rows of the shard's published inputs that
	// the run does not name and drops (Carry.DropMissing).
	Dropped []schema.Input
	// Current, when not nil, is the published inputs table: the partition
	// is already what the run would publish (Kept is all of it), and
	// there is nothing to do.
	Current []schema.Input
}

// Captures is the number of captures of the inputs rows.
func Captures(rows []schema.Input) int64 {
	var n int64
	for _, r := range rows {
		n += r.Captures
	}
	return n
}

// PublishedInputs reads the inputs table of the published partition of
// crawl; nil when there is none. For a dataset in object storage it
// fetches the table's parts that the partition's listing names.
func PublishedInputs(root, crawl string) ([]schema.Input, error) {
	if !objstore.IsURL(root) {
		return localInputs(root, crawl)
	}
	b, err := openRoot(root)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "robocensus-inputs-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if published, err := b.pullPublished(crawl, tmp, schema.TableName[schema.Input]()); err != nil || !published {
		return nil, err
	}
	return localInputs(tmp, crawl)
}

// localInputs reads the inputs table of the published partition of crawl
// in the folder root; nil when there is none.
func localInputs(root, crawl string) ([]schema.Input, error) {
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

// Sorted is the published inputs of a crawl, sorted by what a run does
// with them.
type Sorted struct {
	Keep    []schema.Input // rows kept: not read again
	Unnamed []schema.Input // of Keep, those the run does not name
	Dropped []schema.Input // not named, and dropped
}

// Sort sorts the published inputs for a run that names the inputs named.
func (c Carry) Sort(published []schema.Input, named []string) Sorted {
	isNamed := make(map[string]bool, len(named))
	for _, in := range named {
		isNamed[in] = true
	}
	var s Sorted
	for _, row := range published {
		switch {
		case c.keeps(row, isNamed):
			s.Keep = append(s.Keep, row)
			if !isNamed[row.Input] {
				s.Unnamed = append(s.Unnamed, row)
			}
		case !isNamed[row.Input]:
			s.Dropped = append(s.Dropped, row)
		}
	}
	return s
}

// upToDate reports whether the published partition is what the run would
// publish: it drops nothing, and every input it names is published and
// read to its end (kept, not read again).
func (s Sorted) upToDate(c Carry, named []string) bool {
	if c.Fresh || len(s.Dropped) > 0 {
		return false
	}
	kept := map[string]bool{}
	for _, row := range s.Keep {
		kept[row.Input] = true
	}
	for _, in := range named {
		if !kept[in] {
			return false
		}
	}
	return true
}

// ofShard returns the rows of the shard's inputs.
func ofShard(rows []schema.Input, shard Shard) []schema.Input {
	var out []schema.Input
	for _, r := range rows {
		if shard.Has(r.Input) {
			out = append(out, r)
		}
	}
	return out
}

// inputNames returns the inputs of rows.
func inputNames(rows []schema.Input) []string {
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r.Input
	}
	return names
}

// keepPublished makes the shard's committed segments hold the rows of
// keep, the shard's inputs whose published rows the run keeps: it
// discards the shard's kept segments that hold another input, and copies
// the rows of the inputs of keep that no committed segment holds into a
// new kept segment. segs are the committed segments. It returns the
// inputs rows of the shard's kept segments.
func (w *Work) keepPublished(segs []SegmentManifest, keep []schema.Input, crawlers []robots.Crawler) ([]schema.Input, error) {
	wanted := map[string]bool{}
	for _, row := range keep {
		wanted[row.Input] = true
	}
	segs, err := w.discardStaleKept(segs, wanted)
	if err != nil {
		return nil, err
	}
	held := doneNames(segs)
	var missing []schema.Input
	for _, row := range keep {
		if !held[row.Input] {
			missing = append(missing, row)
		}
	}
	if len(missing) > 0 {
		if err := w.copySegment(missing, crawlers); err != nil {
			return nil, err
		}
	}
	return w.keptRows()
}

// copySegment commits a kept segment with the published rows of the
// inputs whose inputs rows are rows.
func (w *Work) copySegment(rows []schema.Input, crawlers []robots.Crawler) error {
	if w.b != nil {
		if _, err := w.b.pullPublished(w.crawl, w.root, keptTables()...); err != nil {
			return err
		}
	}
	if err := checkCurrentSchema(w.root, w.crawl); err != nil {
		return err
	}
	seg, err := w.NewSegment(0)
	if err != nil {
		return err
	}
	seg.name = w.shard.tag() + "-" + keptSegment + "-" + randomHex(4)
	keep := make(map[string]bool, len(rows))
	for _, row := range rows {
		keep[row.Input] = true
	}
	err = copyKept(w.root, w.crawl, seg.stage, keep, crawlers)
	if err == nil {
		err = seg.commitAs(rows, keptSegment, seg.stage.whole)
	}
	if err != nil {
		seg.Discard()
	}
	return err
}

// discardStaleKept discards, of the committed segments segs, the shard's
// kept segments that hold an input not in wanted, or that name a
// published part no longer there (a publication that ran meanwhile
// deleted it, bucket.deleteUnlisted): the manifest first, so that the
// segment no longer counts, then its folder. It returns the segments left.
func (w *Work) discardStaleKept(segs []SegmentManifest, wanted map[string]bool) ([]SegmentManifest, error) {
	var left []SegmentManifest
	for _, s := range segs {
		if s.Shard != w.shard.String() || s.From != keptSegment {
			left = append(left, s)
			continue
		}
		stale := slices.ContainsFunc(s.Inputs, func(r schema.Input) bool { return !wanted[r.Input] })
		if !stale && w.b != nil {
			gone, err := w.b.missingWhole(s)
			if err != nil {
				return nil, err
			}
			stale = gone
		}
		if !stale {
			left = append(left, s)
			continue
		}
		if w.b != nil {
			if err := w.b.discardSegment(w.crawl, s.Segment); err != nil {
				return nil, err
			}
		}
		dir := filepath.Join(w.path, "segments")
		if err := os.Remove(filepath.Join(dir, s.Segment+".json")); err != nil && (w.b == nil || !errors.Is(err, os.ErrNotExist)) {
			return nil, fmt.Errorf("dataset: discarding kept segment %s: %w", s.Segment, err)
		}
		if err := os.RemoveAll(filepath.Join(dir, s.Segment)); err != nil {
			return nil, fmt.Errorf("dataset: discarding kept segment %s: %w", s.Segment, err)
		}
	}
	return left, nil
}

// keptRows returns the inputs rows of the shard's kept segments.
func (w *Work) keptRows() ([]schema.Input, error) {
	segs, err := w.Committed()
	if err != nil {
		return nil, err
	}
	var rows []schema.Input
	for _, s := range segs {
		if s.Shard == w.shard.String() && s.From == keptSegment {
			rows = append(rows, s.Inputs...)
		}
	}
	return rows, nil
}

// doneNames returns the set of the inputs of the committed segments.
func doneNames(segs []SegmentManifest) map[string]bool {
	done := map[string]bool{}
	for _, s := range segs {
		for _, in := range s.Inputs {
			done[in.Input] = true
		}
	}
	return done
}

// dropped is what copyKept leaves out: the captures of inputs not kept,
// and how many bodies rows each of their digests has (one per input that
// kept the body: see readCaptures).
type dropped struct {
	ids    map[string]bool
	bodies map[string]int
}

// copyKept writes the rows of the kept inputs of the published partition
// to stage, one part per published part of each table (copyPart).
func copyKept(root, crawl string, stage *Staging, keep map[string]bool, crawlers []robots.Crawler) error {
	d := dropped{ids: map[string]bool{}, bodies: map[string]int{}}
	seen := map[[2]string]bool{}
	err := copyTable(root, crawl, stage, func(c *schema.Capture) bool {
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
		err = copyTable(root, crawl, stage, func(r *schema.Diagnostic) bool { return !d.ids[r.CaptureID] })
	}
	if err == nil {
		err = copyTable(root, crawl, stage, func(r *schema.Rule) bool { return !d.ids[r.CaptureID] })
	}
	if err == nil {
		err = copyTable(root, crawl, stage, func(r *schema.Sitemap) bool { return !d.ids[r.CaptureID] })
	}
	if err == nil {
		err = copyTable(root, crawl, stage, func(r *schema.Directive) bool { return !d.ids[r.CaptureID] })
	}
	if err == nil {
		err = copyTable(root, crawl, stage, func(r *schema.Preference) bool { return !d.ids[r.CaptureID] })
	}
	if err == nil {
		err = copyTable(root, crawl, stage, func(r *schema.Reading) bool { return !d.ids[r.CaptureID] })
	}
	if err == nil {
		err = copyTable(root, crawl, stage, func(r *schema.TemplateBlock) bool { return !d.ids[r.CaptureID] })
	}
	if err == nil {
		err = copyTable(root, crawl, stage, func(r *schema.Body) bool {
			if d.bodies[r.ContentDigest] > 0 {
				d.bodies[r.ContentDigest]--
				return false
			}
			return true
		})
	}
	if err == nil && len(crawlers) > 0 {
		err = copyAgents(root, crawl, stage, d.ids, crawlers)
	}
	return err
}

// keptTables are the tables copyKept reads: the inputs table is written
// from the segments' manifests and the hosts table computed from the
// captures, at publication.
func keptTables() []string {
	var names []string
	for _, t := range schema.Tables() {
		if t.Name != schema.TableName[schema.Input]() && t.Name != schema.TableName[schema.Host]() {
			names = append(names, t.Name)
		}
	}
	return names
}

// checkCurrentSchema refuses to keep the rows of a partition published
// with an older major schema version (1.x): they lack columns of the
// current one that the kept rows cannot be given without their inputs
// (content_charset, from the HTTP headers), so the crawl is ingested again
// instead, with Config.Fresh (robocensus ingest --fresh) and every input
// of the crawl, or Config.DropMissing, which rewrites the whole partition
// in the current schema.
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
			return fmt.Errorf("dataset: the published partition of crawl %s was written with schema %s, this version writes %s: "+
				"a rerun cannot keep its rows; ingest the crawl again with --fresh (Config.Fresh) %s: %w", crawl, v, schema.Version, allInputsAdvice, schema.ErrRenamedColumns)
		}
	}
	return nil
}

// allInputsAdvice completes the advice to ingest a crawl again with
// --fresh: the rows of the published inputs a run does not name are kept,
// and so must be readable.
const allInputsAdvice = "naming every input of the crawl (or with --drop-missing, Config.DropMissing, to drop those not named)"

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
		return "", fmt.Errorf("dataset: reading %s: %w", path, err)
	}
	return v, nil
}

// partFiles lists the published part files of a table.
func partFiles(root, crawl, table string) ([]string, error) {
	return filepath.Glob(filepath.Join(schema.PartitionDir(root, table, crawl), "*.parquet"))
}

// copyTable copies the rows of table T that keep accepts from each
// published part into a part of its own (copyPart).
func copyTable[T schema.Row](root, crawl string, stage *Staging, keep func(*T) bool) error {
	files, err := partFiles(root, crawl, schema.TableName[T]())
	if err != nil {
		return err
	}
	for i, f := range files {
		if err := copyPart(f, stage, schema.PartName(i), keep); err != nil {
			return err
		}
	}
	return nil
}

// copyPart copies the rows of the published part at path that keep
// accepts into the part named part of stage. A published part whose every
// row is kept is copied whole instead, byte for byte (keepWhole), so that
// the partition a rerun publishes holds it unchanged and a dataset in
// object storage keeps its object (see bucket.publish).
func copyPart[T schema.Row](path string, stage *Staging, part string, keep func(*T) bool) error {
	out, err := openTable[T](stage, part, schema.WithPageBufferSize(pipelinePageSize))
	if err != nil {
		return err
	}
	var buf []T
	dropped := 0
	err = eachRow(path, func(r *T) error {
		if !keep(r) {
			dropped++
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
	if err == nil {
		err = out.write(buf)
	}
	if err = errors.Join(err, out.close()); err != nil || dropped > 0 {
		return err
	}
	return keepWhole(stage, path, out.f.Name())
}

// keepWhole replaces the copy dst, in stage, of the rows of the published
// part src, which kept every row, with src itself (a hard link, or a copy
// where the file system has none), and records it in stage.whole.
func keepWhole(stage *Staging, src, dst string) error {
	part, err := filepath.Rel(stage.path, dst)
	if err != nil {
		return err
	}
	key, err := filepath.Rel(stage.root, src)
	if err != nil {
		return err
	}
	if err := os.Remove(dst); err != nil {
		return err
	}
	if os.Link(src, dst) != nil {
		data, err := os.ReadFile(src)
		if err == nil {
			err = writeFileAtomic(dst, data)
		}
		if err != nil {
			return err
		}
	}
	stage.whole = append(stage.whole, WholePart{Part: filepath.ToSlash(part), Key: filepath.ToSlash(key)})
	return nil
}

// copyAgents copies the agents rows of the captures not dropped, from
// each published part into a part of its own, or the part whole when it
// drops none (as copyPart). The rows of a capture are consecutive, in one
// part, one per tracked crawler in order. A partition written before
// schema 1.3 has no via column: its rows cannot be copied (and its
// fallback crawlers' verdicts are those of '*'), so the rerun fails and
// says to ingest the crawl again.
func copyAgents(root, crawl string, stage *Staging, drop map[string]bool, crawlers []robots.Crawler) error {
	files, err := partFiles(root, crawl, schema.TableName[schema.Agent]())
	if err != nil {
		return err
	}
	for i, f := range files {
		if err := copyAgentsPart(f, stage, schema.PartName(i), drop, crawlers); err != nil {
			return err
		}
	}
	return nil
}

// agentVerdicts, agentVias and agentSources read the verdict, via and
// source columns back.
var (
	agentVerdicts = map[string]robots.Access{}
	agentVias     = map[string]robots.Via{}
	agentSources  = map[string]robots.VerdictSource{}
)

func init() {
	for _, a := range []robots.Access{robots.AccessAllowed, robots.AccessPartial, robots.AccessDisallowed} {
		agentVerdicts[a.String()] = a
	}
	for _, v := range []robots.Via{robots.ViaNone, robots.ViaNamed, robots.ViaFallback, robots.ViaStar} {
		agentVias[v.String()] = v
	}
	for _, s := range []robots.VerdictSource{robots.SourceNone, robots.SourceTemplate, robots.SourceSite, robots.SourceBoth} {
		agentSources[s.String()] = s
	}
}

// keptSource reads a published row's source back. A row written before
// schema 2.3 has none: its full blocks are counted as the site's, as a
// run with ingest.Config.NoAttribution counts them.
func keptSource(source string, access robots.Access) robots.VerdictSource {
	if s, ok := agentSources[source]; ok {
		return s
	}
	if access == robots.AccessDisallowed {
		return robots.SourceSite
	}
	return robots.SourceNone
}

// copyAgentsPart copies the agents rows of the published part at path of
// the captures not dropped into the part named part of stage, or the
// published part whole when it has no dropped capture.
func copyAgentsPart(path string, stage *Staging, part string, drop map[string]bool, crawlers []robots.Crawler) error {
	out, err := openAgents(stage, part, crawlers)
	if err != nil {
		return err
	}
	var id, host string
	var named []bool
	var access []robots.Access
	var via []robots.Via
	var source []robots.VerdictSource
	var cancelled []bool
	dropped := 0
	flush := func() error {
		if id == "" {
			return nil
		}
		if len(named) != len(crawlers) {
			return fmt.Errorf("dataset: published agents of capture %s: %d rows for %d tracked crawlers", id, len(named), len(crawlers))
		}
		if drop[id] {
			dropped++
			return nil
		}
		return out.w.Add(id, host, named, access, via, source, cancelled)
	}
	err = eachRow(path, func(r *schema.Agent) error {
		if r.CaptureID != id {
			if err := flush(); err != nil {
				return err
			}
			id, host, named, access, via = r.CaptureID, r.URLHostName, named[:0], access[:0], via[:0]
			source, cancelled = source[:0], cancelled[:0]
		}
		if k := len(named); k >= len(crawlers) || r.Agent != crawlers[k].Token {
			return fmt.Errorf("dataset: published agents of capture %s: crawler %q is not the run's crawler %d: the crawl was classified with another crawler list; ingest it again with --fresh (ingest.Config.Fresh) %s", id, r.Agent, k, allInputsAdvice)
		}
		v, ok := agentVias[r.Via]
		if !ok {
			return fmt.Errorf("dataset: published agents of capture %s: via %q (a partition written before schema 1.3 has none): ingest the crawl again", id, r.Via)
		}
		named, access, via = append(named, r.Named), append(access, agentVerdicts[r.Verdict]), append(via, v)
		source, cancelled = append(source, keptSource(r.Source, access[len(access)-1])), append(cancelled, r.Cancelled)
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err = errors.Join(err, out.close()); err != nil || dropped > 0 {
		return err
	}
	return keepWhole(stage, path, out.f.Name())
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
		return fmt.Errorf("dataset: reading %s: %w", path, err)
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
			return fmt.Errorf("dataset: reading %s: %w", path, err)
		}
	}
}

// Rerun prepares a run over a crawl that may be published (see above),
// with the crawlers of the agents table, for a run that names the inputs
// named. When the partition is already what the run would publish and no
// work is under way, Carried.Current is its inputs rows: there is nothing
// to do.
func (w *Work) Rerun(crawlers []robots.Crawler, named []string, c Carry) (Carried, error) {
	root := w.root
	if w.b != nil {
		root = w.b.url
	}
	published, err := PublishedInputs(root, w.crawl)
	if err != nil || published == nil {
		return Carried{}, err
	}
	segs, err := w.Committed()
	if err != nil {
		return Carried{}, err
	}
	sorted := c.Sort(published, named)
	if len(segs) == 0 && sorted.upToDate(c, named) {
		removeEmptyWork(w.path)
		return Carried{Unnamed: inputNames(sorted.Unnamed), Kept: published, Current: published}, nil
	}
	kept, err := w.keepPublished(segs, ofShard(sorted.Keep, w.shard), crawlers)
	if err != nil {
		return Carried{}, err
	}
	return Carried{Unnamed: inputNames(sorted.Unnamed), Kept: kept, Dropped: ofShard(sorted.Dropped, w.shard)}, nil
}
