#!/usr/bin/env bash
# The tests, as the README runs them: go test (./... unless packages or
# other arguments of go test are given), printing what go test prints (the
# lines of a failed test in the order they came, not nested), then
# one line for each kind of test that skipped for want of something a
# fresh clone may lack (the shared corpus; DuckDB, which needs cgo), saying
# how many and how to run them. Plain "go test ./..." runs the same tests
# but shows nothing of a package that passes, skips included.
#
#   scripts/test.sh                          # go test ./...
#   scripts/test.sh -tags libdeflate ./...   # go test -tags libdeflate ./...
#
# The exit status is go test's.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
[ $# -gt 0 ] || set -- ./...
summary="$(mktemp -d)"
trap 'rm -rf "$summary"' EXIT
(cd "$root" && go build -o "$summary/testsummary" ./scripts/testsummary)
go test -json "$@" | "$summary/testsummary"
