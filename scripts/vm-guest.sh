#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-guest.sh: latency-vm's guest side, PID 1 of the quick image (installed
# there as /sbin/latency-vm-guest).  Mounts what a Linux system needs, reads
# the job latency-vm left on the results disk (.latency-vm/job, one
# name=value a line, and .latency-vm/args, the run-test.sh arguments one
# a line), prepares the scratch and swap (a plain ext4 disk and a swap
# disk, or latency-device-setup's crypted LVM on the scratch disk), runs
# latency-run-test into the results disk, undoes and checks the device
# stack, writes .latency-vm/status and powers off.  The disks are found
# by their serial numbers (lt-results, lt-repo, lt-scratch, lt-swap).
# A line "stop" on the second serial port (latency-vm's SIGINT/SIGTERM)
# stops the run with SIGTERM: run-test.sh then keeps a partial result.
# Lines starting "latency-vm-guest: " on the console are for latency-vm.
PATH=/opt/latency-tests/bin:/sbin:/usr/sbin:/bin:/usr/bin
HOME=/root
LATENCY_TESTS_BINDIR=/opt/latency-tests/bin
LATENCY_TESTS_DATADIR=/opt/latency-tests/share
# No gnuplot in the quick image: the series and scripts, no pictures.
LATENCY_GNUPLOT=
# The root is read-only; every boot starts with an empty record.
LATENCY_STATE_DIR=/run/latency-tests
export PATH HOME LATENCY_TESTS_BINDIR LATENCY_TESTS_DATADIR LATENCY_GNUPLOT \
	LATENCY_STATE_DIR
umask 022

say() {
	echo "latency-vm-guest: $*"
}

job=/mnt/results/.latency-vm
results_mounted=

# finish STATUS [MESSAGE]: the status for latency-vm, then power off (PID 1
# must never exit: that would be a panic).
finish() {
	[ -z "${2:-}" ] || say "error: $2"
	if [ -n "$results_mounted" ]; then
		{
			echo "exit=$1"
			[ -z "${2:-}" ] || echo "error=$2"
		} >"$job/status"
		sync
		umount /mnt/results || say "error: cannot unmount the results disk"
	fi
	say "done exit=$1"
	poweroff -f
	sleep 60
}

# disk SERIAL: the virtio disk with that serial number.
disk() {
	for _b in /sys/block/vd*; do
		[ -f "$_b/serial" ] || continue
		if [ "$(cat "$_b/serial")" = "$1" ]; then
			echo "/dev/${_b##*/}"
			return 0
		fi
	done
	return 1
}

mount_system() {
	[ -e /proc/self ] || mount -t proc proc /proc
	[ -e /sys/kernel ] || mount -t sysfs sysfs /sys
	[ -e /dev/null ] || mount -t devtmpfs devtmpfs /dev
	mkdir -p /dev/pts /dev/shm
	mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts /dev/pts
	mount -t tmpfs -o mode=1777 shm /dev/shm
	ln -sf /proc/self/fd /dev/fd
	ln -sf /proc/self/fd/0 /dev/stdin
	ln -sf /proc/self/fd/1 /dev/stdout
	ln -sf /proc/self/fd/2 /dev/stderr
	mount -t tmpfs -o mode=0755 run /run
	mount -t tmpfs -o mode=1777 tmp /tmp
	mount -t tmpfs -o mode=0700 root /root
	mkdir -p /run/lock/lvm /run/lvm /run/lvm-etc /tmp/var
	# LVM and device-mapper without udev make their own device nodes,
	# keep no backups on the read-only root.
	printf '%s\n' 'backup {' 'backup = 0' 'archive = 0' '}' \
		>/run/lvm-etc/lvm.conf
	if ! mount -t cgroup2 cgroup2 /sys/fs/cgroup ||
		! echo +memory >/sys/fs/cgroup/cgroup.subtree_control; then
		say "no memory cgroup controller"
	fi
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	hostname latency-vm
	ip link set lo up
}
LVM_SYSTEM_DIR=/run/lvm-etc
DM_DISABLE_UDEV=1
export LVM_SYSTEM_DIR DM_DISABLE_UDEV

# read_job: label, device, scratch_size, swap_size, and the arguments.
read_job() {
	label='' device=plain scratch_size='' swap_size='' thp=''
	while IFS= read -r _l; do
		case $_l in
		label=*) label=${_l#label=} ;;
		device=*) device=${_l#device=} ;;
		scratch_size=*) scratch_size=${_l#scratch_size=} ;;
		swap_size=*) swap_size=${_l#swap_size=} ;;
		thp=*) thp=${_l#thp=} ;;
		esac
	done <"$job/job"
	[ -n "$label" ] || finish 1 "the job names no label"
}

