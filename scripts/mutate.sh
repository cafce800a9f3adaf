#!/usr/bin/env bash
# Checks that the tests can fail: each mutant turns one computation (a
# site check, a crawl-report section, the host-batch engine, the robots
# parser and matcher) into a no-op in a temporary copy of the checkout,
# runs the tests of its package (up to the first failure) and reports
# whether they caught it. Every mutant must be caught; exit 1 when one
# survives.
#
# The mutants are found in the files themselves (scripts/mutate -list):
# the Run of every site check (analyze/internal/site/checks.go), the feed methods of
# every section's accumulator (Add, Merge, AddMarks, AddHosts, ...), and
# the functions marked //mutate:catch [PACKAGE] (a helper that computes;
# PACKAGE, ./analyze/... by default, holds the tests that must catch it) in
# those files, the engine's (analyze/internal/engine/batch.go and sectiondriver.go)
# and the robots parser's and matcher's (robots/parse.go, robots/match.go);
# //mutate:skip REASON leaves one out. A new section's file needs no line
# here. ./analyze's tests include the DuckDB cross-checks of every figure
# of the crawl report (analyze/crosscheck_*_test.go), so its mutants are
# judged by them too.
#
#	scripts/mutate.sh                   # every mutant
#	scripts/mutate.sh section_sitemaps  # those whose "FILE FUNC" matches
#	scripts/mutate.sh -sample 3 -seed ci  # 3 mutants of analyze, 3 of robots: the same for seed ci (CI)
set -uo pipefail
cd "$(dirname "$0")/.."

sample=()
while [ $# -gt 0 ]; do
  case "$1" in
    -sample | -seed)
      [ $# -ge 2 ] || { echo "mutate.sh: $1 needs a value" >&2; exit 2; }
      sample+=("$1" "$2")
      shift 2 ;;
    *) break ;;
  esac
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$tmp"
# The corpus beside the checkout, for tests that read it.
[ -d ../shared/corpus ] && export ROBOCENSUS_CORPUS="$(cd ../shared/corpus && pwd)"
go build -o "$tmp/.mutate" ./scripts/mutate
# FILE FUNC PACKAGE (the tests that must catch it), a line each.
files=(analyze/internal/site/checks.go $(git ls-files 'analyze/internal/sections/section_*.go' | grep -v '_test\.go$')
  analyze/internal/engine/batch.go analyze/internal/engine/sectiondriver.go robots/parse.go robots/match.go)
list=$("$tmp/.mutate" -list "${sample[@]}" "${files[@]}") || exit 2
mapfile -t mutants <<<"$list"

survived=0
for m in "${mutants[@]}"; do
  read -r file fn pkg <<<"$m"
  [ $# -gt 0 ] && [[ "$file $fn" != *"$1"* ]] && continue
  cp "$file" "$tmp/$file"
  "$tmp/.mutate" "$tmp/$file" "$fn" || { echo "cannot mutate $file $fn"; exit 2; }
  if (cd "$tmp" && go test -count=1 -failfast "$pkg" >"$tmp/.out" 2>&1); then
    echo "SURVIVED  $fn ($file): the tests of $pkg pass without it"
    survived=$((survived + 1))
  else
    echo "caught    $fn ($file): $(grep -m1 -E '^(--- FAIL|FAIL|.*cannot|.*error)' "$tmp/.out" | head -c 100)"
  fi
  cp "$file" "$tmp/$file"
done
[ "$survived" -eq 0 ] || { echo "$survived mutants survived"; exit 1; }
echo "every mutant caught"
