package dataset

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/robocensus/robocensus/ingest/objstore"
	"github.com/robocensus/robocensus/schema"
)

// Resuming, sharding and compaction.
//
// A run works in DIR/.work/<crawl>/, invisible to a glob of
// DIR/<table>/**. Its inputs are processed in segments of a few inputs each:
// a segment's part files are written to tmp-<shard>-<random>/, renamed to
// segments/<name>/ when complete, and committed by writing
// segments/<name>.json, the list of its inputs with their inputs rows. Only
// committed segments count: after a crash (even kill -9) a rerun finds the
// inputs already done in the manifests, removes what its shard left half
// written, and reads the rest.
//
// When every input of the run is in a committed segment, the run publishes
// the crawl: the parts of all segments are merged (schema.Concat, no
// re-encoding) into parts of about PartBytes, the inputs table is written
// from the manifests, each table's partition is swapped in (see
// Staging), and the work folder is removed. Runs of several shards share
// the work folder; whichever finds the work complete publishes it, the
// others leave it alone (finalize.lock).

// Shard selects a deterministic share of the inputs: the inputs whose base
// name (the last element of the path or URL path: Common Crawl's file names
// are unique within a crawl) hashes (the first 8 bytes of its SHA-256) to K
// modulo N. Hashing the base name, not the full name, makes the share the
// same wherever the inputs live: machines reading one crawl from different
// mirrors or folders agree, and so do test runs in different temporary
// folders. The hash must mix well: Common Crawl's file names differ in a few
// digits only, and a weak hash (FNV-1a's low bits are the parity of the
// bytes) would put them all in one shard. The zero value selects everything.
type Shard struct{ K, N int }

// ParseShard reads "K/N" with 0 <= K < N, as a Kubernetes Indexed Job's
// completion index K of N completions.
func ParseShard(s string) (Shard, error) {
	k, n, ok := strings.Cut(s, "/")
	ki, err1 := strconv.Atoi(k)
	ni, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || ni < 1 || ki < 0 || ki >= ni {
		return Shard{}, fmt.Errorf("dataset: shard %q: want K/N with 0 <= K < N", s)
	}
	return Shard{K: ki, N: ni}, nil
}

// Has reports whether the shard reads input.
func (s Shard) Has(input string) bool {
	if s.N <= 1 {
		return true
	}
	sum := sha256.Sum256([]byte(shardKey(input)))
	return binary.BigEndian.Uint64(sum[:8])%uint64(s.N) == uint64(s.K)
}

// shardKey is the part of an input's name that decides its shard: the last
// element of a URL's path (without query) or of a local path.
func shardKey(input string) string {
	if _, _, isURL := strings.Cut(input, "://"); isURL {
		if u, err := url.Parse(input); err == nil && u.Host != "" {
			return path.Base(u.Path)
		}
	}
	return filepath.Base(input)
}

