#!/usr/bin/env bash
# bench-ingest.sh: ingest throughput against its floor, decompression, and
# (with BASE) against another revision, with the datasets compared.
#
# Builds Common Crawl style robotstxt WARCs (per-record gzip, request and
# response records, Common Crawl's mix of answers) from the shared corpus
# with scripts/mkwarc, then times, in the same rounds and on the same files:
#
#   one file:    zcat A >/dev/null           against  robocensus ingest A
#   two files:   zcat A; zcat B (one after   against  robocensus ingest A B
#                the other: "both")
#   linearity:   robocensus ingest of files of N/2, N and 2N hosts
#   real bodies: the one- and two-file cases again on WARCs where every
#                capture is a real robots.txt (mkwarc -mix robots: the
#                egonkm and Alexa 2015 bodies), where parsing and writing
#                rows cost most (issue 12's targets: 1.3x and 1.0x)
#
# Each round runs every command of a case once, one after the other
# (interleaved, so that the machine's load falls on all alike); each figure
# is the median of RUNS rounds (default 5). Ratios are wall-clock ingest
# time over wall-clock zcat time; peak memory is the maximum resident set
# size reported by GNU time; "cpu s" is the ingest's user plus system CPU
# time, and "cpu new/base" its ratio to the base's. On the project's shared
# 2-core VM both move with the host's load: in 7 rounds of two builds that
# differ by under 1% of their instructions, the medians differed by up to
# 8% (wall) and 11% (CPU). Treat a change of less than about 10% as not
# measured here, and count the instructions of smaller ones
# (scripts/bench-instructions.sh). Targets (issues 3 and 12): Common Crawl
# style one file within 1.3x, two files within 0.8x; real bodies one file
# within 1.3x, two within 1.0x; peak RSS under 300 MiB; time linear in
# size.
#
# With BASE=REV the binary of that git revision is built too and timed in
# the same rounds ("base s" and "new/base"), and the datasets both write
# of each case are compared table by table with scripts/dscompare (DuckDB:
# needs cgo and gcc); the script fails when one differs.
#
# With CODECS="zstd snappy none" (codecs of ingest --compression), each
# round also runs the ingest once per codec, in the same rounds, and a
# second table gives for each case and codec the median ingest time over
# zcat's and over the first codec's, the CPU time over the first codec's,
# and the dataset's size (du of the published dataset) and its ratio to
# the first codec's.
#
# Both binaries are built with the build tags TAGS: by default libdeflate
# (the whole-member gzip inflater, ingest/archive/inflate.go) when Debian's
# libdeflate-dev is installed, else none; BASE_TAGS (default TAGS) for the
# base. TAGS= (empty) measures the pure-Go build; BASE=HEAD BASE_TAGS=
# measures the working tree with libdeflate against the pure-Go build of
# HEAD, datasets compared.
#
# Usage: [BASE=REV] [RUNS=5] [TAGS=...] [BASE_TAGS=...] [CODECS=...] scripts/bench-ingest.sh [N]   (N hosts per file, default 20000)
# Environment: ROBOCENSUS_CORPUS (default ../shared/corpus), RUNS, BASE, TAGS, BASE_TAGS, CODECS.
set -euo pipefail
cd "$(dirname "$0")/.."

n="${1:-20000}"
runs="${RUNS:-5}"
base="${BASE:-}"
codecs="${CODECS:-}"
corpus="${ROBOCENSUS_CORPUS:-../shared/corpus}"
if [ -z "${TAGS+set}" ]; then
  TAGS="$(scripts/build-tags.sh)"
fi
base_tags="${BASE_TAGS-$TAGS}"
work="$(mktemp -d)"
trap 'git worktree remove --force "$work/base-src" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

go build -tags "$TAGS" -o "$work/robocensus" ./cmd/robocensus
if [ -n "$base" ]; then
  git worktree add --detach "$work/base-src" "$base" >/dev/null 2>&1
  (cd "$work/base-src" && go build -tags "$base_tags" -o "$work/robocensus-base" ./cmd/robocensus)
  go build -o "$work/dscompare" ./scripts/dscompare
fi
for spec in "a:1:$n:cc" "b:2:$n:cc" "half:3:$((n / 2)):cc" "double:4:$((n * 2)):cc" "ra:5:$n:robots" "rb:6:$n:robots"; do
  IFS=: read -r name seed hosts mix <<<"$spec"
  go run ./scripts/mkwarc -corpus "$corpus" -n "$hosts" -seed "$seed" -mix "$mix" -o "$work/$name.warc.gz"
done

# measure OUT CMD...: runs CMD (its dataset, if any, in OUT) and appends
# "wall_seconds max_rss_kb user_seconds system_seconds" of the run to
# OUT.times.
measure() {
  local out=$1
  shift
  rm -rf "$out"
  /usr/bin/time -f "%e %M %U %S" -o "$work/time" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
  cat "$work/time" >>"$out.times"
}

# median FILE FIELD: the median of a column (1 wall, 2 RSS) of FILE, or of
# the CPU time (user plus system) when FIELD is cpu.
median() {
  awk -v f="$2" '{print (f == "cpu" ? $3 + $4 : $f)}' "$1" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'
}

