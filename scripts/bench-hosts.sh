#!/usr/bin/env bash
# bench-hosts.sh: time the hosts table of a published partition, and its
# peak memory, at several sizes.
#
#   scripts/bench-hosts.sh [CAPTURES...]      (default: 1000000 5000000)
#
# Each size runs BenchmarkHosts (ingest/hosts) once in a process of its
# own under /usr/bin/time: a synthetic partition of that many captures in
# the mix of a Common Crawl robotstxt partition (1.3 captures a host, a
# quarter of the hosts redirecting http to https, cross-host and two-hop
# chains, redirects to URLs never captured), then "read" (the captures
# parts read once: the floor) and "hosts" (the table). It prints both
# times, their ratio, captures per second and the process's peak RSS,
# which includes building the synthetic partition (streamed, 16,384 rows
# at a time). Extrapolate to a full crawl (75M captures) from the largest
# size: the computation is linear, and its memory is one bucket per
# worker. The benchmark runs under the soft memory limit ingest sets,
# GOMEMLIMIT=240MiB unless GOMEMLIMIT is set, which decides how many
# buckets are worked on at once (one a CPU, as many as the limit holds).
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000000 5000000)
bin="$(mktemp -d)/hosts.test"
go test -c -o "$bin" ./ingest/hosts
echo "== $(nproc) cores, GOMEMLIMIT=${GOMEMLIMIT:-240MiB}, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ), $(go version | cut -d' ' -f3)"
for n in "${sizes[@]}"; do
  out="$(GOMEMLIMIT="${GOMEMLIMIT:-240MiB}" ROBOCENSUS_HOSTS_CAPTURES="$n" /usr/bin/time -f "peak RSS %M KB" "$bin" -test.run='^$' -test.bench='^BenchmarkHosts$' -test.benchtime=1x 2>&1)"
  read_ns="$(echo "$out" | awk '/BenchmarkHosts\/read/ {print $3}')"
  hosts_ns="$(echo "$out" | awk '/BenchmarkHosts\/hosts/ {print $3}')"
  rate="$(echo "$out" | awk '/BenchmarkHosts\/hosts/ {for (i = 1; i < NF; i++) if ($(i+1) == "captures/s") print $i}')"
  rss="$(echo "$out" | awk '/peak RSS/ {print $3}')"
  awk -v n="$n" -v r="$read_ns" -v h="$hosts_ns" -v rate="$rate" -v rss="$rss" 'BEGIN {
    printf "%d captures: read %.1f s, hosts %.1f s (%.1fx read), %d captures/s, peak RSS %d MiB; 75M at this rate: %.0f min\n",
      n, r / 1e9, h / 1e9, h / r, rate, rss / 1024, 75e6 / rate / 60 }'
done
