package ingest

import (
	"io"
	"io/fs"

	"path/filepath"
	"strings"
)

// DirReader reads a folder: every file below it, in lexical order, through
// the reader Open would choose (WARC, ARC and tar files yield their
// captures, any other file is one robots.txt body). Hidden files and
// folders (names starting with ".") are left out; documentation and data
// files (README*, LICENSE*, PROVENANCE*, and the extensions in
// notBodyExt, also under .gz) are counted as Skipped["not-body"]; files
// that cannot be opened or are in an unsupported format as
// Skipped["unreadable"] with a Damage; symbolic links and other
// non-regular files as Skipped["not-regular"]. Counts are the sums over
// the files.
type DirReader struct {
	root   string
	opts   []Option
	items  []dirItem
	walked bool
	i      int
	cur    CaptureReader
	closer io.Closer
	done   Counts // counts of the finished files and the folder's own skips
	err    error
}

type dirItem struct {
	path    string
	regular bool
}

// notBodyExt lists extensions of files in a folder that are not bodies.
var notBodyExt = map[string]bool{
	".md": true, ".json": true, ".csv": true, ".tsv": true, ".py": true,
	".go": true, ".sh": true, ".sha256": true, ".sum": true, ".pdf": true,
}

// NewDirReader returns a reader of the folder root. Invalid options make
// Next return the error.
func NewDirReader(root string, opts ...Option) *DirReader {
	d := &DirReader{root: root, opts: opts}
	if _, err := newConfig(opts); err != nil {
		d.err = err
	}
	return d
}

func (d *DirReader) walk() {
	d.walked = true
	err := filepath.WalkDir(d.root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			d.items = append(d.items, dirItem{path: p, regular: true}) // reported when opened
			return nil
		}
		if p != d.root && strings.HasPrefix(e.Name(), ".") {
			if e.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !e.IsDir() {
			d.items = append(d.items, dirItem{path: p, regular: e.Type().IsRegular()})
		}
		return nil
	})
	if err != nil {
		d.err = &InputError{File: d.root, Err: err}
	}
}

// Next returns the next capture of the folder, or io.EOF. See
// [CaptureReader].
func (d *DirReader) Next() (*Capture, error) {
	if !d.walked && d.err == nil {
		d.walk()
	}
	for d.err == nil {
		if d.cur != nil {
			c, err := d.cur.Next()
			if err == nil {
				return c, nil
			}
			d.finishFile(err)
			continue
		}
		if d.i >= len(d.items) {
			return nil, io.EOF
		}
		d.i++
		d.startFile(d.items[d.i-1])
	}
	return nil, d.err
}

// startFile opens the next file, or counts why it is skipped.
func (d *DirReader) startFile(it dirItem) {
	own := &d.done
	switch {
	case !it.regular:
		own.Records++
		own.skip(SkipNotRegular)
		return
	case isNotBody(filepath.Base(it.path)):
		own.Records++
		own.skip(SkipNotBody)
		return
	}
	r, c, err := Open(it.path, d.opts...)
	if err != nil {
		own.Records++
		own.skip(SkipUnreadable)
		own.damage(Damage{Kind: DamageUnreadable, Detail: err.Error()})
		return
	}
	d.cur, d.closer = r, c
}

// finishFile adds up the counts of the current file; a file that could not
// be read to its end is recorded as damage, and the folder goes on.
func (d *DirReader) finishFile(err error) {
	d.done.add(d.cur.Counts())
	if err != io.EOF {
		d.done.damage(Damage{Kind: DamageUnreadable, Detail: err.Error()})
	}
	d.closer.Close()
	d.cur, d.closer = nil, nil
}

func isNotBody(base string) bool {
	lower := strings.ToLower(base)
	for _, p := range []string{"readme", "license", "provenance"} {
		if strings.HasPrefix(lower, p) {
			return true
		}
	}
	lower = strings.TrimSuffix(lower, ".gz")
	return notBodyExt[filepath.Ext(lower)]
}

// Counts returns a snapshot of the totals over the files read so far.
func (d *DirReader) Counts() Counts {
	c := d.done.snapshot()
	if d.cur != nil {
		c.add(d.cur.Counts())
	}
	return c
}

// Close closes the file being read, if any.
func (d *DirReader) Close() error {
	if d.closer != nil {
		return d.closer.Close()
	}
	return nil
}
