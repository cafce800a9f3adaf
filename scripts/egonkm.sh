# egonkm.sh, sourced by the benchmarks over the egonkm corpus
# (bench-google.sh, bench-lint.sh): sets corpus (ROBOCENSUS_CORPUS, by
# default ../shared/corpus beside the checkout) and tarball, the corpus's
# robots.tar.gz of 31,758 bodies, or exits 2 saying it is missing. $0 is
# the sourcing script, named in the message.
corpus="${ROBOCENSUS_CORPUS:-$(cd .. && pwd)/shared/corpus}"
tarball="$corpus/robots/egonkm-robots-txt/robots.tar.gz"
if [ ! -f "$tarball" ]; then
  echo "$(basename "$0"): the corpus file $tarball is missing (set ROBOCENSUS_CORPUS)" >&2
  exit 2
fi
