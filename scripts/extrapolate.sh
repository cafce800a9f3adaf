#!/usr/bin/env bash
# extrapolate.sh: how long, and how much, a full Common Crawl robotstxt crawl
# takes on one machine of N cores, from measured throughput on files like
# Common Crawl's.
#
# Method. A Common Crawl robotstxt file is about 1.7 MB of per-record gzip
# (~90,000 files, ~150 GB a crawl; see ../shared/corpus/FORMATS.md). The script
# builds FILES such files (about 700 hosts each, Common Crawl's mix of
# answers, bodies from the shared corpus; scripts/mkwarc), then times
# `robocensus ingest` of all of them pinned to one core (taskset -c 0) and on
# all of this machine's cores, publication included, and zcat of the same
# files. From the
# one-core time per file and the measured speed-up on this machine's cores it
# extrapolates to N cores assuming the same per-core efficiency, and to the
# crawl's file count. Reading from local disk: on a real run the download
# (150 GB) must also keep up, so the script prints the bandwidth needed.
#
# Usage: scripts/extrapolate.sh [N_CORES ...]   (default: 2 8 32)
# Environment: FILES (default 24), CRAWL_FILES (default 90000),
#   CORE_HOUR_USD (default 0.02, a spot vCPU-hour), ROBOCENSUS_CORPUS.
set -euo pipefail
cd "$(dirname "$0")/.."

files="${FILES:-24}"
crawl_files="${CRAWL_FILES:-90000}"
price="${CORE_HOUR_USD:-0.02}"
corpus="${ROBOCENSUS_CORPUS:-../shared/corpus}"
cores="$(nproc)"
targets=("${@:-2 8 32}")
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

go build -o "$work/robocensus" ./cmd/robocensus
for i in $(seq "$files"); do
  go run ./scripts/mkwarc -corpus "$corpus" -n 700 -seed "$((100 + i))" -o "$work/in-$i.warc.gz" 2>/dev/null
done
bytes=$(cat "$work"/in-*.warc.gz | wc -c)

wall() { /usr/bin/time -f "%e" -o "$work/t" "$@" >/dev/null 2>&1; cat "$work/t"; }
z=$(wall sh -c "cat '$work'/in-*.warc.gz | zcat")
t1=$(wall taskset -c 0 "$work/robocensus" ingest -o "$work/d1" --crawl x "$work"/in-*.warc.gz)
tn=$(wall "$work/robocensus" ingest -o "$work/dn" --crawl x -j "$cores" "$work"/in-*.warc.gz)

awk -v files="$files" -v bytes="$bytes" -v z="$z" -v t1="$t1" -v tn="$tn" -v cores="$cores" \
    -v crawl="$crawl_files" -v price="$price" -v targets="${targets[*]}" 'BEGIN {
  per_file = t1 / files; speedup = t1 / tn; eff = speedup / cores
  printf "measured on %d files of %.1f MB (this machine: %d cores)\n", files, bytes / files / 1e6, cores
  printf "  zcat of all files:          %6.2f s\n", z
  printf "  ingest on 1 core:           %6.2f s  (%.3f s a file, %.2fx zcat)\n", t1, per_file, t1 / z
  printf "  ingest on %d cores:          %6.2f s  (speed-up %.2f, %.0f%% per core)\n", cores, tn, speedup, 100 * eff
  printf "extrapolated to %d files (%.0f GB):\n", crawl, crawl * bytes / files / 1e9
  n = split(targets, ts, " ")
  for (i = 1; i <= n; i++) {
    c = ts[i]; hours = crawl * per_file / (c * eff) / 3600
    printf "  %3d cores: %6.1f h, %6.1f core-hours, about $%.2f at $%s a core-hour; download %.0f MB/s\n",
      c, hours, hours * c, hours * c * price, price, crawl * bytes / files / 1e6 / (hours * 3600)
  }
}'
