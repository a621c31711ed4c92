#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='latency-vm: options, the kernel check, the QEMU command line and the image recipe (nothing booted)'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-vm.sh"

test_expect_success 'bad values are usage errors, before any work' '
	test_expect_code 2 "$vm" --memory=12X 2>err &&
	grep -x "latency-vm: invalid value '\''12X'\'' for --memory (expected a size such as 512M)" err &&
	test_expect_code 2 "$vm" --memory=32M 2>err &&
	grep -x "latency-vm: invalid value '\''32M'\'' for --memory (at least 64M)" err &&
	test_expect_code 2 "$vm" --cpus=0 2>err &&
	test_expect_code 2 "$vm" --accel=hvf 2>err &&
	grep -x "latency-vm: invalid value '\''hvf'\'' for --accel (expected auto, kvm or tcg)" err &&
	test_expect_code 2 "$vm" --device=raid 2>err &&
	test_expect_code 2 "$vm" --timeout=1h 2>err &&
	grep -x "latency-vm: invalid value '\''1h'\'' for --timeout (expected a duration such as 90s or 5m)" err &&
	test_expect_code 2 "$vm" --label=../x 2>err &&
	test_expect_code 2 "$vm" --label=.hidden 2>err &&
	test_expect_code 2 "$vm" "--cmdline=a\"b" 2>err &&
	test_expect_code 2 "$vm" --build-image=iso 2>err &&
	test_expect_code 2 "$vm" --print-paths 2>err &&
	grep -x "latency-vm: --print-paths goes with --build-image" err &&
	test_expect_code 2 "$vm" --setup=no-such-script 2>err &&
	test_expect_code 2 "$vm" --device=crypt-lvm --disk-size=1G --swap-size=1G 2>err &&
	grep "leaves no room for the scratch volume" err &&
	grep -q "^Try '\''latency-vm --help'\'' for more information.$" err
'

# bad_value OPTION=VALUE CAUSE: a usage error, before any work, naming
# the value and the cause in one line.
bad_value() {
	test_expect_code 2 "$vm" "--$1" --results=res 2>err &&
	printf "latency-vm: invalid value '%s' for --%s (%s)\n" \
		"${1#*=}" "${1%%=*}" "$2" >expect &&
	sed -n 1p err >got && test_cmp expect got &&
	test "$(wc -l <err)" = 2 && ! test -e res
}

test_expect_success 'sizes, CPUs and durations out of range: one line each, exit 2' '
	bad_value memory=99999999999T "at most 16T" &&
	bad_value memory=17T "at most 16T" &&
	bad_value memory=18446744073709551616 "at most 16T" &&
	bad_value disk-size=99999999999999999999999 "at most 16T" &&
	bad_value swap-size=9999999T "at most 16T" &&
	bad_value swap-size=1M "at least 16M" &&
	bad_value disk-size=100M "at least 256M" &&
	bad_value cpus=256 "expected 1 to 255" &&
	bad_value cpus=299 "expected 1 to 255" &&
	bad_value cpus=1000 "expected 1 to 255" &&
	bad_value timeout=99999999999999999999m "at most 9999999s or 9999999m" &&
	bad_value boot-timeout=99999999s "at most 9999999s or 9999999m" &&
	test_expect_code 2 env LATENCY_VM_RESULT_BYTES=1G "$vm" 2>err &&
	grep -x "latency-vm: invalid LATENCY_VM_RESULT_BYTES or LATENCY_VM_RESULT_FILES '\''1G'\'' (expected a number)" err
'

test_expect_success VM_TOOLS 'the largest values in range are taken' '
	fake_bzimage bzImage 9.8.7-test &&
	"$vm" --dry-run --kernel=bzImage --accel=tcg --cpus=255 --memory=16T \
		--timeout=9999999m -- --commits=2000 >out 2>err &&
	grep -q -- " -smp 255 -m 16777216M " out
'

