#!/usr/bin/env bash
# nightly.sh: the nightly job on one machine. Ingests one Common Crawl
# crawl's robotstxt subset into DATA, writes the crawl report, and uploads
# the published partition to object storage with the storage's own CLI.
#
#   CRAWL=CC-MAIN-2025-05 DATA=/srv/robocensus DEST=s3://bucket/robocensus scripts/nightly.sh
#
# Environment:
#   CRAWL     the crawl label (required), e.g. CC-MAIN-2025-05
#   DATA      the dataset folder (default /var/lib/robocensus)
#   MANIFEST  the crawl's robotstxt.paths.gz (default: Common Crawl's, by CRAWL)
#   BASE_URL  where the manifest's paths are served (default https://data.commoncrawl.org/)
#   DEST      optional: s3://... (aws s3 sync) or gs://... (gcloud storage rsync)
#   JOBS      workers (default: all cores)
#   ROBOCENSUS the binary (default: robocensus on PATH)
#
# Safe to run again at any time: an interrupted ingest resumes where it
# stopped; a finished crawl is published again with the same rows. Runs
# never overlap (flock on DATA/.nightly.lock). Cron:
#   15 2 * * *  CRAWL=CC-MAIN-2025-05 /opt/robocensus/scripts/nightly.sh >>/var/log/robocensus.log 2>&1
# or the systemd timer in scripts/systemd/.
set -euo pipefail

: "${CRAWL:?set CRAWL, e.g. CC-MAIN-2025-05}"
DATA="${DATA:-/var/lib/robocensus}"
BASE_URL="${BASE_URL:-https://data.commoncrawl.org/}"
MANIFEST="${MANIFEST:-${BASE_URL%/}/crawl-data/$CRAWL/robotstxt.paths.gz}"
ROBOCENSUS="${ROBOCENSUS:-robocensus}"
JOBS="${JOBS:-0}"

mkdir -p "$DATA"
exec 9>"$DATA/.nightly.lock"
if ! flock -n 9; then
  echo "nightly: another run holds $DATA/.nightly.lock; exiting" >&2
  exit 0
fi

log() { echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) nightly: $*" >&2; }

log "ingesting $CRAWL from $MANIFEST into $DATA"
status=0
"$ROBOCENSUS" ingest -o "$DATA" --crawl "$CRAWL" -j "$JOBS" --base-url "$BASE_URL" "$MANIFEST" || status=$?
if [ "$status" -gt 1 ]; then
  log "ingest failed (exit $status)"
  exit "$status"
fi
[ "$status" -eq 1 ] && log "some inputs could not be read; they are listed in the inputs table"

if "$ROBOCENSUS" help report >/dev/null 2>&1; then
  "$ROBOCENSUS" report -o "$DATA/report-$CRAWL.html" "$DATA" || log "report failed"
fi

if [ -n "${DEST:-}" ]; then
  for dir in "$DATA"/*/"crawl=$CRAWL"; do
    table="$(basename "$(dirname "$dir")")"
    target="${DEST%/}/$table/crawl=$CRAWL"
    log "uploading $dir to $target"
    case "$DEST" in
      s3://*) aws s3 sync --delete --only-show-errors "$dir" "$target" ;;
      gs://*) gcloud storage rsync --delete-unmatched-destination-objects --recursive "$dir" "$target" ;;
      *) log "DEST must start with s3:// or gs://"; exit 2 ;;
    esac
  done
fi
log "done (ingest exit $status)"
exit "$status"
