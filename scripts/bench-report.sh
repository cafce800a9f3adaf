#!/usr/bin/env bash
# bench-report.sh: time robocensus report over a dataset of about one
# million captures, and its peak memory.
#
#   scripts/bench-report.sh [-n HOSTS] [-d DIR] [-s "BATCHES..."]
#
# DIR (default /tmp/robocensus-bench) keeps the dataset between runs: the
# first run builds it, as a user would, with scripts/mkwarc (a Common Crawl
# style robotstxt WARC from the shared corpus: 770,000 hosts make about
# 1,000,000 captures, 1.3 per host because of redirects, about 2 GB) and
# robocensus ingest; later runs reuse it (delete DIR to rebuild). Then it
# runs the crawl report as JSON and as HTML and one site report, each under
# /usr/bin/time, and prints wall time, CPU time (user and system) and peak
# RSS. -s runs the JSON report again with each number of host batches
# listed (--host-batches), and checks that it is the same. The shared corpus
# is looked for at ../shared/corpus or $ROBOCENSUS_CORPUS.
#
# Targets (issue 4): under a minute, bounded memory. On the shared 2-core
# VMs timings vary by half with the neighbours' load: run it twice.
set -euo pipefail
cd "$(dirname "$0")/.."

hosts=770000
dir=/tmp/robocensus-bench
batches=""
while getopts "n:d:s:" opt; do
  case "$opt" in
    n) hosts="$OPTARG" ;;
    d) dir="$OPTARG" ;;
    s) batches="$OPTARG" ;;
    *) echo "usage: $0 [-n HOSTS] [-d DIR] [-s \"BATCHES...\"]" >&2; exit 2 ;;
  esac
done
corpus="${ROBOCENSUS_CORPUS:-../shared/corpus}"
mkdir -p "$dir"
go build -o "$dir/robocensus" ./cmd/robocensus

data="$dir/dataset-$hosts"
if [ ! -d "$data/captures" ]; then
  warc="$dir/crawl-data/CC-MAIN-2025-05/robotstxt/bench-$hosts.warc.gz"
  mkdir -p "$(dirname "$warc")"
  echo "== building the dataset: mkwarc -n $hosts, then ingest (a few minutes, once)"
  go run ./scripts/mkwarc -corpus "$corpus" -n "$hosts" -o "$warc"
  "$dir/robocensus" ingest -o "$data" "$warc"
  rm -f "$warc"
fi

run() {
  local name="$1"; shift
  /usr/bin/time -f "$name: %e s wall, %U s user, %S s system, peak RSS %M KB" "$@" >/dev/null
}
echo "== $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"
run "report --format json" "$dir/robocensus" report --format json -o "$dir/report.json" "$data"
echo "== $(grep -m1 '"captures"' "$dir/report.json" | tr -d ' ,') in $data"
run "report (html)" "$dir/robocensus" report -o "$dir/report.html" "$data"
host="$(grep -m1 -o '"host": "[^"]*"' "$dir/report.json" | cut -d'"' -f4)"
run "report --site $host" "$dir/robocensus" report --site "$host" -o "$dir/site.html" "$data"
for n in $batches; do
  run "report --format json --host-batches $n" "$dir/robocensus" report --format json --host-batches "$n" -o "$dir/report-$n.json" "$data"
  cmp -s "$dir/report.json" "$dir/report-$n.json" || { echo "the report with $n host batches differs" >&2; exit 1; }
done