test_expect_success VM_TOOLS 'a comma in the cache directory is doubled in QEMU options' '
	fake_bzimage bzImage 9.8.7-test &&
	LATENCY_CACHE_DIR=$PWD/ca,che "$vm" --dry-run --kernel=bzImage \
		--accel=tcg -- --commits=2000 >out 2>err &&
	grep -q -- " -drive file=$PWD/ca,,che/vm/images/quick-[0-9a-f]*/rootfs.img,format=raw,if=none,id=root," out &&
	grep -q -- " -drive file=$PWD/ca,,che/vm/repos/repo-2000-137/repo.img,format=raw," out
'

test_expect_success 'the driver options after -- are checked as the driver checks them' '
	test_expect_code 2 "$vm" -- --results=/tmp/x 2>err &&
	grep -x "latency-vm: '\''--results'\'' is latency-vm'\''s to give: see latency-vm --help" err &&
	test_expect_code 2 "$vm" -- --label x 2>err &&
	grep -x "latency-vm: '\''--label'\'' is latency-vm'\''s to give: see latency-vm --help" err &&
	test_expect_code 2 "$vm" -- --scratch=/x 2>err &&
	test_expect_code 2 "$vm" -- --config=c 2>err &&
	test_expect_code 2 "$vm" -- --gitk-runs=many 2>err &&
	grep "^latency-vm: after --: " err &&
	test_expect_code 2 "$vm" -- --no-such-driver-option 2>err &&
	grep "^latency-vm: after --: " err
'

test_expect_success 'a kernel that is not a bootable image is refused, nothing made' '
	printf "not a kernel\n" >notakernel &&
	test_expect_code 1 "$vm" --kernel=notakernel --results=res 2>err &&
	grep -x "latency-vm: --kernel=notakernel: '\''$PWD/notakernel'\'' is not a bootable x86 kernel image (no bzImage header)" err &&
	! test -e res && test -z "$(vm_runs_left)" &&
	test_expect_code 1 "$vm" --kernel=no-such-file 2>err &&
	grep -x "latency-vm: --kernel=no-such-file: no such file, and not a Debian kernel package name (linux-image-...)" err
'

test_expect_success 'the release comes from the image header' '
	fake_bzimage bzImage 9.8.7-test+ &&
	( . "$abs_top_srcdir/scripts/shell-lib.sh" &&
	  . "$abs_top_srcdir/scripts/vm-image.sh" &&
	  vm_kernel_release bzImage >release ) &&
	echo 9.8.7-test+ >expect &&
	test_cmp expect release
'

test_expect_success VM_TOOLS '--dry-run: the QEMU command line, exactly' '
	fake_bzimage bzImage 9.8.7-test &&
	"$vm" --dry-run --kernel=bzImage --memory=384M --cpus=3 --accel=tcg \
		--cmdline="zswap.enabled=1 quiet" --device=crypt-lvm \
		-- --quick --commits=5000 >out 2>err &&
	c=$LATENCY_CACHE_DIR &&
	sed -n "/^qemu-system/p" out |
		sed "s/quick-[0-9a-f]\{16\}/quick-KEY/g; s/test-[0-9a-f]\{16\}/test-KEY/g" >cmd &&
	printf "%s\n" "qemu-system-x86_64 -name latency-vm -nodefaults -no-user-config -display none -no-reboot -machine q35 -accel tcg -cpu max -smp 3 -m 384M -kernel $PWD/bzImage -initrd $c/vm/images/initrd-9.8.7-test-KEY/initrd.img -append '\''console=ttyS0,115200 panic=-1 oops=panic zswap.enabled=1 quiet'\'' -chardev file,id=console,path=RUNDIR/console.log -serial chardev:console -chardev pipe,id=control,path=RUNDIR/control -serial chardev:control -pidfile RUNDIR/qemu.pid -drive file=$c/vm/images/quick-KEY/rootfs.img,format=raw,if=none,id=root,readonly=on,cache=writeback -device virtio-blk-pci,drive=root,serial=lt-root -drive file=RUNDIR/results.img,format=raw,if=none,id=results,readonly=off,cache=writeback -device virtio-blk-pci,drive=results,serial=lt-results -drive file=RUNDIR/scratch.img,format=raw,if=none,id=scratch,readonly=off,cache=none -device virtio-blk-pci,drive=scratch,serial=lt-scratch -drive file=$c/vm/repos/repo-5000-137/repo.img,format=raw,if=none,id=repo,readonly=on,cache=writeback -device virtio-blk-pci,drive=repo,serial=lt-repo" >expect &&
	test_cmp expect cmd &&
	grep -x "# guest: latency-run-test --quick --commits=5000 --results=/mnt/results --label=9.8.7-test" out &&
	! test -e "$c/vm/images" && ! test -e "$c/repo-5000-137" &&
	! test -e results
