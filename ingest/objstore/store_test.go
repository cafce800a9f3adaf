package objstore_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/aws/aws-sdk-go-v2/credentials"

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
