#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# latency-vm: boots the kernel under test in QEMU (KVM where /dev/kvm is
# usable, TCG otherwise) with the 2009 machine's memory, runs
# latency-run-test inside on virtio disks backed by files (scratch, swap,
# the repository made once on the host and shared read-only, and a results
# disk), and brings the guest's result directory back as RESULTS/LABEL,
# with the VM it ran in recorded (vm.json, result.json's "vm").  Also
# builds the image a LAVA job boots (--build-image=package).  It
# orchestrates only: the workloads, the monitors and the arithmetic are
# the suite's programs, run inside the guest.  See latency-vm(1).
#
# Environment (defaults in brackets):
#   LATENCY_TESTS_BINDIR   where the suite's programs are [the built tree
#                          next to this script, else @bindir@, else PATH]
#   LATENCY_TESTS_DATADIR  where the helpers (scripts/*.sh) are [scripts/
#                          in the source tree, else @pkgdatadir@]
#   LATENCY_CACHE_DIR      kernels, images and the repository
#                          [${XDG_CACHE_HOME:-$HOME/.cache}/latency-tests]
#   LATENCY_VM_QEMU        the QEMU program [qemu-system-x86_64]
#   LATENCY_VM_KVM         the KVM device [/dev/kvm]
#   LATENCY_VM_CPUINFO     where --accel=auto looks for vmx or svm
#                          [/proc/cpuinfo]
#   LATENCY_VM_STOP_GRACE  seconds a stopped guest gets to write its
#                          partial result before QEMU is killed [60]
#   LATENCY_VM_RESULT_BYTES, LATENCY_VM_RESULT_FILES  the caps of what
#                          comes back from the guest's results disk
#                          [268435456 bytes, 10000 files]
#   LATENCY_VM_APT_SOURCES the apt sources of the package image
#                          [/etc/apt/sources.list.d/debian.sources, else
#                          /etc/apt/sources.list]
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
version='@VERSION@'
builtin_bindir='@bindir@'

for datadir in "${LATENCY_TESTS_DATADIR:-}" "$top/scripts" '@pkgdatadir@'; do
	[ -f "$datadir/vm-image.sh" ] && break
done
if ! [ -f "$datadir/vm-image.sh" ]; then
	printf '%s: cannot find the helpers shell-lib.sh, vm-image.sh, ... (set LATENCY_TESTS_DATADIR)\n' \
		"${0##*/}" >&2
	exit 1
fi
# shellcheck source=scripts/shell-lib.sh
. "$datadir/shell-lib.sh"
# shellcheck source=scripts/vm-image.sh
. "$datadir/vm-image.sh"
# shellcheck source=scripts/vm-package.sh
. "$datadir/vm-package.sh"
# shellcheck source=scripts/vm-results.sh
. "$datadir/vm-results.sh"

# shellcheck disable=SC2154 # prog is set by shell-lib.sh (checked with -x)
usage() {
	print_stdout <<EOF
Usage: $prog [OPTION]... [-- RUN-TEST-OPTION...]
  or:  $prog --build-image=quick|package|kernel [--print-paths] [OPTION]...
Boot a kernel under QEMU with the 2009 machine's memory, run
latency-run-test inside with the options after --, and write the guest's
result to RESULTS/LABEL like any other result.

The guest:
  --kernel=IMAGE|PACKAGE  the kernel: a bzImage file, or a Debian kernel
                       package fetched with apt-get download into the
                       cache and never installed (default linux-image-amd64);
                       given twice, the two kernels are booted in turn
  --modules=DIR        the module tree of an IMAGE (lib/modules/RELEASE;
                       default: the one beside an unpacked package's image)
  --memory=SIZE        the guest's memory (default 512M, the 2009 mem=512M)
  --cpus=N             virtual CPUs (default 2)
  --cmdline=ARGS       more kernel command line (e.g. zswap.enabled=1)
  --accel=auto|kvm|tcg  KVM where /dev/kvm is usable, else TCG (default auto)
  --device=plain|crypt-lvm  the scratch and swap: a plain ext4 disk and a
                       swap disk, or latency-device-setup's crypted LVM on
                       the scratch disk (default plain)
  --disk-size=SIZE     the scratch disk (default 4G, a sparse file)
  --swap-size=SIZE     the swap (default 1G)
  --disk-cache=MODE    QEMU's cache mode of the scratch and swap disks:
                       none (the host's disk) or writeback (its page
                       cache) (default none)
  --setup=SCRIPT       a shell script the guest runs before the run
  --timeout=DURATION   stop a run that has not finished (default 120m)
  --boot-timeout=DURATION  stop a guest that has not reached the suite
                       (default 5m)
  --lockup-timeout=DURATION  stop a guest whose kernel reports a CPU
                       stuck (soft lockup) for this long (default 5m)

Results:
  --results=DIR        results go to DIR/LABEL, or DIR/LABEL-2, ... so
                       nothing is overwritten (default: ./results)
  --label=LABEL        name of the run (default: the guest kernel's release)

Two kernels booted in turn (a second --kernel):
  --pairs=N            boot each kernel N times, a pair of boots at a
                       time, each pair in the order AB or BA (default 5)
  --order-seed=N       the seed of that order (default 137)
  --label=A,B          the two labels (LABEL alone: LABEL-a, LABEL-b;
                       default: the kernels' releases)
  --series-boot=...    what latency-vm gives each boot of a series (not by
                       hand)

Images:
  --build-image=KIND   build the quick image or the package image (a
                       Debian root with the suite's .deb, for LAVA), or
                       fetch the --kernel into the cache (kernel), and exit
  --print-paths        with --build-image: print kernel=, initrd=,
                       rootfs= and cmdline= lines (kernel: kernel=,
                       release= and modules=)
  --deb=FILE           the .deb for the package image (default: built from
                       this checkout with dpkg-buildpackage)
  --dry-run            print the image recipe and the QEMU command line;
                       build and boot nothing
  -v, --verbose        copy the guest's console to stderr
  -h, --help           display this help and exit
  -V, --version        output version information and exit

After --: latency-run-test's options (e.g. --quick, --seqbench=ARGS,
--commits=N, --seed=N, --repo=PATH of the host), but not --results,
--label, --scratch, --config, --print-config or --restore, which are
latency-vm's; the guest adds --repo, --scratch and --swap for its disks.

Sizes take binary suffixes (512M, 4G); durations take s and m.  Exit
status: the guest's latency-run-test's (0 complete, 1 failed, 3
unsupported), 1 when the guest did not boot, panicked or timed out (the
console log is kept in the result), 2 usage error, 3 QEMU or a tool is
missing here, 128+N stopped by signal N (the result is kept, partial).
With two kernels: 0 when every boot's run completed, else the first
failed boot's status, 128+N when stopped by signal N (no more boots).
EOF
	exit 0
}

# --- options -------------------------------------------------------------------
opt_kernel=linux-image-amd64 opt_modules='' opt_memory=512M opt_cpus=2
opt_cmdline='' opt_accel=auto opt_device=plain opt_disk_size=4G
opt_swap_size=1G opt_disk_cache=none opt_setup='' opt_timeout=120m
opt_boot_timeout=5m opt_lockup_timeout=5m opt_results=results opt_label='' opt_build_image=''
opt_print_paths=no opt_deb='' opt_dry_run=no opt_verbose=no
opt_kernel_b='' opt_pairs='' opt_order_seed='' opt_series_boot=''
kernels=0 common_args=''

# size_bytes OPTION VALUE: VALUE (binary suffixes) in bytes, or a usage
# error; at most 16T (the largest file ext4 holds; a shell number could
# not hold much more).
size_bytes() {
	_n=${2%[kKMGT]}
	case $_n in
	'' | *[!0-9]* | 0*) usage_error "invalid value '$2' for --$1 (expected a size such as 512M)" ;;
	esac
	# The unit and the most of it below 16T, compared before multiplying.
	case $2 in
	*[kK]) set -- "$1" "$2" 1024 17179869184 ;;
	*M) set -- "$1" "$2" 1048576 16777216 ;;
	*G) set -- "$1" "$2" 1073741824 16384 ;;
	*T) set -- "$1" "$2" 1099511627776 16 ;;
	*) set -- "$1" "$2" 1 17592186044416 ;;
	esac
	case $_n in
	???????????????*) false ;;
	*) [ "$_n" -le "$4" ] ;;
	esac || usage_error "invalid value '$2' for --$1 (at most 16T)"
	echo $((_n * $3))
}

# seconds OPTION VALUE: a duration (s, m) in seconds, or a usage error.
seconds() {
	_n=${2%[sm]}
	case $_n in
	'' | *[!0-9]* | 0*) usage_error "invalid value '$2' for --$1 (expected a duration such as 90s or 5m)" ;;
	????????*) usage_error "invalid value '$2' for --$1 (at most 9999999s or 9999999m)" ;;
	esac
	case $2 in
	*m) echo $((_n * 60)) ;;
	*) echo "$_n" ;;
	esac
}

