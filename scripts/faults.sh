#!/usr/bin/env bash
# faults.sh: ingest a Common Crawl style robotstxt WARC from a loopback
# server injecting faults (resets, ignored ranges, a file changed mid-way, a
# trickling and a stalled body, no headers, a wrong Content-Length, a
# redirect loop, a Location without a scheme, 404, no Content-Length), and
# report for each the captures ingested against a local ingest of the same
# file; then heal the server and rerun, which reads only the failed inputs.
#
#   scripts/faults.sh            # CORPUS=../shared/corpus N=2000
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS="${CORPUS:-../shared/corpus}"
N="${N:-2000}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
warc="$tmp/CC-MAIN-20250113000000-20250113010000-00000.warc.gz"
go run ./scripts/mkwarc -corpus "$CORPUS" -n "$N" -seed 16 -o "$warc"
go run ./scripts/faults -warc "$warc"
