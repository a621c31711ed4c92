#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC2016,SC2154
test_description='latency-bisect: bad input is one line and exit 2, before any boot'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-bisect.sh"

fake_boot fb
FAKE_LOG=$PWD/boots.log
export FAKE_LOG

# usage_is WANT CMD...: CMD exits 2 and says WANT, then the Try line.
usage_is() {
	_ui_msg=$1
	shift
	test_expect_code 2 "$@" 2>err &&
	printf '%s\n' "latency-bisect: $_ui_msg" \
		"Try 'latency-bisect --help' for more information." >expect &&
	test_cmp expect err
}

test_expect_success 'options that make no bisection' '
	usage_is "no --series given" "$bisect" &&
	usage_is "--max-pairs 3 is below --min-pairs 4" "$bisect" \
		--series=s --min-pairs=4 --max-pairs=3 &&
	usage_is "invalid value '\''1'\'' for --min-pairs: out of range (expected a whole number from 2 to 100)" \
		"$bisect" --series=s --min-pairs=1 &&
	usage_is "invalid value '\''x'\'' for --metric (a figure of latency-compare: elapsed, elapsed_per_user, p99, stall_time, majflt, ...)" \
		"$bisect" --series=s --metric=x &&
	usage_is "invalid value '\''cpus_s'\'' for --metric (a figure of latency-compare: elapsed, elapsed_per_user, p99, stall_time, majflt, ...)" \
		"$bisect" --series=s --metric=cpus_s &&
	usage_is "--continue takes no other option" "$bisect" --continue=d --max-pairs=4 &&
	usage_is "--status takes no other option" "$bisect" --status=d -- --quick &&
	usage_is "latency-vm'\''s options do not go with --boot-command" \
		"$bisect" --series=s --boot-command=./fb --memory=1G &&
	test_expect_code 2 "$bisect" --no-such-option 2>err &&
	grep -x "Try '\''latency-bisect --help'\'' for more information." err &&
	! test -e bisect && ! test -e boots.log
'

test_expect_success 'a series file that is not one: the file and the line named' '
	printf "# only one\n\nk0 k0\n" >one &&
	test_expect_code 2 "$bisect" --series=one --boot-command=./fb 2>err &&
	echo "latency-bisect: the series '\''one'\'' has 1 kernel: a bisection needs a good and a bad end" >expect &&
	test_cmp expect err &&
	printf "k0 k0\nk1\n" >s &&
	test_expect_code 2 "$bisect" --series=s --boot-command=./fb 2>err &&
	echo "latency-bisect: s:2: a label without a kernel: '\''k1'\''" >expect &&
	test_cmp expect err &&
	printf "k0 k0\n../x k1\n" >s &&
	test_expect_code 2 "$bisect" --series=s --boot-command=./fb 2>err &&
	echo "latency-bisect: s:2: invalid label (letters, digits, . _ + -, at most 48, not starting with . or -): '\''../x'\''" >expect &&
	test_cmp expect err &&
	printf "k0 k0\nk0 k1\n" >s &&
	test_expect_code 2 "$bisect" --series=s --boot-command=./fb 2>err &&
	echo "latency-bisect: s:2: label given twice: '\''k0'\''" >expect &&
	test_cmp expect err &&
	printf "k0 k0\nk1 k1 a=\"b\"\n" >s &&
	test_expect_code 2 "$bisect" --series=s --boot-command=./fb 2>err &&
	echo "latency-bisect: s:2: invalid kernel command line (printable, no double quote): '\''a=\"b\"'\''" >expect &&
	test_cmp expect err &&
	printf "k0 k0\nk1 k1 \033]0;x\n" >s &&
	test_expect_code 2 "$bisect" --series=s --boot-command=./fb 2>err &&
	echo "latency-bisect: s:2: invalid kernel command line (printable, no double quote): '\''\\x1b]0;x'\''" >expect &&
	test_cmp expect err &&
	test_expect_code 2 "$bisect" --series=no-such --boot-command=./fb 2>err &&
	echo "latency-bisect: cannot read the series '\''no-such'\'': No such file or directory" >expect &&
	test_cmp expect err &&
	! test -e bisect && ! test -e boots.log
'

test_expect_success 'the ends: labels of the series, good before bad' '
	series_file s k0 k1 k2 &&
	usage_is "invalid value '\''k9'\'' for --good: no such label in the series" \
		"$bisect" --series=s --good=k9 --boot-command=./fb &&
	usage_is "the good end k2 is not before the bad end k1" \
		"$bisect" --series=s --good=k2 --bad=k1 --boot-command=./fb &&
	! test -e bisect && ! test -e boots.log
'

test_expect_success 'the results directory: new or empty, never a bisection overwritten' '
	series_file s k0 k1 &&
	mkdir full && : >full/x &&
	test_expect_code 2 "$bisect" --series=s --results=full --boot-command=./fb 2>err &&
	echo "latency-bisect: '\''full'\'' is not empty: --results wants a new or empty directory (--continue=full goes on with a bisection)" >expect &&
	test_cmp expect err &&
	! test -e boots.log
'
test_done