parse_options() {
	while [ $# -gt 0 ]; do
		_o=$1
		shift
		case $_o in
		--) break ;;
		--*=*) _n=${_o%%=*} _v=${_o#*=} ;;
		--kernel | --modules | --memory | --cpus | --cmdline | --accel | \
			--device | --disk-size | --swap-size | --disk-cache | \
			--setup | --timeout | --boot-timeout | --lockup-timeout | \
			--results | --label | --pairs | --order-seed | \
			--series-boot | --build-image | --deb)
			[ $# -gt 0 ] || usage_error "option '$_o' requires an argument"
			_n=$_o _v=$1
			shift
			;;
		*) _n=$_o _v= ;;
		esac
		# What each boot of a series is given again (not the series').
		case $_n in
		--kernel | --label | --pairs | --order-seed | --series-boot | \
			--dry-run | -h | --help | -V | --version) ;;
		-v | --verbose | --print-paths)
			common_args="$common_args${common_args:+ }$(quote_args "$_n")" ;;
		*) common_args="$common_args${common_args:+ }$(quote_args "$_n=$_v")" ;;
		esac
		case $_n in
		-h | --help) usage ;;
		-V | --version) show_version "$version" "$top" ;;
		-v | --verbose) opt_verbose=yes ;;
		--dry-run) opt_dry_run=yes ;;
		--print-paths) opt_print_paths=yes ;;
		--kernel)
			kernels=$((kernels + 1))
			case $kernels in
			1) opt_kernel=$_v ;;
			2) opt_kernel_b=$_v ;;
			*) usage_error "--kernel given more than twice (two kernels are booted in turn)" ;;
			esac
			;;
		--pairs) opt_pairs=$_v ;;
		--order-seed) opt_order_seed=$_v ;;
		--series-boot) opt_series_boot=$_v ;;
		--modules) opt_modules=$_v ;;
		--memory) opt_memory=$_v ;;
		--cpus) opt_cpus=$_v ;;
		--cmdline) opt_cmdline=$_v ;;
		--accel) opt_accel=$_v ;;
		--device) opt_device=$_v ;;
		--disk-size) opt_disk_size=$_v ;;
		--swap-size) opt_swap_size=$_v ;;
		--disk-cache) opt_disk_cache=$_v ;;
		--setup) opt_setup=$_v ;;
		--timeout) opt_timeout=$_v ;;
		--boot-timeout) opt_boot_timeout=$_v ;;
		--lockup-timeout) opt_lockup_timeout=$_v ;;
		--results) opt_results=$_v ;;
		--label) opt_label=$_v ;;
		--build-image) opt_build_image=$_v ;;
		--deb) opt_deb=$_v ;;
		*) usage_error "unrecognized option '$_n'" ;;
		esac
	done
	run_args=$(quote_args "$@")
	check_options
	check_run_args "$@"
}

check_options() {
	memory_bytes=$(size_bytes memory "$opt_memory")
	disk_bytes=$(size_bytes disk-size "$opt_disk_size")
	swap_bytes=$(size_bytes swap-size "$opt_swap_size")
	timeout_s=$(seconds timeout "$opt_timeout")
	boot_timeout_s=$(seconds boot-timeout "$opt_boot_timeout")
	lockup_timeout_s=$(seconds lockup-timeout "$opt_lockup_timeout")
	[ "$memory_bytes" -ge 67108864 ] ||
		usage_error "invalid value '$opt_memory' for --memory (at least 64M)"
	case $opt_cpus in
	[1-9] | [1-9][0-9] | [1-2][0-9][0-9]) [ "$opt_cpus" -le 255 ] ;;
	*) false ;;
	esac || usage_error "invalid value '$opt_cpus' for --cpus (expected 1 to 255)"
	for _v in "$LATENCY_VM_RESULT_BYTES" "$LATENCY_VM_RESULT_FILES"; do
		case $_v in
		'' | *[!0-9]* | ???????????????*) usage_error "invalid LATENCY_VM_RESULT_BYTES or LATENCY_VM_RESULT_FILES '$_v' (expected a number)" ;;
		esac
	done
	[ "$swap_bytes" -ge 16777216 ] ||
		usage_error "invalid value '$opt_swap_size' for --swap-size (at least 16M)"
	[ "$disk_bytes" -ge 268435456 ] ||
		usage_error "invalid value '$opt_disk_size' for --disk-size (at least 256M)"
	case $opt_accel in
	auto | kvm | tcg) ;;
	*) usage_error "invalid value '$opt_accel' for --accel (expected auto, kvm or tcg)" ;;
	esac
	case $opt_device in
	plain | crypt-lvm) ;;
	*) usage_error "invalid value '$opt_device' for --device (expected plain or crypt-lvm)" ;;
	esac
	case $opt_disk_cache in
	none | writeback) ;;
	*) usage_error "invalid value '$opt_disk_cache' for --disk-cache (expected none or writeback)" ;;
	esac
	case $opt_build_image in
	'' | quick | package | kernel) ;;
	*) usage_error "invalid value '$opt_build_image' for --build-image (expected quick, package or kernel)" ;;
	esac
	[ "$opt_print_paths" = no ] || [ -n "$opt_build_image" ] ||
		usage_error "--print-paths goes with --build-image"
	# The command line and the label reach QEMU, the guest's shell and
	# file names: printable characters only.
	case $opt_cmdline in
	*[![:print:]]* | *'"'*) usage_error "invalid value for --cmdline (printable characters, no double quote)" ;;
	esac
	if [ "$kernels" -ge 2 ]; then
		check_series_options
	else
		[ -z "$opt_pairs" ] || usage_error "--pairs goes with a second --kernel"
		[ -z "$opt_order_seed" ] ||
			usage_error "--order-seed goes with a second --kernel"
		check_label "$opt_label"
		[ -z "$opt_series_boot" ] || check_series_boot
	fi
	if [ "$opt_device" = crypt-lvm ] &&
		[ "$disk_bytes" -le $((swap_bytes + 134217728)) ]; then
		usage_error "--disk-size=$opt_disk_size leaves no room for the scratch volume beside --swap-size=$opt_swap_size (128M at least)"
	fi
	[ -z "$opt_setup" ] || [ -f "$opt_setup" ] ||
		usage_error "--setup=$opt_setup: no such file"
}

# check_label LABEL: a label reaches file names and the guest's shell.
check_label() {
	case $1 in
	.* | *[!A-Za-z0-9._+-]*) usage_error "invalid value '$1' for --label (letters, digits, . _ + -, not starting with .)" ;;
	esac
}

# release_label RELEASE WHAT: a kernel's release (the guest's, hostile)
# made a label is checked as --label is.
release_label() {
	case $1 in
	'' | .* | *[!A-Za-z0-9._+-]*)
		die "the release '$(printf '%s' "$1" | tr -c '[:graph:]' '?')' of $2 is not a label (letters, digits, . _ + -, not starting with .): give --label"
		;;
	esac
}

# check_series_options: two kernels: the pairs, the order's seed and the
# two labels (label_a, label_b; empty: the kernels' releases).
check_series_options() {
	[ -z "$opt_build_image" ] || usage_error "--build-image takes one --kernel"
	[ -z "$opt_modules" ] ||
		usage_error "--modules names one kernel's module tree: not with two --kernel"
	[ -z "$opt_series_boot" ] ||
		usage_error "--series-boot is given by latency-vm to each boot of a series"
	: "${opt_pairs:=5}" "${opt_order_seed:=137}"
	case $opt_pairs in
	[1-9] | [1-9][0-9] | 100) ;;
	*) usage_error "invalid value '$opt_pairs' for --pairs (expected 1 to 100)" ;;
	esac
	case $opt_order_seed in
	'' | *[!0-9]* | ??????????????????*) usage_error "invalid value '$opt_order_seed' for --order-seed (expected a number, at most 17 digits)" ;;
	esac
	case $opt_label in
	*,*,*) usage_error "invalid value '$opt_label' for --label (two kernels: A,B or one LABEL)" ;;
	*,*) label_a=${opt_label%,*} label_b=${opt_label#*,} ;;
	'') label_a='' label_b='' ;;
	*) label_a=$opt_label-a label_b=$opt_label-b ;;
	esac
	[ -n "$opt_label" ] || return 0
	if [ -z "$label_a" ] || [ -z "$label_b" ]; then
		usage_error "invalid value '$opt_label' for --label (two kernels: A,B or one LABEL)"
	fi
	check_label "$label_a"
	check_label "$label_b"
	[ "$label_a" != "$label_b" ] ||
		usage_error "invalid value '$opt_label' for --label (the two labels are the same)"
}

