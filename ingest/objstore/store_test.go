package objstore_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/robocensus/robocensus/ingest/objstore"
	"github.com/robocensus/robocensus/internal/testutil/s3test"
)

// newStore starts versitygw with a bucket and returns the store of
// s3://robocensus-test/data on it.
func newStore(t *testing.T) (*objstore.Store, *s3test.Server) {
	t.Helper()
	srv := s3test.Start(t)
	srv.CreateBucket(t, "robocensus-test")
	st, err := objstore.Open(objstore.Config{Endpoint: srv.URL, Region: s3test.Region, Credentials: srv.Credentials()}, "s3://robocensus-test/data")
	if err != nil {
		t.Fatal(err)
	}
	return st, srv
}

// versitygw honours If-None-Match: * on PUT and If-Match on DELETE, which
// the dataset's locks rely on.
func TestConditionalWrites(t *testing.T) {
	st, _ := newStore(t)
	ctx := context.Background()
	if err := st.CheckConditionalWrites(ctx, ".probe"); err != nil {
		t.Fatalf("CheckConditionalWrites: %v", err)
	}
	if _, err := st.PutIfAbsent(ctx, "lock", []byte("a")); err != nil {
		t.Fatal(err)
	}
	if _, err := st.PutIfAbsent(ctx, "lock", []byte("b")); !errors.Is(err, objstore.ErrExists) {
		t.Fatalf("second PutIfAbsent: %v, want ErrExists", err)
	}
	data, obj, err := st.Get(ctx, "lock")
	if err != nil || string(data) != "a" || obj.Modified.IsZero() {
		t.Fatalf("Get: %q, %+v, %v; want the first put's", data, obj, err)
	}
	if _, err := st.PutIfMatch(ctx, "lock", []byte("c"), `"0123456789abcdef0123456789abcdef"`); !errors.Is(err, objstore.ErrExists) {
		t.Fatalf("PutIfMatch with another ETag: %v, want ErrExists", err)
	}
	etag, err := st.PutIfMatch(ctx, "lock", []byte("a"), obj.ETag)
	if err != nil || etag == "" {
		t.Fatalf("PutIfMatch with its ETag: %q, %v", etag, err)
	}
	if err := st.DeleteIfMatch(ctx, "lock", `"0123456789abcdef0123456789abcdef"`); !errors.Is(err, objstore.ErrExists) {
		t.Fatalf("DeleteIfMatch with another ETag: %v, want ErrExists", err)
	}
	if err := st.DeleteIfMatch(ctx, "lock", etag); err != nil {
		t.Fatalf("DeleteIfMatch with its ETag: %v", err)
	}
	if _, _, err := st.Get(ctx, "lock"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Get after delete: %v, want fs.ErrNotExist", err)
	}
}

// A missing bucket, refused credentials and an endpoint nothing listens
// on each give their own error, naming the URL.
func TestStoreErrors(t *testing.T) {
	st, srv := newStore(t)
	ctx := context.Background()
	if err := st.Check(ctx); err != nil {
		t.Fatalf("Check: %v", err)
	}
	cases := []struct {
		name string
		cfg  objstore.Config
		url  string
		want error
	}{
		{"missing bucket", objstore.Config{Endpoint: srv.URL, Credentials: srv.Credentials()}, "s3://no-such-bucket/x", objstore.ErrNoBucket},
		{"wrong credentials", objstore.Config{Endpoint: srv.URL, Credentials: credentials.NewStaticCredentialsProvider("nobody", "wrong-secret", "")},
			"s3://robocensus-test/x", objstore.ErrAccessDenied},
		{"unreachable", objstore.Config{Endpoint: "http://127.0.0.1:1", Credentials: srv.Credentials()}, "s3://robocensus-test/x", objstore.ErrUnreachable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bad, err := objstore.Open(c.cfg, c.url)
			if err != nil {
				t.Fatal(err)
			}
			err = bad.Check(ctx)
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.url) {
				t.Fatalf("Check: %v; want %v naming %s", err, c.want, c.url)
			}
		})
	}
}

