#!/usr/bin/env bash
# nightly.sh: the nightly job. Ingests one Common Crawl crawl's robotstxt
# subset into DATA, writes the crawl report, and copies the published
# partition and the report to DEST (object storage, with the storage's own
# CLI, or a folder). DATA may itself be in object storage (s3://...): the
# dataset is then written there directly, and only the report is copied.
#
#   CRAWL=latest DATA=/srv/robocensus DEST=s3://bucket/robocensus scripts/nightly.sh
#   CRAWL=latest DATA=s3://bucket/robocensus REPORTS=/srv/reports scripts/nightly.sh
#
# Environment:
#   CRAWL     the crawl label, e.g. CC-MAIN-2025-05, or "latest": the newest
#             crawl listed in COLLINFO (required)
#   COLLINFO  Common Crawl's list of crawls, newest first
#             (default https://index.commoncrawl.org/collinfo.json)
#   DATA      the dataset folder (default /var/lib/robocensus), or
#             s3://BUCKET/PREFIX: the dataset in object storage, written by
#             robocensus itself under the standard AWS settings (AWS_REGION,
#             AWS_ACCESS_KEY_ID, ... or a role), with its locks in the bucket
#   S3_ENDPOINT  optional: the S3-compatible store of an s3:// DATA or
#             MANIFEST (ingest and report --s3-endpoint; default:
#             AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, else AWS)
#   REPORTS   the local folder of report-<crawl>.html and of the run's lock
#             (default: DATA when it is a folder, else
#             /var/lib/robocensus/reports). With an s3:// DATA the report
#             stays here (and goes to DEST when set): robocensus puts only
#             datasets into buckets, and a report is a page for people,
#             published where they read it (DEST)
#   MANIFEST  the crawl's robotstxt.paths.gz (default: BASE_URL's, by CRAWL)
#   BASE_URL  where the manifest's paths are served (default https://data.commoncrawl.org/)
#   DEST      optional: s3://... (aws s3 sync), gs://... (gcloud storage
#             rsync) or a local folder; with an s3:// DATA, only the report
#             is copied there (the dataset is already in its bucket)
#   SHARD     optional K/N: this machine's share of the crawl; unset, an
#             array job's index sets it (ingest --shard auto: Kubernetes
#             JOB_COMPLETION_INDEX with ROBOCENSUS_SHARDS, AWS Batch, Slurm,
#             Cloud Run); the run that completes the last share publishes,
#             reports and uploads
#   JOBS      ingest workers (default 0: all cores)
#   COMPRESSION  the codec of the dataset's Parquet pages: zstd (default:
#             the smallest), snappy (a faster ingest, a larger dataset) or
#             none (ingest --compression; sizes and times in the README's
#             "Performance")
#   REPORT_MEMLIMIT  the report's GOMEMLIMIT, from which it chooses its host
#             batches (default 4GiB: a full crawl in 2-5 batches, 15-45
#             minutes on 2 cores; each batch is a pass over the crawl)
#   REPORT_BATCHES  force the report's number of host batches (default 0:
#             as few as fit REPORT_MEMLIMIT; REPORT_SHARDS, its former
#             name, is still read)
#   FORCE     1: ingest every input of a crawl already published again
#             (ingest --fresh)
#   ROBOCENSUS the binary (default: robocensus on PATH)
#
# Safe to run again at any time: an interrupted ingest resumes where it
# stopped, and ingest over a crawl already published reads again only the
# inputs that failed (the inputs table lists them with their error), keeps
# the rest and republishes; when none failed there is nothing to do (FORCE=1
# reads everything again). Runs never overlap (flock on
# REPORTS/.nightly-<crawl>-<shard or task>.lock; runs on other machines over an
# s3:// DATA are kept apart by ingest's leases in the bucket). Exit status:
# 0 done (or nothing to do), 1 done but some inputs of the crawl are still
# not read to their end, or the dataset could not be written now (rows of
# the inputs table with their error; the next run tries them again), 2
# ingest failed (usage), 5 ingest failed for good (a malformed manifest,
# refused credentials, a missing bucket: do not retry 2 or 5), 3 the upload
# failed, 4 the report failed (the rest was done). A run that finds the
# crawl published but its report missing or older than the publication
# (after exit 3 or 4, or a run killed while reporting) writes and uploads
# the report, whichever task it is: with an s3:// DATA, the publication
# reported is recorded last, in .report-<crawl>.publication beside the
# report in DEST (else REPORTS), and compared with the one ingest prints.
# Cron:
#   15 2 * * *  CRAWL=latest /opt/robocensus/scripts/nightly.sh >>/var/log/robocensus.log 2>&1
# or the systemd timer in scripts/systemd/, or the Indexed Job in scripts/k8s/
# (scripts/aws-batch/ and scripts/slurm/ run ingest itself as array jobs).
set -euo pipefail