# check_series_boot: --series-boot=SERIES,PAIRS,ORDER,SEED,PAIR,ARM,A,B,
# which latency-vm gives each boot of a series: into sb_* for vm.json.
check_series_boot() {
	_bad="invalid value '$opt_series_boot' for --series-boot (latency-vm gives it to each boot of a series)"
	case $opt_series_boot in
	*[!A-Za-z0-9._+,-]*) usage_error "$_bad" ;;
	esac
	_old_ifs=$IFS
	IFS=,
	# shellcheck disable=SC2086 # split on the commas
	set -- $opt_series_boot
	IFS=$_old_ifs
	[ $# = 8 ] || usage_error "$_bad"
	sb_series=$1 sb_pairs=$2 sb_order=$3 sb_seed=$4 sb_pair=$5 sb_arm=$6
	sb_label_a=$7 sb_label_b=$8
	case $sb_series in
	'' | ?????????????????????????????????????????????????????????????????*) usage_error "$_bad" ;;
	esac
	case $sb_pairs in
	[1-9] | [1-9][0-9] | 100) ;;
	*) usage_error "$_bad" ;;
	esac
	case $sb_seed in
	'' | *[!0-9]* | ??????????????????*) usage_error "$_bad" ;;
	esac
	case $sb_pair in
	[1-9] | [1-9][0-9] | 100) [ "$sb_pair" -le "$sb_pairs" ] || usage_error "$_bad" ;;
	*) usage_error "$_bad" ;;
	esac
	case $sb_order in
	'' | *[!AB]*) usage_error "$_bad" ;;
	esac
	[ ${#sb_order} = $((2 * sb_pairs)) ] || usage_error "$_bad"
	case $sb_arm in
	a) [ "$opt_label" = "$sb_label_a" ] || usage_error "$_bad" ;;
	b) [ "$opt_label" = "$sb_label_b" ] || usage_error "$_bad" ;;
	*) usage_error "$_bad" ;;
	esac
	check_label "$sb_label_a"
	check_label "$sb_label_b"
}

# check_run_args ARG...: run-test.sh's options, checked by latency-plan
# as run-test.sh checks them; those latency-vm sets itself are refused.
check_run_args() {
	for _a in "$@"; do
		case $_a in
		--results | --results=* | --label | --label=* | --scratch | \
			--scratch=* | --config | --config=* | --print-config | \
			--restore | -h | --help | -V | --version)
			usage_error "'${_a%%=*}' is latency-vm's to give: see latency-vm --help"
			;;
		*'
'*) usage_error "a run-test.sh option holds a newline" ;;
		esac
	done
	p_latency_plan=$(find_prog latency-plan) ||
		die "cannot find latency-plan (build the tree, or set LATENCY_TESTS_BINDIR)"
	# The result is assembled on the host at the end: found before any work.
	p_latency_summarize=$(find_prog latency-summarize) ||
		die "cannot find latency-summarize (build the tree, or set LATENCY_TESTS_BINDIR)"
	p_latency_vmstat=$(find_prog latency-vmstat) ||
		die "cannot find latency-vmstat (build the tree, or set LATENCY_TESTS_BINDIR)"
	if _out=$("$p_latency_plan" --run-config --shell -- "$@" 2>&1); then
		:
	else
		_st=$?
		[ "$_st" = 2 ] || die "latency-plan --run-config failed: $_out"
		usage_error "after --: $(printf '%s\n' "$_out" | sed -n '1s/^latency-plan: //p')"
	fi
	cfg_commits=$(printf '%s\n' "$_out" | sed -n 's/^commits=//p')
	cfg_seed=$(printf '%s\n' "$_out" | sed -n 's/^seed=//p')
	cfg_repo=$(printf '%s\n' "$_out" | sed -n 's/^repo=//p')
}

find_prog() {
	lt_find_prog "$top" "$builtin_bindir" "$1"
}

# --- the host's tools ----------------------------------------------------------
# need_tools TOOL...: install the Debian packages of missing tools as
# root (saying what, as bootstrap.sh does), else exit 3 naming them.
need_tools() {
	_pk=$(vm_missing_packages "$@")
	[ -n "$_pk" ] || return 0
	if [ "$opt_dry_run" = yes ]; then
		warn "not installed here: $_pk"
		return 0
	fi
	apt_install "missing on this host" "$_pk"
	_pk=$(vm_missing_packages "$@")
	[ -z "$_pk" ] || die_unsupported "still missing after apt-get install: $_pk"
}

# apt_install WHAT PACKAGES: install them as root, saying what; otherwise
# exit 3 naming them.
apt_install() {
	is_root_user || die_unsupported "$1: $2 (apt-get install $2)"
	echo "$prog: installing $2" >&2
	# shellcheck disable=SC2086 # a list of package names
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends $2 >&2 || die "apt-get install $2 failed"
}

is_root_user() {
	[ "$(id -u)" = 0 ]
}

progress() {
	printf '%s: %s\n' "$prog" "$*" >&2
}

