#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-compare: results made on different setups (VM, device stack, command line) are compared and the difference said'
. "$abs_top_srcdir/tests/t/test-lib.sh"

F=$TEST_DIRECTORY/fixtures/compare

# vm/kvm: 6.1 in a KVM guest of 512 MiB on plain disks; vm/tcg: 6.2-rc1
# in a TCG guest of 1 GiB on a crypted LVM, booted with zswap.enabled=1.
# Variants of vm/kvm: DIR made with the sed script SCRIPT.
variant() {
	mkdir -p "$1" && sed "$2" "$F/vm/kvm/result.json" >"$1/result.json"
}

test_expect_success 'setup' '
	cp -R "$F"/. . && chmod -R u+w . &&
	variant kvm1g "s/\"memory_bytes\": 536870912/\"memory_bytes\": 1073741824/; s/\"run_label\": \"6.1-1\"/\"run_label\": \"6.1-2\"/" &&
	variant zsw "s/\"cmdline\": \"console=ttyS0,115200 panic=-1\"/\"cmdline\": \"console=ttyS0,115200 panic=-1 zswap.enabled=1\"/" &&
	variant hostile "s/\"accel\": \"kvm\"/\"accel\": 7/; s/\"qemu_version\": \"[^\"]*\"/\"qemu_version\": \"x\\\\ny\"/" &&
	grep -c "accel\": 7" hostile/result.json >n && echo 1 >want && test_cmp want n
'

test_expect_success 'KVM against TCG, 512M against 1G, plain against crypt-lvm: said under the verdict, not refused' '
	latency-compare vm/kvm vm/tcg >out 2>err &&
	sed -n "1,/^between-boot/p" out >head &&
	cat >want <<-\EOF &&
	6.2-rc1 vs 6.1: elapsed +54.5% (p 0.0018, significant); also changed: majflt +430%, pswpin +210%
	  setup differs: 6.1 ran with accel kvm, 6.2-rc1 with tcg
	  setup differs: 6.1 ran with memory 512 MiB, 6.2-rc1 with 1024 MiB
	  setup differs: 6.1 ran with device stack plain, 6.2-rc1 with crypt-lvm
	  setup differs: kernel command line: only 6.2-rc1 has zswap.enabled=1
	between-boot spread unknown (one result per label): give >= 2 results per label (3 recommended)
	EOF
	test_cmp want head &&
	sed "s/^  /latency-compare: warning: /" want | sed -n "2,5p" >want.err &&
	test_cmp want.err err
'

test_expect_success 'JSON: setup_differs of each label, with the paths and values' '
	latency-compare --format=json vm/kvm vm/tcg >out 2>err &&
	test "$(grep -c "^      \"setup_differs\": \[\],\$" out)" = 1 &&
	sed -n "/\"setup_differs\": \[\$/,/^      \],\$/p" out >lists &&
	cat >want <<-\EOF &&
	      "setup_differs": [
	        {
	          "field": "accel",
	          "between": "labels",
	          "paths": [
	            "vm/kvm",
	            "vm/tcg"
	          ],
	          "values": [
	            "kvm",
	            "tcg"
	          ]
	        },
	        {
	          "field": "memory_bytes",
	          "between": "labels",
	          "paths": [
	            "vm/kvm",
	            "vm/tcg"
	          ],
	          "values": [
	            536870912,
	            1073741824
	          ]
	        },
	        {
	          "field": "device_stack",
	          "between": "labels",
	          "paths": [
	            "vm/kvm",
	            "vm/tcg"
	          ],
	          "values": [
	            "plain",
	            "crypt-lvm"
	          ]
	        },
	        {
	          "field": "cmdline",
	          "between": "labels",
	          "paths": [
	            "vm/kvm",
	            "vm/tcg"
	          ],
	          "values": [
	            "console=ttyS0,115200 panic=-1",
	            "console=ttyS0,115200 panic=-1 zswap.enabled=1"
	          ],
	          "words": [
	            "+zswap.enabled=1"
	          ]
	        }
	      ],
	EOF
	test_cmp want lists
'

test_expect_success 'the same setup, or another kernel release: nothing said' '
	latency-compare 6.1=vm/kvm 6.2-rc1=vm/kvm >out 2>err &&
	! grep "setup differs" out &&
	test ! -s err &&
	latency-compare --format=json v2/a1 v2/b1 >out 2>err &&
	test "$(grep -c "\"setup_differs\": \[\]," out)" = 2 &&
	test ! -s err
'

test_expect_success 'a command-line parameter the label names is what the label is about' '
	latency-compare 6.1=vm/kvm zswap=zsw >out 2>err &&
	! grep "setup differs" out &&
	test ! -s err &&
	latency-compare 6.1=vm/kvm on=zsw >out 2>err &&
	grep -x "  setup differs: kernel command line: only on has zswap.enabled=1" out
'

test_expect_success 'results of one label set up differently: said once, and in that label'"'"'s JSON' '
	latency-compare 6.1=vm/kvm,kvm1g 6.2-rc1=vm/tcg >out 2>err &&
	grep -x "setup differs within 6.1: 6.1-1 ran with memory 512 MiB, 6.1-2 with 1024 MiB" out &&
	test "$(grep -c "setup differs within" out)" = 1 &&
	test "$(grep -c "setup differs within" err)" = 1 &&
	latency-compare 6.1=vm/kvm,kvm1g >out 2>err &&
	grep -x "setup differs within 6.1: 6.1-1 ran with memory 512 MiB, 6.1-2 with 1024 MiB" out &&
	latency-compare --format=json 6.1=vm/kvm,kvm1g >out 2>err &&
	grep -x "          \"between\": \"results\"," out &&
	grep -x "            \"kvm1g\"" out
'

test_expect_success 'on the machine against in a guest' '
	latency-compare host=v2/a1 vm=vm/kvm >out 2>err &&
	grep -x "  setup differs: host ran outside latency-vm, vm in a latency-vm guest" out &&
	latency-compare --format=json host=v2/a1 vm=vm/kvm >out 2>err &&
	grep -x "            \"host\"," out && grep -x "            \"vm\"" out
'

test_expect_success 'Markdown: the notes as a nested list' '
	latency-compare --format=markdown vm/kvm vm/tcg >out 2>err &&
	grep -x "  - setup differs: 6.1 ran with accel kvm, 6.2-rc1 with tcg" out
'

test_expect_success 'hostile members: one of the wrong type left out, text escaped on one line' '
	latency-compare vm/tcg hostile >out 2>err &&
	! grep "accel" out &&
	grep -x "  setup differs: 6.2-rc1 ran with QEMU 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3), 6.1 with x\\\\ny" out &&
	grep -x "latency-compare: warning: setup differs: 6.2-rc1 ran with QEMU 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3), 6.1 with x\\\\ny" err
'

test_done