'

test_expect_success VM_TOOLS '--dry-run: plain disks, a swap disk, KVM asked for where there is none' '
	fake_bzimage bzImage 9.8.7-test &&
	"$vm" --dry-run --kernel=bzImage --accel=tcg --disk-cache=writeback \
		--label=base >out 2>err &&
	grep -o -- "-drive file=RUNDIR/swap.img[^ ]*" out >swap &&
	echo "-drive file=RUNDIR/swap.img,format=raw,if=none,id=swap,readonly=off,cache=writeback" >expect &&
	test_cmp expect swap &&
	grep -q -- "-m 512M .* -smp 2 \|-smp 2 -m 512M" out &&
	grep -x "# guest: latency-run-test --results=/mnt/results --label=base" out &&
	LATENCY_VM_KVM=$PWD/no-kvm test_expect_code 3 "$vm" --dry-run \
		--kernel=bzImage --accel=kvm 2>err &&
	grep -x "latency-vm: --accel=kvm: $PWD/no-kvm is not usable here" err
'

test_expect_success VM_TOOLS '--accel=auto: KVM only with the virtualization of the CPU' '
	fake_bzimage bzImage 9.8.7-test &&
	: >kvm && chmod 600 kvm &&
	printf "flags\t\t: fpu vme de pse tsc msr pae\n" >cpuinfo-none &&
	printf "flags\t\t: fpu vme vmx pae\n" >cpuinfo-vmx &&
	LATENCY_VM_KVM=$PWD/kvm LATENCY_VM_CPUINFO=$PWD/cpuinfo-none \
		"$vm" --dry-run --kernel=bzImage >out 2>err &&
	grep -q -- "-accel tcg -cpu max " out &&
	grep -x "latency-vm: $PWD/kvm is there but the CPU has no vmx or svm (not hardware KVM): TCG" err &&
	LATENCY_VM_KVM=$PWD/kvm LATENCY_VM_CPUINFO=$PWD/cpuinfo-vmx \
		"$vm" --dry-run --kernel=bzImage >out 2>err &&
	grep -q -- "-accel kvm -cpu host " out &&
	! grep "not hardware KVM" err &&
	LATENCY_VM_KVM=$PWD/kvm LATENCY_VM_CPUINFO=$PWD/cpuinfo-none \
		"$vm" --dry-run --kernel=bzImage --accel=kvm >out 2>err &&
	grep -q -- "-accel kvm -cpu host " out &&
	grep -x "latency-vm: warning: --accel=kvm: the CPU has no vmx or svm; only a kernel built as a guest of this KVM (e.g. kvm_pvm) boots" err
'

test_expect_success VM_TOOLS '--dry-run: the image recipe lists what goes in, from where' '
	fake_bzimage bzImage 9.8.7-test &&
	"$vm" --dry-run --kernel=bzImage --accel=tcg >out 2>err &&
	grep -x "  exec /sbin/latency-vm-guest $abs_top_srcdir/scripts/vm-guest.sh" out &&
	grep -x "  file /opt/latency-tests/bin/fake-gitk $abs_top_builddir/fakegitk/fake-gitk" out &&
	grep -x "  file /opt/latency-tests/bin/latency-run-test $abs_top_builddir/latency-run-test" out &&
	grep -x "  file /opt/latency-tests/share/confine.sh $abs_top_srcdir/scripts/confine.sh" out &&
	grep -x "  link /usr/sbin/vgcreate lvm" out &&
	grep -x "  exec /init $abs_top_srcdir/scripts/vm-initrd.sh" out &&
	grep "^  file /lib/x86_64-linux-gnu/libgit2\.so" out &&
	! grep "^  module " out