# --- the kernel ------------------------------------------------------------------
# resolve_kernel: kernel_image, kernel_release, kernel_moddir, and for a
# package kernel_package, kernel_package_version.
resolve_kernel() {
	kernel_package='' kernel_package_version=''
	if [ -f "$opt_kernel" ]; then
		kernel_image=$(cd "$(dirname "$opt_kernel")" && pwd -P)/${opt_kernel##*/}
	else
		case $opt_kernel in
		linux-image-*) ;;
		*) die "--kernel=$opt_kernel: no such file, and not a Debian kernel package name (linux-image-...)" ;;
		esac
		_pv=$(vm_kernel_package "$opt_kernel") ||
			die "--kernel=$opt_kernel: no such package in the apt lists (apt-get update?)"
		kernel_package=${_pv% *} kernel_package_version=${_pv#* }
		_kdir=$cache_dir/vm/kernels/${kernel_package}_$kernel_package_version
		if [ "$opt_dry_run" = no ] && ! [ -d "$_kdir" ]; then
			progress "fetching $kernel_package $kernel_package_version (apt-get download, unpacked into $_kdir; not installed)"
			mkdir -p "$cache_dir/vm/kernels"
			vm_kernel_fetch "$_kdir" "$kernel_package" \
				"$kernel_package_version" "$cache_dir/vm/kernels/fetch.log" ||
				die "cannot fetch $kernel_package $kernel_package_version (see $cache_dir/vm/kernels/fetch.log)"
		fi
		kernel_image=
		for _f in "$_kdir"/boot/vmlinuz-*; do
			kernel_image=$_f
		done
		[ "$opt_dry_run" = yes ] || [ -f "$kernel_image" ] ||
			die "$kernel_package has no /boot/vmlinuz-* image"
	fi
	if [ -f "$kernel_image" ]; then
		kernel_release=$(vm_kernel_release "$kernel_image") ||
			die "--kernel=$opt_kernel: '$kernel_image' is not a bootable x86 kernel image (no bzImage header)"
	else
		kernel_release=${kernel_image##*/vmlinuz-}
	fi
	kernel_moddir=
	if [ -n "$opt_modules" ]; then
		[ -d "$opt_modules" ] || die "--modules=$opt_modules: no such directory"
		kernel_moddir=$(cd "$opt_modules" && pwd -P)
	else
		_d=$(dirname "$kernel_image")/../lib/modules/$kernel_release
		if [ -d "$_d" ]; then
			kernel_moddir=$(cd "$_d" && pwd -P)
		fi
	fi
}

# --- images ------------------------------------------------------------------------
# The suite's programs and scripts as the guest gets them.
guest_programs() {
	for _p in latency-output unbuffered seqbench fake-gitk fake-music \
		ringbench latency-vmstat latency-kmsg latency-trace \
		latency-highorder latency-block latency-plan latency-summarize \
		latency-compare latency-machine; do
		find_prog "$_p" || die "cannot find program $_p (build the tree, or set LATENCY_TESTS_BINDIR)"
	done
	# The high-order proof's fragmenter, where the tests were built.
	[ ! -x "$top/tests/helpers/fragment" ] ||
		echo "$top/tests/helpers/fragment"
}

guest_scripts() {
	# The built driver is at the top of the tree.
	if [ -x "$top/latency-run-test" ]; then
		echo "$top/latency-run-test"
	else
		find_prog latency-run-test
	fi || die "cannot find latency-run-test (build the tree, or set LATENCY_TESTS_BINDIR)"
	find_prog latency-device-setup ||
		die "cannot find latency-device-setup (build the tree, or set LATENCY_TESTS_BINDIR)"
}

guest_helpers() {
	for _h in shell-lib.sh confine.sh sysinfo.sh plot.sh workloads.sh; do
		echo "$datadir/$_h"
	done
}

# quick_images: rootfs_img, initrd_img (built unless cached, or only
# named with --dry-run).
quick_images() {
	_busybox=$(vm_tool_path busybox) || die "no busybox (install busybox-static)"
	_m=$tmp/rootfs.manifest
	_progs=$(guest_programs) || exit
	_scripts=$(guest_scripts) || exit
	vm_quick_manifest "$_busybox" "$datadir/vm-guest.sh" "$_progs" \
		"$_scripts" "$(guest_helpers)" >"$_m" ||
		die "cannot list the quick image's files"
	_key=$(vm_manifest_key "$_m") || die "cannot hash the quick image's files"
	rootfs_dir=$cache_dir/vm/images/quick-$_key
	rootfs_img=$rootfs_dir/rootfs.img
	_mi=$tmp/initrd.manifest
	vm_initrd_manifest "$_busybox" "$datadir/vm-initrd.sh" "$kernel_moddir" \
		>"$_mi" || die "cannot list the initramfs's files"
	_ikey=$(vm_manifest_key "$_mi") || die "cannot hash the initramfs's files"
	initrd_dir=$cache_dir/vm/images/initrd-$kernel_release-$_ikey
	initrd_img=$initrd_dir/initrd.img
	if [ "$opt_dry_run" = yes ]; then
		echo "# image quick-$_key: $rootfs_img"
		sed 's/^/  /' "$_m"
		echo "# initramfs $kernel_release-$_ikey: $initrd_img"
		sed 's/^/  /' "$_mi"
		return 0
	fi
	[ -d "$rootfs_dir" ] || progress "building the quick image ($rootfs_dir)"
	vm_build_cached "$rootfs_dir" vm_build_rootfs "$_m" ||
		die "cannot build the quick image in $rootfs_dir"
	vm_build_cached "$initrd_dir" vm_build_initrd "$_mi" ||
		die "cannot build the initramfs in $initrd_dir"
}

# repo_image: the repository run-test.sh would use, made once on the host
# (the synthetic one as run-test.sh caches it), as a read-only disk.
repo_image() {
	if [ -n "$cfg_repo" ]; then
		[ -d "$cfg_repo" ] || die "--repo=$cfg_repo: no such directory"
		_repo=$(cd "$cfg_repo" && pwd -P)
		_name=repo-$(printf '%s' "$_repo" | sha256sum | cut -c1-16)
	else
		_repo=$cache_dir/repo-$cfg_commits-$cfg_seed
		_name=repo-$cfg_commits-$cfg_seed
	fi
	repo_img=$cache_dir/vm/repos/$_name/repo.img
	if [ "$opt_dry_run" = yes ]; then
		echo "# repository $_repo: $repo_img"
		return 0
	fi
	if [ -z "$cfg_repo" ] && ! [ -d "$_repo" ]; then
		progress "creating the synthetic repository ($cfg_commits commits, cached in $_repo)"
		_gitk=$(find_prog fake-gitk) || die "cannot find fake-gitk"
		mkdir -p "$cache_dir"
		"$_gitk" --create-repo "$_repo" --commits "$cfg_commits" \
			--seed "$cfg_seed" >/dev/null || [ -d "$_repo" ] ||
			die "fake-gitk --create-repo $_repo failed"
	fi
	# A repository given by path may change: its image is made anew.
	[ -z "$cfg_repo" ] || rm -rf "$cache_dir/vm/repos/$_name"
	vm_build_cached "$cache_dir/vm/repos/$_name" vm_build_repo "$_repo" \
		"$_name" || die "cannot make the repository image of $_repo"
}

# --- the run's disks and QEMU ----------------------------------------------------
accel_choice() {
	_kvm=${LATENCY_VM_KVM:-/dev/kvm}
	case $opt_accel in
	kvm)
		if ! [ -r "$_kvm" ] || ! [ -w "$_kvm" ]; then
			die_unsupported "--accel=kvm: $_kvm is not usable here"
		fi
		grep -qw -e vmx -e svm "${LATENCY_VM_CPUINFO:-/proc/cpuinfo}" ||
			warn "--accel=kvm: the CPU has no vmx or svm; only a kernel built as a guest of this KVM (e.g. kvm_pvm) boots"
		accel=kvm
		;;
	tcg) accel=tcg ;;
	auto)
		if ! [ -r "$_kvm" ] || ! [ -w "$_kvm" ]; then
			accel=tcg
		elif ! grep -qw -e vmx -e svm "${LATENCY_VM_CPUINFO:-/proc/cpuinfo}"; then
			# A KVM device without the CPU's virtualization (e.g.
			# kvm_pvm, which boots only kernels built as its
			# guests) leaves a distribution kernel hung before
			# its first console line.
			accel=tcg
			progress "$_kvm is there but the CPU has no vmx or svm (not hardware KVM): TCG"
		else
			accel=kvm
		fi
		;;
	esac
}

# job_disks: the results disk (with the job), scratch and swap, in $tmp.
# shellcheck disable=SC2120 # the positional parameters are run_args'
job_disks() {
	_s=$tmp/results-root
	mkdir -p "$_s/.latency-vm"
	{
		echo "label=$label"
		echo "device=$opt_device"
		echo "scratch_size=$(((disk_bytes - swap_bytes - 67108864) / 1048576))M"
		echo "swap_size=$((swap_bytes / 1048576))M"
		echo "thp=$(thp_default)"
	} >"$_s/.latency-vm/job"
	: >"$_s/.latency-vm/args"
	eval "set -- $run_args"
	for _a; do
		case $_a in
		--repo=*) _a=--repo=/mnt/repo/repo ;;
		esac
		printf '%s\n' "$_a" >>"$_s/.latency-vm/args"
	done
	[ -z "$opt_setup" ] || cp "$opt_setup" "$_s/.latency-vm/setup"
	# Room for a full run's series and plots.
	vm_ext4 "$_s" "$tmp/results.img" lt-results 1048576 ||
		die "cannot make the results disk"
	truncate -s "$disk_bytes" "$tmp/scratch.img" ||
		die "cannot make the scratch disk"
	if [ "$opt_device" = plain ]; then
		mke2fs -q -F -t ext4 -L lt-scratch -E lazy_itable_init=1,nodiscard \
			"$tmp/scratch.img" || die "cannot make the scratch file system"
		truncate -s "$swap_bytes" "$tmp/swap.img" ||
			die "cannot make the swap disk"
	fi
}

# thp_default: the transparent huge page mode the kernel boots with on a
# machine of 512 MiB or more (its command line's, else its build's): the
# kernel turns THP off below 512 MiB of RAM, and the guest turns it back
# on, so that the high-order probe runs as on the machines it stands for.
thp_default() {
	for _w in $opt_cmdline; do
		case $_w in
		transparent_hugepage=*) _thp=${_w#*=} ;;
		esac
	done
	if [ -z "${_thp:-}" ] && [ -f "${kernel_image%/*}/config-$kernel_release" ]; then
		_thp=$(sed -n 's/^CONFIG_TRANSPARENT_HUGEPAGE_\(ALWAYS\|MADVISE\)=y$/\1/p' \
			"${kernel_image%/*}/config-$kernel_release" | tr '[:upper:]' '[:lower:]')
	fi
	echo "${_thp:-madvise}"
}

kernel_cmdline() {
	printf 'console=ttyS0,115200 panic=-1 oops=panic%s' "${opt_cmdline:+ $opt_cmdline}"
}

# qemu_command: the QEMU command line, shell-quoted on one line.
qemu_command() {
	case $accel in
	kvm) _cpu=host ;;
	tcg) _cpu=max ;;
	esac
	_line=$(quote_args "${LATENCY_VM_QEMU:-qemu-system-x86_64}" \
		-name latency-vm -nodefaults -no-user-config -display none \
		-no-reboot -machine q35 -accel "$accel" -cpu "$_cpu" \
		-smp "$opt_cpus" -m "$((memory_bytes / 1048576))M" \
		-kernel "$kernel_image" -initrd "$initrd_img" \
		-append "$(kernel_cmdline)" \
		-chardev "file,id=console,path=$(qemu_opt "$tmp")/console.log" \
		-serial chardev:console \
		-chardev "pipe,id=control,path=$(qemu_opt "$tmp")/control" \
		-serial chardev:control -pidfile "$tmp/qemu.pid")
	qemu_disk root "$rootfs_img" on
	qemu_disk results "$tmp/results.img" off
	qemu_disk scratch "$tmp/scratch.img" off
	[ "$opt_device" = crypt-lvm ] || qemu_disk swap "$tmp/swap.img" off
	qemu_disk repo "$repo_img" on
	printf '%s\n' "$_line"
}

# qemu_opt VALUE: VALUE in a QEMU option list (a comma doubled: a cache
# directory may hold one).
qemu_opt() {
	printf '%s' "$1" | sed 's/,/,,/g'
}

# qemu_disk ID FILE READONLY: a virtio disk whose serial is lt-ID.
qemu_disk() {
	case $1 in
	scratch | swap) _cache=$opt_disk_cache ;;
	*) _cache=writeback ;;
	esac
	_line="$_line $(quote_args -drive \
		"file=$(qemu_opt "$2"),format=raw,if=none,id=$1,readonly=$3,cache=$_cache" \
		-device "virtio-blk-pci,drive=$1,serial=lt-$1")"
}