// String returns "K/N", or "all".
func (s Shard) String() string {
	if s.N <= 1 {
		return "all"
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// tag names the shard in file names: "s3of8", or "s0of1".
func (s Shard) tag() string { return fmt.Sprintf("s%dof%d", s.K, max(s.N, 1)) }

// Work is the work folder of one crawl. For a dataset in object storage
// (see bucket.go) root is the run's local folder and b the bucket.
type Work struct {
	root, crawl, path string
	shard             Shard
	compression       schema.Compression // of the parts it writes
	b                 *bucket
	err               error // of opening the bucket
}

// SegmentManifest is the commit record of a segment.
type SegmentManifest struct {
	Segment string         `json:"segment"`
	Shard   string         `json:"shard"`
	Inputs  []schema.Input `json:"inputs"`
	From    string         `json:"from,omitempty"` // "kept": copied from the published partition (rerun.go)
	// Whole are the parts of a kept segment that are published parts
	// copied whole. A dataset in object storage does not put them with
	// the segment: the segment names the published objects, which the
	// publication deletes only once no segment names them (bucket.go).
	Whole []WholePart `json:"whole,omitempty"`
}

// A WholePart is a part of a kept segment that is a published part whole.
type WholePart struct {
	Part string `json:"part"` // its path in the segment's folder
	Key  string `json:"key"`  // the published part's path under the root: its object's key
}

// NewWork returns the work folder of a crawl's shard, without touching
// the disk. For an s3:// root it opens the bucket (a listing, to check it),
// and the Work only lists the committed segments until OpenWork.
func NewWork(root, crawl string, shard Shard) *Work {
	w := &Work{root: root, crawl: crawl, path: workPath(root, crawl), shard: shard}
	if objstore.IsURL(root) {
		w.b, w.err = openRoot(root)
		w.root, w.path = "", ""
	}
	return w
}

// workPath is the work folder of a crawl: DIR/.work/<crawl>.
func workPath(root, crawl string) string { return filepath.Join(root, ".work", crawl) }

// removeEmptyWork removes a crawl's work folder, its segments folder and
// .work itself, each only when nothing else is in it.
func removeEmptyWork(path string) {
	os.Remove(filepath.Join(path, "segments"))
	os.Remove(path)
	os.Remove(filepath.Dir(path))
}

// OpenWork opens the work folder of a crawl's shard, and removes what an
// interrupted run of the shard left in it. The run must hold the shard's
// run lock (LockRun).
func OpenWork(root, crawl string, shard Shard) (*Work, error) {
	w := NewWork(root, crawl, shard)
	if w.err != nil {
		return nil, w.err
	}
	if w.b != nil {
		local, err := w.b.localRoot()
		if err != nil {
			return nil, err
		}
		w.root, w.path = local, workPath(local, crawl)
		if err := w.b.cleanUp(crawl, shard); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(filepath.Join(w.path, "segments"), 0o755); err != nil {
		return nil, fmt.Errorf("dataset: creating work folder: %w", err)
	}
	return w, w.cleanUp()
}

// SetCompression sets the codec of the parts the Work writes from now on:
// those of its segments, of a rerun's kept rows, and at Finalize every
// published part, those merged from segments written with another codec
// (by an earlier, interrupted run or another shard) included. Defaults to
// schema.Zstd.
func (w *Work) SetCompression(c schema.Compression) { w.compression = c }

// cleanUp removes what an interrupted run of this shard left: folders
// being written, and segment folders whose manifest was never written.
func (w *Work) cleanUp() error {
	entries, _ := os.ReadDir(w.path)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "tmp-"+w.shard.tag()+"-") {
			if err := os.RemoveAll(filepath.Join(w.path, e.Name())); err != nil {
				return err
			}
		}
	}
	segs, _ := os.ReadDir(filepath.Join(w.path, "segments"))
	for _, e := range segs {
		name := e.Name()
		if e.IsDir() && strings.HasPrefix(name, w.shard.tag()+"-") && !exists(filepath.Join(w.path, "segments", name+".json")) {
			if err := os.RemoveAll(filepath.Join(w.path, "segments", name)); err != nil {
				return err
			}
		}
	}
	return nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// Committed returns the manifests of the committed segments, by name.
func (w *Work) Committed() ([]SegmentManifest, error) {
	if w.err != nil {
		return nil, w.err
	}
	if w.b != nil {
		return w.b.committed(w.crawl)
	}
	paths, err := filepath.Glob(filepath.Join(w.path, "segments", "*.json"))
	if err != nil {
		return nil, err
	}
	slices.Sort(paths)
	var out []SegmentManifest
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		var m SegmentManifest
		if err := json.Unmarshal(data, &m); err != nil {
			return nil, fmt.Errorf("dataset: reading %s: %w", p, err)
		}
		out = append(out, m)
	}
	return out, nil
}

// Segment is a segment being written.
type Segment struct {
	w     *Work
	name  string
	stage *Staging // tmp-<shard>-<name>/, laid out like a dataset
}

// Stage is where the segment's part files are written before it commits.
func (s *Segment) Stage() *Staging { return s.stage }

func (w *Work) NewSegment(seq int) (*Segment, error) {
	name := fmt.Sprintf("%s-%s-%06d-%s", w.shard.tag(), time.Now().UTC().Format("20060102T150405"), seq, randomHex(4))
	tmp := filepath.Join(w.path, "tmp-"+name)
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return nil, err
	}
	return &Segment{w: w, name: name, stage: &Staging{root: w.root, crawl: w.crawl, path: tmp, compression: w.compression}}, nil
}

