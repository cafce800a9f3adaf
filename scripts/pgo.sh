#!/usr/bin/env bash
# pgo.sh: makes cmd/robocensus/default.pgo again, the CPU profile the Go
# toolchain builds robocensus with (profile-guided optimization: go build,
# go install and go run use a main package's default.pgo by default,
# -pgo=auto; -pgo=off builds without it).
#
#   scripts/pgo.sh
#
# Builds robocensus without a profile (-pgo=off, -trimpath) and profiles
# (--cpuprofile) what the nightly job and its users run most:
#
#   ingest of a Common Crawl style robotstxt WARC (scripts/mkwarc -mix cc,
#   HOSTS hosts, default 60000), the nightly job's input;
#   ingest of a WARC of real robots.txt bodies only (-mix robots, half as
#   many), where parsing and writing rows weigh most;
#   lint of the egonkm corpus's 31,758 bodies in one process, with the
#   parsers' readings (lint's default).
#
# and merges the three profiles (go tool pprof -proto) into
# cmd/robocensus/default.pgo. A profile of older code still serves (the
# toolchain matches functions by name and lines by offset in them); run
# this again when the hot paths change. The README's "Profile-guided
# optimization" gives what the profile gains.
# Environment: ROBOCENSUS_CORPUS (default ../shared/corpus), HOSTS.
set -euo pipefail
cd "$(dirname "$0")/.."

hosts="${HOSTS:-60000}"
. scripts/egonkm.sh
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

go build -pgo=off -trimpath -o "$work/robocensus" ./cmd/robocensus
go run ./scripts/mkwarc -corpus "$corpus" -n "$hosts" -seed 1 -mix cc -o "$work/cc.warc.gz"
go run ./scripts/mkwarc -corpus "$corpus" -n "$((hosts / 2))" -seed 5 -mix robots -o "$work/robots.warc.gz"
mkdir "$work/bodies"
tar -xzf "$tarball" -C "$work/bodies"

for name in cc robots; do
  if ! "$work/robocensus" ingest --cpuprofile "$work/$name.prof" -o "$work/$name" "$work/$name.warc.gz" >"$work/$name.log" 2>&1; then
    cat "$work/$name.log" >&2
    exit 1
  fi
done
# lint exits 1 when it reports findings, which these files have.
status=0
(cd "$work/bodies" && "$work/robocensus" lint --cpuprofile "$work/lint.prof" robots/*) >/dev/null || status=$?
if [ "$status" -gt 1 ]; then
  echo "pgo.sh: robocensus lint failed (exit $status)" >&2
  exit 1
fi

go tool pprof -proto "$work/cc.prof" "$work/robots.prof" "$work/lint.prof" >"$work/default.pgo"
mv "$work/default.pgo" cmd/robocensus/default.pgo
echo "cmd/robocensus/default.pgo: $(wc -c <cmd/robocensus/default.pgo) bytes from ingest of $hosts and $((hosts / 2)) hosts and lint of 31,758 bodies"