# --- the result --------------------------------------------------------------------
qemu_version() {
	"${LATENCY_VM_QEMU:-qemu-system-x86_64}" --version 2>/dev/null |
		sed -n '1s/^QEMU emulator version //p' | tr -cd '[:print:]'
}

# write_vm_json FILE: the VM the result was made in.
write_vm_json() {
	{
		echo '{'
		echo '  "kernel": {'
		echo "    \"release\": $(json_string "$kernel_release"),"
		echo "    \"image\": $(json_string "$kernel_image"),"
		if [ -n "$kernel_package" ]; then
			echo "    \"package\": $(json_string "$kernel_package"),"
			echo "    \"package_version\": $(json_string "$kernel_package_version")"
		else
			echo '    "package": null,'
			echo '    "package_version": null'
		fi
		echo '  },'
		echo "  \"cmdline\": $(json_string "$(kernel_cmdline)"),"
		echo "  \"accel\": $(json_string "$accel"),"
		echo "  \"memory_bytes\": $memory_bytes,"
		echo "  \"cpus\": $opt_cpus,"
		echo "  \"qemu_version\": $(json_string "$(qemu_version)"),"
		echo "  \"image\": $(json_string "${rootfs_dir##*/}"),"
		echo "  \"device\": $(json_string "$opt_device"),"
		echo "  \"disk_cache\": $(json_string "$opt_disk_cache"),"
		echo "  \"host\": $host_json,"
		if [ -n "$opt_series_boot" ]; then
			echo '  "boots": {'
			echo "    \"series\": $(json_string "$sb_series"),"
			echo "    \"pairs\": $sb_pairs,"
			echo "    \"order\": $(json_string "$sb_order"),"
			echo "    \"seed\": $sb_seed,"
			echo "    \"pair\": $sb_pair,"
			echo "    \"arm\": $(json_string "$sb_arm"),"
			echo "    \"labels\": [$(json_string "$sb_label_a"), $(json_string "$sb_label_b")]"
			echo '  },'
		fi
		echo "  \"outcome\": $(json_string "$outcome")"
		echo '}'
	} >"$1.tmp" && mv "$1.tmp" "$1"
}

# reserve_result: RESULTS/LABEL, or RESULTS/LABEL-2, ...; mkdir is the lock.
reserve_result() {
	mkdir -p "$opt_results" || die "cannot create results directory '$opt_results'"
	_i=1
	_dir=$opt_results/$label
	while ! mkdir "$_dir" 2>/dev/null; do
		[ -d "$_dir" ] || die "cannot create result directory '$_dir'"
		_i=$((_i + 1))
		_dir=$opt_results/$label-$_i
	done
	run_dir=$(cd "$_dir" && pwd)
	run_label=${_dir##*/}
}

# copy_back: the guest's result directory and status from the results
# disk (checked and repaired first: the guest may have been killed), only
# its regular files and directories, within the caps (vm-results.sh);
# what was refused is said in the result's notes, and lost_files counts
# the files and directories lost.
copy_back() {
	guest_status='' guest_error='' lost_files=0
	[ -f "$tmp/results.img" ] || return 0
	# An image e2fsck cannot repair is not read at all.
	if e2fsck -fy "$tmp/results.img" >/dev/null 2>&1; then
		:
	elif _st=$? && [ "$_st" -ge 4 ]; then
		disk_error="the guest's results disk could not be repaired (e2fsck exited $_st): nothing read from it"
		return 0
	fi
	_st=$(vm_results_lookup "$tmp/results.img" /.latency-vm/status)
	case $_st in
	f\ *)
		_st=${_st#f }
		vm_results_cat "$tmp/results.img" "${_st%% *}" 4096 "$tmp/status" ||
			rm -f "$tmp/status"
		;;
	esac
	if [ -s "$tmp/status" ]; then
		guest_status=$(sed -n 's/^exit=\([0-9]\{1,3\}\)$/\1/p' "$tmp/status" | sed -n 1p)
		guest_error=$(sed -n 's/^error=//p' "$tmp/status" | tr -cd '[:print:]' | cut -c1-300)
	fi
	vm_results_copy "$tmp/results.img" "/$label" "$run_dir" "$tmp/refused" ||
		return 0
	guest_result=yes
	[ -s "$tmp/refused" ] || return 0
	lost_files=$(grep -c '^lost ' "$tmp/refused") || true
	_n=$(wc -l <"$tmp/refused")
	warn "$_n entries of the guest's results disk refused (see the notes in $run_dir)"
	{
		sed 's/^lost //; s/^/latency-vm: refused from the results disk: /; 20q' "$tmp/refused"
		[ "$_n" -le 20 ] || echo "latency-vm: and $((_n - 20)) more refused"
	} >>"$run_dir/notes"
}

# facts_line KEY VALUE: run.facts keeps one line per key.
set_fact() {
	_f=$run_dir/run.facts
	if [ -f "$_f" ]; then
		grep -v "^$1=" "$_f" >"$_f.tmp" || true
	else
		: >"$_f.tmp"
	fi
	printf '%s=%s\n' "$1" "$2" >>"$_f.tmp" && mv "$_f.tmp" "$_f"
}

# finish_result WHY: vm.json and result.json on the host; WHY (empty: the
# guest's result as it is) marks the result partial.
finish_result() {
	[ -n "$run_dir" ] || return 0
	[ ! -f "$tmp/console.log" ] || cp "$tmp/console.log" "$run_dir/console.log"
	[ ! -s "$tmp/qemu.err" ] || cp "$tmp/qemu.err" "$run_dir/qemu.err"
	printf '%s\n' "$qemu_line" >"$run_dir/qemu.cmdline"
	write_vm_json "$run_dir/vm.json"
	if [ -z "$guest_result" ] || ! [ -f "$run_dir/run.facts" ]; then
		set_fact label "$label"
		set_fact kernel "$kernel_release"
		set_fact version "$(tree_version "$version" "$top")"
		set_fact command_line "$command_line"
		set_fact runs_done 0
	fi
	set_fact run_label "$run_label"
	if [ -n "$1" ]; then
		set_fact partial yes
		set_fact partial_reason "$1"
	fi
	"$p_latency_summarize" --result-dir="$run_dir" ||
		warn "latency-summarize failed on $run_dir"
	# The run's own page again, now that result.json names the VM (the
	# guest's did not know it, and may have had no gnuplot).
	[ -z "$guest_result" ] ||
		html_page "$run_dir/report.html" "$run_dir/report.log" "$run_dir" ||
		warn "no report.html in $run_dir: latency-compare failed (see report.log)"
}

# html_page PAGE LOG DIR...: latency-compare's HTML page of the results
# DIR... into PAGE, what it said into LOG (removed when it succeeds).  A
# page is a view of results, not one: callers say a failure and go on.
html_page() {
	_hp=$1 _hl=$2
	shift 2
	if ! _lc=$(find_prog latency-compare); then
		echo "latency-compare is not installed" >"$_hl"
		return 1
	fi
	"$_lc" --format=html -o "$_hp" "$@" 2>"$_hl" || return 1
	rm -f "$_hl"
}

# no_result: a result directory without result.json (latency-summarize
# failed) is no result: said, status 1 (not success).
no_result() {
	[ -n "$run_dir" ] && ! [ -f "$run_dir/result.json" ] || return 1
	printf '%s: no result: latency-summarize made no result.json in %s%s\n' \
		"$prog" "$run_dir" "${why:+ ($why)}" >&2
	[ "$status" != 0 ] || status=1
}

# --- --build-image ----------------------------------------------------------------
# print_paths KERNEL INITRD ROOTFS CMDLINE: what a LAVA job deploys.
print_paths() {
	if [ "$opt_print_paths" = yes ]; then
		printf 'kernel=%s\ninitrd=%s\nrootfs=%s\ncmdline=%s\n' "$@" | print_stdout
	else
		progress "kernel $1, initrd $2, root file system $3"
	fi
}

build_image() {
	trap 'cleanup $?' EXIT
	trap 'cleanup 130' INT
	trap 'cleanup 143' TERM
	trap 'cleanup 129' HUP
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/latency-vm.XXXXXX") ||
		die "cannot make a temporary directory"
	[ "$opt_dry_run" = yes ] || sweep
	case $opt_build_image in
	quick)
		need_tools busybox cryptsetup lvm dmsetup mke2fs mkswap kmod \
			cpio gzip ldd dash dpkg-deb apt-get
		resolve_kernel
		quick_images
		[ "$opt_dry_run" = yes ] ||
			print_paths "$kernel_image" "$initrd_img" "$rootfs_img" \
				"$(kernel_cmdline)"
		;;
	package) build_package ;;
	kernel) fetch_kernel ;;
	esac
}

