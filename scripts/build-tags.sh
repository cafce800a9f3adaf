#!/usr/bin/env bash
# build-tags.sh: prints the build tags of the fastest build this machine can
# make: libdeflate (the whole-member gzip inflater, ingest/archive/inflate.go)
# when Debian's libdeflate-dev is installed, else nothing (the pure-Go
# build). The benchmark scripts build with it unless TAGS is set.
if [ -f /usr/include/libdeflate.h ]; then
  echo libdeflate
fi
