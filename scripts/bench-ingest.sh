#!/usr/bin/env bash
# bench-ingest.sh: ingest throughput against its floor, decompression.
#
# Builds Common Crawl style robotstxt WARCs (per-record gzip, request and
# response records, Common Crawl's mix of answers) from the shared corpus
# with scripts/mkwarc, then times, in the same run and on the same files:
#
#   one file:   zcat A >/dev/null           against  robocensus ingest A
#   two files:  zcat A; zcat B (one after   against  robocensus ingest A B
#               the other: "both")
#   linearity:  robocensus ingest of files of N/2, N and 2N hosts
#   real bodies: the one- and two-file cases again on WARCs where every
#               capture is a real robots.txt (mkwarc -mix robots: the
#               egonkm and Alexa 2015 bodies), where parsing and writing
#               rows cost most (issue 12's targets: 1.3x and 1.0x)
#
# Each figure is the median of RUNS runs (default 3). Ratios are wall-clock
# ingest time over wall-clock zcat time; peak memory is the maximum resident
# set size reported by GNU time. Targets (issue 3): one file within 1.3x,
# two files within 0.8x, peak RSS under 300 MiB, time linear in size.
#
# Usage: scripts/bench-ingest.sh [N]   (N hosts per file, default 20000)
# Environment: ROBOCENSUS_CORPUS (default ../shared/corpus), RUNS.
set -euo pipefail
cd "$(dirname "$0")/.."

n="${1:-20000}"
runs="${RUNS:-3}"
corpus="${ROBOCENSUS_CORPUS:-../shared/corpus}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

go build -o "$work/robocensus" ./cmd/robocensus
for spec in "a:1:$n:cc" "b:2:$n:cc" "half:3:$((n / 2)):cc" "double:4:$((n * 2)):cc" "ra:5:$n:robots" "rb:6:$n:robots"; do
  IFS=: read -r name seed hosts mix <<<"$spec"
  go run ./scripts/mkwarc -corpus "$corpus" -n "$hosts" -seed "$seed" -mix "$mix" -o "$work/$name.warc.gz"
done

# measure CMD...: prints "wall_seconds max_rss_kb" of one run.
measure() {
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
  cat "$work/time"
}

# median FIELD CMD...: the median over $runs runs of a field (1 wall, 2 rss).
median() {
  local field=$1
  shift
  for _ in $(seq "$runs"); do
    rm -rf "$work/data"
    measure "$@" | awk -v f="$field" '{print $f}'
  done | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'
}

ingest=("$work/robocensus" ingest -o "$work/data" --crawl bench)

echo "machine: $(nproc) cores, $(go version | cut -d' ' -f3), $(date -u +%Y-%m-%d)"
echo "input: $(du -h "$work/a.warc.gz" | cut -f1) per file ($n hosts), runs: $runs (medians)"
z1=$(median 1 zcat "$work/a.warc.gz")
i1=$(median 1 "${ingest[@]}" "$work/a.warc.gz")
m1=$(median 2 "${ingest[@]}" "$work/a.warc.gz")
z2=$(median 1 sh -c "zcat '$work/a.warc.gz' >/dev/null && zcat '$work/b.warc.gz' >/dev/null")
i2=$(median 1 "${ingest[@]}" "$work/a.warc.gz" "$work/b.warc.gz")
m2=$(median 2 "${ingest[@]}" "$work/a.warc.gz" "$work/b.warc.gz")
ih=$(median 1 "${ingest[@]}" "$work/half.warc.gz")
id=$(median 1 "${ingest[@]}" "$work/double.warc.gz")
md=$(median 2 "${ingest[@]}" "$work/double.warc.gz")
rz1=$(median 1 zcat "$work/ra.warc.gz")
ri1=$(median 1 "${ingest[@]}" "$work/ra.warc.gz")
rm1=$(median 2 "${ingest[@]}" "$work/ra.warc.gz")
rz2=$(median 1 sh -c "zcat '$work/ra.warc.gz' >/dev/null && zcat '$work/rb.warc.gz' >/dev/null")
ri2=$(median 1 "${ingest[@]}" "$work/ra.warc.gz" "$work/rb.warc.gz")
rm2=$(median 2 "${ingest[@]}" "$work/ra.warc.gz" "$work/rb.warc.gz")

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
printf '%-34s %8s %8s %7s %10s\n' "case" "zcat s" "ingest s" "ratio" "peak RSS"
printf '%-34s %8s %8s %7s %7s MiB\n' "one file" "$z1" "$i1" "$(ratio "$i1" "$z1")" "$((m1 / 1024))"
printf '%-34s %8s %8s %7s %7s MiB\n' "two files (zcat of both)" "$z2" "$i2" "$(ratio "$i2" "$z2")" "$((m2 / 1024))"
printf '%-34s %8s %8s\n' "linearity: N/2, N, 2N hosts" "" "$ih $i1 $id"
printf '%-34s %8s %8s %7s %7s MiB\n' "2N hosts, time per N" "" "" "$(ratio "$id" "$i1")" "$((md / 1024))"
printf '%-34s %8s %8s %7s %7s MiB\n' "real bodies: one file" "$rz1" "$ri1" "$(ratio "$ri1" "$rz1")" "$((rm1 / 1024))"
printf '%-34s %8s %8s %7s %7s MiB\n' "real bodies: two files (zcat both)" "$rz2" "$ri2" "$(ratio "$ri2" "$rz2")" "$((rm2 / 1024))"
