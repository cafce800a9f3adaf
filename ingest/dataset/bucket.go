package dataset

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/robocensus/robocensus/ingest/objstore"
	"github.com/robocensus/robocensus/schema"
)

// Datasets in object storage.
//
// A dataset's root may be an s3:// URL, s3://BUCKET/PREFIX: the dataset is
// kept there in the layout of a folder, <table>/crawl=<label>/part-*.parquet.
// The publishing logic is the one of a folder (segments, shards, locks,
// reruns): a run works in a local folder of its own, a temporary folder
// laid out as the dataset (its local root), and at each point where a
// dataset on disk becomes visible to other runs or to readers, the bucket
// is written:
//
//   - Locks, run-<shard>.lock and finalize.lock, are objects under
//     .work/<crawl>/ put with If-None-Match: * (one run's put succeeds),
//     holding the run's record, and refreshed by it (If-Match) every
//     quarter of BucketLease. One not refreshed for BucketLease, or whose
//     process is gone from this host, is stale, and deleted with If-Match
//     its ETag, so that a lock taken meanwhile stays. (A folder's locks go
//     stale after Config.LockStaleAfter instead: runs on other machines
//     cannot be asked whether they live, nor can they refresh a file
//     cheaply.) A run checks that the store refuses a second If-None-Match
//     put, and refuses a store that does not
//     (objstore.ErrNoConditionalWrites).
//   - A segment commits by putting its parts under
//     .work/<crawl>/segments/<name>/, then its manifest <name>.json: only
//     segments with a manifest count, as on disk, and a shard's next run
//     deletes the parts of its segments that have none. The committed
//     segments are listed from the bucket, so shards on other machines see
//     each other's; the run that publishes fetches those it lacks.
//   - Publication puts the merged parts under <table>/crawl=<label>/ with
//     names of their own (part-<publication>-NNNNN.parquet), then the
//     partition's listing, .published/crawl=<label>.json, which names every
//     part of every table with its size and SHA-256; then it deletes the
//     parts that the listing does not name (those of earlier publications),
//     and the work. A part equal to one the crawl's listing names (same
//     table, size and SHA-256) is not put again: the new listing names the
//     existing object, which no one deletes while a listing names it.
//     Readers that list the partition through its listing
//     ([PublishedFiles], robocensus report s3://...) see the old partition
//     or the new one, never a part of either, and no duplicate rows,
//     whenever a run is killed. Readers that glob the bucket themselves
//     (DuckDB, Athena) see, while a publication is under way or after one
//     is interrupted until its rerun ends, the parts of both.
//   - A rerun fetches the published parts of the tables whose rows it
//     keeps (not the inputs and hosts tables, which it writes again), and
//     copies those rows into a kept segment (rerun.go): a published part
//     whose every row it keeps is copied whole, and the segment names its
//     object (SegmentManifest.Whole) instead of putting it again. The
//     publication merges such a part alone, which gives it back byte for
//     byte (mergeGroups), so that it publishes the same object: a rerun
//     puts only the parts whose rows changed. While a committed segment
//     names an object, no publication deletes it; the run that discards
//     the work deletes it then, if no listing names it (sweep). A kept
//     segment committed while a publication of another shard was under
//     way may name an object that publication deleted: the shard's next
//     run discards it and copies the rows anew (discardStaleKept), and a
//     run that publishes from it says to run that shard again.

// workKey is the folder of a crawl's work in a bucket.
func workKey(crawl string) string { return ".work/" + crawl + "/" }

// segmentsKey is the folder of a crawl's segments in a bucket.
func segmentsKey(crawl string) string { return workKey(crawl) + "segments/" }

// listingKey is the listing of a crawl's published partition.
func listingKey(crawl string) string {
	return ".published/" + schema.PartitionKey + "=" + crawl + ".json"
}

// s3Settings are the settings of the s3:// roots of this process, and the
// roots opened.
var s3Settings struct {
	sync.Mutex
	cfg   objstore.Config
	set   bool
	roots map[string]*bucket
}

// ConfigureS3 sets where and how this process reaches the s3:// dataset
// roots it opens afterwards (the endpoint, region and credentials).
func ConfigureS3(cfg objstore.Config) {
	s3Settings.Lock()
	defer s3Settings.Unlock()
	s3Settings.cfg, s3Settings.set = cfg, true
}