# bench CASE FILES...: $runs rounds of zcat of FILES (one after the other),
# the ingest of FILES, and the base's ingest of FILES when BASE is set.
bench() {
  local name=$1
  shift
  local zc="" f
  for f in "$@"; do zc="$zc zcat '$f' >/dev/null &&"; done
  for _ in $(seq "$runs"); do
    measure "$work/$name-zcat" sh -c "$zc true"
    measure "$work/$name-new" "$work/robocensus" ingest -o "$work/$name-new" --crawl bench "$@"
    if [ -n "$base" ]; then
      measure "$work/$name-base" "$work/robocensus-base" ingest -o "$work/$name-base" --crawl bench "$@"
    fi
    for c in $codecs; do
      measure "$work/$name-$c" "$work/robocensus" ingest --compression "$c" -o "$work/$name-$c" --crawl bench "$@"
    done
  done
  for c in $codecs; do
    du -sb "$work/$name-$c" | cut -f1 >"$work/$name-$c.size"
  done
  if [ -n "$base" ]; then
    "$work/dscompare" "$work/$name-base" "$work/$name-new" >"$work/$name.compare" || {
      cat "$work/$name.compare" >&2
      echo "bench-ingest: $name: the datasets of $base and of the working tree differ" >&2
      exit 1
    }
  fi
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

# row LABEL CASE: one line of the table.
row() {
  local z i m c
  z=$(median "$work/$2-zcat.times" 1)
  i=$(median "$work/$2-new.times" 1)
  m=$(median "$work/$2-new.times" 2)
  c=$(median "$work/$2-new.times" cpu)
  printf '%-34s %7s %8s %6s %6s MiB %6s' "$1" "$z" "$i" "$(ratio "$i" "$z")" "$((m / 1024))" "$c"
  if [ -n "$base" ]; then
    local b bc
    b=$(median "$work/$2-base.times" 1)
    bc=$(median "$work/$2-base.times" cpu)
    printf ' %7s %9s %12s' "$b" "$(ratio "$i" "$b")" "$(ratio "$c" "$bc")"
  fi
  echo
}

bench one "$work/a.warc.gz"
bench two "$work/a.warc.gz" "$work/b.warc.gz"
bench half "$work/half.warc.gz"
bench double "$work/double.warc.gz"
bench real-one "$work/ra.warc.gz"
bench real-two "$work/ra.warc.gz" "$work/rb.warc.gz"

echo "machine: $(nproc) cores, $(go version | cut -d' ' -f3), $(date -u +%Y-%m-%d)"
echo "input: $(du -h "$work/a.warc.gz" | cut -f1) per file ($n hosts), rounds: $runs (medians, interleaved)${base:+, base $(git rev-parse --short "$base")}"
echo "build tags: '${TAGS}'${base:+, base: '${base_tags}'} ($("$work/robocensus" version))"
printf '%-34s %7s %8s %6s %10s %6s' "case" "zcat s" "ingest s" "ratio" "peak RSS" "cpu s"
[ -n "$base" ] && printf ' %7s %9s %12s' "base s" "new/base" "cpu new/base"
echo
row "one file" one
row "two files (zcat of both)" two
row "N/2 hosts" half
row "2N hosts" double
printf '%-34s %7s %8s %6s\n' "linearity: 2N hosts over N" "" "" "$(ratio "$(median "$work/double-new.times" 1)" "$(median "$work/one-new.times" 1)")"
row "real bodies: one file" real-one
row "real bodies: two files (zcat both)" real-two
if [ -n "$base" ]; then
  echo "datasets of $base and of the working tree: the same in every case (scripts/dscompare)"
fi

# codec_row LABEL CASE CODEC REF: one line of the codecs' table, REF the
# codec the ratios are to.
codec_row() {
  local z i c ri rc size rsize
  z=$(median "$work/$2-zcat.times" 1)
  i=$(median "$work/$2-$3.times" 1)
  c=$(median "$work/$2-$3.times" cpu)
  ri=$(median "$work/$2-$4.times" 1)
  rc=$(median "$work/$2-$4.times" cpu)
  size=$(cat "$work/$2-$3.size")
  rsize=$(cat "$work/$2-$4.size")
  printf '%-34s %-7s %8s %6s %8s %6s %8s %8s %8s\n' "$1" "$3" "$i" "$(ratio "$i" "$z")" "$(ratio "$i" "$ri")" "$c" "$(ratio "$c" "$rc")" \
    "$(awk -v b="$size" 'BEGIN {printf "%.1f", b / 1e6}')" "$(ratio "$size" "$rsize")"
}

if [ -n "$codecs" ]; then
  ref="${codecs%% *}"
  echo
  echo "codecs (ingest --compression), in the same rounds; ratios to $ref:"
  printf '%-34s %-7s %8s %6s %8s %6s %8s %8s %8s\n' "case" "codec" "ingest s" "/zcat" "/$ref" "cpu s" "cpu/$ref" "MB" "size/$ref"
  for spec in "one file|one" "two files (zcat of both)|two" "N/2 hosts|half" "2N hosts|double" \
    "real bodies: one file|real-one" "real bodies: two files (zcat both)|real-two"; do
    for c in $codecs; do
      codec_row "${spec%%|*}" "${spec##*|}" "$c" "$ref"
    done
  done
fi
