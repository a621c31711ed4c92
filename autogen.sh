#!/bin/sh
# Generate configure and Makefile.in from a git checkout.
set -eu
cd "$(dirname "$0")"
exec autoreconf -fi
