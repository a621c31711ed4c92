#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='run-test.sh: options, config files, bad values and paths'
. "$abs_top_srcdir/tests/t/test-lib.sh"

rt=$abs_top_srcdir/run-test.sh

# bad_option EXPECTED-FIRST-LINE ARGS...: exit 2, the message, a Try line.
bad_option() {
	_bo_msg=$1
	shift
	test_expect_code 2 "$rt" "$@" >out 2>err &&
	! test -s out &&
	printf '%s\n' "run-test.sh: $_bo_msg" \
		"Try 'run-test.sh --help' for more information." >expect &&
	test_cmp expect err
}

test_expect_success 'bad options and values give one clear line' '
	bad_option "unrecognized option '\''--bogus'\''" --bogus &&
	bad_option "option '\''--label'\'' requires an argument" --label &&
	bad_option "option '\''--quick'\'' takes no value" --quick=yes &&
	bad_option "unexpected argument '\''extra'\''" extra &&
	bad_option "invalid value '\''0'\'' for --gitk-runs (expected at least 1)" --gitk-runs 0 &&
	bad_option "invalid value '\''x'\'' for --gitk-runs (expected a whole number)" --gitk-runs=x &&
	bad_option "invalid value '\''-1'\'' for --warmup (expected a whole number)" --warmup=-1 &&
	bad_option "invalid value '\''12Q'\'' for --mem-limit (expected a size such as 512M)" --mem-limit=12Q &&
	bad_option "invalid value '\''0M'\'' for --swap (expected a size above 0)" --swap=0M &&
	bad_option "invalid value '\''nohost'\'' for --music-from (expected HOST:PORT)" --music-from=nohost &&
	bad_option "invalid value '\''fast'\'' for --stall (expected a duration such as 1s)" --stall=fast &&
	bad_option "invalid label '\''a/b'\'' (letters, digits and . _ + - only, not starting with .)" --label=a/b
'

test_expect_success 'unusable paths give one clear line' '
	: >file &&
	bad_option "--repo '\''$PWD/none'\'' is not a directory" --repo="$PWD/none" &&
	bad_option "--results '\''file'\'' is not a directory" --results=file &&
	bad_option "--scratch '\''none'\'' is not a directory" --scratch=none &&
	bad_option "cannot read config file '\''none.conf'\''" --config=none.conf
'

test_expect_success 'a config file is checked line by line' '
	printf "# comment\n\ngitk-runs=2\nno-such=1\n" >bad.conf &&
	bad_option "bad.conf:4: unknown setting '\''no-such'\''" --config bad.conf &&
	printf "gitk-runs 2\n" >bad2.conf &&
	bad_option "bad2.conf:1: expected name=value: '\''gitk-runs 2'\''" --config=bad2.conf &&
	printf "drop-caches=maybe\n" >bad3.conf &&
	bad_option "bad3.conf:1: invalid value '\''maybe'\'' for drop-caches (expected yes or no)" --config=bad3.conf
'

cat >expect-config <<'EOF_'
# latency-tests run configuration (latency-run-test --config FILE)
label=k1
results=resdir
scratch=
repo=
commits=500
seed=7
gitk-runs=5
warmup=1
drop-caches=no
seqbench=-t 8 -t 16 -b 65536
ringbench=
music-from=127.0.0.1:8000
gitk-args=--reread
music-args=
stall=500ms
pressure=6
confine=auto
mem-limit=512M
swap=1G
allow-unconfined=yes
block-trace=no
precision=1.5
max-runs=20
time-budget=6m
sysctl=
interleave=
quick=no
EOF_

test_expect_success 'the effective configuration, and its round trip' '
	"$rt" --print-config --label=k1 --results resdir --commits 500 --seed=7 \
		--gitk-runs 5 --warmup=1 --no-drop-caches \
		--seqbench "-t 8 -t 16 -b 65536" --music-from=127.0.0.1:8000 \
		--stall 500ms --mem-limit=512M --swap 1G --allow-unconfined \
		>config &&
	test_cmp expect-config config &&
	"$rt" --config config --print-config >again &&
	test_cmp config again
'

test_expect_success 'the command line overrides the config file' '
	"$rt" --gitk-runs=9 --config=expect-config --print-config >config &&
	sed "s/^gitk-runs=5$/gitk-runs=9/" expect-config >expect &&
	test_cmp expect config
'

test_expect_success 'the defaults: pressure 6 by ratio, runs until 2%' '
	"$rt" --print-config >config &&
	grep -x "gitk-runs=auto" config &&
	grep -x "warmup=1" config &&
	grep -x "pressure=6" config &&
	grep -x "confine=auto" config &&
	grep -x "mem-limit=ratio" config &&
	grep -x "swap=auto" config &&
	grep -x "gitk-args=--reread" config &&
	grep -x "commits=180000" config
'

test_expect_success '--quick: 5 to 10 runs to +/-2.5%, no warmup, the same repository' '
	"$rt" --quick --label=q --print-config >config &&
	grep -x "gitk-runs=auto" config &&
	grep -x "precision=2.5" config &&
	grep -x "max-runs=10" config &&
	grep -x "time-budget=6m" config &&
	grep -x "warmup=0" config &&
	grep -x "quick=yes" config &&
	grep -x "commits=180000" config &&
	grep -x "pressure=3" config &&
	"$rt" --quick --gitk-runs=4 --mem-limit=none --precision=1 --max-runs=30 \
		--print-config >config &&
	grep -x "gitk-runs=4" config &&
	grep -x "precision=1" config &&
	grep -x "max-runs=30" config &&
	grep -x "mem-limit=none" config