// A bucket is an s3:// dataset root opened by this process, with the local
// folder its runs work in.
type bucket struct {
	store *objstore.Store
	url   string // the root as given

	mu     sync.Mutex
	local  string // "" until a run needs it
	probed bool   // conditional writes checked
	runs   int    // runs holding a run lock (lockBucketRun) of the root
}

// openRoot returns the bucket of root, an s3:// URL, opening it the first
// time: the bucket must exist and the credentials list it.
func openRoot(root string) (*bucket, error) {
	s3Settings.Lock()
	defer s3Settings.Unlock()
	return openRootLocked(root)
}

// openRootLocked is openRoot, with s3Settings locked.
func openRootLocked(root string) (*bucket, error) {
	if b := s3Settings.roots[root]; b != nil {
		return b, nil
	}
	if !s3Settings.set {
		return nil, fmt.Errorf("dataset: %s: no S3 settings given (dataset.ConfigureS3)", root)
	}
	store, err := objstore.Open(s3Settings.cfg, root)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	if err := store.Check(context.Background()); err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	b := &bucket{store: store, url: root}
	if s3Settings.roots == nil {
		s3Settings.roots = map[string]*bucket{}
	}
	s3Settings.roots[root] = b
	return b, nil
}

// startRun opens the bucket of root for a run, which ends with closeRoot.
func startRun(root string) (*bucket, error) {
	s3Settings.Lock()
	defer s3Settings.Unlock()
	b, err := openRootLocked(root)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	b.runs++
	b.mu.Unlock()
	return b, nil
}

// closeRoot ends a run of the bucket of root (lockBucketRun); after the
// last one it forgets the bucket and removes its local folder.
func closeRoot(root string) {
	s3Settings.Lock()
	defer s3Settings.Unlock()
	b := s3Settings.roots[root]
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.runs--; b.runs > 0 {
		return
	}
	delete(s3Settings.roots, root)
	if b.local != "" {
		os.RemoveAll(b.local)
		b.local = ""
	}
}

// checkConditionalWrites checks, once, that the store refuses a second
// If-None-Match put, without which two runs could take one lock.
func (b *bucket) checkConditionalWrites() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.probed {
		return nil
	}
	if err := b.store.CheckConditionalWrites(context.Background(), ".work/.probe-"+randomHex(8)); err != nil {
		return fmt.Errorf("dataset: %s cannot hold a dataset safely: %w", b.url, err)
	}
	b.probed = true
	return nil
}

// localRoot returns the bucket's local folder, made the first time.
func (b *bucket) localRoot() (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.local == "" {
		dir, err := os.MkdirTemp("", "robocensus-s3-")
		if err != nil {
			return "", fmt.Errorf("dataset: local folder for %s: %w", b.url, err)
		}
		b.local = dir
	}
	return b.local, nil
}

// BucketLease is how long a lock in a bucket keeps other runs out after
// its run last refreshed it: a run refreshes its locks every quarter of
// it, so a lock not refreshed for a lease is a dead run's, whichever
// machine it ran on (a killed pod's, whose index is rescheduled on another
// node). The clocks of the store and of the runs may differ by up to three
// quarters of it. A variable for the tests.
var BucketLease = 5 * time.Minute

// A bucketLock is a lock object this run put, refreshed until released.
type bucketLock struct {
	b      *bucket
	key    string
	record lockRecord

	mu   sync.Mutex
	etag string
	stop chan struct{}
	done chan struct{}
}

// recordNow is the lock's record as written at a refresh: the record and
// the time, which makes each version's ETag its own.
func (l *bucketLock) recordNow() []byte {
	return []byte(strings.TrimSuffix(l.record.String(), "\n") + " " + time.Now().UTC().Format(time.RFC3339Nano) + "\n")
}

// keepAlive refreshes the lock every quarter of BucketLease, replacing
// the version last put (If-Match), until release or until the lock is
// gone or another's (taken over, or deleted with the work).
func (l *bucketLock) keepAlive() {
	l.stop, l.done = make(chan struct{}), make(chan struct{})
	period := BucketLease / 4 // read here, not in the goroutine: tests set it
	go func() {
		defer close(l.done)
		tick := time.NewTicker(period)
		defer tick.Stop()
		for {
			select {
			case <-l.stop:
				return
			case <-tick.C:
			}
			l.mu.Lock()
			etag, err := l.b.store.PutIfMatch(context.Background(), l.key, l.recordNow(), l.etag)
			if err == nil {
				l.etag = etag
			}
			l.mu.Unlock()
			if errors.Is(err, objstore.ErrExists) || errors.Is(err, fs.ErrNotExist) {
				return
			}
		}
	}()
}

