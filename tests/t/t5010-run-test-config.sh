#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='run-test.sh: a hostile config file is refused before any work, never run (latency-plan --run-config)'
. "$abs_top_srcdir/tests/t/test-lib.sh"

rt=$abs_top_srcdir/run-test.sh

# refused FILE-CONTENT (printf format) EXPECTED-FIRST-LINE: the file is
# refused with exit 2, one line and a Try line, before anything is made.
refused() {
	# shellcheck disable=SC2059 # the content is a printf format
	printf "$1" >hostile.conf &&
	test_expect_code 2 "$rt" --config=hostile.conf --results=res >out 2>err &&
	! test -s out &&
	printf '%s\n' "run-test.sh: $2" \
		"Try 'run-test.sh --help' for more information." >expect &&
	test_cmp expect err &&
	! test -e res && ! test -e pwned
}

test_expect_success 'command substitutions in values are refused, never run' '
	refused "label=\$(touch pwned)\n" \
		"hostile.conf:1: invalid label '\''\$(touch pwned)'\'' (letters, digits and . _ + - only, not starting with .)" &&
	refused "# ok\ngitk-args=--reread \$(touch pwned)\n" \
		"hostile.conf:2: invalid value '\''--reread \$(touch pwned)'\'' for gitk-args (words of letters, digits and _ . / : = , + @ % - only)" &&
	refused "music-args=\`touch pwned\`\n" \
		"hostile.conf:1: invalid value '\''\`touch pwned\`'\'' for music-args (words of letters, digits and _ . / : = , + @ % - only)" &&
	refused "seqbench=-t 1;touch pwned\n" \
		"hostile.conf:1: invalid value '\''-t 1;touch pwned'\'' for seqbench (words of letters, digits and _ . / : = , + @ % - only)" &&
	refused "commits=1\$(touch pwned)\n" \
		"hostile.conf:1: invalid value '\''1\$(touch pwned)'\'' for commits (expected a whole number)" &&
	refused "repo=\$(touch pwned)\n" \
		"--repo '\''\$(touch pwned)'\'' is not a directory"
'

test_expect_success 'words are not globbed: * and ? are refused' '
	: >aa && : >ab &&
	refused "gitk-args=a?\n" \
		"hostile.conf:1: invalid value '\''a?'\'' for gitk-args (words of letters, digits and _ . / : = , + @ % - only)" &&
	refused "seqbench=*\n" \
		"hostile.conf:1: invalid value '\''*'\'' for seqbench (words of letters, digits and _ . / : = , + @ % - only)"
'

test_expect_success 'control characters are refused, escaped in the message' '
	refused "label=a\rquick=yes\n" \
		"hostile.conf:1: invalid label '\''a\\rquick=yes'\'' (letters, digits and . _ + - only, not starting with .)" &&
	refused "results=/tmp/a\033]0;x\007\n" \
		"hostile.conf:1: invalid value '\''/tmp/a\\x1b]0;x\\x07'\'' for results (no control characters)" &&
	refused "seed=1\000quick=yes\n" "hostile.conf:1: a NUL byte"
'

test_expect_success 'a newline cannot smuggle a setting in from the command line' '
	nl="
" &&
	test_expect_code 2 "$rt" --print-config "--label=x${nl}quick=yes" \
		>out 2>err &&
	! test -s out &&
	printf "%s\n" "run-test.sh: invalid label '\''x\\nquick=yes'\'' (letters, digits and . _ + - only, not starting with .)" \
		"Try '\''run-test.sh --help'\'' for more information." >expect &&
	test_cmp expect err &&
	test_expect_code 2 "$rt" --print-config "--scratch=.${nl}quick=yes" \
		>out 2>err &&
	grep -x "run-test.sh: invalid value '\''.\\\\nquick=yes'\'' for --scratch (no control characters)" err
'

test_expect_success 'unknown names and lines without = are one line, exit 2' '
	refused "label=a\n\$(touch pwned)=1\n" \
		"hostile.conf:2: unknown setting '\''\$(touch pwned)'\''" &&
	refused "\n\nquick\n" "hostile.conf:3: expected name=value: '\''quick'\''" &&
	refused "LABEL=a\n" "hostile.conf:1: unknown setting '\''LABEL'\''" &&
	refused " label=a\n" "hostile.conf:1: unknown setting '\'' label'\''"
'

test_expect_success 'a config file larger than 64 KiB is refused' '
	head -c 70000 /dev/zero | tr "\0" "#" >big.conf &&
	test_expect_code 2 "$rt" --config=big.conf >out 2>err &&
	grep -x "run-test.sh: cannot read config file '\''big.conf'\'' (larger than 64 KiB)" err
'

test_expect_success 'odd but valid values come back exactly, never evaluated' '
	mkdir "a b'\''c \$(x)" &&
	"$rt" --print-config --results="a b'\''c \$(x)" --label=odd \
		--gitk-args="--every=50 --reread" --sysctl=vm.swappiness=10 \
		>config &&
	grep -x "results=a b'\''c \$(x)" config &&
	grep -x "gitk-args=--every=50 --reread" config &&
	"$rt" --config=config --print-config >again &&
	test_cmp config again
