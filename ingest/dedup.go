package ingest

import "crypto/sha1"

// maxBodyDigests is how many payload digests an input remembers to store
// each body once (see digestWindow): about 1.5 MB per input being read.
const maxBodyDigests = 1 << 15

// digestWindow remembers the last maxBodyDigests distinct payload digests
// of an input, each as a fixed-size key, so that what an input keeps does
// not grow with its captures (issue 13: a set of every digest grew by
// about 100 bytes a capture). A digest is forgotten, first in first out,
// after maxBodyDigests other distinct digests: a body served again after
// that is stored once more in the bodies table. That table is therefore
// unique per digest only within an input's window; readers deduplicate per
// crawl and digest (the notebooks' bodies view, analyze's lookups).
type digestWindow struct {
	seen  map[[sha1.Size]byte]struct{}
	order [][sha1.Size]byte // ring of the keys in seen, oldest at next once full
	next  int
	max   int
}

func newDigestWindow(max int) *digestWindow {
	return &digestWindow{seen: make(map[[sha1.Size]byte]struct{}), max: max}
}

// add remembers digest and reports whether it is new to the window.
func (w *digestWindow) add(digest string) bool {
	k := sha1.Sum([]byte(digest))
	if _, ok := w.seen[k]; ok {
		return false
	}
	if len(w.order) < w.max {
		w.order = append(w.order, k)
	} else {
		delete(w.seen, w.order[w.next])
		w.order[w.next] = k
		w.next = (w.next + 1) % w.max
	}
	w.seen[k] = struct{}{}
	return true
}

func (w *digestWindow) len() int { return len(w.seen) }
