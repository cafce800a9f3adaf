package testutil

import (
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
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
