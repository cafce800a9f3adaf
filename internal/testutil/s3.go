package testutil

import (
	"encoding/json"
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// RequireS3Env, when set to 1, turns a missing S3 test server (versitygw)
// from a skip into a failure. CI sets it; scripts/ci-deps.sh installs the
// server.
const RequireS3Env = "ROBOCENSUS_REQUIRE_S3"

// S3SkipPrefix starts the message of every test skipped for want of the
// S3 test server, so that scripts/test.sh can count them at the end of a
// run.
const S3SkipPrefix = "S3 test skipped: "

// VersityGWVersion is the version of versitygw, the S3-compatible server
// the tests of s3:// inputs run against, that scripts/ci-deps.sh installs.
const VersityGWVersion = "v1.8.0"

// VersityGW returns the path of the versitygw command: on PATH, else in
// the bin folder of GOPATH where go install puts it. When it is missing the
// test is skipped with a clear message, or fails when
// ROBOCENSUS_REQUIRE_S3=1.
func VersityGW(tb testing.TB) string {
	tb.Helper()
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p
	}
	gopath := build.Default.GOPATH
	if list := filepath.SplitList(gopath); len(list) > 0 {
		gopath = list[0]
	}
	p := filepath.Join(gopath, "bin", "versitygw")
	if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
		return p
	}
	msg := S3SkipPrefix + "versitygw, the S3-compatible test server, is not installed (on PATH or in " + filepath.Dir(p) +
		"); install it with scripts/ci-deps.sh (go install github.com/versity/versitygw/cmd/versitygw@" + VersityGWVersion + ")"
	if os.Getenv(RequireS3Env) == "1" {
		tb.Fatal(msg)
	}
	tb.Skip(msg)
	return ""
}

// ListedParts returns the parts that the listing of crawl names in the
// dataset folder dir, by table, as keys under dir: dir is a dataset in
// object storage as the S3 test server's posix backend keeps it, and the
// listing is dir/.published/crawl=<crawl>.json (package dataset).
func ListedParts(tb testing.TB, dir, crawl string) map[string][]string {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(dir, ".published", "crawl="+crawl+".json"))
	if err != nil {
		tb.Fatal(err)
	}
	var l struct{ Files []struct{ Name string } }
	if err := json.Unmarshal(data, &l); err != nil {
		tb.Fatalf("listing of crawl %s in %s: %v", crawl, dir, err)
	}
	byTable := map[string][]string{}
	for _, f := range l.Files {
		table, _, _ := strings.Cut(f.Name, "/")
		byTable[table] = append(byTable[table], f.Name)
	}
	return byTable
}