'

test_expect_success 'bad values stop the run before any work (exit 2)' '
	bad_option "invalid value '\''12x'\'' for --stall (expected a duration such as 1s)" --stall=12x &&
	bad_option "invalid value '\''0'\'' for --commits (expected at least 1)" --commits=0 &&
	bad_option "invalid value '\''h:1x'\'' for --music-from (expected HOST:PORT, PORT 1-65535)" --music-from=h:1x &&
	bad_option "invalid value '\''h:70000'\'' for --music-from (expected HOST:PORT, PORT 1-65535)" --music-from=h:70000 &&
	bad_option "invalid value '\''16777216T'\'' for --mem-limit (too large)" --mem-limit=16777216T &&
	bad_option "invalid value '\''99999999999999999999'\'' for --gitk-runs (too large)" --gitk-runs=99999999999999999999 &&
	bad_option "invalid value '\''99999999999999999999'\'' for --seed (too large)" --seed=99999999999999999999 &&
	bad_option "invalid value '\''99999999999999999999M'\'' for --swap (too large)" --swap=99999999999999999999M &&
	bad_option "invalid value '\''0'\'' for --pressure (expected a number above 0)" --pressure=0 &&
	bad_option "invalid value '\''1.2.3'\'' for --pressure (expected a positive number such as 3 or 1.5)" --pressure=1.2.3 &&
	bad_option "invalid value '\''-1'\'' for --precision (expected a positive number such as 3 or 1.5)" --precision=-1 &&
	bad_option "invalid value '\''1'\'' for --max-runs (expected at least 2)" --max-runs=1 &&
	bad_option "invalid value '\''soon'\'' for --time-budget (expected a duration such as 1s)" --time-budget=soon &&
	bad_option "invalid value '\''cgroup'\'' for --confine (expected auto, global, memcg or none)" --confine=cgroup &&
	bad_option "invalid value '\''x'\'' for --gitk-runs (expected a whole number)" --gitk-runs=x &&
	bad_option "invalid value '\''vm.page-cluster'\'' for --sysctl (expected NAME=VALUE[,NAME=VALUE]...)" --sysctl=vm.page-cluster &&
	bad_option "invalid knob '\''vm/../x'\'' in --sysctl: only sysctls under vm. may be changed (vm.NAME)" --sysctl=vm/../x=1 &&
	bad_option "invalid knob value '\''1;reboot'\'' in --sysctl (letters, digits, . _ : - [ ] and single spaces only)" "--sysctl=vm.swappiness=1;reboot" &&
	bad_option "invalid knob '\''kernel.core_pattern'\'' in --sysctl: only sysctls under vm. may be changed (vm.NAME)" --sysctl=kernel.core_pattern=x &&
	bad_option "invalid knob '\''vm.drop_caches'\'' in --sysctl: a write-only trigger has no value to restore" --sysctl=vm.drop_caches=3 &&
	bad_option "invalid knob '\''/sys/power/state'\'' in --sysctl: only sysfs knobs under /sys/kernel/mm/, /sys/module/zswap/parameters/ and a block device'\''s queue/read_ahead_kb, scheduler, max_sectors_kb and nr_requests may be changed" --sysctl=/sys/power/state=mem &&
	bad_option "invalid knob '\''/sys/kernel/mm/../../power/state'\'' in --interleave: not a clean absolute path" --interleave=/sys/kernel/mm/../../power/state=a,b &&
	bad_option "invalid value '\''vm.page-cluster=3'\'' for --interleave (expected NAME=A,B: one knob, two values)" --interleave=vm.page-cluster=3 &&
	bad_option "invalid value '\''vm.page-cluster=1,2,3'\'' for --interleave (expected NAME=A,B: one knob, two values)" --interleave=vm.page-cluster=1,2,3 &&
	bad_option "invalid knob value '\''0;reboot'\'' in --interleave (letters, digits, . _ : - [ ] and single spaces only)" "--interleave=vm.page-cluster=3,0;reboot" &&
	bad_option "--interleave and --sysctl both set '\''vm.page-cluster'\''" --interleave=vm.page-cluster=3,0 --sysctl=vm/page-cluster=1
'

test_expect_success 'sysfs knobs and THP choices in --sysctl; --interleave with --quick: auto, 5 to 10 pairs' '
	"$rt" --print-config --sysctl="/sys/kernel/mm/transparent_hugepage/enabled=never,vm.page-cluster=0" >config &&
	grep -x "sysctl=/sys/kernel/mm/transparent_hugepage/enabled=never,vm.page-cluster=0" config &&
	"$rt" --quick --interleave=/sys/module/zswap/parameters/enabled=N,Y --print-config >config &&
	grep -x "interleave=/sys/module/zswap/parameters/enabled=N,Y" config &&
	grep -x "gitk-runs=auto" config &&
	grep -x "max-runs=10" config &&
	"$rt" --quick --interleave=vm.page-cluster=3,0 --gitk-runs=2 --print-config >config &&
	grep -x "gitk-runs=2" config
'

test_expect_success 'the label defaults to uname -r' '
	"$rt" --print-config >config &&
	grep -x "label=$(uname -r)" config
'

test_done
