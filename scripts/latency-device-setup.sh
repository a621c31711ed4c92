#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# latency-device-setup: the 2009 disk layout for latency-tests runs.  Puts
# dm-crypt (plain mode, a random key read once from /dev/urandom, so
# nothing survives the teardown) on a whole device, LVM on top, a scratch
# logical volume with ext3 (mounted) and a swap logical volume (enabled),
# and undoes it with --teardown.  Destructive: it refuses without
# --yes-destroy naming the device, and refuses a device that is mounted,
# used as swap or held by another device; --dry-run prints every command
# and runs none.  See latency-device-setup(1).
#
# Environment (defaults in brackets):
#   LATENCY_TESTS_DATADIR  where shell-lib.sh is [next to this script, else
#                       @pkgdatadir@]
#   LATENCY_PROC        the proc filesystem [/proc]
#   LATENCY_SYS         the sysfs filesystem [/sys]
# (whether the kernel has device-mapper is read from both)
set -eu

: "${LATENCY_PROC:=/proc}"
: "${LATENCY_SYS:=/sys}"

version='@VERSION@'
here=$(cd "$(dirname "$0")" && pwd)

# The helpers shared with latency-run-test: LATENCY_TESTS_DATADIR, else
# beside this script in the source tree, else where make install put them
# (the path substituted at build time).
for datadir in "${LATENCY_TESTS_DATADIR:-}" "$here" '@pkgdatadir@'; do
	[ -f "$datadir/shell-lib.sh" ] && break
done
if ! [ -f "$datadir/shell-lib.sh" ]; then
	printf '%s: cannot find shell-lib.sh (set LATENCY_TESTS_DATADIR)\n' \
		"${0##*/}" >&2
	exit 1
fi
# shellcheck source=scripts/shell-lib.sh
. "$datadir/shell-lib.sh"

# shellcheck disable=SC2154 # prog is set by shell-lib.sh (checked with -x)
usage() {
	print_stdout <<EOF
Usage: $prog [OPTION]... --yes-destroy=DEVICE DEVICE
  or:  $prog [OPTION]... --teardown
Set up the 2009 test disk on DEVICE, destroying its contents: dm-crypt with
a throw-away random key, LVM on top, an ext3 scratch volume mounted at the
mount point and a swap volume enabled.  --teardown undoes it.

  --yes-destroy=DEVICE  confirm that DEVICE may be overwritten (required;
                        must name the same DEVICE)
  --dry-run             print every command instead of running it
  --teardown            swap off, unmount, deactivate the volumes and close
                        the dm-crypt mapping
  --scratch-size=SIZE   size of the ext3 scratch volume (default 5G)
  --swap-size=SIZE      size of the swap volume (default 2G)
  --mount=DIR           where the scratch volume is mounted (default
                        /mnt/latency-scratch)
  --name=NAME           volume group name; the mapping is NAME-crypt
                        (default latency)
  -h, --help            display this help and exit
  -V, --version         output version information and exit

Sizes take binary suffixes (512M, 5G).  Then run:
  latency-run-test --scratch=DIR --swap=/dev/NAME/swap ...
Exit status: 0 done, 1 a command failed or the device is in use, 2 usage
error, 3 device-mapper or a tool is missing here.
EOF
	exit 0
}

check_size() {
	case $2 in
	[1-9]*[kMGT] | [1-9]*) ;;
	*) usage_error "invalid value '$2' for --$1 (expected a size such as 5G)" ;;
	esac
	case ${2%[kMGT]} in
	*[!0-9]*) usage_error "invalid value '$2' for --$1 (expected a size such as 5G)" ;;
	esac
}

# LVM spells binary sizes with capital letters only.
lvm_size() {
	case $1 in
	*k) echo "${1%k}K" ;;
	*[MGT]) echo "$1" ;;
	*) echo "${1}B" ;;
	esac
}

# run CMD...: print it (always, so the log shows what was done) and run it
# unless --dry-run.
run() {
	printf '+ %s\n' "$*"
	[ "$dry_run" = yes ] && return 0
	"$@" || die "command failed: $*"
}

need_tools() {
	_missing=
	for _t in "$@"; do
		command -v "$_t" >/dev/null 2>&1 || _missing="$_missing $_t"
	done
	[ -z "$_missing" ] && return 0
	if [ "$dry_run" = yes ]; then
		echo "$prog: note: not installed here:$_missing (cryptsetup, lvm2)" >&2
		return 0
	fi
	die_unsupported "missing tool(s):$_missing (install cryptsetup and lvm2)"
}

# has_device_mapper: the kernel's own word.  A /dev/mapper/control node
# says nothing: installing lvm2 or cryptsetup makes one on a kernel
# without device-mapper, and cryptsetup then fails half-way.
has_device_mapper() {
	[ -e "$LATENCY_SYS/class/misc/device-mapper" ] ||
		grep -qs '^ *[0-9][0-9]* device-mapper$' "$LATENCY_PROC/misc"
}

need_device_mapper() {
	has_device_mapper && return 0
	if [ "$dry_run" = yes ]; then
		echo "$prog: note: device-mapper is not available here (the kernel has none: no $LATENCY_SYS/class/misc/device-mapper)" >&2
		return 0
	fi
	die_unsupported "device-mapper is not available here (the kernel has none: no $LATENCY_SYS/class/misc/device-mapper; load the dm_mod module)"
}