// bucketLockIsStale reports whether the lock record data, of an object
// last modified at modified, no longer keeps other runs out: it was not
// refreshed for BucketLease, or its process (on this host) is gone. An
// object is never half written: a record that cannot be read is no run's.
func bucketLockIsStale(data []byte, modified time.Time) bool {
	r, ok := parseLockRecord(data)
	if !ok || time.Since(modified) > BucketLease {
		return true
	}
	host, _ := os.Hostname()
	return r.Host == host && processGone(r.PID)
}

// takeLock puts the lock object key, deleting first a stale one (see the
// top of the file), and refreshes it until released. It returns nil and
// the holder's record when a live run holds it.
func (b *bucket) takeLock(key string) (*bucketLock, lockRecord, error) {
	ctx := context.Background()
	for range lockAttempts {
		l := &bucketLock{b: b, key: key, record: thisRun()}
		etag, err := b.store.PutIfAbsent(ctx, key, l.recordNow())
		if err == nil {
			l.etag = etag
			l.keepAlive()
			return l, lockRecord{}, nil
		}
		if !errors.Is(err, objstore.ErrExists) {
			return nil, lockRecord{}, err
		}
		data, held, err := b.store.Get(ctx, key)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue // released meanwhile
		case err != nil:
			return nil, lockRecord{}, err
		}
		if !bucketLockIsStale(data, held.Modified) {
			r, _ := parseLockRecord(data)
			return nil, r, nil
		}
		if err := b.store.DeleteIfMatch(ctx, key, held.ETag); err != nil && !errors.Is(err, objstore.ErrExists) {
			return nil, lockRecord{}, err
		}
	}
	return nil, lockRecord{}, fmt.Errorf("dataset: lock %s changed hands %d times in a row", b.store.URL(key), lockAttempts)
}

// release stops the refreshes and deletes the lock if it is still the
// version this run put last.
func (l *bucketLock) release() {
	close(l.stop)
	<-l.done
	l.b.store.DeleteIfMatch(context.Background(), l.key, l.etag)
}

// lockRun takes the run lock of a crawl's shard in the bucket.
func (b *bucket) lockRun(crawl string, shard Shard) (*bucketLock, error) {
	lock, holder, err := b.takeLock(workKey(crawl) + "run-" + shard.tag() + ".lock")
	switch {
	case err != nil:
		return nil, fmt.Errorf("dataset: taking run lock: %w", err)
	case lock == nil:
		return nil, &RunningError{Crawl: crawl, Dir: b.url, Host: holder.Host, PID: holder.PID, Since: holder.Since}
	}
	return lock, nil
}

// committed returns the manifests of the crawl's committed segments, by
// name.
func (b *bucket) committed(crawl string) ([]SegmentManifest, error) {
	ctx := context.Background()
	objs, err := b.store.List(ctx, segmentsKey(crawl))
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	var out []SegmentManifest
	for _, o := range objs {
		if path.Dir(o.Key)+"/" != segmentsKey(crawl) || !strings.HasSuffix(o.Key, ".json") {
			continue
		}
		data, _, err := b.store.Get(ctx, o.Key)
		if err != nil {
			return nil, fmt.Errorf("dataset: %w", err)
		}
		var m SegmentManifest
		if err := json.Unmarshal(data, &m); err != nil {
			return nil, fmt.Errorf("dataset: reading %s: %w", b.store.URL(o.Key), err)
		}
		out = append(out, m)
	}
	return out, nil
}

// cleanUp deletes the parts of the shard's segments that have no manifest:
// those an interrupted run of the shard was putting.
func (b *bucket) cleanUp(crawl string, shard Shard) error {
	ctx := context.Background()
	objs, err := b.store.List(ctx, segmentsKey(crawl)+shard.tag()+"-")
	if err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	manifests := map[string]bool{}
	for _, o := range objs {
		if name, ok := strings.CutSuffix(strings.TrimPrefix(o.Key, segmentsKey(crawl)), ".json"); ok && !strings.Contains(name, "/") {
			manifests[name] = true
		}
	}
	for _, o := range objs {
		name, _, inFolder := strings.Cut(strings.TrimPrefix(o.Key, segmentsKey(crawl)), "/")
		if inFolder && !manifests[name] {
			if err := b.store.Delete(ctx, o.Key); err != nil {
				return fmt.Errorf("dataset: %w", err)
			}
		}
	}
	return nil
}

