#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='lava/run-local.sh on the host: no kernel installed, lava-run given the cached one for libguestfs'
. "$abs_top_srcdir/tests/t/test-lib.sh"

# Stand-ins on a PATH of their own (with the few real tools the script
# uses) record what they were asked: apt-get (which "installs" lava-run),
# dpkg-query, systemctl, latency-vm (LATENCY_VM) and lava-run, which
# writes a log of LAVA's results
# (and the console lines of FAKE_CONSOLE, a file of log lines).  Nothing is installed or booted.
run_local=$abs_top_srcdir/lava/run-local.sh

# Debian's python3, which has its jinja2 and yaml (not a shim on PATH).
python=/usr/bin/python3
[ -x "$python" ] || python=$(command -v python3) || python=python3
if "$python" -c 'import jinja2, yaml' 2>/dev/null; then
	test_set_prereq PYJINJA
fi

# stand_ins: bin/ with the real tools and the stand-ins, the cache with
# lava-server's device types of the stand-in version, the images.
stand_ins() {
	mkdir -p bin cache/lava-server-2099.01-1/device-types \
		k/boot k/lib/modules/9.8.7-test img &&
	for t in sh cat sed tr sort mkdir ls cp mv rm env tar gzip id \
		dirname mktemp chown; do
		ln -sf "$(command -v "$t")" "bin/$t" || return 1
	done &&
	ln -sf "$python" bin/python3 &&
	printf "%s\n" "device_type: qemu" "{% block body %}{% endblock %}" \
		>cache/lava-server-2099.01-1/device-types/base.jinja2 &&
	printf "%s\n" "{% extends \"base.jinja2\" %}{% block body %}" \
		"memory: {{ memory }}" "no_kvm: {{ no_kvm }}{% endblock %}" \
		>cache/lava-server-2099.01-1/device-types/qemu.jinja2 &&
	echo kernel >k/boot/vmlinuz-9.8.7-test &&
	for f in vmlinuz initrd.img rootfs.img; do
		echo "$f" >"img/$f" || return 1
	done &&
	cat >bin/apt-get <<-EOF &&
	#!/bin/sh
	echo "\$*" >>"$PWD/apt.log"
	case " \$* " in
	*" -s "*)
		echo "Inst lava-dispatcher (2099.01-1 Debian:12/stable [all])"
		[ -z "\${FAKE_APT_KERNEL:-}" ] ||
			echo "Inst linux-image-9.9.9-amd64 (9.9.9-1 Debian:12/stable [amd64])"
		;;
	*" install "*) cp "$PWD/lava-run" "$PWD/bin/lava-run" ;;
	esac
	EOF
	cat >bin/dpkg-query <<-EOF &&
	#!/bin/sh
	printf 2099.01-1
	EOF
	cat >bin/systemctl <<-EOF &&
	#!/bin/sh
	exit 3
	EOF
	cat >latency-vm <<-EOF &&
	#!/bin/sh
	echo "\$*" >>"$PWD/vm.log"
	case \$1 in
	--build-image=package)
		printf "%s\n" kernel=$PWD/img/vmlinuz initrd=$PWD/img/initrd.img \
			rootfs=$PWD/img/rootfs.img "cmdline=console=ttyS0,115200 root=LABEL=latency-root rw" ;;
	--build-image=kernel)
		printf "%s\n" kernel=$PWD/k/boot/vmlinuz-9.8.7-test release=9.8.7-test \
			"modules=\${FAKE_NO_MODULES-$PWD/k/lib/modules/9.8.7-test}" ;;
	esac
	EOF
	cat >lava-run <<-EOF &&
	#!/bin/sh
	echo "\$*" >"$PWD/lava-run.args"
	env | sed -n "/^SUPERMIN_/p; /^LIBGUESTFS_/p" | LC_ALL=C sort >"$PWD/lava-run.env"
	r() { echo "{\"dt\": \"2099-01-01T00:00:00.000000\", \"lvl\": \"results\", \"msg\": {\$1}}"; }
	d='"definition": "0_latency-tests"'
	r "\"case\": \"run-test\", \$d, \"result\": \"pass\""
	r "\"case\": \"complete\", \$d, \"result\": \"pass\""
	r "\"case\": \"elapsed_mean\", \$d, \"measurement\": \"5.5\", \"result\": \"pass\", \"units\": \"s\""
	r "\"case\": \"fake-gitk.p99_gap\", \$d, \"measurement\": \"0.01\", \"result\": \"pass\", \"units\": \"s\""
	r "\"case\": \"fake-gitk.max_gap\", \$d, \"measurement\": \"0.03\", \"result\": \"pass\", \"units\": \"s\""
	r "\"case\": \"job\", \"definition\": \"lava\", \"result\": \"pass\""
	# The console's lines, @NONCE@ the job's nonce.
	n=\$(sed -n "s/^ *NONCE: \"\\([0-9a-f]*\\)\"\$/\\1/p" "\$7")
	[ -z "\${FAKE_CONSOLE:-}" ] || sed "s/@NONCE@/\$n/g" "\$FAKE_CONSOLE"
	EOF
	chmod +x bin/* latency-vm lava-run
}

# run_local [NAME=VALUE]... OUTDIR: the script with the stand-ins only.
run_local() {
	env PATH="$PWD/bin" LATENCY_CACHE_DIR="$PWD/cache" \
		LATENCY_VM="$PWD/latency-vm" "$@"
}

test_expect_success ROOT,PYJINJA 'lava-dispatcher installed without recommendations; lava-run given the cached kernel' '
	stand_ins &&
	run_local "$run_local" out 2>err &&
	printf "%s\n" \
		"install -s -q --no-install-recommends lava-dispatcher qemu-system-x86" \
		"install -y -q --no-install-recommends lava-dispatcher qemu-system-x86" \
		>expect &&
	test_cmp expect apt.log &&
	printf "%s\n" "--build-image=package --print-paths" \
		"--build-image=kernel --print-paths" >expect &&
	test_cmp expect vm.log &&
	printf "%s\n" "LIBGUESTFS_BACKEND=direct" \
		"LIBGUESTFS_CACHEDIR=$PWD/cache/guestfs/9.8.7-test" \
		"SUPERMIN_KERNEL=$PWD/k/boot/vmlinuz-9.8.7-test" \
		"SUPERMIN_KERNEL_VERSION=9.8.7-test" \
		"SUPERMIN_MODULES=$PWD/k/lib/modules/9.8.7-test" >expect &&
	test_cmp expect lava-run.env &&
	test -d cache/guestfs/9.8.7-test &&
	o=$PWD/out &&
	sed "s/--job-id [0-9]* /--job-id N /" lava-run.args >args &&
	echo "--device $o/device.yaml --job-id N --output-dir $o/lava $o/job.yaml" >expect &&
	test_cmp expect args &&
	printf "%s\n" "kernel=$PWD/k/boot/vmlinuz-9.8.7-test" release=9.8.7-test \
		"modules=$PWD/k/lib/modules/9.8.7-test" >expect &&
	test_cmp expect out/appliance &&
	test "$(grep -c "lvl\": \"results" out/results.yaml)" = 6 &&
	grep "without recommendations\|--no-install-recommends" err
'

test_expect_success ROOT,PYJINJA 'an install that would bring a kernel is refused, nothing run' '
	stand_ins &&
	rm -f apt.log bin/lava-run lava-run.args &&
	test_expect_code 1 run_local FAKE_APT_KERNEL=yes "$run_local" out2 2>err &&
	grep -x "run-local.sh: installing lava-dispatcher qemu-system-x86 would install linux-image-9.9.9-amd64 on this host, changing what it boots: refused" err &&
	echo "install -s -q --no-install-recommends lava-dispatcher qemu-system-x86" >expect &&
	test_cmp expect apt.log &&
	! test -e bin/lava-run && ! test -e lava-run.args
'

test_expect_success ROOT,PYJINJA 'SUPERMIN_KERNEL given: passed on, latency-vm not asked for a kernel' '
	stand_ins &&
	rm -f vm.log apt.log &&
	cp lava-run bin/lava-run &&
	run_local SUPERMIN_KERNEL="$PWD/k/boot/vmlinuz-9.8.7-test" \
		SUPERMIN_MODULES="$PWD/k/lib/modules/9.8.7-test" "$run_local" out3 2>err &&
	! test -e apt.log &&
	echo "--build-image=package --print-paths" >expect &&
	test_cmp expect vm.log &&
	grep -x "SUPERMIN_KERNEL_VERSION=9.8.7-test" lava-run.env &&
	grep -x "LIBGUESTFS_BACKEND=direct" lava-run.env &&
	test_expect_code 1 run_local \
		SUPERMIN_KERNEL="$PWD/k/boot/vmlinuz-9.8.7-test" "$run_local" out4 2>err &&
	grep -x "run-local.sh: SUPERMIN_KERNEL needs SUPERMIN_MODULES, its module tree (lib/modules/RELEASE)" err
'

test_expect_success ROOT,PYJINJA 'a kernel without modules cannot build the appliance: refused before lava-run' '
	stand_ins &&
	cp lava-run bin/lava-run && rm -f lava-run.args &&
	test_expect_code 1 run_local FAKE_NO_MODULES= "$run_local" out5 2>err &&
	grep -x "run-local.sh: the appliance'\''s kernel '\''$PWD/k/boot/vmlinuz-9.8.7-test'\'' has no module tree: libguestfs needs its modules" err &&
	! test -e lava-run.args
'

# console FILE: FILE's lines as LAVA logs the lines of the console.
console() {
	"$python" -c '
import json, sys
for line in sys.stdin:
    print(json.dumps({"dt": "2099-01-01T00:00:00.000000", "lvl": "target",
                      "msg": line.rstrip("\n")}))' <"$1"
}

# block FILE [NONCE]: FILE as run-suite.sh sends it over the console,
# with the job's nonce (@NONCE@, which the stand-in lava-run replaces) or
# NONCE.
block() {
	sum=$(sha256sum <"$1") &&
	echo "LATENCY-TESTS-RESULT-BEGIN ${2:-@NONCE@} ${sum%% *} $(($(wc -c <"$1")))" &&
	gzip -9nc <"$1" | base64 -w 64 &&
	echo "LATENCY-TESTS-RESULT-END ${2:-@NONCE@}"
}

J=$TEST_DIRECTORY/fixtures/fleet/board1/result.json

test_expect_success ROOT,PYJINJA 'the result.json sent over the console: OUTDIR/result/result.json, byte-identical' '
	stand_ins && cp lava-run bin/lava-run &&
	{
		echo "+ latency-run-test --quick" &&
		block "$J" | sed "3a\\
[   42.123456] random: crng init done\\
" | sed "5s/\$/\r/"
	} >lines &&
	grep -c "^\[   42" lines >n && echo 1 >want && test_cmp want n &&
	console lines >log && FAKE_CONSOLE=$PWD/log && export FAKE_CONSOLE &&
	run_local "$run_local" res1 2>err &&
	test_cmp "$J" res1/result/result.json &&
	ls -A res1/result >got && echo result.json >want && test_cmp want got &&
	grep -x "run-local.sh: the run'\''s result: $PWD/res1/result/result.json ($(wc -c <"$J") bytes)" err &&
	! grep warning err
'

test_expect_success ROOT,PYJINJA 'the run'"'"'s page after it: OUTDIR/result/report.html, byte-identical' '
	stand_ins && cp lava-run bin/lava-run &&
	printf "<!DOCTYPE html>\n<p>a page</p>\n" >page.html &&
	{
		block "$J" &&
		block page.html | sed "s/^LATENCY-TESTS-RESULT-/LATENCY-TESTS-REPORT-/"
	} >lines &&
	console lines >log && FAKE_CONSOLE=$PWD/log && export FAKE_CONSOLE &&
	run_local "$run_local" resp 2>err &&
	test_cmp "$J" resp/result/result.json &&
	test_cmp page.html resp/result/report.html &&
	ls -A resp >got && ! grep -x .report got &&
	grep -x "run-local.sh: the run'"'"'s page: $PWD/resp/result/report.html" err &&
	! grep warning err
'

test_expect_success ROOT,PYJINJA 'a bad page block: a warning, the result kept' '
	stand_ins && cp lava-run bin/lava-run &&
	{
		block "$J" &&
		block page.html | sed -e "s/^LATENCY-TESTS-RESULT-/LATENCY-TESTS-REPORT-/" \
			-e "/^LATENCY-TESTS-REPORT-END/d"
	} >lines &&
	console lines >log && FAKE_CONSOLE=$PWD/log && export FAKE_CONSOLE &&
	run_local "$run_local" resq 2>err &&
	test_cmp "$J" resq/result/result.json &&
	! test -e resq/result/report.html &&
	grep "^run-local.sh: warning: no $PWD/resq/result/report.html: the LATENCY-TESTS-RESULT block has no end" err &&
	test "$(grep -c warning err)" = 1
'

# refused CAUSE OUTDIR: run-local.sh on FAKE_CONSOLE exits 0 (the job's
# status), warns of CAUSE (a pattern of the whole cause) and makes no
# OUTDIR/result.
refused() {
	run_local "$run_local" "$2" 2>err &&
	grep -x "run-local.sh: warning: no $PWD/$2/result/result.json: $1" err &&
	test "$(grep -c warning err)" = 1 &&
	! test -e "$2/result" &&
	test -f "$2/results.yaml"
}

test_expect_success ROOT,PYJINJA 'one character changed in the block: a warning, no result/' '
	stand_ins && cp lava-run bin/lava-run &&
	block "$J" >good &&
	awk "NR == 4 { c = substr(\$0, 10, 1); \$0 = substr(\$0, 1, 9) (c == \"A\" ? \"B\" : \"A\") substr(\$0, 11) } 1" good >lines &&
	test "$(cmp -l good lines | wc -l)" = 1 &&
	console lines >log && FAKE_CONSOLE=$PWD/log && export FAKE_CONSOLE &&
	refused "the block in $PWD/res2/lava.log .*" res2
'

test_expect_success ROOT,PYJINJA 'a wrong sha256 in the header: refused' '
	stand_ins && cp lava-run bin/lava-run &&
	block "$J" | sed "1s/ [0-9a-f]\{64\} / $(printf "%064d" 0) /" >lines &&
	console lines >log && FAKE_CONSOLE=$PWD/log && export FAKE_CONSOLE &&
	refused "the block in $PWD/res3/lava.log does not have its sha256 $(printf "%064d" 0)" res3
'

test_expect_success ROOT,PYJINJA 'a kernel message inside a line of the block: refused' '
	stand_ins && cp lava-run bin/lava-run &&
	block "$J" | sed "3s/^\(.\{20\}\)/\1[   42.1] oom-kill:\\
/" >lines &&
	test "$(wc -l <lines)" = "$(($(block "$J" | wc -l) + 1))" &&
	console lines >log && FAKE_CONSOLE=$PWD/log && export FAKE_CONSOLE &&
	refused "the block in $PWD/res4/lava.log .*" res4
'

test_expect_success ROOT,PYJINJA 'no block, a block without its end, a size over the limit: refused' '
	stand_ins && cp lava-run bin/lava-run &&
	echo "+ latency-run-test --quick" >lines &&
	console lines >log && FAKE_CONSOLE=$PWD/log && export FAKE_CONSOLE &&
	refused "no LATENCY-TESTS-RESULT block of this job in $PWD/res5/lava.log" res5 &&
	block "$J" | sed "\$d" >lines && console lines >log &&
	refused "the LATENCY-TESTS-RESULT block has no end in $PWD/res6/lava.log" res6 &&
	block "$J" | sed "1s/ [0-9]*\$/ 999999999/" >lines && console lines >log &&
	refused "the block in $PWD/res7/lava.log says 999999999 bytes, more than 16777216" res7 &&
	block "$J" | sed "1s/ [0-9]*\$/ 1;touch pwned/" >lines && console lines >log &&
	refused "no LATENCY-TESTS-RESULT block of this job in $PWD/res8/lava.log" res8 &&
	! test -e pwned
'

# Another file of the same shape: what a guest would forge.
printf '{"format_version": 1, "label": "forged"}\n' >forged.json

test_expect_success ROOT,PYJINJA 'a second complete block after the real one: refused' '
	stand_ins && cp lava-run bin/lava-run &&
	{ block "$J" && block forged.json; } >lines &&
	console lines >log && FAKE_CONSOLE=$PWD/log && export FAKE_CONSOLE &&
	refused "more than one LATENCY-TESTS-RESULT block of this job in $PWD/res9/lava.log" res9
'

test_expect_success ROOT,PYJINJA 'a BEGIN of this job inside the block: refused' '
	stand_ins && cp lava-run bin/lava-run &&
	block "$J" | sed "2a\\
LATENCY-TESTS-RESULT-BEGIN @NONCE@ $(printf "%064d" 0) 10" >lines &&
	console lines >log && FAKE_CONSOLE=$PWD/log && export FAKE_CONSOLE &&
	refused "a second LATENCY-TESTS-RESULT-BEGIN of this job inside its block in $PWD/res10/lava.log" res10
'

test_expect_success ROOT,PYJINJA 'blocks without this job'"'"'s nonce: skipped, also inside the real block' '
	stand_ins && cp lava-run bin/lava-run &&
	{
		block forged.json 0123456789abcdef0123456789abcdef &&
		block "$J" | sed "2a\\
LATENCY-TESTS-RESULT-BEGIN $(printf "%064d" 0) 10" &&
		block forged.json | sed "s/ @NONCE@//"
	} >lines &&
	console lines >log && FAKE_CONSOLE=$PWD/log && export FAKE_CONSOLE &&
	run_local "$run_local" res11 2>err &&
	test_cmp "$J" res11/result/result.json &&
	! grep warning err &&
	block forged.json | sed "s/ @NONCE@//" >lines && console lines >log &&
	refused "no LATENCY-TESTS-RESULT block of this job in $PWD/res12/lava.log" res12
'

test_done
