#!/usr/bin/env bash
# robocensus-array.sh: one crawl's ingest as a Slurm job array, each task a
# shard. Every task runs robocensus ingest --shard auto, which takes its
# share from SLURM_ARRAY_TASK_ID of SLURM_ARRAY_TASK_COUNT (counted from
# SLURM_ARRAY_TASK_MIN by SLURM_ARRAY_TASK_STEP, so --array=0-7 and
# --array=1-15:2 both give 8 shards); the task that completes the last share
# publishes the crawl. The tasks meet only in DATA: an s3://BUCKET/PREFIX
# (locks are leases in the bucket) or a folder every node mounts.
#
#   sbatch --export=ALL,DATA=s3://my-bucket/robocensus \
#     scripts/slurm/robocensus-array.sh \
#     https://data.commoncrawl.org/crawl-data/CC-MAIN-2025-05/robotstxt.paths.gz
#
# The arguments are ingest's inputs (a manifest, files, URLs). Environment:
#   DATA         the dataset: s3://BUCKET/PREFIX or a shared folder (required)
#   CRAWL        the partition label (default: taken from the inputs)
#   S3_ENDPOINT  an S3-compatible store (--s3-endpoint; default
#                AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, else AWS); the
#                credentials are the standard AWS settings
#   BASE_URL     where a manifest's paths are served (--base-url)
#   COMPRESSION  the codec of the Parquet pages, zstd (default), snappy or
#                none (--compression)
#   ROBOCENSUS   the binary (default: robocensus on PATH)
#
# The exit status is ingest's: 0 the shard is done (published, or waiting
# for other shards), 1 some inputs failed or the dataset could not be
# written now: worth running again, 2 usage and 5 permanent (a malformed
# manifest, refused credentials, a missing bucket): do not run again until
# mended. Slurm does not retry a task that exits; run the failed indexes
# again (sacct -j JOBID shows them):
#   sbatch --array=3,5 --export=ALL,DATA=... scripts/slurm/robocensus-array.sh MANIFEST
# A rerun skips what its shard finished; a rerun after publication reads
# again only the inputs that failed. Change --array and nothing else to
# change the number of shards of a new crawl (not of one under way).
#
# The #SBATCH lines are read by sbatch and are comments to bash; 2 CPUs and
# 1 GiB a task suffice (ingest sizes its workers to its memory bound).
#SBATCH --job-name=robocensus
#SBATCH --array=0-7
#SBATCH --cpus-per-task=2
#SBATCH --mem=1G
#SBATCH --time=04:00:00
#SBATCH --output=robocensus-%A_%a.log
set -euo pipefail

: "${DATA:?set DATA to s3://BUCKET/PREFIX or a folder every node mounts}"
: "${SLURM_ARRAY_TASK_ID:?not a task of a Slurm job array: submit with sbatch --array=0-N}"
if [ "$#" -eq 0 ]; then
  echo "usage: sbatch [--array=0-N] $0 INPUT... (a robotstxt.paths.gz manifest, files or URLs)" >&2
  exit 2
fi

exec "${ROBOCENSUS:-robocensus}" ingest -o "$DATA" --shard auto -j "${SLURM_CPUS_PER_TASK:-0}" \
  ${CRAWL:+--crawl "$CRAWL"} ${S3_ENDPOINT:+--s3-endpoint "$S3_ENDPOINT"} ${BASE_URL:+--base-url "$BASE_URL"} \
  ${COMPRESSION:+--compression "$COMPRESSION"} "$@"
