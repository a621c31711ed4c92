# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# lib-vm.sh: what the latency-vm tests share (sourced after test-lib.sh).
# Each test has its own cache (kernels, images, repositories) in its
# trash directory; a test that boots a real kernel takes it from
# LATENCY_VM_TEST_KERNEL (a bzImage beside its lib/modules, as latency-vm
# unpacks a package: latency-vm --build-image=quick --print-paths), never
# from the network.

vm=$abs_top_builddir/vm/latency-vm
LATENCY_CACHE_DIR=$TRASH_DIRECTORY/cache
export LATENCY_CACHE_DIR

# The tools of the quick image (what latency-vm would install as root).
if command -v qemu-system-x86_64 >/dev/null 2>&1; then
	test_set_prereq QEMU
fi
_vm_tools=yes
for _t in busybox cryptsetup lvm dmsetup mke2fs debugfs e2fsck mkswap kmod \
	cpio dash; do
	[ -x "/usr/sbin/$_t" ] || [ -x "/sbin/$_t" ] || [ -x "/usr/bin/$_t" ] ||
		[ -x "/bin/$_t" ] || _vm_tools=no
done
[ $_vm_tools = no ] || test_set_prereq VM_TOOLS
if [ -n "${LATENCY_VM_TEST_KERNEL:-}" ] && [ -f "$LATENCY_VM_TEST_KERNEL" ]; then
	test_set_prereq VM_KERNEL
fi

# vm_need_qemu: skip the whole script without QEMU or the image's tools.
vm_need_qemu() {
	test_have_prereq QEMU ||
		test_skip_all 'qemu-system-x86_64 is not installed (package qemu-system-x86)'
	test_have_prereq VM_TOOLS ||
		test_skip_all 'the quick image tools are not installed (busybox-static cryptsetup-bin lvm2 dmsetup e2fsprogs kmod cpio dash)'
}

# fake_bzimage FILE RELEASE: a kernel image in the x86 boot protocol
# (version 2.03, RELEASE in its header) whose setup code is one
# instruction, a jump to itself: QEMU loads it and the guest loops for
# ever, saying nothing.
fake_bzimage() {
	head -c 2048 /dev/zero >"$1"
	fake_put "$1" 497 '\001'		# setup_sects
	fake_put "$1" 510 '\125\252'		# boot flag 0xaa55
	fake_put "$1" 512 '\353\376'		# setup entry: jmp $
	fake_put "$1" 514 'HdrS'
	fake_put "$1" 518 '\003\002'		# protocol 2.03
	fake_put "$1" 526 '\000\001'		# kernel_version at 0x300
	fake_put "$1" 529 '\001'		# loadflags: LOADED_HIGH
	fake_put "$1" 556 '\377\377\377\067'	# initrd_addr_max
	fake_put "$1" 768 "$2 (test@localhost) #1\\000"
}

# fake_say_bzimage FILE RELEASE LINE: the same, but its setup code first
# writes LINE (printf escapes, at most 125 bytes) to the first serial port
# (COM1, 0x3f8), then loops.  At 0x200 a short jump over the 2.03 header
# to 0x258 (file offset 600): push cs; pop ds; mov si, 0x80 (the line, at
# file offset 640); mov dx, 0x3f8; then lodsb, test al, al, jz +3, out
# dx, al, jmp back to lodsb; jmp $.
fake_say_bzimage() {
	fake_bzimage "$1" "$2"
	fake_put "$1" 512 '\353\126'		# jmp 0x258
	fake_put "$1" 600 '\016\037\276\200\000\272\370\003\254\204\300\164\003\356\353\370\353\376'
	fake_put "$1" 640 "$3\\r\\n\\000"
}

# fake_panic_bzimage FILE RELEASE LINE: says LINE, then resets the
# machine as a panicking kernel with panic=-1 does (QEMU, -no-reboot,
# exits): at 616, where the loop ends, lidt [0x200] (six zero bytes at
# file offset 1024: an empty interrupt table) and int3, a triple fault.
fake_panic_bzimage() {
	fake_say_bzimage "$1" "$2" "$3"
	fake_put "$1" 616 '\017\001\036\000\002\314'
}