// The FS of objects passes fstest.TestFS, and reads at any offset of a
// file larger than ReadAhead the bytes stored, as a sequence of reads too.
func TestFSReads(t *testing.T) {
	st, _ := newStore(t)
	ctx := context.Background()
	big := make([]byte, objstore.ReadAhead*2+12345)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range big {
		big[i] = byte(rng.Uint32())
	}
	small := []byte("small file\n")
	for key, data := range map[string][]byte{"t/crawl=a/part-1.parquet": big, "t/crawl=a/part-2.parquet": small, "t/crawl=b/unlisted.parquet": small} {
		if err := st.Put(ctx, key, data); err != nil {
			t.Fatal(err)
		}
	}
	fsys := st.FS(ctx, []objstore.File{{Name: "t/crawl=a/part-1.parquet", Size: int64(len(big))}, {Name: "t/crawl=a/part-2.parquet", Size: int64(len(small))}})
	if err := fstest.TestFS(fsys, "t/crawl=a/part-1.parquet", "t/crawl=a/part-2.parquet"); err != nil {
		t.Fatal(err)
	}
	if _, err := fsys.Open("t/crawl=b/unlisted.parquet"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("an object not listed opens: %v", err)
	}
	f, err := fsys.Open("t/crawl=a/part-1.parquet")
	if err != nil {
		t.Fatal(err)
	}
	ra := f.(io.ReaderAt)
	for _, r := range [][2]int{{0, 10}, {len(big) - 8, 8}, {objstore.ReadAhead - 3, 10}, {5, objstore.ReadAhead * 2}, {len(big) - 100, 100}} {
		buf := make([]byte, r[1])
		if n, err := ra.ReadAt(buf, int64(r[0])); n != r[1] || err != nil && err != io.EOF || !bytes.Equal(buf, big[r[0]:r[0]+r[1]]) {
			t.Fatalf("ReadAt(%d bytes at %d): %d, %v, equal %v", r[1], r[0], n, err, bytes.Equal(buf, big[r[0]:r[0]+r[1]]))
		}
	}
	if n, err := ra.ReadAt(make([]byte, 10), int64(len(big)-4)); n != 4 || err != io.EOF {
		t.Fatalf("ReadAt past the end: %d, %v; want 4, io.EOF", n, err)
	}
	// Read in small pieces (io.ReadAll's), the file takes a GET per
	// ReadAhead bytes, not one per piece.
	f, err = fsys.Open("t/crawl=a/part-1.parquet")
	if err != nil {
		t.Fatal(err)
	}
	before := st.RangedGets()
	got, err := io.ReadAll(struct{ io.Reader }{f}) // 512 bytes, then more
	if err != nil || !bytes.Equal(got, big) {
		t.Fatalf("ReadAll: %d bytes, %v", len(got), err)
	}
	if gets, want := st.RangedGets()-before, int64(len(big)/objstore.ReadAhead+1); gets != want {
		t.Errorf("reading %d bytes in small reads took %d GETs, want %d", len(big), gets, want)
	}
}

