#!/usr/bin/env bash
# screenshot.sh: render an HTML report with headless Chromium at 1280 px
# width to a PNG, so a person can look at it.
#
#   scripts/screenshot.sh [-o OUT.png] [-H HEIGHT] [REPORT.html]
#
# Without REPORT.html it runs robocensus demo into a temporary folder and
# shoots the demo's report.html. Default OUT is ./report.png, HEIGHT 6000
# pixels (the page is cut there; pass more for long reports). Needs Debian's
# chromium (scripts/ci-deps.sh installs it); no network is used.
set -euo pipefail
cd "$(dirname "$0")/.."

out="report.png"
height=6000
while getopts "o:H:" opt; do
  case "$opt" in
    o) out="$OPTARG" ;;
    H) height="$OPTARG" ;;
    *) echo "usage: $0 [-o OUT.png] [-H HEIGHT] [REPORT.html]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if [ $# -ge 1 ]; then
  html="$(realpath "$1")"
else
  go run ./cmd/robocensus demo -o "$tmp/demo" >/dev/null
  html="$tmp/demo/report.html"
fi
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac

chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$tmp/profile" --hide-scrollbars --force-device-scale-factor=1 \
  --window-size="1280,$height" --screenshot="$out" "file://$html" 2>/dev/null
echo "$out"