// Commit makes the segment count: its folder is renamed into segments/,
// then its manifest written aside and renamed into place.
func (s *Segment) Commit(rows []schema.Input) error { return s.commitAs(rows, "", nil) }

// commitAs is commit with the manifest's From and Whole.
func (s *Segment) commitAs(rows []schema.Input, from string, whole []WholePart) error {
	dir := filepath.Join(s.w.path, "segments")
	// The folder exists since OpenWork, unless a run that found nothing to
	// do removed it empty in the meantime (removeEmptyWork).
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("dataset: committing segment: %w", err)
	}
	if err := os.Rename(s.stage.path, filepath.Join(dir, s.name)); err != nil {
		return fmt.Errorf("dataset: committing segment: %w", err)
	}
	m := SegmentManifest{Segment: s.name, Shard: s.w.shard.String(), Inputs: rows, From: from, Whole: whole}
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(dir, s.name+".json"), data); err != nil {
		return err
	}
	if s.w.b != nil {
		return s.w.b.putSegment(s.w.crawl, m, filepath.Join(dir, s.name), data)
	}
	return nil
}

func (s *Segment) Discard() { os.RemoveAll(s.stage.path) }

// writeFileAtomic writes data to path through a temporary file, synced and
// renamed, so that path is either absent or complete.
func writeFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp-" + randomHex(4)
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// LockFinalize takes the right to publish the crawl, finalize.lock (see
// lock.go), or takes it over when the process holding it is gone (same
// host, no such process) or the lock is older than staleAfter. It reports
// false when another live run holds it; the error is the file system's.
// The lock goes with the work folder. In a bucket it is an object, stale
// when not refreshed for BucketLease (see bucket.go).
func (w *Work) LockFinalize(staleAfter time.Duration) (bool, error) {
	if w.b != nil {
		lock, _, err := w.b.takeLock(workKey(w.crawl) + "finalize.lock")
		if err != nil {
			return false, fmt.Errorf("dataset: taking the finalize lock: %w", err)
		}
		return lock != nil, nil
	}
	lock, err := takeLock(filepath.Join(w.path, "finalize.lock"), staleAfter)
	if err != nil {
		return false, fmt.Errorf("dataset: taking the finalize lock: %w", err)
	}
	return lock != nil, nil
}

// Finalize publishes the crawl from the segments covering inputs: merged
// parts of about partBytes, the inputs table, the hosts table (package hosts),
// the swap, and the removal of the work folder. Every published part is in
// the Work's codec (SetCompression), whatever the codec of the segments. The hosts table is
// computed from the segments' captures parts while the tables are merged.
//
// For a dataset in object storage, the segments of other runs are fetched
// first, and the partition published in the local folder is then put into
// the bucket (bucket.publish).
func (w *Work) Finalize(segs []SegmentManifest, rows []schema.Input, partBytes int64) error {
	if w.b != nil {
		if err := w.b.pullSegments(w.crawl, w.path, segs); err != nil {
			return err
		}
	}
	stage, err := newStaging(w.root, w.crawl, w.compression)
	if err != nil {
		return err
	}
	captures, err := w.segmentParts(schema.TableName[schema.Capture](), segs)
	hosts := make(chan error, 1)
	if err == nil {
		go func() { hosts <- buildHosts(stage, captures) }()
	} else {
		hosts <- nil
	}
	for _, t := range schema.Tables() {
		if t.Name == schema.TableName[schema.Input]() || t.Name == schema.TableName[schema.Host]() {
			continue // written from the manifests, computed from the captures
		}
		if err == nil {
			err = w.mergeTable(stage, t.Name, segs, partBytes)
		}
	}
	if err == nil {
		err = writeInputs(stage, rows)
	}
	err = errors.Join(err, <-hosts)
	if err == nil {
		err = stage.commit()
	}
	if err != nil {
		stage.discard()
		return err
	}
	left := false
	if w.b != nil {
		if left, err = w.b.publish(w.crawl); err != nil {
			return err
		}
	}
	if err := w.Discard(); err != nil || !left {
		return err
	}
	return w.b.sweep(w.crawl)
}

