package objstore

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"path"
	"slices"
	"sync"
	"time"
)

// An fs.FS of objects. Parquet readers read a file's footer, then its
// column chunks, each with many small reads at offsets: one GET each would
// make a report thousands of round trips. A file reads in blocks of at
// least ReadAhead bytes (a small file at once, whole), and keeps its
// CachedBlocks latest blocks.
const (
	// ReadAhead is the least a read of an object fetches.
	ReadAhead = 4 << 20
	// CachedBlocks is how many fetched blocks a file keeps.
	CachedBlocks = 4
)

// A File names an object of an FS and gives its size.
type File struct {
	Name string // the path in the FS, relative to the store's prefix
	Size int64
}

// FS returns the objects files (of the store's prefix) as a read-only
// file system: its folders are those of their names; its files implement
// io.ReaderAt with ranged GETs. The list is taken as given: the FS lists
// nothing itself, so a reader sees these objects whatever is written
// beside them meanwhile.
func (s *Store) FS(ctx context.Context, files []File) fs.FS {
	f := &objectFS{store: s, ctx: ctx, files: map[string]int64{}, dirs: map[string][]string{}}
	for _, file := range files {
		f.files[file.Name] = file.Size
		for name := file.Name; name != "."; name = path.Dir(name) {
			dir := path.Dir(name)
			if slices.Contains(f.dirs[dir], path.Base(name)) {
				break
			}
			f.dirs[dir] = append(f.dirs[dir], path.Base(name))
		}
	}
	for _, names := range f.dirs {
		slices.Sort(names)
	}
	return f
}

type objectFS struct {
	store *Store
	ctx   context.Context
	files map[string]int64
	dirs  map[string][]string // folder -> the names in it
}

// Open implements fs.FS.
func (f *objectFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if size, ok := f.files[name]; ok {
		return &objectFile{fs: f, name: name, size: size}, nil
	}
	if _, ok := f.dirs[name]; ok || name == "." {
		return &objectDir{fs: f, name: name}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// ReadDir implements fs.ReadDirFS.
func (f *objectFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if _, ok := f.dirs[name]; !ok && name != "." {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	var out []fs.DirEntry
	for _, n := range f.dirs[name] {
		out = append(out, f.info(path.Join(name, n)))
	}
	return out, nil
}

// Stat implements fs.StatFS.
func (f *objectFS) Stat(name string) (fs.FileInfo, error) {
	if _, ok := f.files[name]; ok {
		return f.info(name), nil
	}
	if _, ok := f.dirs[name]; ok || name == "." {
		return f.info(name), nil
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
}

// info describes the file or folder name.
func (f *objectFS) info(name string) objectInfo {
	size, isFile := f.files[name]
	return objectInfo{name: path.Base(name), size: size, dir: !isFile}
}

// objectInfo is an fs.FileInfo and fs.DirEntry of an objectFS.
type objectInfo struct {
	name string
	size int64
	dir  bool
}

func (i objectInfo) Name() string { return i.name }
func (i objectInfo) Size() int64  { return i.size }
func (i objectInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
func (i objectInfo) ModTime() time.Time         { return time.Time{} }
func (i objectInfo) IsDir() bool                { return i.dir }
func (i objectInfo) Sys() any                   { return nil }
func (i objectInfo) Type() fs.FileMode          { return i.Mode().Type() }
func (i objectInfo) Info() (fs.FileInfo, error) { return i, nil }

// objectDir is an open folder.
type objectDir struct {
	fs   *objectFS
	name string
	read int // entries ReadDir has returned
}

func (d *objectDir) Stat() (fs.FileInfo, error) { return d.fs.info(d.name), nil }
func (d *objectDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.name, Err: errors.New("is a directory")}
}
func (d *objectDir) Close() error { return nil }

// ReadDir implements fs.ReadDirFile.
func (d *objectDir) ReadDir(n int) ([]fs.DirEntry, error) {
	all, _ := d.fs.ReadDir(d.name)
	rest := all[d.read:]
	if n > 0 {
		if len(rest) == 0 {
			return nil, io.EOF
		}
		rest = rest[:min(n, len(rest))]
	}
	d.read += len(rest)
	return rest, nil
}

// objectFile is an open object: it reads at offsets through its block
// cache, and in sequence with Read.
type objectFile struct {
	fs   *objectFS
	name string
	size int64
	pos  int64 // of Read

	mu     sync.Mutex
	blocks []block // most recently used last
}

// A block is bytes of the object from off.
type block struct {
	off  int64
	data []byte
}

func (f *objectFile) Stat() (fs.FileInfo, error) { return f.fs.info(f.name), nil }
func (f *objectFile) Close() error               { return nil }

// Read implements io.Reader.
func (f *objectFile) Read(p []byte) (int, error) {
	n, err := f.ReadAt(p, f.pos)
	f.pos += int64(n)
	if err == io.EOF && n > 0 {
		err = nil
	}
	return n, err
}

// ReadAt implements io.ReaderAt: from the cached blocks, else from a new
// block of at least ReadAhead bytes fetched with one ranged GET.
func (f *objectFile) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, &fs.PathError{Op: "read", Path: f.name, Err: fs.ErrInvalid}
	}
	if off >= f.size {
		return 0, io.EOF
	}
	want := min(int64(len(p)), f.size-off)
	done := int64(0)
	for done < want {
		b, err := f.blockAt(off+done, want-done)
		if err != nil {
			return int(done), &fs.PathError{Op: "read", Path: f.name, Err: err}
		}
		done += int64(copy(p[done:want], b.data[off+done-b.off:]))
	}
	if want < int64(len(p)) {
		return int(want), io.EOF
	}
	return int(want), nil
}

// blockAt returns a block holding the byte at off, fetching one of at
// least n bytes (and ReadAhead) when none is cached.
func (f *objectFile) blockAt(off, n int64) (block, error) {
	f.mu.Lock()
	for i, b := range f.blocks {
		if b.off <= off && off < b.off+int64(len(b.data)) {
			f.blocks = append(append(f.blocks[:i:i], f.blocks[i+1:]...), b)
			f.mu.Unlock()
			return b, nil
		}
	}
	f.mu.Unlock()
	start, end := off, min(f.size, off+max(n, ReadAhead))
	if f.size <= ReadAhead {
		start, end = 0, f.size
	}
	data, err := f.fs.store.getRange(f.fs.ctx, f.name, start, end-start)
	if err != nil {
		return block{}, err
	}
	b := block{off: start, data: data}
	f.mu.Lock()
	f.blocks = append(f.blocks, b)
	if len(f.blocks) > CachedBlocks {
		f.blocks = slices.Delete(f.blocks, 0, 1)
	}
	f.mu.Unlock()
	return b, nil
}