: "${CRAWL:?set CRAWL, e.g. CC-MAIN-2025-05 or latest}"
DATA="${DATA:-/var/lib/robocensus}"
BASE_URL="${BASE_URL:-https://data.commoncrawl.org/}"
COLLINFO="${COLLINFO:-https://index.commoncrawl.org/collinfo.json}"
ROBOCENSUS="${ROBOCENSUS:-robocensus}"
JOBS="${JOBS:-0}"
REPORT_BATCHES="${REPORT_BATCHES:-${REPORT_SHARDS:-0}}"
REPORT_MEMLIMIT="${REPORT_MEMLIMIT:-4GiB}"
SHARD="${SHARD:-}"
S3_ENDPOINT="${S3_ENDPOINT:-}"
case "$DATA" in
  s3://*) in_bucket=1; REPORTS="${REPORTS:-/var/lib/robocensus/reports}" ;;
  *://*) echo "nightly: DATA must be a folder or s3://BUCKET/PREFIX, not $DATA" >&2; exit 2 ;;
  *) in_bucket=0; REPORTS="${REPORTS:-$DATA}" ;;
esac

log() { echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) nightly: $*" >&2; }

if [ "$CRAWL" = latest ]; then
  CRAWL="$(curl -fsS --retry 5 --max-time 60 "$COLLINFO" | grep -o '"id": *"CC-MAIN-[0-9]*-[0-9]*"' | head -n 1 | grep -o 'CC-MAIN-[0-9-]*')" || true
  if [ -z "$CRAWL" ]; then
    log "no crawl found in $COLLINFO"
    exit 2
  fi
  log "latest crawl: $CRAWL"
fi
MANIFEST="${MANIFEST:-${BASE_URL%/}/crawl-data/$CRAWL/robotstxt.paths.gz}"

[ "$in_bucket" = 1 ] || mkdir -p "$DATA"
mkdir -p "$REPORTS"
# array_task: the array job's task index, if one is set.
array_task() { printf %s "${JOB_COMPLETION_INDEX:-${AWS_BATCH_JOB_ARRAY_INDEX:-${SLURM_ARRAY_TASK_ID:-${CLOUD_RUN_TASK_INDEX:-}}}}"; }
task="$(array_task)"
lock="$REPORTS/.nightly-$CRAWL-$(printf %s "${SHARD:-${task:+task$task}}" | tr / -).lock"
lock="${lock/%-.lock/-all.lock}"
exec 9>"$lock"
if ! flock -n 9; then
  log "another run holds $lock; exiting"
  exit 0
fi