# check_unused DEVICE: refuse a device that is mounted, swapped on or held
# (by dm, md or a partition that is in use).
check_unused() {
	_real=$(readlink -f "$1")
	_base=${_real##*/}
	if grep -q "^${_real}[0-9p]*[[:space:]]" "$LATENCY_PROC/mounts"; then
		die "refusing $1: it (or a partition of it) is mounted"
	fi
	if grep -q "^${_real}[0-9p]*[[:space:]]" "$LATENCY_PROC/swaps"; then
		die "refusing $1: it (or a partition of it) is used as swap"
	fi
	for _h in "$LATENCY_SYS/class/block/$_base/holders"/* \
		"$LATENCY_SYS/class/block/$_base"/"$_base"*/holders/*; do
		[ -e "$_h" ] || continue
		die "refusing $1: it is in use by ${_h##*/}"
	done
}

setup() {
	[ -b "$device" ] || die "refusing $device: not a block device"
	check_unused "$device"
	need_device_mapper
	need_tools cryptsetup pvcreate vgcreate lvcreate mkfs.ext3 mkswap \
		swapon mount
	run cryptsetup open --type plain --cipher aes-xts-plain64 \
		--key-size 512 --key-file /dev/urandom --keyfile-size 64 \
		"$device" "$name-crypt"
	run pvcreate -q "/dev/mapper/$name-crypt"
	run vgcreate -q "$name" "/dev/mapper/$name-crypt"
	run lvcreate -q -y -L "$(lvm_size "$scratch_size")" -n scratch "$name"
	run lvcreate -q -y -L "$(lvm_size "$swap_size")" -n swap "$name"
	run mkfs.ext3 -q "/dev/$name/scratch"
	run mkswap -q "/dev/$name/swap"
	run mkdir -p "$mount"
	run mount "/dev/$name/scratch" "$mount"
	run swapon "/dev/$name/swap"
	[ "$dry_run" = yes ] || describe >"$mount/latency-device.json" ||
		die "cannot write $mount/latency-device.json"
	echo "# ready: latency-run-test --scratch=$mount --swap=/dev/$name/swap"
}

# describe: the stack as JSON, for the results made on it (latency-run-test
# --scratch=MOUNT copies it into the result as device.json).
describe() {
	printf '{\n  "stack": "crypt-lvm",\n  "cipher": "aes-xts-plain64",\n'
	printf '  "key_bits": 512,\n  "key": "random, thrown away",\n'
	printf '  "lv": %s,\n' "$(json_string "$name/scratch")"
	printf '  "swap_lv": %s,\n' "$(json_string "$name/swap")"
	printf '  "fs": "ext3",\n  "device": %s,\n' "$(json_string "$device")"
	printf '  "scratch_size": %s,\n' "$(json_string "$scratch_size")"
	printf '  "swap_size": %s,\n' "$(json_string "$swap_size")"
	printf '  "mount": %s\n}\n' "$(json_string "$mount")"
}

# swap_active DEV: is DEV (a link such as /dev/VG/LV, named in /proc/swaps
# by what it resolves to, /dev/dm-N) a swap area in use?
swap_active() {
	_dev=$(readlink -f "$1") || return 1
	awk -v d="$_dev" -v l="$1" 'NR > 1 && ($1 == d || $1 == l) { f = 1 }
		END { exit !f }' /proc/swaps
}

teardown() {
	need_device_mapper
	need_tools cryptsetup vgchange swapoff umount
	# The run on the volume may have turned its swap off already (the
	# driver's own restore undoes the swapon it recorded): off is off.
	if [ "$dry_run" = yes ] || swap_active "/dev/$name/swap"; then
		run swapoff "/dev/$name/swap"
	else
		printf '# %s is not swap any more: nothing to turn off\n' \
			"/dev/$name/swap"
	fi
	run umount "$mount"
	run vgchange -q -an "$name"
	run cryptsetup close "$name-crypt"
}

main() {
	dry_run=no
	mode=setup
	confirm=
	device=
	scratch_size=5G
	swap_size=2G
	mount=/mnt/latency-scratch
	name=latency
	while [ $# -gt 0 ]; do
		_o=$1
		shift
		case $_o in
		--*=*)
			_n=${_o%%=*}
			_v=${_o#*=}
			;;
		--yes-destroy | --scratch-size | --swap-size | --mount | --name)
			[ $# -gt 0 ] || usage_error "option '$_o' requires an argument"
			_n=$_o
			_v=$1
			shift
			;;
		*)
			_n=$_o
			_v=
			;;
		esac
		case $_n in
		-h | --help) usage ;;
		-V | --version) show_version "$version" "$here/.." ;;
		--dry-run) dry_run=yes ;;
		--teardown) mode=teardown ;;
		--yes-destroy) confirm=$_v ;;
		--scratch-size) check_size scratch-size "$_v"; scratch_size=$_v ;;
		--swap-size) check_size swap-size "$_v"; swap_size=$_v ;;
		--mount) mount=$_v ;;
		--name)
			case $_v in
			'' | *[!A-Za-z0-9_]*) usage_error "invalid value '$_v' for --name (letters, digits, _)" ;;
			esac
			name=$_v
			;;
		-*) usage_error "unrecognized option '$_n'" ;;
		*)
			[ -z "$device" ] || usage_error "unexpected argument '$_n'"
			device=$_n
			;;
		esac
	done
	case $mount in
	/*) ;;
	*) usage_error "invalid value '$mount' for --mount (expected an absolute path)" ;;
	esac
	if [ "$mode" = teardown ]; then
		[ -z "$device" ] || usage_error "--teardown takes no DEVICE"
		teardown
		return 0
	fi
	[ -n "$device" ] || usage_error "no DEVICE given"
	[ -n "$confirm" ] ||
		usage_error "refusing to destroy $device without --yes-destroy=$device"
	[ "$confirm" = "$device" ] ||
		usage_error "--yes-destroy names '$confirm', not '$device'"
	setup
}

main "$@"
