package dataset

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestParseShard(t *testing.T) {
	for _, bad := range []string{"", "1", "2/2", "-1/2", "a/b", "0/0", "1/0"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) accepted", bad)
		}
	}
	s, err := ParseShard("3/8")
	if err != nil || s != (Shard{K: 3, N: 8}) || s.String() != "3/8" {
		t.Errorf("ParseShard(3/8) = %v %v", s, err)
	}
	// Every input belongs to exactly one shard.
	for i := range 200 {
		in := fmt.Sprintf("crawl-data/x/%d.warc.gz", i)
		n := 0
		for k := range 5 {
			if (Shard{K: k, N: 5}).Has(in) {
				n++
			}
		}
		if n != 1 || !(Shard{}).Has(in) {
			t.Fatalf("%s is in %d shards", in, n)
		}
	}
}

// Shards are even over names like Common Crawl's, which differ in a few
// digits (in the second family, in pairs: a weak hash such as FNV-1a, whose
// low bit is the parity of the bytes, puts them all in one shard of two):
// each of N shards gets its share of 2,000 names give or take four standard
// deviations (a fair hash fails this about once in 10,000).
// An input's shard depends on its base name only: the same file read from
// another folder or another mirror falls in the same shard.
func TestShardIgnoresWhereInputsLive(t *testing.T) {
	for i := range 200 {
		base := fmt.Sprintf("CC-MAIN-20250113203450-20250113233450-%05d.warc.gz", i)
		names := []string{
			"/tmp/a/" + base,
			"/home/someone/mirror/crawl-data/" + base,
			"https://data.commoncrawl.org/crawl-data/CC-MAIN-2025-05/segments/1/robotstxt/" + base,
			"http://127.0.0.1:54321/crawl-data/CC-MAIN-2025-05/segments/1/robotstxt/" + base + "?x=1",
		}
		for k := range 4 {
			s := Shard{K: k, N: 4}
			for _, n := range names[1:] {
				if s.Has(n) != s.Has(names[0]) {
					t.Fatalf("%s: shard %v says %v for %s but %v for %s", base, s, s.Has(names[0]), names[0], s.Has(n), n)
				}
			}
		}
	}
}

func TestShardsAreEven(t *testing.T) {
	families := map[string]func(i int) string{
		"common crawl": func(i int) string {
			return fmt.Sprintf("https://data.commoncrawl.org/crawl-data/CC-MAIN-2025-05/segments/1736703361941.%d/robotstxt/CC-MAIN-20250113203450-20250113233450-%05d.warc.gz", i/100, i)
		},
		"paired digits": func(i int) string {
			return fmt.Sprintf("http://127.0.0.1:8080/crawl-data/CC-MAIN-2025-05/segments/%d/robotstxt/CC-MAIN-%05d.warc.gz", i, i)
		},
	}
	for family, name := range families {
		for _, n := range []int{2, 3, 8, 16} {
			counts := make([]int, n)
			for i := range 2000 {
				for k := range n {
					if (Shard{K: k, N: n}).Has(name(i)) {
						counts[k]++
					}
				}
			}
			share := 2000 / float64(n)
			sd := math.Sqrt(share * (1 - 1/float64(n)))
			for k, c := range counts {
				if math.Abs(float64(c)-share) > 4*sd {
					t.Errorf("%s: shard %d/%d has %d of 2000 inputs, want about %.0f (all: %v)", family, k, n, c, share, counts)
				}
			}
		}
	}
}

// The finalize lock: taken once; a lock whose process is gone, or that is
// too old, is taken over; a live one is not. The locks found are those of
// earlier versions, plain files (lock_test.go tests both forms).
func TestFinalizeLock(t *testing.T) {
	w, err := OpenWork(t.TempDir(), "c", Shard{})
	if err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(w.path, "finalize.lock")
	host, _ := os.Hostname()
	f := func(content string, want bool) {
		t.Helper()
		os.RemoveAll(lock)
		if content != "" {
			writeLockFile(t, lock, content, time.Now())
		}
		got, err := w.LockFinalize(time.Hour)
		if err != nil || got != want {
			t.Errorf("lock %q: took it %v (%v), want %v", content, got, err, want)
		}
	}
	now := time.Now().UTC().Format(time.RFC3339)
	f("", true)
	f(fmt.Sprintf("%s %d %s\n", host, os.Getpid(), now), false)                                        // this live process
	f(fmt.Sprintf("%s %d %s\n", host, 1<<30, now), true)                                               // a process that is gone
	f(fmt.Sprintf("other-host %d %s\n", os.Getpid(), now), false)                                      // another host, recent
	f(fmt.Sprintf("other-host 1 %s\n", time.Now().Add(-2*time.Hour).UTC().Format(time.RFC3339)), true) // too old
	// One that cannot be read: an earlier version may be writing it, unless
	// it was written long ago.
	f("garbage", false)
	os.RemoveAll(lock)
	writeLockFile(t, lock, "garbage", time.Now().Add(-2*halfWrittenGrace))
	if got, err := w.LockFinalize(time.Hour); err != nil || !got {
		t.Errorf("a lock half written long ago: took it %v (%v), want true", got, err)
	}
	// Taking it twice fails the second time.
	os.RemoveAll(lock)
	if a, _ := w.LockFinalize(time.Hour); !a {
		t.Fatal("first lock failed")
	}
	if b, _ := w.LockFinalize(time.Hour); b {
		t.Error("lock taken twice")
	}
}

// A run of a shard cleans what an interrupted run of the same shard left
// (folders being written, segments without a manifest), and only those.
func TestWorkCleanUp(t *testing.T) {
	root := t.TempDir()
	mine := Shard{K: 0, N: 2}
	w, _ := OpenWork(root, "c", mine)
	mk := func(rel string) string {
		p := filepath.Join(w.path, rel)
		os.MkdirAll(p, 0o755)
		return p
	}
	stale := mk("tmp-s0of2-x")
	other := mk("tmp-s1of2-y")
	orphan := mk("segments/s0of2-20260101T000000-000001-aa")
	done := mk("segments/s0of2-20260101T000000-000002-bb")
	os.WriteFile(done+".json", []byte(`{"segment":"x","inputs":[]}`), 0o644)
	if _, err := OpenWork(root, "c", mine); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{stale: false, other: true, orphan: false, done: true} {
		if exists(p) != want {
			t.Errorf("%s exists=%v, want %v", filepath.Base(p), !want, want)
		}
	}
}

// mergeGroups: parts are merged in order until a group holds partBytes; a
// kept segment's part of at least half partBytes (a published part copied
// whole) is a group of its own, also between smaller parts, so that a
// rerun publishes it unchanged; a smaller one is merged as any other.
func TestMergeGroups(t *testing.T) {
	parts := []mergePart{
		{path: "k0", size: 100, kept: true},
		{path: "k1", size: 60, kept: true},
		{path: "k2", size: 10, kept: true},
		{path: "n0", size: 30},
		{path: "n1", size: 70},
		{path: "n2", size: 60},
		{path: "n3", size: 5},
	}
	got := fmt.Sprint(mergeGroups(parts, 100))
	if want := "[[k0] [k1] [k2 n0 n1] [n2 n3]]"; got != want {
		t.Errorf("mergeGroups = %s, want %s", got, want)
	}
	// A big kept part after small ones closes their group first.
	got = fmt.Sprint(mergeGroups([]mergePart{{path: "a", size: 10, kept: true}, {path: "b", size: 80, kept: true}, {path: "c", size: 10}}, 100))
	if want := "[[a] [b] [c]]"; got != want {
		t.Errorf("mergeGroups = %s, want %s", got, want)
	}
}