# fetch_kernel: the kernel of --kernel unpacked in the cache (a package
# is fetched, never installed), named: what a program that boots a
# kernel of its own needs from the host's (libguestfs's supermin
# appliance in a LAVA job) without a kernel installed on the host.
fetch_kernel() {
	[ -f "$opt_kernel" ] || need_tools dpkg-deb apt-get kmod
	resolve_kernel
	if [ "$opt_dry_run" = yes ]; then
		if [ -n "$kernel_package" ]; then
			echo "# kernel: $kernel_package $kernel_package_version (apt-get download, dpkg-deb -x into $cache_dir/vm/kernels; not installed)"
		fi
		echo "# kernel=$kernel_image release=$kernel_release modules=$kernel_moddir"
	elif [ "$opt_print_paths" = yes ]; then
		printf 'kernel=%s\nrelease=%s\nmodules=%s\n' "$kernel_image" \
			"$kernel_release" "$kernel_moddir" | print_stdout
	else
		progress "kernel $kernel_image ($kernel_release), modules ${kernel_moddir:-none}"
	fi
}

build_package() {
	is_root_user || [ "$opt_dry_run" = yes ] ||
		die_unsupported "--build-image=package: mmdebstrap makes the root file system as root"
	need_tools mmdebstrap mke2fs git dpkg-buildpackage dh
	_src=$(vm_package_sources) ||
		die_unsupported "no apt sources on this host (set LATENCY_VM_APT_SOURCES)"
	_suite=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release 2>/dev/null)
	[ -n "$_suite" ] || die_unsupported "cannot tell this host's Debian release (/etc/os-release)"
	mkdir -p "$cache_dir/vm/images" || die "cannot create $cache_dir/vm/images"
	_log=$cache_dir/vm/images/package-build.log
	if [ -n "$opt_deb" ]; then
		[ -f "$opt_deb" ] || die "--deb=$opt_deb: no such file"
		_deb=$(cd "$(dirname "$opt_deb")" && pwd -P)/${opt_deb##*/}
	elif [ "$opt_dry_run" = yes ]; then
		_deb=
	else
		git -C "$top" rev-parse HEAD >/dev/null 2>&1 ||
			die "no checkout here to build the .deb from: give --deb=FILE"
		[ -z "$(git -C "$top" status --porcelain --untracked-files=no)" ] ||
			warn "the checkout has uncommitted changes: the .deb is built from its HEAD"
		install_build_deps "$top"
		progress "building the .deb (dpkg-buildpackage -us -uc -b, nocheck; log $_log)"
		_deb=$(vm_package_deb "$top" "$cache_dir/vm/debs" "$_log") ||
			die "dpkg-buildpackage failed (see $_log)"
	fi
	if [ "$opt_dry_run" = yes ]; then
		echo "# package image: mmdebstrap --variant=minbase $_suite from $_src"
		# shellcheck disable=SC2086 # the list on one line
		echo "#   packages:" $vm_package_include "and ${_deb:-the .deb built from this checkout}"
		return 0
	fi
	_key=$(vm_package_key "$_deb" "$_src" "$_suite")
	_dir=$cache_dir/vm/images/package-$_key
	if ! [ -d "$_dir" ]; then
		progress "building the package image with mmdebstrap ($_dir; log $_log)"
		vm_build_cached "$_dir" vm_build_package "$_deb" "$_src" "$_suite" \
			"$_log" || die "cannot build the package image (see $_log)"
		# vm_build_package's _dir was its temporary directory.
		_dir=$cache_dir/vm/images/package-$_key
	fi
	print_paths "$_dir/vmlinuz" "$_dir/initrd.img" "$_dir/rootfs.img" \
		"console=ttyS0,115200 root=LABEL=latency-root rw"
}

# install_build_deps TOP: the .deb's build dependencies (as root), from
# dpkg-checkbuilddeps' list.
install_build_deps() {
	_unmet=$(cd "$1" && dpkg-checkbuilddeps 2>&1) && return 0
	_pk=$(printf '%s\n' "$_unmet" | sed -n 's/.*Unmet build dependencies: //p' |
		sed 's/([^)]*)//g; s/|[^ ]*//g' | tr -s ' ')
	[ -n "$_pk" ] || die "dpkg-checkbuilddeps failed: $_unmet"
	apt_install "missing build dependencies" "$_pk"
}

# --- the run -----------------------------------------------------------------------
# sweep: what killed runs left in the cache, removed and said.
sweep() {
	vm_sweep "$cache_dir" | while IFS= read -r _d; do
		progress "removed $_d (its latency-vm is gone)"
	done
}

tmp='' qemu_pid='' console_off=0 run_dir='' guest_result='' stop_sig=''
lost_files=0 guest_status='' guest_error='' qemu_status='' vm_building=''
disk_error=''
stop_now='' stop_writer=''
outcome=setup qemu_line='' lockup_line='' host_json=null

# The guest cannot see the host: its others_cpu_s is blind to work beside
# QEMU, which slows the guest all the same (a make check on the host
# during two boots of a series went unnoticed).  The host's CPU times are
# read when the guest starts the suite and when QEMU has exited:
# host_snapshot FILE.
host_snapshot() {
	"$p_latency_vmstat" --snapshot --suite-pid=$$ -o "$1" 2>>"$tmp/host.err" ||
		rm -f "$1"
}

# snap_num KEY FILE: a number of latency-vmstat's snapshot, or nothing
# (null, or absent).
snap_num() {
	sed -n "s/^  \"$1\": \([0-9][0-9.]*\),\{0,1\}\$/\1/p" "$2"
}

# host_load: host_json, vm.json's "host": the window from the guest's
# start to QEMU's exit (wall_s), the CPU time of this process's tree (QEMU
# and latency-vm: qemu_cpu_s), of the kernel's threads and of every other
# process meanwhile, and the CPUs the others used on average; null when
# the guest never started or a snapshot failed (said, with its error).
# Says so when the others used a quarter of a CPU or more.
host_load() {
	host_json=null
	if ! [ -s "$tmp/host-start.json" ] || ! [ -s "$tmp/host-end.json" ]; then
		[ ! -s "$tmp/host.err" ] ||
			warn "the host's load was not measured: $(sed -n 1p "$tmp/host.err" | tr -cd '[:print:]')"
		return 0
	fi
	_v=''
	for _k in mono_s cpu_busy_ticks suite_cpu_ticks kthreads_cpu_ticks clock_ticks_per_s; do
		_a=$(snap_num "$_k" "$tmp/host-start.json")
		_b=$(snap_num "$_k" "$tmp/host-end.json")
		if [ -z "$_a" ] || [ -z "$_b" ]; then
			warn "the host's load was not measured: latency-vmstat gave no $_k"
			return 0
		fi
		_v="$_v $_a $_b"
	done
	_cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null) || _cpus=1
	# shellcheck disable=SC2086 # ten numbers
	set -- $_v
	# Two lines: the JSON, then others_cpus, wall_s and qemu_cpu_s as
	# written in it.
	_out=$(awk -v m0="$1" -v m1="$2" -v b0="$3" -v b1="$4" -v s0="$5" \
		-v s1="$6" -v k0="$7" -v k1="$8" -v hz="${10}" -v cpus="$_cpus" 'BEGIN {
		wall = m1 - m0; if (wall <= 0 || hz <= 0) exit
		q = (s1 - s0) / hz; k = (k1 - k0) / hz; if (k < 0) k = 0
		o = (b1 - b0) / hz - q - k; if (o < 0) o = 0
		printf "{\"cpus\": %d, \"wall_s\": %.2f, \"qemu_cpu_s\": %.2f, ", cpus, wall, q
		printf "\"others_cpu_s\": %.2f, \"kthreads_cpu_s\": %.2f, ", o, k
		printf "\"others_cpus\": %.3f}\n%.3f %.2f %.2f\n", o / wall, o / wall, wall, q
	}')
	[ -n "$_out" ] || return 0
	host_json=$(printf '%s\n' "$_out" | sed -n 1p)
	# shellcheck disable=SC2046 # three numbers
	set -- $(printf '%s\n' "$_out" | sed -n 2p)
	progress "host: other processes used $1 of $_cpus CPUs while the guest ran ($2 s; QEMU $3 CPU s)"
	if awk -v o="$1" 'BEGIN { exit !(o >= 0.25) }'; then
		warn "the host was busy while the guest ran: other processes used $1 of its $_cpus CPUs; this boot's figures carry it (vm.json \"host\")"
	fi
}

cleanup() {
	_st=$1
	trap - EXIT
	trap '' INT TERM HUP
	if [ -n "$qemu_pid" ]; then
		kill -TERM "$qemu_pid" 2>/dev/null
		wait "$qemu_pid" 2>/dev/null
	fi
	[ -z "$stop_writer" ] || kill -TERM "$stop_writer" 2>/dev/null
	[ -z "$tmp" ] || rm -rf "$tmp"
	# An image, repository or kernel half made when the signal came.
	[ -z "$vm_building" ] || rm -rf "$vm_building"
	exit "$_st"
}

uptime_s() {
	cut -d. -f1 /proc/uptime
}

