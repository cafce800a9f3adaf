#!/usr/bin/env bash
# bench-parse.sh: robots.Parse throughput of the working tree against a base
# revision, measured in the same run, interleaved.
#
#   scripts/bench-parse.sh [BASE]   (BASE: a git revision, default HEAD)
#
# Builds the robots test binary of BASE (in a temporary worktree) and of the
# working tree, then runs BenchmarkParse (every body of the egonkm corpus,
# 31,758 files, 105 MB, full diagnostics, one core) from each, alternately,
# ROUNDS times (default 5) in two ways:
#
#   warm:  -test.benchtime 5x, the steady state of a process that parses
#          all day (the ingest workers);
#   fresh: -test.benchtime 1x, the first timed pass of a new process, heap
#          not yet grown (issue 12's "fresh process" figure).
#
# Prints the median MB/s of each, the ratio new/base, and allocations per
# pass. Issue 12's targets: 400 MB/s warm, 300 MB/s fresh. The machine is
# shared and noisy: compare ratios, not figures across runs.
# Environment: ROBOCENSUS_CORPUS (default ../shared/corpus), ROUNDS.
set -euo pipefail
cd "$(dirname "$0")/.."

base="${1:-HEAD}"
rounds="${ROUNDS:-5}"
export ROBOCENSUS_CORPUS="${ROBOCENSUS_CORPUS:-$(cd .. && pwd)/shared/corpus}"
work="$(mktemp -d)"
trap 'git worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

git worktree add --detach "$work/base" "$base" >/dev/null 2>&1
(cd "$work/base" && go test -c -o "$work/base.test" ./robots)
go test -c -o "$work/new.test" ./robots

# one BIN BENCHTIME: prints "MB/s allocs/op" of one run.
one() {
  (cd robots && "$1" -test.run '^$' -test.bench 'BenchmarkParse$' -test.benchtime "$2" -test.cpu 1 -test.benchmem) |
    awk '/^BenchmarkParse/ {for (i = 1; i <= NF; i++) { if ($(i+1) == "MB/s") m = $i; if ($(i+1) == "allocs/op") a = $i } print m, a}'
}

median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

echo "machine: $(nproc) cores, $(go version | cut -d' ' -f3), $(date -u +%Y-%m-%d); base $(git rev-parse --short "$base"), rounds: $rounds"
printf '%-6s %10s %10s %7s %12s %12s\n' "mode" "base MB/s" "new MB/s" "ratio" "base allocs" "new allocs"
for mode in warm:5x fresh:1x; do
  IFS=: read -r name benchtime <<<"$mode"
  : >"$work/base.out"
  : >"$work/new.out"
  for _ in $(seq "$rounds"); do
    one "$work/base.test" "$benchtime" >>"$work/base.out"
    one "$work/new.test" "$benchtime" >>"$work/new.out"
  done
  b=$(cut -d' ' -f1 "$work/base.out" | median)
  n=$(cut -d' ' -f1 "$work/new.out" | median)
  ba=$(cut -d' ' -f2 "$work/base.out" | median)
  na=$(cut -d' ' -f2 "$work/new.out" | median)
  printf '%-6s %10s %10s %7s %12s %12s\n' "$name" "$b" "$n" "$(awk -v a="$n" -v b="$b" 'BEGIN {printf "%.2f", a / b}')" "$ba" "$na"
done