// A file larger than Config.PieceSize is put with a multipart upload, in
// pieces (its ETag says how many), and reads back equal; a smaller one in
// one PUT. A piece size below S3's minimum is refused at Open.
func TestPutFileInPieces(t *testing.T) {
	srv := s3test.Start(t)
	srv.CreateBucket(t, "robocensus-test")
	cfg := objstore.Config{Endpoint: srv.URL, Region: s3test.Region, Credentials: srv.Credentials(), PieceSize: objstore.MinPieceSize}
	st, err := objstore.Open(cfg, "s3://robocensus-test/data")
	if err != nil {
		t.Fatal(err)
	}
	data := make([]byte, 2*objstore.MinPieceSize+12345)
	rand.NewChaCha8([32]byte{1}).Read(data)
	path := filepath.Join(t.TempDir(), "part.parquet")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := st.PutFile(ctx, "t/crawl=c/big.parquet", path); err != nil {
		t.Fatalf("PutFile: %v", err)
	}
	got, obj, err := st.Get(ctx, "t/crawl=c/big.parquet")
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read back %d bytes of %d (equal: %v), %v", len(got), len(data), bytes.Equal(got, data), err)
	}
	if !strings.HasSuffix(strings.Trim(obj.ETag, `"`), "-3") {
		t.Errorf("ETag %s: want that of a multipart upload of 3 pieces", obj.ETag)
	}
	small := filepath.Join(t.TempDir(), "small.parquet")
	if err := os.WriteFile(small, data[:objstore.MinPieceSize], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := st.PutFile(ctx, "t/crawl=c/small.parquet", small); err != nil {
		t.Fatal(err)
	}
	if _, obj, err := st.Get(ctx, "t/crawl=c/small.parquet"); err != nil || strings.Contains(obj.ETag, "-") {
		t.Errorf("a file of PieceSize: ETag %s, %v; want one PUT's", obj.ETag, err)
	}
	cfg.PieceSize = objstore.MinPieceSize - 1
	if _, err := objstore.Open(cfg, "s3://robocensus-test/data"); err == nil || !strings.Contains(err.Error(), "5 MiB") {
		t.Errorf("Open with a piece size below 5 MiB: %v", err)
	}
}

// A multipart upload whose second piece the store refuses fails with the
// store's error, and is aborted: the bucket has no upload in progress left,
// and no object.
func TestPutFileInPiecesAborts(t *testing.T) {
	srv := s3test.Start(t)
	srv.CreateBucket(t, "robocensus-test")
	target, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("partNumber") == "2" {
			// Read the piece before answering: a server that answers first
			// and closes may reset the connection under the client's
			// upload, which then sees the reset and not the answer.
			io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>InvalidRequest</Code><Message>refused by the test</Message></Error>`)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	defer refusing.Close()
	st, err := objstore.Open(objstore.Config{Endpoint: refusing.URL, Region: s3test.Region, Credentials: srv.Credentials(), PieceSize: objstore.MinPieceSize}, "s3://robocensus-test/data")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "part.parquet")
	if err := os.WriteFile(path, make([]byte, 2*objstore.MinPieceSize+1), 0o644); err != nil {
		t.Fatal(err)
	}
	err = st.PutFile(context.Background(), "big.parquet", path)
	if err == nil || !strings.Contains(err.Error(), "InvalidRequest") || !strings.Contains(err.Error(), "s3://robocensus-test/data/big.parquet") {
		t.Fatalf("PutFile through a store refusing piece 2: %v; want its error, naming the object", err)
	}
	ups, err := srv.Client().ListMultipartUploads(context.Background(), &s3.ListMultipartUploadsInput{Bucket: aws.String("robocensus-test")})
	if err != nil {
		t.Fatal(err)
	}
	if len(ups.Uploads) != 0 {
		t.Errorf("%d multipart uploads left in progress, want none (aborted)", len(ups.Uploads))
	}
	if _, err := os.Stat(filepath.Join(srv.Dir, "robocensus-test", "data", "big.parquet")); !os.IsNotExist(err) {
		t.Errorf("object made: %v", err)
	}
}

// Stat describes an object without reading it, and says fs.ErrNotExist,
// naming the object, of one that is not there.
func TestStat(t *testing.T) {
	st, _ := newStore(t)
	ctx := context.Background()
	if err := st.Put(ctx, "t/crawl=c/part.parquet", []byte("twelve bytes")); err != nil {
		t.Fatal(err)
	}
	obj, err := st.Stat(ctx, "t/crawl=c/part.parquet")
	if err != nil || obj.Size != 12 || obj.ETag == "" || obj.Modified.IsZero() {
		t.Errorf("Stat: %+v, %v; want 12 bytes, an ETag and a time", obj, err)
	}
	_, err = st.Stat(ctx, "t/crawl=c/gone.parquet")
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "s3://robocensus-test/data/t/crawl=c/gone.parquet") {
		t.Errorf("Stat of a missing object: %v; want fs.ErrNotExist naming it", err)
	}
}
