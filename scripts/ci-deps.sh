#!/usr/bin/env bash
# ci-deps.sh: install what the tests need beyond Go, when it is missing:
# Debian's chromium, for the headless-browser tests of the HTML reports
# (cmd/robocensus/browser_test.go) and scripts/screenshot.sh; Debian's
# libdeflate-dev, for the build and tests with -tags libdeflate (the fast
# gzip inflater, ingest/archive/inflate.go); and versitygw, the
# S3-compatible server of the tests of s3:// inputs
# (internal/testutil/s3test), built from the Go module proxy into
# $(go env GOPATH)/bin (about 10 minutes on 2 cores, once). Not the AWS
# CLI: Debian 12's awscli (2.9.19) predates AWS_ENDPOINT_URL, which the
# test of scripts/aws-batch/ points it at a loopback server with, so that
# test part runs only where a newer aws is on PATH. Idempotent,
# and quiet and fast when everything is there; run as root (CI is), or
# with sudo available.
set -euo pipefail

versitygw_version=v1.8.0 # internal/testutil.VersityGWVersion
gobin="$(go env GOPATH | cut -d: -f1)/bin"
if ! command -v versitygw >/dev/null 2>&1 && [ ! -x "$gobin/versitygw" ]; then
  log="$(mktemp)"
  if ! GOBIN="$gobin" go install "github.com/versity/versitygw/cmd/versitygw@$versitygw_version" >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    exit 1
  fi
  rm -f "$log"
fi

if command -v chromium >/dev/null 2>&1 && [ -f /usr/include/libdeflate.h ]; then
  exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
$sudo apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core libdeflate-dev >/dev/null
command -v chromium >/dev/null
[ -f /usr/include/libdeflate.h ]
