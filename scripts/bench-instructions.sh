#!/usr/bin/env bash
# bench-instructions.sh: instructions executed by the working tree and by a
# base revision, counted by valgrind's cachegrind: a measure of work that
# the shared machine's load does not move.
#
#   scripts/bench-instructions.sh [BASE]   (BASE: a git revision, default HEAD)
#
# On the project's 2-core VM, wall and CPU times of two builds that differ
# by under 1% of their work differ by up to a tenth from one set of rounds
# to the next (scripts/bench-ingest.sh says how much), so a change of a few
# per cent cannot be timed there. Instructions can be counted: with the
# collector off (GOGC=off, and a memory limit no run reaches) two runs of
# one binary agree to within 0.05%. The count leaves out the collector's
# work, which is measured by time, and instructions are not time: a change
# that trades instructions for cache misses or system calls, or moves work
# into C code (whose instructions count too, but run at another pace), must
# still be timed. Cases, each counted once per build:
#
#   ingest cc:     robocensus ingest of a Common Crawl style WARC (mkwarc
#                  -mix cc, N hosts, default 5000)
#   ingest robots: the same of a WARC of real bodies (mkwarc -mix robots)
#   parse:         one pass of BenchmarkParse (the egonkm bodies, full
#                  diagnostics): the count of -test.benchtime 2x less 1x,
#                  so that loading the corpus is left out
#
# Builds with TAGS (default: libdeflate when Debian's libdeflate-dev is
# installed). Needs valgrind, which it installs with apt-get when missing
# (as root, or with sudo).
#
# Usage: [TAGS=...] scripts/bench-instructions.sh [BASE] [N]
# Environment: ROBOCENSUS_CORPUS (default ../shared/corpus), TAGS.
set -euo pipefail
shopt -s inherit_errexit # a failed count inside $(...) stops the script too
cd "$(dirname "$0")/.."

base="${1:-HEAD}"
n="${2:-5000}"
corpus="${ROBOCENSUS_CORPUS:-$(cd .. && pwd)/shared/corpus}"
if [ -z "${TAGS+set}" ]; then
  TAGS="$(scripts/build-tags.sh)"
fi
if ! command -v valgrind >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" != 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >/dev/null
  $sudo apt-get install -y -qq --no-install-recommends valgrind >/dev/null
fi
work="$(mktemp -d)"
trap 'git worktree remove --force "$work/base-src" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

git worktree add --detach "$work/base-src" "$base" >/dev/null 2>&1
for side in new base; do
  src=.
  [ "$side" = base ] && src="$work/base-src"
  (cd "$src" && go build -tags "$TAGS" -o "$work/$side-robocensus" ./cmd/robocensus &&
    go test -c -tags "$TAGS" -o "$work/$side-robots.test" ./robots)
done
go run ./scripts/mkwarc -corpus "$corpus" -n "$n" -seed 1 -mix cc -o "$work/cc.warc.gz"
go run ./scripts/mkwarc -corpus "$corpus" -n "$n" -seed 5 -mix robots -o "$work/robots.warc.gz"

# count CMD...: the instructions CMD executes (all its threads), the
# collector off; the script fails, with valgrind's output, when CMD does.
count() {
  local out
  if ! out=$(GOGC=off GOMEMLIMIT=100GiB ROBOCENSUS_CORPUS="$corpus" valgrind --tool=cachegrind --cache-sim=no \
    --cachegrind-out-file=/dev/null "$@" 2>&1 >/dev/null); then
    echo "$out" >&2
    echo "bench-instructions: $* failed" >&2
    exit 1
  fi
  echo "$out" | awk '/I *refs:/ {gsub(",", "", $NF); print $NF}'
}

# ingest SIDE CASE: instructions of one ingest.
ingest() {
  rm -rf "$work/out"
  count "$work/$1-robocensus" ingest -o "$work/out" --crawl bench "$work/$2.warc.gz"
}

# parse SIDE: instructions of one pass of BenchmarkParse.
parse() {
  local one two
  one=$(cd robots && count "$work/$1-robots.test" -test.run '^$' -test.bench 'BenchmarkParse$' -test.benchtime 1x -test.cpu 1)
  two=$(cd robots && count "$work/$1-robots.test" -test.run '^$' -test.bench 'BenchmarkParse$' -test.benchtime 2x -test.cpu 1)
  echo $((two - one))
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.4f", a / b}'; }
row() { printf '%-16s %16s %16s %10s\n' "$1" "$2" "$3" "$(ratio "$2" "$3")"; }

# Counted into variables first: a failed count then stops the script,
# which it would not as an argument of row.
cc_new=$(ingest new cc)
cc_base=$(ingest base cc)
robots_new=$(ingest new robots)
robots_base=$(ingest base robots)
parse_new=$(parse new)
parse_base=$(parse base)
echo "instructions (cachegrind, GOGC=off), working tree against $(git rev-parse --short "$base"), build tags '$TAGS', $n hosts a WARC"
printf '%-16s %16s %16s %10s\n' case new base new/base
row "ingest cc" "$cc_new" "$cc_base"
row "ingest robots" "$robots_new" "$robots_base"
row "parse (a pass)" "$parse_new" "$parse_base"
