#!/usr/bin/env bash
# bench-scale.sh: how ingest and report scale with cores (issue 28).
#
# Builds FILES Common Crawl style robotstxt WARCs of HOSTS captures each
# (scripts/mkwarc, from the shared corpus; made in parallel), then, for each
# core count J of JOBS (default 1 2 4 ... up to nproc, and nproc), runs on
# J cores (taskset, when the machine has it; else GOMAXPROCS=J):
#
#   floor    zcat of the FILES files in J processes at once (xargs -P J)
#   ingest   robocensus ingest -j J of the same files, a fresh dataset,
#            under its default memory bound (GOMEMLIMIT unset)
#   report   robocensus report --format json of that dataset
#
# Each round runs every case once, one after the other (interleaved, so that
# the machine's load falls on all alike); each figure is the median of RUNS
# rounds (default 3). It prints, last, the table the README shows:
#
#   -j            the cores (and ingest workers)
#   floor s       zcat's wall time on J cores
#   ingest s      ingest's wall time; "x floor" its ratio to the floor
#   cpu µs/cap    ingest's CPU time (user + system) per capture; "x -j 1"
#                 its ratio to the first row's (the first J of JOBS)
#   peak MiB      ingest's peak resident set size (GNU time)
#   report s      the report's wall time
#
# Targets (issue 28): CPU per capture at -j nproc within 1.15x of -j 1;
# ingest wall at -j nproc within 2.0x of the floor; the report faster with
# every doubling of cores up to 16. On the project's shared 2-core VM
# times move by a tenth with the host's load (see bench-ingest.sh).
#
# Usage: scripts/bench-scale.sh
# Environment: FILES (default 2 x nproc, at least 4), HOSTS (captures per
#   file, default 20000), JOBS (default "1 2 4 ... nproc"), RUNS (default
#   3), TAGS (build tags, default scripts/build-tags.sh), ROBOCENSUS_CORPUS
#   (default ../shared/corpus), WORK (a folder for the files, default a
#   temporary one; about 50 MB a file of 20,000 hosts), BIN (a robocensus
#   binary to use instead of building one: on a machine without Go) and
#   MKWARC (likewise for scripts/mkwarc).
set -euo pipefail
cd "$(dirname "$0")/.."

cores="$(nproc)"
files="${FILES:-$(( cores * 2 > 4 ? cores * 2 : 4 ))}"
hosts="${HOSTS:-20000}"
runs="${RUNS:-3}"
corpus="${ROBOCENSUS_CORPUS:-../shared/corpus}"
if [ -z "${JOBS:-}" ]; then
  JOBS=""
  for ((j = 1; j < cores; j *= 2)); do JOBS="$JOBS $j"; done
  JOBS="$JOBS $cores"
fi
read -r -a jobs <<<"$JOBS"
work="${WORK:-$(mktemp -d)}"
mkdir -p "$work"
[ -n "${WORK:-}" ] || trap 'rm -rf "$work"' EXIT

bin="${BIN:-}"
if [ -z "$bin" ]; then
  bin="$work/robocensus"
  go build -tags "${TAGS-$(scripts/build-tags.sh)}" -o "$bin" ./cmd/robocensus
fi
mkwarc="${MKWARC:-}"
if [ -z "$mkwarc" ]; then
  mkwarc="$work/mkwarc"
  go build -o "$mkwarc" ./scripts/mkwarc
fi

mkdir -p "$work/in"
seq "$files" | xargs -P "$cores" -I{} sh -c \
  "[ -s '$work/in/in-{}.warc.gz' ] || '$mkwarc' -corpus '$corpus' -n '$hosts' -seed \$((500 + {})) -o '$work/in/in-{}.warc.gz' 2>/dev/null"
inputs=("$work"/in/in-*.warc.gz)
echo "bench-scale: ${#inputs[@]} files of $hosts captures ($(du -sh "$work/in" | cut -f1)), cores $cores, -j ${jobs[*]}, $runs rounds" >&2

# pin J: sets the array on to the command prefix that runs a command on J cores.
pin() {
  if command -v taskset >/dev/null; then
    on=(taskset -c "0-$(($1 - 1))")
  else
    on=(env GOMAXPROCS="$1")
  fi
}
# measure NAME CMD...: appends "wall cpu rss" of CMD to $work/NAME.
measure() {
  local name="$1"; shift
  /usr/bin/time -f "%e %U %S %M" -o "$work/t" "$@" >"$work/out" 2>"$work/err" || {
    echo "bench-scale: $name failed:" >&2; cat "$work/err" >&2; exit 1; }
  awk '{ printf "%s %.2f %d\n", $1, $2 + $3, $4 }' "$work/t" >>"$work/$name"
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
col() { awk -v c="$2" '{ print $c }' "$work/$1" | median; }

rm -f "$work"/floor-* "$work"/ingest-* "$work"/report-*
for round in $(seq "$runs"); do
  for j in "${jobs[@]}"; do
    echo "bench-scale: round $round, -j $j" >&2
    pin "$j"
    measure "floor-$j" "${on[@]}" sh -c "printf '%s\n' \"\$@\" | xargs -P $j -n 1 zcat >/dev/null" sh "${inputs[@]}"
    rm -rf "$work/ds"
    measure "ingest-$j" "${on[@]}" env -u GOMEMLIMIT "$bin" ingest -j "$j" -o "$work/ds" --crawl scale "${inputs[@]}"
    captures=$(sed -n 's/.* inputs, \([0-9]*\) captures.*/\1/p' "$work/out" | head -1)
    measure "report-$j" "${on[@]}" env -u GOMEMLIMIT "$bin" report --format json -o "$work/report.json" "$work/ds"
  done
done

first="${jobs[0]}"
cpu_first=$(col "ingest-$first" 2)
echo
echo "| -j | floor s | ingest s | x floor | cpu µs/cap | x -j $first | peak MiB | report s |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
for j in "${jobs[@]}"; do
  f=$(col "floor-$j" 1); w=$(col "ingest-$j" 1); c=$(col "ingest-$j" 2); m=$(col "ingest-$j" 3); r=$(col "report-$j" 1)
  awk -v j="$j" -v f="$f" -v w="$w" -v c="$c" -v c1="$cpu_first" -v m="$m" -v r="$r" -v n="$captures" 'BEGIN {
    printf "| %d | %.1f | %.1f | %.2f | %.0f | %.2f | %d | %.1f |\n", j, f, w, w / f, c / n * 1e6, c / c1, m / 1024, r }'
done
echo
echo "($captures captures in ${#inputs[@]} files of $(cat "${inputs[@]}" | wc -c) bytes; $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //'); $(date -u +%F))"
