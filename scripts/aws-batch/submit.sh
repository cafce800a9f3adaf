#!/usr/bin/env bash
# submit.sh: one Common Crawl crawl's robotstxt subset as an AWS Batch array
# job of SHARDS child jobs, each a shard. Every child runs scripts/nightly.sh
# (the image of scripts/k8s/Dockerfile) with DATA=s3://..., and ingest takes
# its shard from AWS_BATCH_JOB_ARRAY_INDEX of ROBOCENSUS_SHARDS (set here to
# the array's size; AWS_BATCH_JOB_ARRAY_SIZE where Batch sets it); the child
# that completes the last share publishes the crawl and writes its report,
# which goes to DEST.
#
#   QUEUE=robocensus SHARDS=8 CRAWL=latest scripts/aws-batch/submit.sh
#
# job-definition.json: edit the image, the role (the children's credentials:
# read the inputs, read and write DATA and DEST), DATA and DEST, then
# register it once (again after each edit: Batch keeps revisions):
#   aws batch register-job-definition --cli-input-json file://scripts/aws-batch/job-definition.json
#
# Its retryStrategy: up to 4 attempts a child; evaluateOnExit ends a child
# that exits 2 (usage) or 5 (a malformed manifest, refused credentials, a
# missing bucket) without a retry, since none would mend it; any other
# failure (exit 1: some inputs failed or the store could not be reached; an
# instance reclaimed) matches no rule and is retried, which resumes from the
# segments the child committed to the bucket.
#
# Environment: QUEUE (the job queue, required), SHARDS (the array size,
# 2-10000, default 8), CRAWL (default latest), DEFINITION (default
# robocensus-crawl, its latest revision).
set -euo pipefail

: "${QUEUE:?set QUEUE to the AWS Batch job queue}"
SHARDS="${SHARDS:-8}"
CRAWL="${CRAWL:-latest}"
DEFINITION="${DEFINITION:-robocensus-crawl}"

aws batch submit-job \
  --job-name "robocensus-$CRAWL" \
  --job-queue "$QUEUE" \
  --job-definition "$DEFINITION" \
  --array-properties "{\"size\": $SHARDS}" \
  --container-overrides "{\"environment\": [{\"name\": \"ROBOCENSUS_SHARDS\", \"value\": \"$SHARDS\"}, {\"name\": \"CRAWL\", \"value\": \"$CRAWL\"}]}"
