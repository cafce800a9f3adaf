#!/usr/bin/env bash
# bench-memory.sh: ingest's peak memory on hostile inputs (issue 13).
#
# Target: an ingest run's peak RSS stays under its memory bound whatever the
# input: the bound follows the workers (ingest --memory, issue 28), so each
# case runs at -j 2 and -j 16 and the bound the run chose (its -v log) is
# printed beside its peak. Builds
# robocensus from this tree and runs it, and a baseline binary when one is
# given, on:
#
#   empty     a WARC of EMPTY (10,000,000) empty gzip members
#   junk      a WARC of JUNK (5,000,000) tiny gzip members holding junk
#   many      200 small and 4 large Common Crawl style WARCs (scripts/mkwarc,
#             from the shared corpus)
#   stream    a WARC of CAPTURES (10,000,000) captures, generated as it is
#             read (scripts/memgen over HTTP on localhost: no disk), the
#             baseline and this tree at once on two generators
#
# and prints the peak resident set size (GNU time's maximum RSS) of each,
# and the ratio of this tree's to the baseline's. A run longer than
# TIMEOUT seconds (default 900; STREAM_TIMEOUT, 7200, for stream) is
# killed and reported as "> N", N its peak so far.
#
# Usage: scripts/bench-memory.sh [BASELINE_BINARY]
#   e.g. git clone -q . /tmp/base && (cd /tmp/base && git checkout -q main &&
#        go build -o /tmp/rc-base ./cmd/robocensus) && scripts/bench-memory.sh /tmp/rc-base
# Environment: EMPTY, JUNK, CAPTURES, SMALL (hosts per small WARC, 100),
# LARGE (hosts per large WARC, 20000), TIMEOUT, ROBOCENSUS_CORPUS
# (default ../shared/corpus), WORK (a folder for the inputs, default a
# temporary one; about 1 GB), PORT (the generators listen on PORT+1 and
# PORT+2 of localhost, default 18700).
set -euo pipefail
cd "$(dirname "$0")/.."

base="${1:-}"
empty="${EMPTY:-10000000}"
junk="${JUNK:-5000000}"
captures="${CAPTURES:-10000000}"
small="${SMALL:-100}"
large="${LARGE:-20000}"
timeout="${TIMEOUT:-900}"
stream_timeout="${STREAM_TIMEOUT:-7200}"
corpus="${ROBOCENSUS_CORPUS:-../shared/corpus}"
work="${WORK:-$(mktemp -d)}"
mkdir -p "$work"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -n "${WORK:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/robocensus" ./cmd/robocensus
go build -o "$work/memgen" ./scripts/memgen
go build -o "$work/mkwarc" ./scripts/mkwarc
bins=(after)
[ -n "$base" ] && bins=(base after)
bin() { if [ "$1" = base ]; then echo "$base"; else echo "$work/robocensus"; fi; }

"$work/memgen" -kind empty -n "$empty" -o "$work/empty.warc.gz"
"$work/memgen" -kind junk -n "$junk" -o "$work/junk.warc.gz"
mkdir -p "$work/many"
for i in 1 2 3 4; do
  [ -f "$work/many/large-$i.warc.gz" ] || "$work/mkwarc" -corpus "$corpus" -n "$large" -seed "$i" -o "$work/many/large-$i.warc.gz"
done
for i in $(seq 1 200); do
  [ -f "$work/many/small-$i.warc.gz" ] || "$work/mkwarc" -corpus "$corpus" -n "$small" -seed $((100 + i)) -o "$work/many/small-$i.warc.gz"
done

# measure NAME BIN ARGS...: prints the peak RSS in MiB of one ingest run
# into a fresh dataset, or "> N" when it was killed at the timeout (N: its
# peak so far, VmHWM, as GNU time does not see a killed grandchild), and
# leaves "wall_seconds max_rss_kb" in $work/NAME.time.
measure() {
  local name=$1 b=$2
  shift 2
  rm -rf "$work/data-$name"
  /usr/bin/time -f "%e %M" -o "$work/$name.time" \
    "$b" ingest -v -o "$work/data-$name" --crawl bench "$@" >"$work/$name.out" 2>"$work/$name.err" &
  local tp=$! s=0
  while kill -0 "$tp" 2>/dev/null && [ "$s" -lt "$timeout" ]; do
    sleep 1
    s=$((s + 1))
  done
  if kill -0 "$tp" 2>/dev/null; then
    local cp hwm
    cp=$(pgrep -P "$tp" || true)
    hwm=$(awk '/VmHWM/ {print $2}' "/proc/$cp/status" 2>/dev/null || echo 0)
    kill -9 "$cp" 2>/dev/null || true
    wait "$tp" || true
    echo "> $((hwm / 1024))"
  else
    wait "$tp" || true
    echo "$(($(tail -1 "$work/$name.time" | awk '{print $2}') / 1024))"
  fi
  rm -rf "$work/data-$name"
}

declare -A rss
run() {
  local case=$1
  shift
  for b in "${bins[@]}"; do
    rss[$case/$b]=$(measure "$case-$b" "$(bin "$b")" "$@")
  done
}
# bound CASE: the memory bound this tree's run of CASE chose, in MiB.
bound() { sed -n 's/.*msg="memory bound" mib=\([0-9]*\).*/\1/p' "$work/$1-after.err" | head -1; }

# stream: one generator per binary, all at once, started first as it is the
# longest; the other cases run meanwhile (peak RSS is little affected by
# the CPU they share, time is).
port="${PORT:-18700}"
runs=()
for b in "${bins[@]}"; do
  port=$((port + 1))
  "$work/memgen" -kind captures -n "$captures" -listen "127.0.0.1:$port" &
  pids+=($!)
  sleep 1
  timeout="$stream_timeout" measure "stream -j 16-$b" "$(bin "$b")" -j 16 "http://127.0.0.1:$port/stream.warc.gz" >"$work/stream-$b.rss" &
  runs+=($!)
done

for j in 2 16; do
  run "empty -j $j" -j "$j" "$work/empty.warc.gz"
  run "junk -j $j" -j "$j" "$work/junk.warc.gz"
  run "many -j $j" -j "$j" "$work"/many/*.warc.gz
done
run "many -j 32" -j 32 "$work"/many/*.warc.gz
wait "${runs[@]}"
for b in "${bins[@]}"; do rss["stream -j 16/$b"]=$(cat "$work/stream-$b.rss"); done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^>/ || b ~ /^>/ || b == "-" || b + 0 == 0) print "-"; else printf "%.2f", a / b }'; }
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(go version | cut -d' ' -f3), $(date -u +%Y-%m-%dT%H:%MZ)"
echo "peak RSS in MiB (GNU time), default memory bound; \"> N\": killed at ${timeout} s (stream: ${stream_timeout} s)"
printf '%-44s %10s %10s %7s %10s\n' "case" "baseline" "this tree" "ratio" "its bound"
for c in "empty -j 2" "empty -j 16" "junk -j 2" "junk -j 16" "many -j 2" "many -j 16" "many -j 32" "stream -j 16"; do
  label=$c
  case $c in
  empty*) label="${c/empty/$empty empty gzip members,}" ;;
  junk*) label="${c/junk/$junk junk members,}" ;;
  many*) label="${c/many/200 small + 4 large WARCs,}" ;;
  stream*) label="${c/stream/a stream of $captures captures,}" ;;
  esac
  b=${rss[$c/base]:--}
  a=${rss[$c/after]}
  printf '%-44s %10s %10s %7s %10s\n' "$label" "$b" "$a" "$(ratio "$a" "$b")" "$(bound "$c")"
done