// discard removes the work folder of the crawl, and .work itself when no
// other crawl uses it.
func (w *Work) Discard() error {
	if err := os.RemoveAll(w.path); err != nil {
		return err
	}
	os.Remove(filepath.Dir(w.path))
	if w.b != nil {
		return w.b.discardWork(w.crawl)
	}
	return nil
}

// mergeTable merges the parts of one table of the segments into parts of
// about partBytes each (mergeGroups); a table no segment has gets one
// empty part.
func (w *Work) mergeTable(stage *Staging, table string, segs []SegmentManifest, partBytes int64) error {
	parts, err := w.mergeParts(table, segs)
	if err != nil {
		return err
	}
	if len(parts) == 0 {
		return writeEmpty(stage, table)
	}
	for n, group := range mergeGroups(parts, partBytes) {
		if err := concatFiles(stage, table, schema.PartName(n), group); err != nil {
			return err
		}
	}
	return nil
}

// A mergePart is a segment's part file given to mergeGroups.
type mergePart struct {
	path string
	size int64
	kept bool // of a kept segment (rerun.go): maybe a published part copied whole
}

// mergeGroups groups the parts, in order, into the groups each merged
// part is made of: consecutive parts until they hold partBytes. A part of
// a kept segment of at least half partBytes is a group of its own: the
// parts a rerun copies whole from the published partition (copyPart) are
// merged parts already, and [schema.Concat] of one of them alone (or with
// parts that hold no row group) gives it back byte for byte, so that a
// rerun publishes them unchanged.
func mergeGroups(parts []mergePart, partBytes int64) [][]string {
	var groups [][]string
	var group []string
	var size int64
	for _, p := range parts {
		if p.kept && p.size >= partBytes/2 {
			if len(group) > 0 {
				groups = append(groups, group)
			}
			groups, group, size = append(groups, []string{p.path}), nil, 0
			continue
		}
		group, size = append(group, p.path), size+p.size
		if size >= partBytes {
			groups, group, size = append(groups, group), nil, 0
		}
	}
	if len(group) > 0 {
		groups = append(groups, group)
	}
	return groups
}

// mergeParts returns the part files of one table of the segments, those
// of the kept segments first (see mergeGroups), with their sizes.
func (w *Work) mergeParts(table string, segs []SegmentManifest) ([]mergePart, error) {
	var kept, rest []mergePart
	for _, s := range segs {
		paths, err := w.segmentParts(table, []SegmentManifest{s})
		if err != nil {
			return nil, err
		}
		for _, p := range paths {
			fi, err := os.Stat(p)
			if err != nil {
				return nil, err
			}
			mp := mergePart{path: p, size: fi.Size(), kept: s.From == keptSegment}
			if mp.kept {
				kept = append(kept, mp)
			} else {
				rest = append(rest, mp)
			}
		}
	}
	return append(kept, rest...), nil
}

// segmentParts returns the part files of one table of the segments.
func (w *Work) segmentParts(table string, segs []SegmentManifest) ([]string, error) {
	var parts []string
	for _, s := range segs {
		p, err := filepath.Glob(filepath.Join(schema.PartitionDir(filepath.Join(w.path, "segments", s.Segment), table, w.crawl), "*.parquet"))
		if err != nil {
			return nil, err
		}
		parts = append(parts, p...)
	}
	return parts, nil
}

// concatFiles writes the merge of files as one part of table, every column
// chunk in the staging's codec: the parts of segments an earlier run wrote
// with another codec are recompressed.
func concatFiles(stage *Staging, table, part string, files []string) (err error) {
	var sources []schema.Source
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			return err
		}
		sources = append(sources, schema.Source{Name: path, R: f, Size: fi.Size()})
	}
	out, err := stage.create(table, part)
	if err != nil {
		return err
	}
	_, err = schema.ConcatCompressed(out, sources, stage.compression)
	if err == nil {
		err = out.Sync()
	}
	return errors.Join(err, out.Close())
}
