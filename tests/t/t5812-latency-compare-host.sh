#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-compare: a latency-vm host that was busier is named, not judged (hand-computed)'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-compare.sh"

# host OTHERS [CPUS]: a vm.host object of a 200 s window on CPUS (2)
# CPUs whose other processes used OTHERS CPUs on average.
host() {
	awk -v o="$1" -v c="${2:-2}" 'BEGIN {
		printf "{\"cpus\":%s,\"wall_s\":200.00,\"qemu_cpu_s\":350.50,\"others_cpu_s\":%.2f,\"kthreads_cpu_s\":1.10,\"others_cpus\":%s}", c, o * 200, o
	}'
}

# result DIR LABEL HOST [RUN...]: a format 2 result.json made in a
# latency-vm guest (run_label DIR), "vm.host" HOST (JSON text; empty:
# no "host" member), its fake-gitk runs RUN (members, without braces;
# default two runs of 10 and 11 s with 5 user-CPU seconds each: elapsed
# per user-CPU second 2.0 and 2.2).
result() {
	_dir=$1 _label=$2 _host=$3
	shift 3
	[ $# -gt 0 ] || set -- '"elapsed_s":10,"user_s":5' '"elapsed_s":11,"user_s":5'
	_runs=''
	for _r; do
		_runs="$_runs${_runs:+,}{$_r}"
	done
	mkdir -p "$_dir" &&
	printf '{"format_version":2,"program":"run-test.sh","label":"%s","run_label":"%s","partial":false,"gitk_runs":[%s],"vm":{"accel":"kvm"%s}}\n' \
		"$_label" "$_dir" "$_runs" "${_host:+,\"host\":$_host}" >"$_dir/result.json"
}

# Both sides ran the same runs: elapsed per user-CPU second 2.0 and 2.2
# a side.  Welch on the logs: the difference of the means is 0, se =
# sqrt(v) with v = (ln 1.1)^2 / 2, se 0.0673945 on 2 df; p 1, 95% CI
# exp(-+4.30265 * se) - 1 = -25.17..+33.64%, mde exp(5.36331 * se) - 1
# = 43.54%.  The host of B was busy: 0.62 CPUs against 0.014.
SAME='elapsed per user-CPU second +0.0% (95% CI -25.2..+33.6%, p 1, no significant change; could have seen >= 43.5%), raw elapsed +0.0% (p 1)'

test_expect_success 'a busier host is named before the figures, not judged' '
	result a A "$(host 0.014)" &&
	result b B "$(host 0.62)" &&
	latency-compare a b >out &&
	sed -n 1p out >line &&
	echo "B vs A: the host was busier on B (other host processes used 0.62 CPUs while its guests ran, against 0.01): not judged as a kernel change; $SAME" >expect &&
	test_cmp expect line &&
	latency-compare b a >out &&
	sed -n 1p out >line &&
	echo "A vs B: the host was busier on B (other host processes used 0.62 CPUs while its guests ran, against 0.01): not judged as a kernel change; $SAME" >expect &&
	test_cmp expect line
'

test_expect_success 'a busy host gets a note naming the result, once' '
	latency-compare a b >out &&
	grep "host was busy" out >notes &&
	echo "the host was busy while b ran: other processes used 0.62 of its 2 CPUs (see vm.host)" >expect &&
	test_cmp expect notes &&
	latency-compare --format=markdown a b >md &&
	grep -qxF -e "- the host was busy while b ran: other processes used 0.62 of its 2 CPUs (see vm.host)" md &&
	latency-compare b >out &&
	grep -q "^the host was busy while b ran: " out &&
	result one A "$(host 0.3 1)" &&
	latency-compare one >out &&
	grep -qxF "the host was busy while one ran: other processes used 0.30 of its 1 CPU (see vm.host)" out
'

test_expect_success JQ 'JSON and CSV name the busier label and give the host load' '
	latency-compare --format=json a b >j &&
	test "$(change_get busier j)" = "\"B\"" &&
	test_json j ".results[0].host_others_cpus_mean" 0.014 &&
	test_json j ".results[1].host_others_cpus_mean" 0.62 &&
	test_json j ".results[1].result_host_others_cpus | tojson" "[0.62]" &&
	latency-compare --format=csv a b >csv &&
	test "$(csv_get busier B csv)" = B &&
	test "$(csv_get busier A csv)" = "" &&
	test "$(csv_get host_others_cpus_mean A csv)" = 0.014 &&
	test "$(csv_get host_others_cpus_mean B csv)" = 0.62
'

test_expect_success 'a busier host: --fail-if-slower cannot judge' '
	test_expect_code 125 latency-compare --fail-if-slower=1 a b >/dev/null 2>err &&
	echo "latency-compare: cannot judge: the host was busier on B (other host processes'\'' CPU while its guests ran)" >expect &&
	test_cmp expect err
'

# The threshold: 0.12 - 0.02 is 0.10 as written (0.09999999999999999 in
# binary), named; 0.119 - 0.02 = 0.099 is not.
test_expect_success JQ 'a tenth of a CPU more is named, less is not' '
	result t1 A "$(host 0.02)" &&
	result t2 B "$(host 0.12)" &&
	latency-compare --format=json t1 t2 >j &&
	test "$(change_get busier j)" = "\"B\"" &&
	latency-compare t1 t2 >out &&
	grep -q "^B vs A: the host was busier on B (other host processes used 0.12 CPUs while its guests ran, against 0.02): not judged" out &&
	result u2 B "$(host 0.119)" &&
	latency-compare --format=json t1 u2 >j &&
	test "$(change_get busier j)" = null &&
	latency-compare t1 u2 >out &&
	sed -n 1p out >line &&
	echo "B vs A: $SAME" >expect &&
	test_cmp expect line &&
	latency-compare --fail-if-slower=1 t1 u2 >/dev/null 2>err &&
	! grep -q "cannot judge" err
'

# Three boots a side, one of B's with its host at 0.30 CPUs: B's mean
# (0.01 + 0.30 + 0.01) / 3 = 0.1067 against A's (0.01 + 0.24 + 0.01) / 3
# = 0.0867 is 0.02 more, not named, but that boot gets its note, and A's
# at 0.24 none.  With B's third boot at 0.25, which gets a note too, B's
# mean is 0.1867: 0.10 more, named.
test_expect_success 'one busy boot: no rule on the means, a note on it' '
	result s/a1 A "$(host 0.01)" && result s/a2 A "$(host 0.24)" &&
	result s/a3 A "$(host 0.01)" &&
	result s/b1 B "$(host 0.01)" && result s/b2 B "$(host 0.30)" &&
	result s/b3 B "$(host 0.01)" &&
	latency-compare s/a1 s/a2 s/a3 s/b1 s/b2 s/b3 >out &&
	! grep -q "busier" out &&
	grep "host was busy" out >notes &&
	echo "the host was busy while s/b2 ran: other processes used 0.30 of its 2 CPUs (see vm.host)" >expect &&
	test_cmp expect notes &&
	result s/b3 B "$(host 0.25)" &&
	latency-compare s/a1 s/a2 s/a3 s/b1 s/b2 s/b3 >out &&
	grep -q "^B vs A: the host was busier on B (other host processes used 0.19 CPUs while its guests ran, against 0.09): not judged as a kernel change; " out &&
	grep "host was busy" out >notes &&
	cat >expect <<-EOF &&
	the host was busy while s/b2 ran: other processes used 0.30 of its 2 CPUs (see vm.host)
	the host was busy while s/b3 ran: other processes used 0.25 of its 2 CPUs (see vm.host)
	EOF
	test_cmp expect notes
'

test_expect_success JQ 'a result without host figures: no host rule, still the notes' '
	result n/a1 A "$(host 0.01)" && result n/a2 A "" &&
	result n/b1 B "$(host 0.62)" && result n/b2 B "null" &&
	result n/b3 B "$(host 0.62)" &&
	latency-compare --format=json n/a1 n/a2 n/b1 n/b3 >j &&
	test "$(change_get busier j)" = null &&
	test_json j ".results[0].host_others_cpus_mean" null &&
	test_json j ".results[0].result_host_others_cpus | tojson" "[0.01,null]" &&
	test_json j ".results[1].host_others_cpus_mean" 0.62 &&
	latency-compare --format=json n/a1 n/b2 >j &&
	test "$(change_get busier j)" = null &&
	test_json j ".results[1].result_host_others_cpus | tojson" "[null]" &&
	latency-compare --format=csv n/a1 n/a2 n/b1 n/b3 >csv &&
	test "$(csv_get host_others_cpus_mean A csv)" = "" &&
	latency-compare n/a1 n/a2 n/b1 n/b3 >out &&
	! grep -q "busier" out &&
	grep -c "^the host was busy while n/b[13] ran: " out >count &&
	echo 2 >expect &&
	test_cmp expect count
'

# A result named by its run label: a byte that moves a terminal's
# cursor is spelled out.
test_expect_success 'the note escapes the name' '
	sed "s/\"run_label\":\"b\"/\"run_label\":\"b\\\\u001b[2J\"/" b/result.json >esc.json &&
	latency-compare a esc.json >out &&
	grep "host was busy" out >notes &&
	printf "%s\n" "the host was busy while b\\x1b[2J ran: other processes used 0.62 of its 2 CPUs (see vm.host)" >expect &&
	test_cmp expect notes
'

# D: fake-gitk waited 1.0-1.2 s for a CPU and other processes used 5 s
# a run, against 0.01-0.03 s and 0.1-0.2 s (t5809): the machine's own
# rule; its host, or the baseline's, was busier too.
test_expect_success 'machine and host both busier: one mention, both figures' '
	result c A "$(host 0.01)" "\"elapsed_s\":10,\"user_s\":5,\"runq_s\":0.01,\"others_cpu_s\":0.1" \
		"\"elapsed_s\":10.5,\"user_s\":5,\"runq_s\":0.02,\"others_cpu_s\":0.2" \
		"\"elapsed_s\":11,\"user_s\":5,\"runq_s\":0.03,\"others_cpu_s\":0.1" &&
	result d D "$(host 0.5)" "\"elapsed_s\":10,\"user_s\":5,\"runq_s\":1.0,\"others_cpu_s\":5.0" \
		"\"elapsed_s\":10.5,\"user_s\":5,\"runq_s\":1.1,\"others_cpu_s\":5.2" \
		"\"elapsed_s\":11,\"user_s\":5,\"runq_s\":1.2,\"others_cpu_s\":5.4" &&
	latency-compare c d >out &&
	grep -q "^D vs A: the machine was busier on D (other processes'\'' CPU 5.20 s a run against 0.13 s, fake-gitk'\''s wait for a CPU 1.10 s against 0.02 s), and so was its host (other host processes used 0.50 CPUs while its guests ran, against 0.01): not judged as a kernel change; elapsed per user-CPU second +0.0% " out &&
	test_expect_code 125 latency-compare --fail-if-slower=1 c d >/dev/null 2>err &&
	grep -q "^latency-compare: cannot judge: the machine was busier on D (other processes'\'' CPU, or the wait for a CPU)$" err &&
	result c A "$(host 0.6)" "\"elapsed_s\":10,\"user_s\":5,\"runq_s\":0.01,\"others_cpu_s\":0.1" \
		"\"elapsed_s\":10.5,\"user_s\":5,\"runq_s\":0.02,\"others_cpu_s\":0.2" \
		"\"elapsed_s\":11,\"user_s\":5,\"runq_s\":0.03,\"others_cpu_s\":0.1" &&
	latency-compare c d >out &&
	grep -q "^D vs A: the machine was busier on D (other processes'\'' CPU 5.20 s a run against 0.13 s, fake-gitk'\''s wait for a CPU 1.10 s against 0.02 s), and the host on A (other host processes used 0.60 CPUs while its guests ran, against 0.50): not judged as a kernel change; elapsed per user-CPU second +0.0% " out &&
	latency-compare --format=json c d >j &&
	test "$(change_get busier j)" = "\"D\""
'

# hostile NAME HOST WANT: a result whose "vm.host" is HOST (JSON text);
# latency-compare refuses it with exactly WANT after the file.
hostile() {
	result "h/$1" B "$2" &&
	test_expect_code 1 latency-compare a "h/$1" >out 2>err &&
	! test -s out &&
	printf "latency-compare: 'h/%s/result.json': %s\n" "$1" "$3" >want &&
	test_cmp want err
}

# The members after cpus: wall_s, qemu_cpu_s, others_cpu_s,
# kthreads_cpu_s, others_cpus.
REST='"wall_s":200,"qemu_cpu_s":350,"others_cpu_s":2,"kthreads_cpu_s":1.1'

test_expect_success 'a hostile host object is refused, naming the member' '
	hostile array "[1,2]" "\"vm.host\" is an array, expected an object" &&
	hostile number "0.5" "\"vm.host\" is a number, expected an object" &&
	hostile empty "{}" "missing \"vm.host.cpus\"" &&
	hostile cpus-str "{\"cpus\":\"2\",$REST,\"others_cpus\":0.01}" "\"vm.host.cpus\" is a string, expected a number" &&
	hostile cpus-null "{\"cpus\":null,$REST,\"others_cpus\":0.01}" "\"vm.host.cpus\" is null, expected a number" &&
	hostile cpus-0 "{\"cpus\":0,$REST,\"others_cpus\":0}" "\"vm.host.cpus\" is 0, expected a whole number 1 to 4096" &&
	hostile cpus-half "{\"cpus\":1.5,$REST,\"others_cpus\":0}" "\"vm.host.cpus\" is 1.5, expected a whole number 1 to 4096" &&
	hostile cpus-many "{\"cpus\":4097,$REST,\"others_cpus\":0}" "\"vm.host.cpus\" is 4097, expected a whole number 1 to 4096" &&
	hostile wall-nan "{\"cpus\":2,\"wall_s\":\"NaN\"}" "\"vm.host.wall_s\" is a string, expected a number" &&
	hostile wall-missing "{\"cpus\":2,\"qemu_cpu_s\":350}" "missing \"vm.host.wall_s\"" &&
	hostile wall-0 "{\"cpus\":2,\"wall_s\":0,\"qemu_cpu_s\":350,\"others_cpu_s\":0,\"kthreads_cpu_s\":0,\"others_cpus\":0}" "\"vm.host.wall_s\" is 0, expected more than 0" &&
	hostile qemu-bool "{\"cpus\":2,\"wall_s\":200,\"qemu_cpu_s\":true}" "\"vm.host.qemu_cpu_s\" is true, expected a number" &&
	hostile others-inf "{\"cpus\":2,\"wall_s\":200,\"qemu_cpu_s\":350,\"others_cpu_s\":\"Infinity\"}" "\"vm.host.others_cpu_s\" is a string, expected a number" &&
	hostile kthreads-neg "{\"cpus\":2,\"wall_s\":200,\"qemu_cpu_s\":350,\"others_cpu_s\":2,\"kthreads_cpu_s\":-1.1}" "\"vm.host.kthreads_cpu_s\" is -1.1, expected 0 to 1e+15" &&
	hostile others-huge "{\"cpus\":2,$REST,\"others_cpus\":1e16}" "\"vm.host.others_cpus\" is 1e+16, expected 0 to 1e+15" &&
	hostile others-obj "{\"cpus\":2,$REST,\"others_cpus\":{}}" "\"vm.host.others_cpus\" is an object, expected a number" &&
	hostile others-missing "{\"cpus\":2,$REST}" "missing \"vm.host.others_cpus\"" &&
	hostile others-over "{\"cpus\":2,$REST,\"others_cpus\":2.02}" "\"vm.host.others_cpus\" is 2.02, more than \"vm.host.cpus\" (2)"
'

test_expect_success 'host null, absent, or others_cpus rounded to a hair over cpus' '
	result z1 B "null" && result z2 B "" &&
	result z3 B "{\"cpus\":2,$REST,\"others_cpus\":2.01}" &&
	for z in z1 z2 z3; do
		latency-compare a $z >out || return 1
	done &&
	grep -q "^B vs A: the host was busier on B (other host processes used 2.01 CPUs while its guests ran, against 0.01)" out &&
	latency-compare a z1 >out &&
	! grep -q "host" out
'

test_done