// putSegment puts the files of the committed segment m, in the folder dir
// (local), but its whole parts (m.Whole: published objects already), then
// its manifest data: the segment counts once the manifest is there.
func (b *bucket) putSegment(crawl string, m SegmentManifest, dir string, data []byte) error {
	ctx := context.Background()
	whole := map[string]bool{}
	for _, p := range m.Whole {
		whole[p.Part] = true
	}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil || whole[filepath.ToSlash(rel)] {
			return err
		}
		return b.store.PutFile(ctx, segmentsKey(crawl)+m.Segment+"/"+filepath.ToSlash(rel), p)
	})
	if err == nil {
		err = b.store.Put(ctx, segmentsKey(crawl)+m.Segment+".json", data)
	}
	if err != nil {
		return fmt.Errorf("dataset: committing segment %s: %w", m.Segment, err)
	}
	return nil
}

// discardSegment deletes a committed segment: its manifest first, so that
// it no longer counts, then its parts.
func (b *bucket) discardSegment(crawl, name string) error {
	ctx := context.Background()
	err := b.store.Delete(ctx, segmentsKey(crawl)+name+".json")
	if err == nil {
		err = b.store.DeleteAll(ctx, segmentsKey(crawl)+name+"/")
	}
	if err != nil {
		return fmt.Errorf("dataset: discarding segment %s: %w", name, err)
	}
	return nil
}

// pullSegments fetches into the work folder workDir the committed segments
// of segs it does not have (those of other runs), each into a temporary
// folder renamed into place: the segment's objects, and its whole parts
// from the published objects they are.
func (b *bucket) pullSegments(crawl, workDir string, segs []SegmentManifest) error {
	ctx := context.Background()
	for _, s := range segs {
		dst := filepath.Join(workDir, "segments", s.Segment)
		if exists(dst) {
			continue
		}
		objs, err := b.store.List(ctx, segmentsKey(crawl)+s.Segment+"/")
		if err != nil {
			return fmt.Errorf("dataset: %w", err)
		}
		// A segment may have no object (its inputs failed before a row):
		// its folder is made all the same.
		tmp := filepath.Join(workDir, "pull-"+s.Segment)
		err = os.MkdirAll(tmp, 0o755)
		if err == nil {
			err = b.download(objs, segmentsKey(crawl)+s.Segment+"/", tmp)
		}
		for _, p := range s.Whole {
			if err != nil {
				break
			}
			err = b.fetch(p.Key, filepath.Join(tmp, filepath.FromSlash(p.Part)))
			if errors.Is(err, fs.ErrNotExist) {
				err = fmt.Errorf("%w: the published part it names is gone (a publication ran meanwhile): run %s again, which copies its rows anew", err, shardOfCrawl(s.Shard))
			}
		}
		if err == nil {
			err = os.Rename(tmp, dst)
		}
		if err != nil {
			os.RemoveAll(tmp)
			return fmt.Errorf("dataset: fetching segment %s: %w", s.Segment, err)
		}
	}
	return nil
}

// missingWhole reports whether a published part that the kept segment s
// names (SegmentManifest.Whole) is gone from the bucket.
func (b *bucket) missingWhole(s SegmentManifest) (bool, error) {
	for _, p := range s.Whole {
		_, err := b.store.Stat(context.Background(), p.Key)
		if errors.Is(err, fs.ErrNotExist) {
			return true, nil
		} else if err != nil {
			return false, fmt.Errorf("dataset: %w", err)
		}
	}
	return false, nil
}

// shardOfCrawl names the shard (Shard.String) in a sentence: "the crawl"
// or "shard K/N of the crawl".
func shardOfCrawl(shard string) string {
	if shard == (Shard{}).String() {
		return "the crawl"
	}
	return "shard " + shard + " of the crawl"
}

// fetch gets the object key into the local file dst, making its folder.
func (b *bucket) fetch(key, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if err := b.store.GetFile(context.Background(), key, dst); err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	return nil
}

// download fetches objs, whose keys start with prefix, into dir, each at
// its key less prefix.
func (b *bucket) download(objs []objstore.Object, prefix, dir string) error {
	for _, o := range objs {
		if err := b.fetch(o.Key, filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(o.Key, prefix)))); err != nil {
			return err
		}
	}
	return nil
}

