#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='run-test.sh --seqbench with --readahead: the change joins the run'\''s machine-state record, and the run'\''s restore undoes it'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-machine.sh"
. "$abs_top_srcdir/tests/t/lib-run-test.sh"
command -v seqbench >/dev/null 2>&1 ||
	test_skip_all 'seqbench is not built'

rt=$abs_top_srcdir/run-test.sh
# This script's machine-state record, apart from any real run's.
LATENCY_STATE_DIR=$TRASH_DIRECTORY/state
export LATENCY_STATE_DIR

# seqbench --readahead sets the read_ahead_kb of the device under its
# target, a file in this directory: here that device is
# one of a fake sysfs (LATENCY_SYS, which latency-machine reads too), so
# no real device changes and no root is needed, only a block device under
# this directory to stand in for.
dev=$(stat -c '%Hd:%Ld' "$TRASH_DIRECTORY" 2>/dev/null) || dev=
case $dev in
'' | 0:*)
	test_skip_all "the test directory is on no block device (${dev:-stat cannot say}): seqbench --readahead has none to set"
	;;
esac
LATENCY_SYS=$TRASH_DIRECTORY/fsys
export LATENCY_SYS
knob=$LATENCY_SYS/devices/disk/queue/read_ahead_kb

# A reduced run (one fake-gitk run of a tiny repository) with a read-only
# seqbench pass over the file data at a readahead of 64 KiB, into res/$1;
# the rest of the arguments go to run-test.sh.
ra_run() {
	_label=$1
	shift
	"$rt" --label="$_label" --commits=300 --gitk-runs=1 --warmup=0 \
		--no-drop-caches --confine=none --gitk-args=--every=50 \
		--music-args="--songs=1 --song-size=64k" --results=res \
		--seqbench="--read-only --no-drop-caches --readahead 64k -d $PWD/data" "$@"
}

test_expect_success 'a fake sysfs with the device of this directory, and data' '
	head -c 300000 /dev/zero >data &&
	mkdir -p fsys/devices/disk/queue fsys/dev/block &&
	echo "$dev" >fsys/devices/disk/dev &&
	echo 128 >"$knob" &&
	ln -s ../../devices/disk "fsys/dev/block/$dev"
'

# Without the owner seqbench began a record of its own, which the
# driver's open record refuses: the pass failed with exit 3.
test_expect_success JQ 'the pass runs in the driver'\''s record, which puts the readahead back' '
	ra_run ra >out 2>err &&
	test_json res/ra/seqbench.json ".results[0].phases.cold_read |
		[.readahead_kb, .bytes, .files] | tojson" "[64,300000,1]" &&
	test "$(wc -c <data)" = 300000 &&
	! grep -q "scratch/seqbench" res/ra/commands.log &&
	echo 128 >expect && test_cmp expect "$knob" &&
	! test -e state/state &&
	sed -n "s/^env LATENCY_MACHINE_OWNER=\([0-9]*\) LATENCY_MACHINE=[^ ]*latency-machine [^ ]*seqbench --read-only .*/\1/p" \
		res/ra/commands.log >owner &&
	test_line_count = 1 owner &&
	echo "latency-machine: restoring run pid $(cat owner): readahead $dev 128" >expect &&
	grep "readahead" res/ra/machine.log >got &&
	test_cmp expect got
'

# A seqbench that dies before it puts the readahead back (the real one for
# the pass, its own restore then undone, and status 137 as after SIGKILL):
# the entry it made is in the driver's record, whose restore puts it back.
test_expect_success 'seqbench dead with the readahead changed: the run restores it' '
	mkdir bin &&
	cat >bin/seqbench <<-EOF &&
	#!/bin/sh
	case " \$* " in
	*" --readahead "*) ;;
	*) exec "$(command -v seqbench)" "\$@" ;;
	esac
	"$(command -v seqbench)" "\$@" || exit
	echo "\$LATENCY_MACHINE_OWNER" >"$PWD/seen-owner"
	cp "\$LATENCY_STATE_DIR/state" "$PWD/seen-state"
	echo 64 >"$knob"
	exit 137
	EOF
	chmod +x bin/seqbench &&
	LATENCY_TESTS_BINDIR=$PWD/bin && export LATENCY_TESTS_BINDIR &&
	test_expect_code 1 ra_run dead >out 2>err &&
	grep -q "seqbench failed" err &&
	awk -F "\t" "\$1 == \"owner\" { print \$2 }" seen-state >got &&
	test_cmp seen-owner got &&
	printf "readahead\t%s\t128\n" "$dev" >expect &&
	record_body seen-state | grep "^readahead" >got &&
	test_cmp expect got &&
	echo 128 >expect && test_cmp expect "$knob" &&
	! test -e state/state &&
	grep -q "^PARTIAL: failed: seqbench failed" res/dead/summary.txt
'

# Before, the driver added -d scratch/seqbench after the pass's own: two
# targets, which seqbench refused; without a -d it read the empty scratch
# directory, nothing.
test_expect_success 'a read-only pass with no -d: a usage error before any work' '
	test_expect_code 2 "$rt" --label=nod --results=res \
		--seqbench="--read-only --readahead 64k" >out 2>err &&
	grep -q "^run-test.sh: --seqbench=\"--read-only --readahead 64k\" reads what is there: name the file, device or tree with -d$" err &&
	! test -e res/nod
'

test_expect_success 'nothing is left running' '
	ps -eo args >ps.out &&
	! grep -F "$PWD/res" ps.out
'

test_done