'

test_expect_success VM_TOOLS 'the initramfs recipe: the modules of the kernel, with their dependencies, in order' '
	mkdir -p k/boot && fake_bzimage k/boot/vmlinuz-9.8.7-test 9.8.7-test &&
	m=k/lib/modules/9.8.7-test &&
	mkdir -p $m/kernel/a $m/kernel/b &&
	: >$m/kernel/a/virtio.ko && : >$m/kernel/b/virtio_blk.ko &&
	: >$m/kernel/b/dm-mod.ko && : >$m/kernel/b/dm-crypt.ko &&
	printf "%s\n" "kernel/a/virtio.ko:" \
		"kernel/b/virtio_blk.ko: kernel/a/virtio.ko" \
		"kernel/b/dm-mod.ko:" "kernel/b/dm-crypt.ko: kernel/b/dm-mod.ko" \
		>$m/modules.dep &&
	"$vm" --dry-run --kernel=k/boot/vmlinuz-9.8.7-test --accel=tcg >out 2>err &&
	sed -n "s/^  module \([^ ]*\) .*/\1/p" out >modules &&
	printf "%s\n" kernel/a/virtio.ko kernel/b/virtio_blk.ko \
		kernel/b/dm-mod.ko kernel/b/dm-crypt.ko >expect &&
	test_cmp expect modules &&
	grep -x "  module kernel/b/dm-crypt.ko $PWD/$m/kernel/b/dm-crypt.ko" out
'

test_expect_success '--build-image=kernel --print-paths: the kernel, its release and its modules' '
	mkdir -p k/boot k/lib/modules/9.8.7-test && fake_bzimage k/boot/vmlinuz-9.8.7-test 9.8.7-test &&
	"$vm" --build-image=kernel --print-paths --kernel=k/boot/vmlinuz-9.8.7-test >out 2>err &&
	printf "%s\n" "kernel=$PWD/k/boot/vmlinuz-9.8.7-test" release=9.8.7-test \
		"modules=$PWD/k/lib/modules/9.8.7-test" >expect &&
	test_cmp expect out &&
	fake_bzimage bare 1.2.3-bare &&
	"$vm" --build-image=kernel --print-paths --kernel=bare >out 2>err &&
	printf "%s\n" "kernel=$PWD/bare" release=1.2.3-bare modules= >expect &&
	test_cmp expect out &&
	! test -e "$LATENCY_CACHE_DIR/vm/kernels" && ! test -e results
'

test_expect_success VM_TOOLS 'the package image leaves no unpacked root in the cache' '
	mkdir -p mm &&
	cat >mm/mmdebstrap <<-\EOF &&
	#!/bin/sh
	# The root is the last but one argument.
	while [ $# -gt 2 ]; do shift; done
	mkdir -p "$1/boot" "$1/root" "$1/etc" &&
	echo kernel >"$1/boot/vmlinuz-9.8.7-test" &&
	echo initrd >"$1/boot/initrd.img-9.8.7-test" &&
	echo profile >"$1/root/.profile" && echo x >"$1/etc/hostname"
	EOF
	chmod +x mm/mmdebstrap && echo deb >x.deb && echo src >sources &&
	( PATH=$PWD/mm:$PATH &&
	  . "$abs_top_srcdir/scripts/shell-lib.sh" &&
	  . "$abs_top_srcdir/scripts/vm-image.sh" &&
	  . "$abs_top_srcdir/scripts/vm-package.sh" &&
	  mkdir pkg && vm_build_package x.deb sources bookworm build.log pkg ) &&
	ls pkg >files &&
	printf "%s\n" initrd.img rootfs.img vmlinuz >expect &&
	test_cmp expect files
'

test_done