// discardWork deletes the crawl's segments and its finalize lock from the
// bucket (the run locks go with their runs).
func (b *bucket) discardWork(crawl string) error {
	ctx := context.Background()
	err := b.store.DeleteAll(ctx, segmentsKey(crawl))
	if err == nil {
		err = b.store.Delete(ctx, workKey(crawl)+"finalize.lock")
	}
	if err != nil {
		return fmt.Errorf("dataset: removing the work of crawl %s: %w", crawl, err)
	}
	return nil
}

// A listing names the parts of every table of a published partition.
type listing struct {
	Crawl       string       `json:"crawl"`
	Publication string       `json:"publication"`
	Files       []listedFile `json:"files"`
}

// A listedFile is a part of a listing: its key under the root, size and
// the SHA-256 of its content (hexadecimal), which lets a rerun keep the
// object of a part it publishes unchanged. Listings written before the
// digest was recorded have none: their parts are put again.
type listedFile struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256,omitempty"`
}

// table returns the table of the listed part.
func (f listedFile) table() string {
	table, _, _ := strings.Cut(f.Name, "/")
	return table
}

// readListing returns the listing of the crawl's published partition, nil
// when there is none.
func (b *bucket) readListing(crawl string) (*listing, error) {
	data, _, err := b.store.Get(context.Background(), listingKey(crawl))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	var l listing
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, fmt.Errorf("dataset: reading %s: %w", b.store.URL(listingKey(crawl)), err)
	}
	return &l, nil
}

// publish puts the crawl's partition, as published in the local root,
// into the bucket: the parts, then the listing, then it deletes the parts
// that the listing does not name (see the top of the file). A part equal
// to one the crawl's listing names (same table, size and SHA-256) is not
// put again: the new listing names that object. It reports whether it left
// unlisted parts that a committed segment names, for sweep.
func (b *bucket) publish(crawl string) (left bool, err error) {
	ctx := context.Background()
	old, err := b.readListing(crawl)
	if err != nil {
		return false, err
	}
	reusable := listedParts(old)
	pub := time.Now().UTC().Format("20060102T150405") + "-" + randomHex(4)
	l := listing{Crawl: crawl, Publication: pub}
	for _, t := range schema.Tables() {
		files, err := partFiles(b.local, crawl, t.Name)
		if err != nil {
			return false, err
		}
		slices.Sort(files)
		for i, f := range files {
			part, err := describePart(f)
			if err != nil {
				return false, fmt.Errorf("dataset: publishing %s: %w", t.Name, err)
			}
			if key, ok := reusable.take(t.Name, part); ok {
				part.Name = key
				l.Files = append(l.Files, part)
				continue
			}
			part.Name = partitionKey(t.Name, crawl) + fmt.Sprintf("part-%s-%05d.parquet", pub, i)
			if err := b.store.PutFile(ctx, part.Name, f); err != nil {
				return false, fmt.Errorf("dataset: publishing %s: %w", t.Name, err)
			}
			l.Files = append(l.Files, part)
		}
	}
	data, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return false, err
	}
	if err := b.store.Put(ctx, listingKey(crawl), data); err != nil {
		return false, fmt.Errorf("dataset: publishing crawl %s: %w", crawl, err)
	}
	return b.deleteUnlisted(crawl, l)
}