'

test_expect_success 'the shell form: action, flags, keys with _, sizes in bytes' '
	latency-plan --run-config --shell -- --label=k --mem-limit=1G \
		--swap=1536k --restore >out &&
	sed -n "1,3p;/^gitk_runs=/p;/^mem_limit/p;/^swap/p;/^quick=/p" out >got &&
	printf "%s\n" action=run print_config=no restore=yes gitk_runs=auto \
		mem_limit=1G swap=1536k quick=no mem_limit_bytes=1073741824 \
		swap_bytes=1048576 >expect &&
	test_cmp expect got &&
	sed -n "s/^config_line=//p" out >config-lines &&
	latency-plan --run-config -- --label=k --mem-limit=1G --swap=1536k \
		--restore >config &&
	test_cmp config config-lines &&
	test_line_count -gt 20 config &&
	latency-plan --run-config --shell -- --help --gitk-runs=x >out &&
	echo action=help >expect && test_cmp expect out &&
	test_expect_code 2 latency-plan --run-config -- --gitk-runs=x --help \
		>out 2>err &&
	! test -s out
'

test_expect_success '--swap=zram and zram:SIZE; a bad zram size is refused before any work' '
	latency-plan --run-config --shell -- --swap=zram:300M >out &&
	grep -x "swap=zram:300M" out && grep -x "swap_bytes=314572800" out &&
	latency-plan --run-config --shell -- --swap=zram >out &&
	grep -x "swap=zram" out && grep -x "swap_bytes=" out &&
	test_expect_code 2 "$rt" --swap=zram:100k --print-config 2>err &&
	grep "invalid value .zram:100k. for --swap (expected a size of at least 1M)" err &&
	test_expect_code 2 "$rt" --swap=zramx --print-config 2>err &&
	grep "invalid value .zramx. for --swap" err
'

test_expect_success 'the environment defaults are checked too' '
	test_expect_code 2 env LATENCY_DEFAULT_RATIO=x "$rt" --print-config \
		>out 2>err &&
	grep -x "run-test.sh: invalid value '\''x'\'' for LATENCY_DEFAULT_RATIO (expected a positive number such as 3 or 1.5)" err &&
	LATENCY_QUICK_COMMITS=500 "$rt" --quick --print-config >config &&
	grep -x commits=500 config
'

# A run directory after counted runs: run.facts, config and
# fake-gitk-N.json.  stop_dir DIR ASKED DONE [OPTION=VALUE]...
stop_dir() {
	_d=$1 _asked=$2 _done=$3
	shift 3
	mkdir -p "$_d" &&
	echo "runs_done=$_done" >"$_d/run.facts" &&
	printf "%s\n" "gitk-runs=$_asked" "$@" >"$_d/config" &&
	_i=0 &&
	while [ "$_i" -lt "$_done" ]; do
		_i=$((_i + 1))
		printf '{"iterations":[{"elapsed_s":10.0,"start_mono_s":%s,"end_mono_s":%s}]}\n' \
			"$_i.5" "$_i.9" >"$_d/fake-gitk-$_i.json" || return 1
	done
}

test_expect_success '--stop-rule: runs, precision, max-runs, time-budget' '
	stop_dir two 2 2 &&
	latency-plan --stop-rule --result-dir=two >out &&
	echo stop=runs >expect && test_cmp expect out &&
	stop_dir one 2 1 &&
	latency-plan --stop-rule --result-dir=one >out &&
	echo stop= >expect && test_cmp expect out &&
	stop_dir p4 auto 4 precision=2 max-runs=10 &&
	latency-plan --stop-rule --result-dir=p4 >out &&
	echo stop= >expect && test_cmp expect out &&
	stop_dir p auto 5 precision=2 max-runs=10 &&
	latency-plan --stop-rule --result-dir=p >out &&
	echo stop=precision >expect && test_cmp expect out &&
	stop_dir m auto 2 precision=2 max-runs=2 &&
	latency-plan --stop-rule --result-dir=m >out &&
	echo stop=max-runs >expect && test_cmp expect out &&
	stop_dir t auto 2 precision=2 max-runs=10 time-budget=1s &&
	latency-plan --stop-rule --result-dir=t >out &&
	echo stop=time-budget >expect && test_cmp expect out &&
	stop_dir u auto 2 precision=2 max-runs=10 time-budget=100000h &&
	latency-plan --stop-rule --result-dir=u >out &&
	echo stop= >expect && test_cmp expect out &&
	test_expect_code 2 latency-plan --stop-rule >out 2>err &&
	grep -x "latency-plan: --stop-rule takes only --result-dir (and --paired-dir)" err &&
	rm two/config &&
	test_expect_code 1 latency-plan --stop-rule --result-dir=two \
		>out 2>err &&
	echo "latency-plan: no gitk-runs in '"'"'two/config'"'"'" >expect &&
	test_cmp expect err && test_cmp /dev/null out
'

test_done
