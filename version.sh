#!/bin/sh
# Print the package version: from .tarball-version in a release tarball,
# from `git describe` in a checkout, or the base version otherwise.
# Used by configure.ac (AC_INIT) and written into tarballs by `make dist`.
base=0.1.0
cd "$(dirname "$0")" || exit 1
if [ -f .tarball-version ]; then
	v=$(cat .tarball-version)
elif v=$(git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null); then
	v=${v#v}
elif h=$(git rev-parse --short HEAD 2>/dev/null); then
	v="$base-g$h"
else
	v=$base
fi
printf '%s' "$v"