# first_task: whether this run is the crawl's first share (SHARD 0/N, or
# index 0 of an array job), which reports a crawl found already published;
# or the whole crawl.
first_task() {
  case "$SHARD" in
    0/*) return 0 ;;
    "") [ "${task:-0}" = "${SLURM_ARRAY_TASK_MIN:-0}" ] ;;
    *) return 1 ;;
  esac
}

# publisher: whether this run saw the crawl published and so reports and
# uploads it (in a sharded run, only the run that published it).
publisher=0
status=0
fresh=
if [ "${FORCE:-0}" = 1 ]; then
  fresh=--fresh
  log "ingesting every input of $CRAWL again (FORCE=1) ${SHARD:+(shard $SHARD) }from $MANIFEST into $DATA"
elif [ "$in_bucket" = 1 ]; then
  log "ingesting $CRAWL ${SHARD:+(shard $SHARD) }from $MANIFEST into $DATA (over a crawl published there, ingest reads again only the inputs that failed)"
elif [ -d "$DATA/inputs/crawl=$CRAWL" ]; then
  log "$CRAWL is published in $DATA: ingest reads again the inputs that failed ${SHARD:+(shard $SHARD) }and keeps the others"
else
  log "ingesting $CRAWL ${SHARD:+(shard $SHARD) }from $MANIFEST into $DATA"
fi
out="$("$ROBOCENSUS" ingest -o "$DATA" --crawl "$CRAWL" -j "$JOBS" --base-url "$BASE_URL" ${SHARD:+--shard "$SHARD"} ${S3_ENDPOINT:+--s3-endpoint "$S3_ENDPOINT"} ${COMPRESSION:+--compression "$COMPRESSION"} $fresh "$MANIFEST")" || status=$?
printf '%s\n' "$out"
if [ "$status" -gt 1 ]; then
  log "ingest failed (exit $status)"
  exit "$status"
fi
[ "$status" -eq 1 ] && log "ingest exit 1: some inputs of $CRAWL are still not read to their end (they are listed with their error in the inputs table, and the next run reads them again), or the dataset could not be written now (its error is above)"
publication="$(printf '%s\n' "$out" | sed -n 's/^  publication: //p' | tail -n 1)"
report="$REPORTS/report-$CRAWL.html"
# The report's marker names the publication the report is of (an s3://
# DATA's; a folder's crawl has no name, its partition's time tells).
marker=".report-$CRAWL.publication"

# reported_publication: the publication whose report is where reports go
# (DEST when set, else REPORTS), by its marker; nothing when none.
reported_publication() {
  local at="${DEST:-$REPORTS}"
  at="${at%/}/$marker"
  case "$at" in
    s3://*) aws s3 cp --only-show-errors "$at" - 2>/dev/null || true ;;
    gs://*) gcloud storage cat "$at" 2>/dev/null || true ;;
    *) cat "$at" 2>/dev/null || true ;;
  esac
}

# stale_report: whether the crawl's report is missing or of an older
# publication: in a bucket, by the marker of the last report; in a folder,
# by the time of the published partition.
stale_report() {
  if [ "$in_bucket" = 1 ] && [ -n "$publication" ]; then
    [ "$(reported_publication)" != "$publication" ]
    return
  fi
  [ ! -s "$report" ] && return 0
  if [ "$in_bucket" = 1 ]; then
    case "$out" in *"  published "*) return 0 ;; esac
    return 1
  fi
  [ "$report" -ot "$DATA/captures/crawl=$CRAWL" ]
}

case "$out" in
  *"  published "*) publisher=1 ;;
  *"  already published: "*)
    if stale_report; then
      log "$CRAWL was already published with every input read to its end: nothing ingested; its report is missing or older than the publication${publication:+ ($publication)}, so this run writes it"
      publisher=1
    else
      log "$CRAWL was already published with every input read to its end: nothing ingested"
      first_task && [ "$in_bucket" = 0 ] && publisher=1
    fi ;;
esac
if [ "$publisher" = 0 ]; then
  log "done: the crawl is published by the run that completes its last share (ingest exit $status)"
  exit "$status"
fi

report_failed=0
reported=0
if stale_report; then
  log "writing $report"
  if GOMEMLIMIT="${GOMEMLIMIT:-$REPORT_MEMLIMIT}" "$ROBOCENSUS" report --host-batches "$REPORT_BATCHES" ${S3_ENDPOINT:+--s3-endpoint "$S3_ENDPOINT"} -o "$report.tmp" "$DATA"; then
    mv -f "$report.tmp" "$report"
    reported=1
  else
    rm -f "$report.tmp"
    log "report failed; the dataset is published all the same, and the next run writes the report"
    report_failed=1
  fi
fi

# upload copies one folder (or, with -f, one file) to a destination.
upload() {
  local src="$1" target="$2"
  log "uploading $src to $target"
  case "$target" in
    s3://*)
      if [ -d "$src" ]; then aws s3 sync --delete --only-show-errors "$src" "$target"
      else aws s3 cp --only-show-errors "$src" "$target"; fi ;;
    gs://*)
      if [ -d "$src" ]; then gcloud storage rsync --delete-unmatched-destination-objects --recursive "$src" "$target"
      else gcloud storage cp "$src" "$target"; fi ;;
    *://*)
      log "DEST must be s3://..., gs://... or a folder"
      return 2 ;;
    *)
      mkdir -p "$(dirname "$target")"
      if [ -d "$src" ]; then
        # Copy aside, then swap: the destination holds the old files or the new ones.
        rm -rf "$target.uploading" "$target.old"
        cp -R "$src" "$target.uploading"
        [ -e "$target" ] && mv "$target" "$target.old"
        mv "$target.uploading" "$target"
        rm -rf "$target.old"
      else
        cp "$src" "$target.uploading" && mv -f "$target.uploading" "$target"
      fi ;;
  esac
}

if [ -n "${DEST:-}" ]; then
  if [ "$in_bucket" = 1 ]; then
    log "the dataset is in $DATA already: only the report goes to $DEST"
  else
    for dir in "$DATA"/*/"crawl=$CRAWL"; do
      table="$(basename "$(dirname "$dir")")"
      upload "$dir" "${DEST%/}/$table/crawl=$CRAWL" || exit 3
    done
  fi
  if [ -s "$report" ]; then
    upload "$report" "${DEST%/}/report-$CRAWL.html" || exit 3
  fi
fi
# The marker goes last, where the report went: a run stopped before leaves
# the report stale, and the next run writes it again.
if [ "$reported" = 1 ] && [ -n "$publication" ]; then
  printf '%s\n' "$publication" > "$REPORTS/$marker"
  if [ -n "${DEST:-}" ]; then
    upload "$REPORTS/$marker" "${DEST%/}/$marker" || exit 3
  fi
fi
if [ "$report_failed" = 1 ]; then
  exit 4
fi
log "done: $CRAWL published${DEST:+ and uploaded to $DEST} (ingest exit $status)"
exit "$status"
