package s3test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// TestServer: a started server takes a bucket and an object through the
// S3 API, serves it back whole and by range, and keeps it as the file
// Dir/BUCKET/KEY; a key with "=" (a Hive partition) is signed right.
func TestServer(t *testing.T) {
	srv := Start(t)
	srv.CreateBucket(t, "data")
	key := "captures/crawl=CC-MAIN-2025-05/part-0.parquet"
	srv.Put(t, "data", key, []byte("0123456789"))
	got, err := os.ReadFile(filepath.Join(srv.Dir, "data", filepath.FromSlash(key)))
	if err != nil || string(got) != "0123456789" {
		t.Fatalf("posix file: %q, %v", got, err)
	}
	out, err := srv.Client().GetObject(context.Background(), &s3.GetObjectInput{
		Bucket: aws.String("data"), Key: aws.String(key), Range: aws.String("bytes=4-")})
	if err != nil {
		t.Fatal(err)
	}
	defer out.Body.Close()
	if b, _ := io.ReadAll(out.Body); string(b) != "456789" {
		t.Errorf("ranged GET: %q, want %q", b, "456789")
	}
}
