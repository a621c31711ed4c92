#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bootstrap.sh: build latency-tests from a git checkout on a fresh machine.
# Installs the build dependencies with apt-get when they are missing (as
# root, saying what it installs), then runs autoreconf, configure and make.
# Arguments are passed to configure (e.g. --enable-werror, --prefix=/usr).
#
# Environment:
#   BOOTSTRAP_NO_INSTALL=1   never run apt-get; just report what is missing
#   MAKEFLAGS                passed to make as usual (default: -j$(nproc))
set -eu

die() {
	printf '%s: %s\n' "$0" "$*" >&2
	exit 1
}

cd "$(dirname "$0")"

# package:probe pairs; a probe is a command or a header path.
deps="build-essential:cc autoconf:autoreconf automake:automake
pkg-config:pkg-config libgit2-dev:/usr/include/git2.h
librsync-dev:/usr/include/librsync.h git:git groff-base:groff
gnuplot-nox:gnuplot jq:jq dbench:tbench_srv linux-perf:perf
python3-html5lib:/usr/lib/python3/dist-packages/html5lib"
missing=
for d in $deps; do
	pkg=${d%%:*}
	probe=${d#*:}
	case $probe in
	/*) [ -e "$probe" ] && continue ;;
	*) command -v "$probe" >/dev/null 2>&1 && continue ;;
	esac
	missing="$missing $pkg"
done

if [ -n "$missing" ]; then
	if [ -n "${BOOTSTRAP_NO_INSTALL:-}" ] || ! command -v apt-get >/dev/null 2>&1; then
		die "missing packages:$missing (install them, then run $0 again)"
	fi
	if [ "$(id -u)" != 0 ]; then
		die "missing packages:$missing; run: sudo apt-get install$missing"
	fi
	echo "$0: installing:$missing" >&2
	# A fresh machine has no package lists yet.
	# shellcheck disable=SC2086 # a list of package names
	if ! apt-get install -y -q --no-install-recommends $missing; then
		apt-get update -q
		# shellcheck disable=SC2086
		DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -q --no-install-recommends $missing
	fi
fi

autoreconf -fi
./configure "$@"
jobs=$(nproc 2>/dev/null || echo 2)
make -j"$jobs"
