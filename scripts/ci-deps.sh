#!/usr/bin/env bash
# ci-deps.sh: install what the tests need beyond Go, when it is missing:
# Debian's chromium, for the headless-browser tests of the HTML reports
# (cmd/robocensus/browser_test.go) and scripts/screenshot.sh, and Debian's
# libdeflate-dev, for the build and tests with -tags libdeflate (the fast
# gzip inflater, ingest/archive/inflate.go). Idempotent and quiet; run as
# root (CI is), or with sudo available.
set -euo pipefail

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
