package ingest

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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
		if IsRemote(in) || !isDir(in) {
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
		return SkipNotRegular
	case IsManifest(name):
		return SkipManifest
	case isNotBody(filepath.Base(name)):
		return SkipNotBody
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

// plausibleBody reports whether the first bytes of an uncompressed file
// could be a robots.txt body: text (in any ASCII-compatible encoding, or
// UTF-16 with its byte order mark), or nothing. Binary data has NUL bytes
// or many control characters; robots.txt files, even broken ones, have
// neither.
func plausibleBody(head []byte) bool {
	if bytes.HasPrefix(head, []byte{0xFF, 0xFE}) || bytes.HasPrefix(head, []byte{0xFE, 0xFF}) {
		return true
	}
	controls := 0
	for _, b := range head {
		switch {
		case b == 0:
			return false
		case b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f' && b != '\v' && b != 0x1A: // 0x1A: DOS end of file
			controls++
		}
	}
	return controls*20 <= len(head) // at most 5%
}

// skipReader is an input of one record, skipped for a reason.
type skipReader struct{ counts Counts }

func newSkipReader(reason string, size int64) *skipReader {
	r := &skipReader{counts: Counts{Records: 1, Bytes: max(size, 0)}}
	if reason == SkipNotRegular {
		r.counts.Bytes = 0
	}
	r.counts.skip(reason)
	return r
}

func (r *skipReader) Next() (*Capture, error) { return nil, io.EOF }
func (r *skipReader) Counts() Counts          { return r.counts.snapshot() }
func (r *skipReader) Close() error            { return nil }

// inFolder marks an input as a file met in a folder.
func inFolder() Option {
	return func(c *config) error { c.inFolder = true; return nil }
}
