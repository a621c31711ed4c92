#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernels.sh: two real kernels and a knob, judged the 2009 way, in one
# command: Debian's generic kernel (linux-image-amd64), its PREEMPT_RT
# build (linux-image-rt-amd64) and the generic kernel booted with
# zswap.enabled=1, each booted VM_BOOTS times under latency-vm (512M, the
# 2009 machine) with a quick run, the boots interleaved (the order turned
# each round, so that no configuration always runs first on a warm host);
# then latency-compare with the boots of one configuration as several
# results of one label (generic=DIR,DIR,DIR ...), and an A/A check: the
# generic kernel's boots against as many other boots of the very same
# configuration (label generic-aa), which must find no change.  Prints
# each boot's headline, the comparison and the A/A verdict.
#
#   bench/vm-kernels.sh [RUN-TEST OPTIONS...]     (default: --quick)
#
# Environment (defaults in brackets):
#   VM_BOOTS      boots per configuration [3]
#   VM_CONFIGS    the configurations [generic rt zswap generic-aa]
#   VM_ARGS       more latency-vm options (e.g. --device=crypt-lvm) []
#   VM_RESULTS    where the results go [a new directory under /tmp]
#   LATENCY_VM    latency-vm [the tree's vm/latency-vm]
#   COMPARE       latency-compare [the tree's compare/latency-compare]
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
: "${VM_BOOTS:=3}"
: "${VM_CONFIGS:=generic rt zswap generic-aa}"
: "${VM_ARGS:=}"
: "${LATENCY_VM:=$here/vm/latency-vm}"
: "${COMPARE:=$here/compare/latency-compare}"

die() {
	echo "$0: $*" >&2
	exit 1
}

case $VM_BOOTS in
'' | *[!0-9]* | 0) die "VM_BOOTS must be a number of at least 1, not '$VM_BOOTS'" ;;
esac
for c in $VM_CONFIGS; do
	case $c in
	generic | rt | zswap | generic-aa) ;;
	*) die "VM_CONFIGS: '$c' is not generic, rt, zswap or generic-aa" ;;
	esac
done
for p in "$LATENCY_VM" "$COMPARE"; do
	[ -x "$p" ] || die "no '$p' (build the tree, or set LATENCY_VM and COMPARE)"
done
results=${VM_RESULTS:-$(mktemp -d /tmp/vm-kernels.XXXXXX)}
mkdir -p "$results"
[ $# -gt 0 ] || set -- --quick

# boot CONFIG: one boot of CONFIG into RESULTS/CONFIG[-N].
boot() {
	case $1 in
	generic | generic-aa) set -- "$1" --kernel=linux-image-amd64 ;;
	rt) set -- "$1" --kernel=linux-image-rt-amd64 ;;
	zswap) set -- "$1" --kernel=linux-image-amd64 --cmdline=zswap.enabled=1 ;;
	esac
	_label=$1
	shift
	# shellcheck disable=SC2086 # VM_ARGS: words
	"$LATENCY_VM" "$@" $VM_ARGS --label="$_label" --results="$results" \
		-- $run_args >>"$results/$_label.out" 2>&1 ||
		die "latency-vm failed for $_label (see $results/$_label.out)"
	tail -n 2 "$results/$_label.out" | sed -n 1p
}

run_args=$*
echo "# results in $results; latency-vm $VM_ARGS -- $run_args"
round=1
while [ "$round" -le "$VM_BOOTS" ]; do
	# The order turns each round.
	# shellcheck disable=SC2086 # VM_CONFIGS: words
	set -- $VM_CONFIGS
	k=$(((round - 1) % $#)) first=
	while [ "$k" -gt 0 ]; do
		first="$first $1"
		shift
		k=$((k - 1))
	done
	for c in "$@" $first; do
		boot "$c"
	done
	round=$((round + 1))
done

# label=DIR,DIR,... of a configuration's boots.
boots() {
	_list=$results/$1
	_i=2
	while [ "$_i" -le "$VM_BOOTS" ]; do
		_list=$_list,$results/$1-$_i
		_i=$((_i + 1))
	done
	echo "$1=$_list"
}

echo
set --
for c in $VM_CONFIGS; do
	[ "$c" = generic-aa ] || set -- "$@" "$(boots "$c")"
done
"$COMPARE" "$@"
case " $VM_CONFIGS " in
*" generic "*" generic-aa "* | *" generic-aa "*" generic "*)
	echo
	echo "# A/A: the same configuration booted again"
	"$COMPARE" "$(boots generic)" "$(boots generic-aa)"
	;;
esac
