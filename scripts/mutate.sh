#!/usr/bin/env bash
# Checks that the tests can fail: each mutant below turns one computation
# (a site check, a crawl-report section) into a no-op in a temporary copy
# of the checkout, runs the tests of its package and reports whether they
# caught it. Every mutant must be caught; exit 1 when one survives.
#
#	scripts/mutate.sh            # every mutant
#	scripts/mutate.sh runFetch   # those whose function matches
set -uo pipefail
cd "$(dirname "$0")/.."

# FILE FUNCTION PACKAGE (the tests that must catch it)
mutants=(
  "analyze/section_strata.go Add ./cmd/robocensus"
  "analyze/checks.go runFetch ./analyze"
  "analyze/checks.go runSyntax ./analyze"
  "analyze/checks.go runSearch ./analyze"
  "analyze/checks.go runAI ./analyze"
  "analyze/checks.go runPreferences ./analyze"
  "analyze/checks.go runSitemaps ./analyze"
  "analyze/checks.go runSize ./analyze"
  "analyze/checks.go runShared ./analyze"
  "analyze/checks.go runChanges ./analyze"
  "analyze/section_outcomes.go Add ./analyze"
  "analyze/section_sitemaps.go addCaptures ./analyze"
  "analyze/section_sitemaps.go addLines ./analyze"
  "analyze/section_inputs.go Add ./analyze"
  "analyze/section_sizes.go Add ./analyze"
  "analyze/section_sizes.go sizeBuckets ./analyze"
  "analyze/section_useragents.go count ./analyze"
  "analyze/section_useragents.go Finish ./analyze"
  "analyze/section_outcomes.go Merge ./analyze"
  "analyze/section_sizes.go Merge ./analyze"
  "analyze/section_useragents.go Merge ./analyze"
  "analyze/section_sitemaps.go Merge ./analyze"
  "analyze/section_inputs.go Merge ./analyze"
  "analyze/section_preferences.go addDirectives ./analyze"
  "analyze/section_preferences.go addPreferences ./analyze"
  "analyze/section_preferences.go addAgents ./analyze"
  "analyze/section_preferences.go AddHosts ./analyze"
  "analyze/section_preferences.go Merge ./analyze"
  "analyze/section_mistakes.go AddMarkedCaptures ./analyze"
  "analyze/section_mistakes.go Merge ./analyze"
  "analyze/section_rules.go addCaptures ./analyze"
  "analyze/section_rules.go addRules ./analyze"
  "analyze/section_rules.go AddMarks ./analyze"
  "analyze/section_rules.go Merge ./analyze"
  "analyze/section_diagnostics.go Add ./analyze"
  "analyze/section_diagnostics.go AddMarks ./analyze"
  "analyze/section_diagnostics.go Merge ./analyze"
  "analyze/section_typos.go Add ./analyze"
  "analyze/section_typos.go AddMarks ./analyze"
  "analyze/section_typos.go Merge ./analyze"
  "analyze/section_worst.go AddHosts ./analyze"
  "analyze/section_crawlers.go countRun ./analyze"
  "analyze/section_crawlers.go AddHosts ./analyze"
  "analyze/section_crawlers.go markAI ./analyze"
  "analyze/section_crawlers.go Merge ./analyze"
  "analyze/section_worst.go errorCodes ./analyze"
  "analyze/section_changes.go AddHostRows ./analyze"
  "analyze/section_changes.go AddHosts ./analyze"
  "analyze/section_changes.go common ./analyze"
  "analyze/section_changes.go Add ./analyze"
  "analyze/section_farms.go counts ./analyze"
  "analyze/section_farms.go AddMarks ./analyze"
  "analyze/section_farms.go Choose ./analyze"
  "analyze/section_farms.go AddChosen ./analyze"
  "analyze/section_farms.go addSample ./analyze"
  "analyze/section_farms.go sharedBefore ./analyze"
  "analyze/section_farms.go Bodies ./analyze"
  "analyze/section_overview.go Add ./analyze"
  "analyze/section_overview.go addFetch ./analyze"
  "analyze/section_overview.go AddMarks ./analyze"
  "analyze/section_overview.go Merge ./analyze"
  "analyze/section_diagnostics.go addErrors ./analyze"
)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$tmp"
# The corpus beside the checkout, for tests that read it.
[ -d ../shared/corpus ] && export ROBOCENSUS_CORPUS="$(cd ../shared/corpus && pwd)"
go build -o "$tmp/.mutate" ./scripts/mutate

survived=0
for m in "${mutants[@]}"; do
  read -r file fn pkg <<<"$m"
  [ $# -gt 0 ] && [[ "$fn" != *"$1"* ]] && continue
  cp "$file" "$tmp/$file"
  "$tmp/.mutate" "$tmp/$file" "$fn" || { echo "cannot mutate $file $fn"; exit 2; }
  if (cd "$tmp" && go test -count=1 "$pkg" >"$tmp/.out" 2>&1); then
    echo "SURVIVED  $fn ($file): the tests of $pkg pass without it"
    survived=$((survived + 1))
  else
    echo "caught    $fn ($file): $(grep -m1 -E '^(--- FAIL|FAIL|.*cannot|.*error)' "$tmp/.out" | head -c 100)"
  fi
  cp "$file" "$tmp/$file"
done
[ "$survived" -eq 0 ] || { echo "$survived mutants survived"; exit 1; }
echo "every mutant caught"