# prepare_disks: scratch, swap and cache; sets scratch_dir, swap_dev and
# the arguments run-test.sh gets for them.
prepare_disks() {
	_scratch=$(disk lt-scratch) || finish 1 "no scratch disk"
	case $device in
	plain)
		mkdir -p /mnt/scratch
		mount -t ext4 "$_scratch" /mnt/scratch ||
			finish 1 "cannot mount the scratch disk $_scratch"
		scratch_dir=/mnt/scratch
		swap_dev=$(disk lt-swap) || finish 1 "no swap disk"
		mkswap -q "$swap_dev" >/dev/null || mkswap "$swap_dev" >/dev/null ||
			finish 1 "cannot make swap on $swap_dev"
		;;
	crypt-lvm)
		say "latency-device-setup on $_scratch"
		latency-device-setup --yes-destroy="$_scratch" \
			--scratch-size="$scratch_size" --swap-size="$swap_size" \
			"$_scratch" || finish 1 "latency-device-setup failed on $_scratch"
		scratch_dir=/mnt/latency-scratch
		swap_dev=/dev/latency/swap
		# The swap latency-device-setup enabled is run-test.sh's to
		# turn on and off.
		swapoff "$swap_dev" || finish 1 "cannot turn off $swap_dev"
		;;
	*) finish 1 "unknown device stack '$device'" ;;
	esac
	LATENCY_CACHE_DIR=$scratch_dir/cache
	export LATENCY_CACHE_DIR
	mkdir -p "$LATENCY_CACHE_DIR" || finish 1 "cannot create $LATENCY_CACHE_DIR"
}

# teardown_check: undo the crypted LVM and check that nothing is left.
teardown_check() {
	[ "$device" = crypt-lvm ] || return 0
	latency-device-setup --teardown || return 1
	_left=
	for _d in /sys/block/dm-*; do
		[ -e "$_d" ] && _left="$_left ${_d##*/}"
	done
	grep -q '^/dev/' /proc/swaps && _left="$_left swap"
	grep -q ' /mnt/latency-scratch ' /proc/mounts && _left="$_left mount"
	if [ -n "$_left" ]; then
		say "teardown left:$_left"
		return 1
	fi
	echo "device: teardown checked: no device-mapper device, no swap, nothing mounted left" \
		>>"/mnt/results/$label/notes"
}

# thp_on: below 512 MiB of RAM the kernel starts with transparent huge
# pages off (enabled, defrag, khugepaged's defrag and the zero page all
# cleared); set back the modes it has on larger machines (the job's
# enabled mode, the kernel's defaults for the rest), said in the notes.
thp_on() {
	_t=/sys/kernel/mm/transparent_hugepage
	[ -n "$thp" ] && [ "$thp" != never ] && [ -w "$_t/enabled" ] || return 0
	grep -q '\[never\]' "$_t/enabled" || return 0
	grep -q '\[never\]' "$_t/defrag" || return 0
	if ! echo "$thp" >"$_t/enabled" || ! echo madvise >"$_t/defrag" ||
		! echo 1 >"$_t/khugepaged/defrag" ||
		! echo 1 >"$_t/use_zero_page"; then
		finish 1 "cannot set transparent huge pages to $thp"
	fi
	thp_note="vm: the kernel turned transparent huge pages off below 512 MiB of RAM; the guest set enabled=$thp defrag=madvise khugepaged/defrag=1 use_zero_page=1, its defaults on larger machines"
	say "transparent huge pages: enabled=$thp"
}

# The second serial port: latency-vm asks for a stop there.
listen_stop() {
	stty -F /dev/ttyS1 -echo raw 2>/dev/null
	while IFS= read -r _c; do
		case $_c in
		stop*)
			say "stop asked: SIGTERM to run-test.sh"
			kill -TERM "$1"
			;;
		esac
	done </dev/ttyS1
}

main() {
	mount_system
	say "started $(uname -r)"
	_res=$(disk lt-results) || finish 1 "no results disk"
	mount -t ext4 "$_res" /mnt/results ||
		finish 1 "cannot mount the results disk $_res"
	results_mounted=yes
	read_job
	set --
	while IFS= read -r _a; do
		set -- "$@" "$_a"
	done <"$job/args"
	if _repo=$(disk lt-repo); then
		mount -t ext4 -o ro "$_repo" /mnt/repo ||
			finish 1 "cannot mount the repository disk $_repo"
		set -- "$@" --repo=/mnt/repo/repo
	fi
	prepare_disks
	thp_note=
	thp_on
	set -- "$@" --scratch="$scratch_dir" --swap="$swap_dev" \
		--results=/mnt/results --label="$label"
	if [ -f "$job/setup" ]; then
		say "setup script"
		setsid sh "$job/setup" >"$job/setup.log" 2>&1 </dev/null ||
			finish 1 "the setup script failed (see setup.log)"
	fi
	say "suite starting: latency-run-test $*"
	latency-run-test "$@" </dev/null &
	_pid=$!
	listen_stop "$_pid" &
	_listener=$!
	wait "$_pid"
	_st=$?
	kill "$_listener" 2>/dev/null
	say "run-test.sh exit $_st"
	if [ -d "/mnt/results/$label" ]; then
		[ ! -f "$job/setup.log" ] ||
			cp "$job/setup.log" "/mnt/results/$label/setup.log"
		[ -z "$thp_note" ] ||
			echo "$thp_note" >>"/mnt/results/$label/notes"
	fi
	if ! teardown_check; then
		[ "$_st" != 0 ] || _st=1
		finish "$_st" "the device teardown failed"
	fi
	finish "$_st"
}

main "$@"
