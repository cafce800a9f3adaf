#!/usr/bin/env bash
# bench-lint.sh: robocensus lint of the 31,758 egonkm bodies in one
# process, the working tree against a base revision, interleaved (issue 33).
#
#   scripts/bench-lint.sh [BASE]   (BASE: a git revision, default HEAD)
#
# Unpacks the egonkm corpus (robots.tar.gz) into a temporary folder, builds
# robocensus at BASE (in a temporary worktree) and from the working tree,
# then runs `robocensus lint robots/*` (all 31,758 files as arguments, the
# plain form written to a file) with each, alternately, ROUNDS times
# (default 5), in two modes:
#
#   parse:    --readings=false, the parse's findings only;
#   readings: the default, which also compares the other parsers'
#             readings of each file (parsers-disagree-*), READINGS_ROUNDS
#             times (default 1: about a minute a run).
#
# Prints for each the median wall time, CPU time (user + system) and peak
# RSS (GNU time) of each binary and the ratios new/base, and fails when the
# two outputs differ. The machine is shared and noisy: compare ratios of
# one run, not figures across runs.
# Environment: ROBOCENSUS_CORPUS (default ../shared/corpus), ROUNDS,
# READINGS_ROUNDS.
set -euo pipefail
cd "$(dirname "$0")/.."

base="${1:-HEAD}"
rounds="${ROUNDS:-5}"
readings_rounds="${READINGS_ROUNDS:-1}"
. scripts/egonkm.sh
work="$(mktemp -d)"
trap 'git worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

git worktree add --detach "$work/base" "$base" >/dev/null 2>&1
(cd "$work/base" && go build -o "$work/base.bin" ./cmd/robocensus)
go build -o "$work/new.bin" ./cmd/robocensus
mkdir "$work/bodies"
tar -xzf "$tarball" -C "$work/bodies"

# one BIN OUT FLAGS...: prints "wall cpu rss" of one lint run.
one() {
  local bin="$1" out="$2"
  shift 2
  (cd "$work/bodies" && command time -f '%e %U %S %M' -o "$work/time" "$bin" lint "$@" robots/* >"$out" || true)
  # GNU time writes "Command exited with non-zero status 1" first when
  # lint found errors: the figures are the last line.
  tail -n 1 "$work/time" | awk '{printf "%s %.2f %d\n", $1, $2 + $3, $4 / 1024}'
}

median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

echo "machine: $(nproc) cores, $(go version | cut -d' ' -f3), $(date -u +%Y-%m-%d); base $(git rev-parse --short "$base"), head $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo +changes); rounds: $rounds, readings rounds: $readings_rounds"
printf '%-9s %8s %8s %6s %8s %8s %6s %9s %9s\n' mode "base s" "new s" ratio "base cpu" "new cpu" ratio "base MiB" "new MiB"
for mode in parse readings; do
  n="$rounds"
  flags=(--readings=false)
  if [ "$mode" = readings ]; then
    n="$readings_rounds"
    flags=()
  fi
  : >"$work/base.t"
  : >"$work/new.t"
  for _ in $(seq "$n"); do
    one "$work/base.bin" "$work/base.out" "${flags[@]}" >>"$work/base.t"
    one "$work/new.bin" "$work/new.out" "${flags[@]}" >>"$work/new.t"
  done
  if ! cmp -s "$work/base.out" "$work/new.out"; then
    echo "bench-lint.sh: $mode: the outputs of base and new differ" >&2
    exit 1
  fi
  bw=$(cut -d' ' -f1 "$work/base.t" | median) nw=$(cut -d' ' -f1 "$work/new.t" | median)
  bc=$(cut -d' ' -f2 "$work/base.t" | median) nc=$(cut -d' ' -f2 "$work/new.t" | median)
  bm=$(cut -d' ' -f3 "$work/base.t" | median) nm=$(cut -d' ' -f3 "$work/new.t" | median)
  printf '%-9s %8s %8s %6s %8s %8s %6s %9s %9s\n' "$mode" "$bw" "$nw" "$(ratio "$nw" "$bw")" "$bc" "$nc" "$(ratio "$nc" "$bc")" "$bm" "$nm"
done
echo "output: $(wc -l <"$work/new.out") lines, the same from both"
