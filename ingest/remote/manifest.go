package remote

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/gzip"

	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/ingest/objstore"
)

// Common Crawl manifests: "crawl-data/CC-MAIN-YYYY-WW/robotstxt.paths.gz"
// is a gzip'd text file listing the crawl's files, one path per line,
// relative to the root of Common Crawl's bucket (see FORMATS.md §1.1).
const (
	// DefaultBaseURL is where Common Crawl serves the files its manifests
	// name (the HTTPS face of s3://commoncrawl/).
	DefaultBaseURL = "https://data.commoncrawl.org/"
	// ManifestSuffix ends the name of a manifest (of a URL, its path).
	ManifestSuffix = ".paths.gz"
	// MaxManifestLines bounds the lines of one manifest, blank ones
	// included (a crawl's robotstxt manifest has about 100,000); a longer
	// one is refused with ErrManifest. Lines are at most
	// bufio.MaxScanTokenSize (64 KiB) long.
	MaxManifestLines = 1 << 20
)

// IsManifest reports whether name, a path, an http(s) URL or an s3://
// URL, names a Common Crawl manifest: its path (key) ends in ".paths.gz"
// (in any case).
func IsManifest(name string) bool {
	p := name
	if isHTTP(name) {
		u, err := url.Parse(name)
		if err != nil {
			return false
		}
		p = u.Path
	}
	return strings.HasSuffix(strings.ToLower(p), ManifestSuffix)
}

// WithBaseURL sets what the paths of a local or http(s) manifest are
// relative to in [ExpandInputs] (default DefaultBaseURL): an http(s) URL
// with a host and no query, an s3://BUCKET[/PREFIX] URL, or a local
// folder (a mirror of Common Crawl's bucket). Other URL schemes are
// refused. (The paths of an s3:// manifest are relative to its bucket.)
func WithBaseURL(base string) Option {
	return func(cfg *config) error {
		if err := checkBase(base); err != nil {
			return err
		}
		cfg.baseURL = base
		return nil
	}
}

func checkBase(base string) error {
	bad := func(why string) error { return errorf("%w: base URL %q: %s", archive.ErrInvalidOption, base, why) }
	switch {
	case strings.TrimSpace(base) == "":
		return bad("empty")
	case isHTTP(base):
		u, err := url.Parse(base)
		if err != nil || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			return bad("want http(s)://HOST[/PATH], s3://BUCKET[/PREFIX] or a local folder")
		}
	case IsS3(base):
		if bucket, _, _ := strings.Cut(base[len("s3://"):], "/"); !objstore.ValidBucket(bucket) {
			return bad("want s3://BUCKET[/PREFIX] with a valid bucket name")
		}
	case otherScheme(base) != "":
		return bad("only http, https and s3 URLs are read")
	}
	return nil
}

// ReadManifest reads a manifest from r and returns the inputs it names: one
// per non-blank line, in order, each resolved against base.
//
// The manifest is gzip-compressed text (plain text is accepted too, as
// some servers undo the compression of a .gz file). Lines are trimmed of
// white space; blank lines are skipped. A line that is an http(s) or s3
// URL is taken as is. Any other line must be a clean relative slash-separated
// path: no leading "/", no empty, "." or ".." element, so that a manifest
// can never name a file outside base. It is resolved as:
//   - base an http(s) URL: base, a "/" when base does not end in one, and
//     the path (percent-encoded where needed). With DefaultBaseURL, the
//     line "crawl-data/CC-MAIN-2025-05/segments/.../x.warc.gz" gives
//     "https://data.commoncrawl.org/crawl-data/CC-MAIN-2025-05/segments/.../x.warc.gz".
//   - base an s3:// URL: base, a "/" when base does not end in one, and
//     the path as it is (an s3:// URL's key is not percent-encoded):
//     "s3://commoncrawl/crawl-data/CC-MAIN-2025-05/segments/.../x.warc.gz".
//   - base a local folder: filepath.Join(base, path), so a local mirror of
//     the bucket ("/data/cc" holding "crawl-data/...") is read in place.
//
// The error wraps ErrManifest (with the line number) for a bad line, too
// many lines or corrupt data, ErrInvalidOption for a bad base.
func ReadManifest(r io.Reader, base string) ([]string, error) {
	if err := checkBase(base); err != nil {
		return nil, err
	}
	br := bufio.NewReader(r)
	var text io.Reader = br
	if head, _ := br.Peek(2); bytes.Equal(head, []byte{0x1f, 0x8b}) { // gzip
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, errorf("%w: gzip: %w", ErrManifest, err)
		}
		text = zr
	}
	return manifestLines(text, base)
}

// manifestLines resolves each non-blank line of text against base.
func manifestLines(text io.Reader, base string) ([]string, error) {
	var out []string
	sc := bufio.NewScanner(text)
	n := 0
	for sc.Scan() {
		if n++; n > MaxManifestLines {
			return nil, errorf("%w: more than %d lines", ErrManifest, MaxManifestLines)
		}
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		in, err := resolveManifestLine(base, line)
		if err != nil {
			return nil, errorf("%w: line %d: %w", ErrManifest, n, err)
		}
		out = append(out, in)
	}
	if err := sc.Err(); err != nil {
		return nil, errorf("%w: line %d: %w", ErrManifest, n+1, err)
	}
	return out, nil
}

// resolveManifestLine applies the rule of ReadManifest to one line.
func resolveManifestLine(base, line string) (string, error) {
	switch {
	case IsS3(line):
		if _, err := parseS3(line); err != nil {
			return "", errorf("bad S3 URL %q", line)
		}
		return line, nil
	case isHTTP(line):
		if u, err := url.Parse(line); err != nil || u.Host == "" {
			return "", errorf("bad URL %q", line)
		}
		return line, nil
	}
	if path.IsAbs(line) || path.Clean(line) != line || line == ".." || strings.HasPrefix(line, "../") || line == "." {
		return "", errorf("%q is not a clean relative path", line)
	}
	switch {
	case IsS3(base):
		return strings.TrimSuffix(base, "/") + "/" + line, nil
	case isHTTP(base):
		return strings.TrimSuffix(base, "/") + "/" + (&url.URL{Path: line}).EscapedPath(), nil
	}
	return filepath.Join(base, filepath.FromSlash(line)), nil
}

// readManifest reads the manifest name, a local file or an http(s) or s3
// URL (fetched with the retries and resumption of remote inputs). The
// paths of an s3:// manifest are relative to its bucket, as those of
// Common Crawl's manifests are to s3://commoncrawl/.
func readManifest(name string, rc config) ([]string, error) {
	read := readLocalManifest
	if IsRemote(name) {
		read = readRemoteManifest
	}
	list, err := read(name, rc)
	if err != nil {
		return nil, errorf("reading manifest %s: %w", name, err)
	}
	return list, nil
}

func readLocalManifest(name string, rc config) ([]string, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadManifest(f, rc.baseURL)
}

func readRemoteManifest(name string, rc config) ([]string, error) {
	u, err := target(name, rc)
	if err != nil {
		return nil, err
	}
	if IsS3(name) {
		bucket, _, _ := strings.Cut(name[len("s3://"):], "/")
		rc.baseURL = "s3://" + bucket + "/"
	}
	t := newTransfer(context.Background(), name, u, rc)
	defer t.Close()
	list, err := ReadManifest(t, rc.baseURL)
	switch {
	case t.err != nil && t.off == 0:
		return nil, errorf("%w: %w", archive.ErrRead, t.err)
	case t.err != nil:
		return nil, t.inputError()
	}
	return list, err
}