// describePart returns the size and SHA-256 of the local file at path, as
// a listedFile without its name.
func describePart(path string) (listedFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return listedFile{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return listedFile{}, err
	}
	return listedFile{Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// partContent says what a part holds: its table, size and SHA-256.
type partContent struct {
	table  string
	size   int64
	sha256 string
}

// reusableParts are the objects of a listing, by content; each may be
// named once by the next listing.
type reusableParts map[partContent][]string

// listedParts returns the parts of the listing l (nil: none) that record
// their SHA-256.
func listedParts(l *listing) reusableParts {
	r := reusableParts{}
	if l == nil {
		return r
	}
	for _, f := range l.Files {
		if f.SHA256 != "" {
			c := partContent{f.table(), f.Size, f.SHA256}
			r[c] = append(r[c], f.Name)
		}
	}
	return r
}

// take returns the key of a listed part of table with the content of
// part, and forgets it: two equal parts of a publication are two objects.
func (r reusableParts) take(table string, part listedFile) (string, bool) {
	c := partContent{table, part.Size, part.SHA256}
	keys := r[c]
	if len(keys) == 0 {
		return "", false
	}
	r[c] = keys[1:]
	return keys[0], true
}

// partitionKey is the folder of a table's partition in a bucket.
func partitionKey(table, crawl string) string {
	return table + "/" + schema.PartitionKey + "=" + crawl + "/"
}

// deleteUnlisted deletes the objects of the crawl's partitions that the
// listing l does not name, nor a committed segment (SegmentManifest.Whole):
// parts of earlier or interrupted publications. It reports whether it left
// unlisted parts that a segment names.
func (b *bucket) deleteUnlisted(crawl string, l listing) (left bool, err error) {
	ctx := context.Background()
	listed, keep := map[string]bool{}, map[string]bool{}
	for _, f := range l.Files {
		listed[f.Name] = true
	}
	segs, err := b.committed(crawl)
	if err != nil {
		return false, err
	}
	for _, s := range segs {
		for _, p := range s.Whole {
			keep[p.Key] = true
		}
	}
	for _, t := range schema.Tables() {
		objs, err := b.store.List(ctx, partitionKey(t.Name, crawl))
		if err != nil {
			return false, fmt.Errorf("dataset: %w", err)
		}
		for _, o := range objs {
			switch {
			case listed[o.Key]:
			case keep[o.Key]:
				left = true
			default:
				if err := b.store.Delete(ctx, o.Key); err != nil {
					return false, fmt.Errorf("dataset: %w", err)
				}
			}
		}
	}
	return left, nil
}

// sweep deletes the objects of the crawl's partitions that its listing
// does not name and that the work, discarded, named: those a publication
// left for the segments it published from.
func (b *bucket) sweep(crawl string) error {
	l, err := b.readListing(crawl)
	if err == nil && l != nil {
		_, err = b.deleteUnlisted(crawl, *l)
	}
	return err
}

// pullPublished fetches the listed parts of the crawl's published
// partition of the tables (all when none is named) into the local folder
// dir, laid out as the dataset, but for those dir holds already (same
// size and SHA-256); it reports false when nothing is published.
func (b *bucket) pullPublished(crawl, dir string, tables ...string) (bool, error) {
	l, err := b.readListing(crawl)
	if err != nil || l == nil {
		return false, err
	}
	var objs []objstore.Object
	for _, f := range l.Files {
		if len(tables) > 0 && !slices.Contains(tables, f.table()) {
			continue
		}
		if have, err := describePart(filepath.Join(dir, filepath.FromSlash(f.Name))); err == nil && have.Size == f.Size && (f.SHA256 == "" || have.SHA256 == f.SHA256) {
			continue
		}
		objs = append(objs, objstore.Object{Key: f.Name, Size: f.Size})
	}
	return true, b.download(objs, "", dir)
}

// Publication returns the name of the publication of crawl that the
// listing of the dataset in object storage at root (s3://BUCKET/PREFIX)
// holds, "" when the crawl is not published there: a publication puts a
// new name, a rerun that changes nothing keeps it, so that a job can tell
// whether what it did with a publication (a report) is of the current one.
func Publication(root, crawl string) (string, error) {
	b, err := openRoot(root)
	if err != nil {
		return "", err
	}
	l, err := b.readListing(crawl)
	if err != nil || l == nil {
		return "", err
	}
	return l.Publication, nil
}

// PublishedFiles returns the parts of the published partitions of the
// dataset in object storage at root (s3://BUCKET/PREFIX), as their
// listings name them, for [objstore.Store.FS]: a reader of these sees
// each partition whole, whatever a run publishes meanwhile. It opens the
// root read-only, without the checks of a run's.
func PublishedFiles(ctx context.Context, store *objstore.Store) ([]objstore.File, error) {
	objs, err := store.List(ctx, ".published/")
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	var files []objstore.File
	for _, o := range objs {
		data, _, err := store.Get(ctx, o.Key)
		if err != nil {
			return nil, fmt.Errorf("dataset: %w", err)
		}
		var l listing
		if err := json.Unmarshal(data, &l); err != nil {
			return nil, fmt.Errorf("dataset: reading %s: %w", store.URL(o.Key), err)
		}
		for _, f := range l.Files {
			files = append(files, objstore.File{Name: f.Name, Size: f.Size})
		}
	}
	return files, nil
}