# fake_lockup_bzimage FILE RELEASE SECONDS: a guest that says a CPU is
# stuck ("CPU#0 stuck for SECONDS"), as the soft lockup watchdog does.
fake_lockup_bzimage() {
	fake_say_bzimage "$1" "$2" "watchdog: BUG: soft lockup - CPU#0 stuck for $3s! [fake:1]"
}

fake_put() {
	# shellcheck disable=SC2059 # the bytes are printf escapes
	printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# vm_wait_qemu: wait (up to 60 s) for a latency-vm run's QEMU to start;
# its pid in qpid.
vm_wait_qemu() {
	_n=0
	while ! test -s "$(ls "$LATENCY_CACHE_DIR"/vm/run.*/qemu.pid 2>/dev/null | head -n 1)" &&
		[ $_n -lt 600 ]; do
		sleep 0.1
		_n=$((_n + 1))
	done
	qpid=$(cat "$LATENCY_CACHE_DIR"/vm/run.*/qemu.pid) && kill -0 "$qpid"
}

# vm_runs_left: the run directories latency-vm left in the cache.
vm_runs_left() {
	ls -d "$LATENCY_CACHE_DIR"/vm/run.* 2>/dev/null
}

# fake_guest_qemu FILE TREE: a stand-in for QEMU (LATENCY_VM_QEMU=FILE)
# that does what a hostile guest could: it writes TREE (a directory,
# its links, modes, owners and holes as they are) as the whole content of
# the results disk (the -drive of id=results), says it started on the
# console (then writes the file FAKE_CONSOLE there) and exits, as a
# guest that powers off.  FAKE_GUEST_WAIT=yes: it waits for a signal
# first (a guest still running); FAKE_GUEST_DISK=garbage: it makes the
# disk one MiB of bytes that are no file system instead;
# FAKE_GUEST_DEBUGFS=REQUEST: debugfs -w runs REQUEST on the disk after
# (an inode no mke2fs makes).
fake_guest_qemu() {
	cat >"$1" <<-EOF2
	#!/bin/sh
	[ "\$1" != --version ] || { echo "QEMU emulator version 9.9.9 (fake)"; exit 0; }
	# QEMU quits on SIGINT whatever it inherited (its own handler); a
	# shell started in the background cannot trap an ignored signal.
	[ -n "\${FAKE_QEMU_REEXEC:-}" ] ||
		FAKE_QEMU_REEXEC=1 exec env --default-signal=INT "\$0" "\$@"
	for a; do
		case \$a in
		file,id=console,path=*) console=\${a#file,id=console,path=} ;;
		file=*,id=results,*)
			img=\$(printf '%s' "\${a#file=}" | sed 's/,format=raw,.*//; s/,,/,/g') ;;
		esac
	done
	echo \$\$ >"\${console%/*}/qemu.pid"
	echo "latency-vm-guest: started" >"\$console"
	[ -z "\${FAKE_CONSOLE:-}" ] || cat "\$FAKE_CONSOLE" >>"\$console"
	if [ "\${FAKE_GUEST_DISK:-}" = garbage ]; then
		head -c 1048576 /dev/zero | tr "\\0" x | dd of="\$img" status=none
	else
		mke2fs -q -F -t ext4 -d "$2" "\$img" >/dev/null 2>&1 || exit 1
	fi
	[ -z "\${FAKE_GUEST_DEBUGFS:-}" ] ||
		debugfs -w -R "\$FAKE_GUEST_DEBUGFS" "\$img" >/dev/null 2>&1
	[ -z "\${FAKE_GUEST_DEBUGFS_FILE:-}" ] ||
		debugfs -w -f "\$FAKE_GUEST_DEBUGFS_FILE" "\$img" >/dev/null 2>&1
	if [ "\${FAKE_GUEST_WAIT:-}" = yes ]; then
		# FAKE_GUEST_TERM_MARK: a file that says it was TERM that ended it.
		trap '[ -z "\${FAKE_GUEST_TERM_MARK:-}" ] || echo term >"\$FAKE_GUEST_TERM_MARK"; exit 0' TERM
		trap '[ -z "\${FAKE_GUEST_TERM_MARK:-}" ] || echo int >"\$FAKE_GUEST_TERM_MARK"; exit 1' INT
		while :; do sleep 1; done
	fi
	EOF2
	chmod +x "$1"
}