# console_copy: with --verbose, what the console got since the last
# call, on stderr.  The guest's bytes reach a terminal: control
# characters (escape sequences) and bytes above 126 are dropped.
console_copy() {
	[ "$opt_verbose" = yes ] && [ -f "$tmp/console.log" ] || return 0
	_size=$(wc -c <"$tmp/console.log")
	[ "$_size" -gt "$console_off" ] || return 0
	tail -c +$((console_off + 1)) "$tmp/console.log" |
		head -c $((_size - console_off)) |
		LC_ALL=C tr -d '\000-\010\013-\037\177-\377' >&2
	console_off=$_size
}

# lockup_check: the longest a guest CPU was reported stuck so far
# (lockup_s, empty when never), from the soft lockup watchdog's lines on
# the console ("watchdog: BUG: soft lockup - CPU#0 stuck for 45s!"), and
# that line (lockup_line).  A TCG guest can hang for good this way (text
# patching across vCPUs), and would otherwise hold a lab until --timeout.
lockup_check() {
	lockup_s=''
	# At most 9 digits: a number the shell can compare, whatever the
	# console holds.
	lockup_line=$(grep -a -o 'soft lockup - CPU#[0-9]* stuck for [0-9]\{1,9\}s' \
		"$tmp/console.log" 2>/dev/null | tail -n 1) || true
	[ -n "$lockup_line" ] || return 0
	lockup_s=${lockup_line##* for }
	lockup_s=${lockup_s%s}
}

# watch: until QEMU exits: the boot and run deadlines, a kernel stuck
# for --lockup-timeout, and a stop asked by a signal (passed to the
# guest, which keeps a partial result).
watch() {
	_now=$(uptime_s)
	_boot_end=$((_now + boot_timeout_s)) _end=$((_now + timeout_s))
	_started=no _stop_end=
	while kill -0 "$qemu_pid" 2>/dev/null; do
		if [ $_started = no ] &&
			grep -q '^latency-vm-guest: started' "$tmp/console.log" 2>/dev/null; then
			_started=yes
			outcome=running
			host_snapshot "$tmp/host-start.json"
		fi
		_now=$(uptime_s)
		if [ -n "$stop_sig" ] && [ -z "$_stop_end" ]; then
			outcome=stopped
			if [ $_started = yes ]; then
				progress "SIG$stop_sig: asking the guest to stop (a partial result)"
				# In the background and bounded: opening the FIFO
				# waits for its reader, QEMU, which may be gone.
				# (timeout passes a TERM on to dd.)
				printf 'stop\n' | timeout 10 dd of="$tmp/control.in" \
					status=none 2>/dev/null &
				stop_writer=$!
				_stop_end=$((_now + ${LATENCY_VM_STOP_GRACE:-60}))
			else
				_stop_end=$_now
			fi
		fi
		if [ -n "$stop_now" ]; then
			break
		elif [ -n "$_stop_end" ] && [ "$_now" -ge "$_stop_end" ]; then
			break
		elif [ $_started = no ] && [ "$_now" -ge $_boot_end ]; then
			outcome=boot-timeout
			break
		elif [ "$_now" -ge $_end ]; then
			outcome=timeout
			break
		fi
		lockup_check
		if [ -n "$lockup_s" ] && [ "$lockup_s" -ge "$lockup_timeout_s" ]; then
			outcome=lockup
			break
		fi
		console_copy
		# A signal to our process group (Ctrl-C in a terminal) ends
		# this sleep too: not an error under set -e; the trap has set
		# stop_sig, which the next turn acts on.
		sleep 1 || :
	done
	if kill -0 "$qemu_pid" 2>/dev/null; then
		kill -TERM "$qemu_pid" 2>/dev/null
	fi
	wait_gone "$qemu_pid"
	qemu_status=$wait_status
	console_copy
	if [ -n "$stop_writer" ]; then
		kill -TERM "$stop_writer" 2>/dev/null || :
		wait "$stop_writer" 2>/dev/null || :
		stop_writer=
	fi
	qemu_pid=
	[ ! -f "$tmp/host-start.json" ] || host_snapshot "$tmp/host-end.json"
	[ $_started = no ] || [ "$outcome" != running ] || outcome=finished
}

# wait_gone PID [HOOK]: wait for PID until it is gone (a trap ends a
# wait, not the process), HOOK run before each wait; its status in
# wait_status.
wait_gone() {
	while :; do
		[ -z "${2:-}" ] || "$2"
		if wait "$1"; then
			wait_status=0
		else
			wait_status=$?
		fi
		kill -0 "$1" 2>/dev/null || return 0
	done
}

# verdict: why the run is partial (empty when the guest says nothing is
# wrong), and the exit status.
verdict() {
	why='' status=0
	_panic=$(grep -a -m1 'Kernel panic - not syncing' "$tmp/console.log" 2>/dev/null |
		tr -cd '[:print:]' | sed 's/^.*Kernel panic/Kernel panic/') || true
	case $outcome in
	stopped) why="interrupted by SIG$stop_sig" ;;
	boot-timeout) why="the guest did not reach the suite within $opt_boot_timeout" ;;
	timeout) why="the run did not finish within $opt_timeout" ;;
	lockup) why="the guest kernel locked up ($lockup_line; see console.log)" ;;
	esac
	# The oops behind a panic (oops=panic): what a developer looks for.
	_oops=$(grep -a -m1 -e 'BUG: ' -e 'Oops: ' "$tmp/console.log" 2>/dev/null |
		tr -cd '[:print:]' | sed 's/^\[[ 0-9.]*\] //') || true
	if [ -z "$why" ] && [ -n "$_panic" ] && [ -n "$_oops" ]; then
		why="the guest kernel panicked: $_panic, after $_oops"
	elif [ -z "$why" ] && [ -n "$_panic" ]; then
		why="the guest kernel panicked: $_panic"
	elif [ -z "$why" ] && [ -n "$disk_error" ]; then
		why=$disk_error
	elif [ -z "$why" ] && [ -z "$guest_status" ]; then
		if [ "$qemu_status" != 0 ] && [ -s "$tmp/qemu.err" ]; then
			why="QEMU failed (status $qemu_status): $(tr -cd '[:print:]\n' <"$tmp/qemu.err" | sed -n 1p)"
		elif [ "$outcome" = setup ]; then
			why="the guest never reached the suite (see console.log)"
		else
			why="the guest stopped without saying why (see console.log)"
		fi
	fi
	if [ -n "$guest_error" ] && [ -z "$why" ]; then
		why="the guest failed: $guest_error"
	fi
	if [ -z "$why" ] && [ -z "$guest_result" ]; then
		why="the guest's latency-run-test made no result (status $guest_status; see console.log)"
	fi
	if [ -z "$why" ] && [ "$lost_files" != 0 ]; then
		why="$lost_files files of the guest's result were refused (see notes)"
	fi
	if [ -n "$stop_sig" ]; then
		case $stop_sig in
		INT) status=130 ;;
		TERM) status=143 ;;
		HUP) status=129 ;;
		esac
	elif [ -n "$guest_status" ]; then
		status=$guest_status
	else
		status=1
	fi
	[ -z "$why" ] || [ "$status" != 0 ] || status=1
}

# on_signal SIG: the guest asked to stop, keeping a partial result; a
# second signal stops it at once (the partial result is still written).
# Before QEMU runs (or after) there is nothing to wait for.
on_signal() {
	[ -z "$stop_sig" ] || stop_now=yes
	stop_sig=$1
	[ -n "$qemu_pid" ] || {
		trap '' INT TERM HUP
		outcome=stopped
		verdict
		finish_result "$why"
		cleanup "$status"
	}
}

