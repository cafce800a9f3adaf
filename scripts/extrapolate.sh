#!/usr/bin/env bash
# extrapolate.sh: how long, and how much, a full Common Crawl robotstxt crawl
# takes on one machine, from the figures scripts/bench-scale.sh measured at
# each core count (issue 28): no assumption that the per-core efficiency of
# one core count holds at another.
#
# Method. bench-scale.sh times an ingest of Common Crawl style files at
# -j 1, 2, 4 ... nproc on as many cores. For each measured core count J,
# the crawl's CRAWL_CAPTURES captures take the measured ingest time scaled
# by captures (ingest time is linear in size: bench-ingest.sh's linearity
# case), and the crawl's bytes at the measured ratio of bytes to captures
# give the download it needs. A core count that was not measured is not
# extrapolated: measure it on a machine that has it.
#
# Usage: scripts/extrapolate.sh [TABLE]
#   TABLE: bench-scale.sh's output saved to a file; without it bench-scale.sh
#   runs now (its environment applies: FILES, HOSTS, JOBS, RUNS, ...).
# Environment: CRAWL_CAPTURES (default 75000000, the most of a crawl),
#   CORE_HOUR_USD (default 0.02, a spot vCPU-hour).
set -euo pipefail
cd "$(dirname "$0")/.."

crawl="${CRAWL_CAPTURES:-75000000}"
price="${CORE_HOUR_USD:-0.02}"
table="${1:-}"
if [ -z "$table" ]; then
  table="$(mktemp)"
  trap 'rm -f "$table"' EXIT
  scripts/bench-scale.sh | tee "$table"
fi

awk -v crawl="$crawl" -v price="$price" '
  /^\| [0-9]+ \|/ { n++; j[n] = $2; s[n] = $6 }
  /^\([0-9]+ captures in [0-9]+ files of [0-9]+ bytes/ { caps = substr($1, 2); bytes = $7 }
  END {
    if (n == 0 || caps == 0) { print "extrapolate: no bench-scale.sh table found" > "/dev/stderr"; exit 1 }
    printf "\na crawl of %d captures (about %.0f GB of robotstxt WARCs), from %d captures measured:\n\n", crawl, crawl * bytes / caps / 1e9, caps
    print "| cores | time | core-hours | compute cost | download it needs |"
    print "|---:|---:|---:|---:|---:|"
    for (i = 1; i <= n; i++) {
      secs = s[i] / caps * crawl
      printf "| %d | %.1f h | %.1f | $%.2f | %.0f MB/s |\n", j[i], secs / 3600, secs * j[i] / 3600, secs * j[i] / 3600 * price, crawl * bytes / caps / 1e6 / secs
    }
  }' "$table"
