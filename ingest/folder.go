package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/ingest/remote"
)

// Folders.
//
// A folder named as an input stands for the files below it: each is an
// input of its own (its own inputs row, its own warc_filename, its own
// capture IDs), in lexical order, hidden files and folders (names starting
// with ".") left out. A file met in a folder is read as a named file is,
// except that a file no reader can take is recorded as skipped rather than
// failed: documentation and data files (README*, LICENSE*, PROVENANCE*,
// the extensions of notBodyExt, also under .gz) as Skipped["not-body"], a
// manifest as Skipped["manifest"] (only a manifest named as an input
// expands), a file in a format this package does not read as
// Skipped["unsupported"], a file that is not plausibly a robots.txt body
// (binary data) as Skipped["not-robots-txt"], and anything but a regular
// file as Skipped["not-regular"].

// expandFolders replaces each local folder of inputs by the files below it
// and maps each input that came from a folder to that folder.
func expandFolders(inputs []string) (out []string, folderOf map[string]string) {
	folderOf = map[string]string{}
	for _, in := range inputs {
		if remote.IsRemote(in) || !isDir(in) {
			out = append(out, in)
			continue
		}
		for _, f := range folderFiles(in) {
			out = append(out, f)
			folderOf[f] = in
		}
	}
	return out, folderOf
}

func isDir(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && fi.IsDir()
}

// folderFiles lists the files below root, in lexical order. A path that
// cannot be walked is listed too: opening it records why.
func folderFiles(root string) []string {
	var files []string
	filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		switch {
		case err != nil:
			files = append(files, p)
		case p != root && strings.HasPrefix(e.Name(), "."):
			if e.IsDir() {
				return filepath.SkipDir
			}
		case !e.IsDir():
			files = append(files, p)
		}
		return nil
	})
	return files
}

// skippedByName returns why a file of a folder is skipped whatever it
// holds, or "".
func skippedByName(name string) string {
	switch {
	case !isRegular(name): // links too: the files of a folder are its own
		return archive.SkipNotRegular
	case remote.IsManifest(name):
		return archive.SkipManifest
	case isNotBody(filepath.Base(name)):
		return archive.SkipNotBody
	}
	return ""
}

func isRegular(name string) bool {
	fi, err := os.Lstat(name)
	return err == nil && fi.Mode().IsRegular()
}

// notBodyExt lists extensions of files in a folder that are not bodies.
var notBodyExt = map[string]bool{
	".md": true, ".json": true, ".csv": true, ".tsv": true, ".py": true,
	".go": true, ".sh": true, ".sha256": true, ".sum": true, ".pdf": true,
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

// skipReader is an input of one record, skipped for a reason.
type skipReader struct{ counts archive.Counts }

func newSkipReader(reason string, size int64) *skipReader {
	r := &skipReader{counts: archive.Counts{Records: 1, Bytes: max(size, 0), Skipped: map[string]int64{reason: 1}}}
	if reason == archive.SkipNotRegular {
		r.counts.Bytes = 0
	}
	return r
}

func (r *skipReader) Next() (*archive.Capture, error) { return nil, io.EOF }
func (r *skipReader) Counts() archive.Counts {
	c := r.counts
	c.Skipped = maps.Clone(c.Skipped)
	return c
}
func (r *skipReader) Close() error { return nil }

// otherSchemeURL reports whether name is a URL of a scheme other than
// http(s) ("s3://...", "ftp://...") and not a local file: remote.Open
// refuses it, with the error that says no run can read it (remote.Permanent).
func otherSchemeURL(name string) bool {
	if archive.URLScheme(name) == "" {
		return false
	}
	_, err := os.Stat(name)
	return err != nil
}

// openInput opens an input: an http(s) URL through package remote, a
// local file through package archive. A file of a folder (inFolder) that
// no reader takes is a skipReader, with the reason.
func openInput(ctx context.Context, name string, cfg *Config, inFolder bool) (archive.CaptureReader, io.Closer, error) {
	if remote.IsRemote(name) || otherSchemeURL(name) {
		return remote.Open(ctx, name, cfg.FetchOptions, cfg.ReadOptions...)
	}
	if !inFolder {
		return archive.Open(name, cfg.ReadOptions...)
	}
	fi, err := os.Stat(name)
	if err != nil {
		return nil, nil, &archive.InputError{File: name, Err: fmt.Errorf("%w: %w", archive.ErrRead, err)}
	}
	if reason := skippedByName(name); reason != "" {
		r := newSkipReader(reason, fi.Size())
		return r, r, nil
	}
	r, closer, err := archive.Open(name, cfg.ReadOptions...)
	switch {
	case errors.Is(err, archive.ErrBinary):
		skip := newSkipReader(archive.SkipNotRobotsTxt, fi.Size())
		return skip, skip, nil
	case errors.Is(err, archive.ErrUnknownFormat): // no reader takes it; a reader failing is the input's error
		skip := newSkipReader(archive.SkipUnsupported, fi.Size())
		return skip, skip, nil
	}
	return r, closer, err
}