run() {
	need_tools qemu-system-x86_64 busybox cryptsetup lvm dmsetup mke2fs \
		debugfs e2fsck mkswap kmod cpio gzip ldd dash setpriv setsid
	command_line="$prog $(quote_args "$@")"
	accel_choice
	trap 'cleanup $?' EXIT
	trap 'on_signal INT' INT
	trap 'on_signal TERM' TERM
	trap 'on_signal HUP' HUP
	[ "$opt_dry_run" = yes ] || mkdir -p "$cache_dir/vm" ||
		die "cannot create the cache directory $cache_dir/vm"
	# The run's disks are files of gigabytes: on disk, not in /tmp.
	if [ "$opt_dry_run" = yes ]; then
		tmp=$(mktemp -d "${TMPDIR:-/tmp}/latency-vm.XXXXXX")
	else
		sweep
		tmp=$(mktemp -d "$cache_dir/vm/run.XXXXXX") && vm_own "$tmp"
	fi || die "cannot make a temporary directory"
	resolve_kernel
	[ -n "$opt_label" ] || ! [ -f "$kernel_image" ] ||
		release_label "$kernel_release" "--kernel=$opt_kernel"
	label=${opt_label:-$kernel_release}
	quick_images
	repo_image
	if [ "$opt_dry_run" = yes ]; then
		qemu_command | sed "s|$tmp/|RUNDIR/|g"
		echo "# guest: latency-run-test ${run_args:+$run_args }--results=/mnt/results --label=$label"
		return 0
	fi
	job_disks
	reserve_result
	mkfifo "$tmp/control.in" "$tmp/control.out"
	qemu_line=$(qemu_command)
	progress "booting $kernel_release ($accel, $opt_memory, $opt_cpus CPUs) for $run_dir"
	eval "set -- $qemu_line"
	# QEMU dies with latency-vm, also of SIGKILL: no guest runs on,
	# unwatched.  In a session of its own: a terminal's Ctrl-C, or a
	# caller's signal to latency-vm's process group (latency-bisect),
	# reaches latency-vm alone, which asks the guest to stop and keep a
	# partial result; QEMU quitting on that SIGINT left nothing.  (A
	# background job of a script is no group leader: setsid execs.)
	setsid setpriv --pdeathsig KILL -- "$@" </dev/null >"$tmp/qemu.out" \
		2>"$tmp/qemu.err" &
	qemu_pid=$!
	watch
	host_load
	copy_back
	verdict
	finish_result "$why"
	if [ -f "$run_dir/summary.txt" ]; then
		sed -n 1p "$run_dir/summary.txt" >&2
	fi
	if no_result; then
		:
	elif [ -n "$why" ]; then
		printf '%s: %s (result in %s)\n' "$prog" "$why" "$run_dir" >&2
	elif [ "$status" != 0 ]; then
		printf '%s: latency-run-test in the guest exited with status %s (result in %s; see its console.log)\n' \
			"$prog" "$status" "$run_dir" >&2
	else
		progress "result in $run_dir"
	fi
	cleanup "$status"
}

# --- two kernels booted in turn ---------------------------------------------------
# A host's speed steps (measured on this project's KVM guest: user CPU of
# identical work -19% between two results minutes apart), so two kernels
# booted an hour apart differ by the hour as well.  A series boots them in
# pairs, each pair AB or BA (latency-plan --interleave-order, seeded), one
# result each, marked with the series in vm.json's "boots":
# latency-compare tests the differences within pairs, which share the
# host's speed of their time.  Each boot is this script again.
series_child='' series_sig='' series_told=''

# series_signal SIG: no boot after the running one, which is asked to
# stop (SIGTERM: an asynchronous command of a script starts with SIGINT
# ignored) and keeps its partial result.
series_signal() {
	series_sig=$1
	progress "SIG$1: stopping the series (the running boot keeps a partial result)"
	series_tell
}

# series_tell: the running boot asked to stop, once (a second SIGTERM
# would find it writing its partial result).
series_tell() {
	[ -n "$series_sig" ] && [ -n "$series_child" ] && [ -z "$series_told" ] ||
		return 0
	series_told=yes
	kill -TERM "$series_child" 2>/dev/null || true
}

# series_labels: label_a and label_b, the kernels' releases where --label
# did not give them (RELEASE-a and RELEASE-b for one release twice).
series_labels() {
	[ -z "$label_a" ] || return 0
	_k=$opt_kernel
	resolve_kernel
	label_a=$kernel_release
	# --dry-run fetches nothing: a package's release is not known yet.
	[ -f "$kernel_image" ] || label_a=$opt_kernel
	opt_kernel=$opt_kernel_b
	resolve_kernel
	label_b=$kernel_release
	[ -f "$kernel_image" ] || label_b=$opt_kernel
	opt_kernel=$_k
	[ "$label_a" != "$label_b" ] || label_a=$label_a-a label_b=$label_b-b
	[ "$opt_dry_run" = yes ] && return 0
	release_label "$label_a" "--kernel=$opt_kernel"
	release_label "$label_b" "--kernel=$opt_kernel_b"
}

# series_results ARM SERIES: the result directories of the series' boots
# of ARM, in pair order.
series_results() {
	for _f in "$opt_results"/*/vm.json; do
		if ! [ -f "$_f" ] || [ -L "$_f" ]; then continue; fi
		if ! grep -q -F "\"series\": \"$2\"," "$_f" ||
			! grep -q -F "\"arm\": \"$1\"," "$_f"; then
			continue
		fi
		printf '%s %s\n' "$(sed -n 's/^    "pair": \([0-9]*\),$/\1/p' "$_f")" \
			"${_f%/vm.json}"
	done | sort -n | cut -d' ' -f2-
}

# series_boot ARG...: one boot of the series, in the background.
series_boot() {
	"$0" "$@" &
	series_child=$!
}

run_series() {
	need_tools qemu-system-x86_64 busybox cryptsetup lvm dmsetup mke2fs \
		debugfs e2fsck mkswap kmod cpio gzip ldd dash
	series_labels
	_order=$("$p_latency_plan" --interleave-order="$opt_pairs" \
		--seed="$opt_order_seed") || die "latency-plan --interleave-order failed"
	_order=${_order#order=}
	_series=$(date -u +%Y%m%dT%H%M%SZ)-$$
	_n=$((2 * opt_pairs))
	progress "$opt_pairs pairs of boots: $label_a (a, --kernel=$opt_kernel) and $label_b (b, --kernel=$opt_kernel_b), order $_order (--order-seed=$opt_order_seed)"
	trap 'series_signal INT' INT
	trap 'series_signal TERM' TERM
	trap 'series_signal HUP' HUP
	_i=0 _status=0 _failed=0
	while [ $_i -lt $_n ] && [ -z "$series_sig" ]; do
		_i=$((_i + 1))
		_pair=$(((_i + 1) / 2))
		if [ "$(printf '%s' "$_order" | cut -c"$_i")" = A ]; then
			_arm=a _kernel=$opt_kernel _label=$label_a
		else
			_arm=b _kernel=$opt_kernel_b _label=$label_b
		fi
		_cmd="$common_args${common_args:+ }$(quote_args "--kernel=$_kernel" \
			"--label=$_label" \
			"--series-boot=$_series,$opt_pairs,$_order,$opt_order_seed,$_pair,$_arm,$label_a,$label_b") --${run_args:+ $run_args}"
		if [ "$opt_dry_run" = yes ]; then
			printf '# boot %s of %s (pair %s, arm %s): %s %s\n' \
				"$_i" "$_n" "$_pair" "$_arm" "$prog" "$_cmd"
			continue
		fi
		progress "boot $_i of $_n: pair $_pair, arm $_arm ($_label)"
		series_told=
		eval "series_boot $_cmd"
		# A signal between the start and \$! is told by series_tell.
		wait_gone "$series_child" series_tell
		_st=$wait_status
		series_child=
		[ -n "$series_sig" ] || [ "$_st" = 0 ] || {
			_failed=$((_failed + 1))
			[ "$_status" != 0 ] || _status=$_st
		}
	done
	[ "$opt_dry_run" = no ] || return 0
	case $series_sig in
	INT) _status=130 ;;
	TERM) _status=143 ;;
	HUP) _status=129 ;;
	esac
	# One directory a line, whatever --results holds: split on newlines,
	# no globbing, quoted for the user.
	_dirs=$(series_results a "$_series")
	_dirs_b=$(series_results b "$_series")
	_ifs=$IFS
	IFS='
'
	set -f
	# shellcheck disable=SC2086 # split on newlines only
	_dirs=$(quote_args $_dirs $_dirs_b)
	set +f
	IFS=$_ifs
	printf '%s: %s of %s boots made, %s failed%s; compare them with:\n  latency-compare %s\n' \
		"$prog" "$_i" "$_n" "$_failed" "${series_sig:+, stopped by SIG$series_sig}" \
		"$_dirs" >&2
	# Told to stop: the page too can wait (latency-compare makes it later).
	[ -n "$series_sig" ] || series_page "$_series"
	exit "$_status"
}

# series_page SERIES: the series' own page, its boots side by side
# (latency-compare --format=html), as series-SERIES.html beside them.  A
# view of the results, not one: a page that cannot be made is said, and
# the series' exit status stands.
series_page() {
	_page=$opt_results/series-$1.html
	# Globbing on while series_results looks for the results.
	_dirs=$(series_results a "$1")
	_dirs_b=$(series_results b "$1")
	_ifs=$IFS
	IFS='
'
	set -f
	# shellcheck disable=SC2086 # result directories, split on newlines
	set -- $_dirs $_dirs_b
	set +f
	IFS=$_ifs
	[ "$#" -gt 0 ] || return 0
	if html_page "$_page" "$_page.log" "$@"; then
		printf '%s: the series as a page: %s\n' "$prog" "$_page" >&2
	else
		warn "no series page: latency-compare failed (see $_page.log)"
	fi
}

main() {
	parse_options "$@"
	cache_dir=${LATENCY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/latency-tests}
	if [ -n "$opt_build_image" ]; then
		build_image
		exit 0
	fi
	if [ "$kernels" -ge 2 ]; then
		run_series
		exit 0
	fi
	run "$@"
}

main "$@"
