#!/usr/bin/env bash
# bench-google.sh: robots.Parse (every diagnostic) against Google's bare
# parse, in the same run, interleaved (issue 33's baseline).
#
#   GOOGLE_ROBOTSTXT=/path/to/google/robotstxt scripts/bench-google.sh
#
# GOOGLE_ROBOTSTXT is a checkout of github.com/google/robotstxt (its
# robots.cc and robots.h; nothing of it enters this repository). The script
# builds scripts/bench-google/driver.cc over it with g++ -O2 against
# Debian's abseil (apt-get install libabsl-dev), and the robots test binary
# of the working tree; then it runs, ROUNDS times (default 5), alternately:
#
#   go:     BenchmarkParse at -test.benchtime 5x, one core: warm MB/s, and
#           its fresh-MB/s, the process's first pass over the corpus;
#           built as a program that imports package robots builds it
#           (no profile);
#   go-pgo: the same, built with cmd/robocensus/default.pgo, the profile
#           the robocensus command is built with (scripts/pgo.sh): the
#           parser as robocensus runs it;
#   go-str: BenchmarkParseString, no profile: the bodies made strings
#           before the timing and parsed by ParseString, which keeps its
#           text without the copy Parse makes of a []byte, as Google's
#           parse reads a string_view it does not copy;
#   go-parser: BenchmarkParser/string, no profile: ParseString through
#           one robots.Parser, whose storage each parse reuses (the File
#           valid until the next parse), as ingest parses; Google's
#           parse, with its handler that keeps nothing, allocates nothing
#           either;
#   google: the driver, the corpus read from the same tar: its first pass
#           (fresh) and 5 more (warm), a handler that does nothing.
#
# Both parse the 31,758 bodies of the egonkm corpus cut at 500 KiB; MB/s
# counts the bytes parsed (92.1 MB), not the bytes stored (105 MB), for
# both. Prints the median of each and the ratios go/google. Issue 33's
# targets: warm >= 1.25, fresh >= 0.75. The machine is shared and noisy:
# compare ratios of one run, not figures across runs.
# Environment: GOOGLE_ROBOTSTXT (required), ROBOCENSUS_CORPUS (default
# ../shared/corpus), ROUNDS, CXX (default g++).
set -euo pipefail
cd "$(dirname "$0")/.."

google="${GOOGLE_ROBOTSTXT:?set GOOGLE_ROBOTSTXT to a checkout of github.com/google/robotstxt}"
if [ ! -f "$google/robots.cc" ] || [ ! -f "$google/robots.h" ]; then
  echo "bench-google.sh: $google has no robots.cc and robots.h (GOOGLE_ROBOTSTXT must be a checkout of github.com/google/robotstxt)" >&2
  exit 2
fi
if [ ! -d /usr/include/absl ]; then
  echo "bench-google.sh: abseil's headers are missing (/usr/include/absl): apt-get install libabsl-dev" >&2
  exit 2
fi
rounds="${ROUNDS:-5}"
. scripts/egonkm.sh
export ROBOCENSUS_CORPUS="$corpus"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"${CXX:-g++}" -O2 -std=c++17 -I"$google" -o "$work/google" scripts/bench-google/driver.cc "$google/robots.cc" \
  -labsl_strings -labsl_strings_internal -labsl_throw_delegate -labsl_raw_logging_internal
go test -c -pgo=off -o "$work/go.test" ./robots
go test -c -pgo=cmd/robocensus/default.pgo -o "$work/go-pgo.test" ./robots

# gorun BIN [BENCH]: prints "warm-MB/s fresh-MB/s" of one process of the
# test binary BIN running BENCH (default BenchmarkParse), per byte stored
# (scaled below).
gorun() {
  (cd robots && "$1" -test.run '^$' -test.bench "^${2:-BenchmarkParse}\$" -test.benchtime 5x -test.cpu 1 -test.benchmem) |
    awk '/^BenchmarkParse/ {for (i = 1; i <= NF; i++) { if ($(i+1) == "MB/s") m = $i; if ($(i+1) == "fresh-MB/s") f = $i } print m, f}'
}

# googlerun: prints "warm-MB/s fresh-MB/s raw bytes" of one driver process.
googlerun() {
  "$work/google" 5 <"$work/corpus.tar" |
    sed -E 's/.*raw=([0-9]+) bytes=([0-9]+) fresh-MB\/s=([0-9.]+) warm-MB\/s=([0-9.]+).*/\4 \3 \1 \2/'
}

median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

zcat "$tarball" >"$work/corpus.tar"
: >"$work/go.out"
: >"$work/go-pgo.out"
: >"$work/go-str.out"
: >"$work/go-parser.out"
: >"$work/google.out"
for _ in $(seq "$rounds"); do
  gorun "$work/go.test" >>"$work/go.out"
  gorun "$work/go-pgo.test" >>"$work/go-pgo.out"
  gorun "$work/go.test" BenchmarkParseString >>"$work/go-str.out"
  gorun "$work/go.test" BenchmarkParser/string >>"$work/go-parser.out"
  googlerun >>"$work/google.out"
done
read -r raw cut < <(tail -1 "$work/google.out" | cut -d' ' -f3,4)
# Go's MB/s counts the bytes stored: scale it to the bytes parsed.
scale=$(awk -v c="$cut" -v r="$raw" 'BEGIN {print c / r}')
echo "machine: $(nproc) cores, $(go version | cut -d' ' -f3), ${CXX:-g++} $("${CXX:-g++}" -dumpversion), $(date -u +%Y-%m-%d); head $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- robots || echo +changes), google $(git -C "$google" rev-parse --short HEAD 2>/dev/null || echo '?'); rounds: $rounds"
echo "bytes parsed: $cut of $raw (31,758 bodies cut at 500 KiB)"
printf '%-6s %10s %12s %12s %15s %12s %7s %10s %10s %13s\n' "mode" "go MB/s" "go-pgo MB/s" "go-str MB/s" "go-parser MB/s" "google MB/s" "ratio" "pgo ratio" "str ratio" "parser ratio"
# gomedian COLUMN FILE: the median of a Go column, per byte parsed.
gomedian() { cut -d' ' -f"$1" "$2" | awk -v s="$scale" '{printf "%.1f\n", $1 * s}' | median; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
for col in 1:warm 2:fresh; do
  IFS=: read -r i name <<<"$col"
  g=$(gomedian "$i" "$work/go.out")
  p=$(gomedian "$i" "$work/go-pgo.out")
  t=$(gomedian "$i" "$work/go-str.out")
  r=$(gomedian "$i" "$work/go-parser.out")
  o=$(cut -d' ' -f"$i" "$work/google.out" | median)
  printf '%-6s %10s %12s %12s %15s %12s %7s %10s %10s %13s\n' "$name" "$g" "$p" "$t" "$r" "$o" "$(ratio "$g" "$o")" "$(ratio "$p" "$o")" "$(ratio "$t" "$o")" "$(ratio "$r" "$o")"
done
