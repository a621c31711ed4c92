#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='a bad --format gets the same words from every program'
. "$abs_top_srcdir/tests/t/test-lib.sh"

exe_of() {
	if [ -x "$abs_top_builddir/$1" ]; then
		echo "$abs_top_builddir/$1"
	else
		echo "$abs_top_srcdir/$1"
	fi
}

# Every built program whose --help offers --format, found by its help so a
# new program is checked without an edit here.
takes_format=
for p in ${BIN_PROGRAMS:-}; do
	exe=$(exe_of "$p")
	"$exe" --help >help 2>/dev/null || continue
	grep -q -e '--format=' help && takes_format="$takes_format $p"
done
rm -f help
[ -n "$takes_format" ] || test_skip_all 'no programs built'

test_expect_success 'the programs known to take --format are all found' '
	for want in fake-gitk fake-music latency-output latency-vmstat \
		latency-kmsg latency-trace latency-summarize latency-plan latency-compare \
		latency-machine seqbench; do
		case " $takes_format " in
		*/$want\ *) ;;
		*) echo "not found: $want" >&2; return 1 ;;
		esac
	done
'

for p in $takes_format; do
	name=$(basename "$p")
	exe=$(exe_of "$p")
	# latency-machine takes --format in its show command only.
	cmd=
	[ "$name" = latency-machine ] && cmd=show

	test_expect_success "$name --format=bogus: the one wording, exit 2" "
		test_expect_code 2 \"$exe\" $cmd --format=bogus </dev/null \
			>out 2>err &&
		! test -s out &&
		sed -n 1p err >first &&
		sed 's/ (expected .*)\$//' first >prefix &&
		echo \"$name: invalid value 'bogus' for --format: not understood\" \
			>expect &&
		test_cmp expect prefix &&
		grep -q ' (expected [a-z0-9., -]* or [a-z0-9.-]*)\$' first &&
		sed -n 2p err >try &&
		echo \"Try '$name --help' for more information.\" >expect &&
		test_cmp expect try &&
		test \$(wc -l <err) = 2
	"
done

test_done
