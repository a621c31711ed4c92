# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# vm-image.sh: sourced by latency-vm.  The kernel (a Debian package fetched
# with apt-get download and unpacked into the cache, never installed) and
# the guest images, each cached under a key of what went into it:
#   quick rootfs   an ext4 image: busybox, the suite's programs and
#                  scripts, cryptsetup, LVM, mke2fs, kmod, their shared
#                  libraries (every file's sha256 is in the key)
#   initramfs      busybox, vm-initrd.sh as /init and the kernel modules
#                  the guest needs, with their dependencies (per kernel)
#   repository     the synthetic repository as an ext4 image, read-only
#   package image  mmdebstrap's Debian root with the suite's .deb, Debian's
#                  kernel and initramfs, for LAVA (vm_package_*)
# Leaf functions: they take their inputs as arguments and die (shell-lib)
# on failure.

# What the recipes need on the host: program and Debian package.
vm_tool_packages='qemu-system-x86_64:qemu-system-x86 busybox:busybox-static
cryptsetup:cryptsetup-bin lvm:lvm2 dmsetup:dmsetup mke2fs:e2fsprogs
debugfs:e2fsprogs e2fsck:e2fsprogs mkswap:util-linux setpriv:util-linux setsid:util-linux
kmod:kmod cpio:cpio gzip:gzip
dpkg-deb:dpkg apt-get:apt ldd:libc-bin dash:dash mmdebstrap:mmdebstrap git:git
dpkg-buildpackage:dpkg-dev dh:debhelper'

# The modules the guest loads (with their dependencies) where the kernel
# has them as modules: virtio disks, ext4, dm-crypt and its ciphers, zram.
vm_modules='virtio_pci virtio_blk crc32c_generic crc32c_intel ext4 dm_mod
dm_crypt ecb xts aesni_intel algif_skcipher zram zsmalloc z3fold lz4'

# The recipe's own version: a change of what the recipes do changes it.
vm_recipe_version=1

vm_tool_path() {
	for _d in /usr/sbin /sbin /usr/bin /bin; do
		[ -x "$_d/$1" ] && {
			echo "$_d/$1"
			return 0
		}
	done
	command -v "$1" 2>/dev/null
}

# vm_missing_packages TOOL...: the Debian packages of the missing tools.
vm_missing_packages() {
	_pk=
	for _t in "$@"; do
		vm_tool_path "$_t" >/dev/null && continue
		for _tp in $vm_tool_packages; do
			[ "${_tp%%:*}" = "$_t" ] || continue
			case " $_pk " in
			*" ${_tp#*:} "*) ;;
			*) _pk="$_pk${_pk:+ }${_tp#*:}" ;;
			esac
		done
	done
	echo "$_pk"
}

vm_sha256() {
	sha256sum "$1" | cut -d' ' -f1
}

# vm_kernel_release IMAGE: the release of an x86 bzImage (its header's
# version string, first word); fails when IMAGE is not one.
vm_kernel_release() {
	[ -f "$1" ] && [ -r "$1" ] || return 1
	[ "$(dd if="$1" bs=1 skip=514 count=4 2>/dev/null)" = HdrS ] || return 1
	_off=$(od -An -tu2 -j526 -N2 "$1" | tr -d ' ')
	case $_off in '' | *[!0-9]*) return 1 ;; esac
	_rel=$(dd if="$1" bs=1 skip=$((_off + 512)) count=256 2>/dev/null |
		tr '\000' '\n' | sed -n '1s/ .*//p')
	case $_rel in
	'' | *[!A-Za-z0-9._+~-]*) return 1 ;;
	esac
	echo "$_rel"
}

# vm_kernel_package NAME: "PACKAGE VERSION" of the kernel image package
# NAME names (a metapackage such as linux-image-amd64 is followed to the
# image it depends on), from the host's apt lists.
vm_kernel_package() {
	_info=$(apt-cache show --no-all-versions "$1" 2>/dev/null) || return 1
	_ver=$(printf '%s\n' "$_info" | sed -n 's/^Version: //p' | sed -n 1p)
	[ -n "$_ver" ] || return 1
	_dep=$(printf '%s\n' "$_info" | sed -n 's/^Depends: //p' | tr ',' '\n' |
		sed -n 's/^ *\(linux-image-[0-9][^ (|]*\).*/\1/p' | sed -n 1p)
	if [ -n "$_dep" ]; then
		vm_kernel_package "$_dep"
		return
	fi
	echo "$1 $_ver"
}

# vm_kernel_fetch DIR PACKAGE VERSION LOG: PACKAGE=VERSION downloaded
# with apt-get download and unpacked with dpkg-deb -x into DIR (made
# complete or not at all), modules indexed with depmod.
vm_kernel_fetch() {
	[ -d "$1" ] && return 0
	_tmp=$1.tmp.$$
	rm -rf "$_tmp"
	mkdir -p "$_tmp" || return 1
	vm_building=$_tmp
	vm_own "$_tmp" || return 1
	(cd "$_tmp" && apt-get download "$2=$3") >>"$4" 2>&1 || {
		rm -rf "$_tmp"
		return 1
	}
	if ! dpkg-deb -x "$_tmp"/*.deb "$_tmp/root" >>"$4" 2>&1; then
		rm -rf "$_tmp"
		return 1
	fi
	rm -f "$_tmp"/*.deb
	for _m in "$_tmp"/root/lib/modules/*; do
		[ -d "$_m" ] || continue
		depmod -b "$_tmp/root" "${_m##*/}" >>"$4" 2>&1 || {
			rm -rf "$_tmp"
			return 1
		}
	done
	mv "$_tmp/root" "$1" && rm -rf "$_tmp" && vm_building=
}

# --- manifests: what goes into an image, one entry a line ------------------
#   file DEST SRC     a copy of SRC (symbolic links followed)
#   exec DEST SRC     the same, executable
#   link DEST TARGET  a symbolic link
#   dir DEST          an empty directory
# The key of an image is the sha256 of its manifest, with every SRC's own
# sha256, and the recipe version.

# vm_elf_entries DEST SRC: SRC at DEST and the shared libraries it needs
# at their own paths (ldd's answer).
vm_elf_entries() {
	echo "file $1 $2"
	# A static program has no libraries (ldd says so and fails).
	ldd "$2" 2>/dev/null | awk '
		$2 == "=>" && $3 ~ /^\// { print "file " $3 " " $3 }
		$1 ~ /^\// { print "file " $1 " " $1 }' || true
}

# vm_quick_manifest BUSYBOX GUEST PROGS SCRIPTS HELPERS: the quick root
# filesystem.  PROGS: the suite's programs (paths), SCRIPTS: the built
# driver and device setup, HELPERS: the sourced helpers.
vm_quick_manifest() {
	{
		for _d in proc sys dev run tmp root etc mnt/results mnt/repo \
			mnt/scratch mnt/latency-scratch lib/modules var/tmp \
			sys/fs/cgroup; do
			echo "dir /$_d"
		done
		# Debian's /bin/sh: busybox's shell runs its own applets
		# before the programs on PATH.
		vm_elf_entries /bin/sh "$(vm_tool_path dash)"
		echo "file /bin/busybox $1"
		for _a in $("$1" --list); do
			case $_a in
			busybox | modprobe | insmod | rmmod | lsmod | depmod) ;;
			*) echo "link /bin/$_a busybox" ;;
			esac
		done
		echo "exec /sbin/latency-vm-guest $2"
		echo "file /etc/mke2fs.conf /etc/mke2fs.conf"
		vm_elf_entries /usr/sbin/cryptsetup "$(vm_tool_path cryptsetup)"
		vm_elf_entries /usr/sbin/dmsetup "$(vm_tool_path dmsetup)"
		vm_elf_entries /usr/sbin/lvm "$(vm_tool_path lvm)"
		for _a in pvcreate vgcreate lvcreate vgchange lvs vgs pvs \
			lvremove vgremove pvremove; do
			echo "link /usr/sbin/$_a lvm"
		done
		vm_elf_entries /usr/sbin/mke2fs "$(vm_tool_path mke2fs)"
		for _a in mkfs.ext2 mkfs.ext3 mkfs.ext4; do
			echo "link /usr/sbin/$_a mke2fs"
		done
		# util-linux's: the drivers use options busybox lacks (-q).
		for _a in mkswap swapon swapoff; do
			vm_elf_entries "/usr/sbin/$_a" "$(vm_tool_path "$_a")"
		done
		vm_elf_entries /usr/bin/kmod "$(vm_tool_path kmod)"
		for _a in modprobe insmod rmmod lsmod depmod; do
			echo "link /sbin/$_a ../usr/bin/kmod"
		done
		for _p in $3; do
			vm_elf_entries "/opt/latency-tests/bin/${_p##*/}" "$_p"
		done
		for _p in $4; do
			echo "file /opt/latency-tests/bin/${_p##*/} $_p"
		done
		for _p in $5; do
			echo "file /opt/latency-tests/share/${_p##*/} $_p"
		done
	} | awk '!seen[$2]++'
}

# vm_initrd_manifest BUSYBOX INIT MODDIR: the initramfs; MODDIR is the
# kernel's module tree (lib/modules/RELEASE, indexed), or empty.
vm_initrd_manifest() {
	for _d in proc sys dev newroot; do
		echo "dir /$_d"
	done
	echo "file /bin/busybox $1"
	for _a in sh mount umount insmod switch_root cat cp mkdir sleep; do
		echo "link /bin/$_a busybox"
	done
	echo "exec /init $2"
	[ -n "$3" ] || return 0
	_rel=${3%/}
	_rel=${_rel##*/}
	[ -f "$3/modules.dep" ] || return 0
	# shellcheck disable=SC2086 # the module names are words
	vm_module_order "$3/modules.dep" $vm_modules | while read -r _f; do
		echo "module $_f $3/$_f"
	done
	for _f in modules.order modules.builtin modules.builtin.modinfo; do
		[ -f "$3/$_f" ] && echo "file /lib/modules/$_rel/$_f $3/$_f"
	done
	return 0
}

# vm_module_order MODULES.DEP NAME...: the module files to load for the
# modules NAME (those the kernel has as modules), each after what it
# depends on, as modprobe orders them (depmod lists a module's
# dependencies, the ones loaded first last).
vm_module_order() {
	_dep=$1
	shift
	awk -v want="$*" '
		function modname(p, n) {
			n = p
			sub(/.*\//, "", n)
			sub(/\.ko(\.[a-z]+)?$/, "", n)
			gsub(/-/, "_", n)
			return n
		}
		function emit(p) { if (!(p in done)) { done[p] = 1; print p } }
		{
			sub(/:$/, "", $1)
			n = modname($1)
			path[n] = $1
			ndep[n] = NF - 1
			for (i = 2; i <= NF; i++)
				dep[n, i - 1] = $i
		}
		END {
			k = split(want, w, " ")
			for (j = 1; j <= k; j++) {
				m = w[j]
				gsub(/-/, "_", m)
				if (!(m in path))
					continue
				for (i = ndep[m]; i >= 1; i--)
					emit(dep[m, i])
				emit(path[m])
			}
		}' "$_dep"
}

# vm_manifest_key MANIFEST: the key of what it lists (sha256, 16 digits).
vm_manifest_key() {
	{
		echo "recipe $vm_recipe_version"
		cat "$1"
		# Every copied file's content, in the manifest's order.
		awk '$1 == "file" || $1 == "exec" || $1 == "module" { print $3 }' "$1" |
			tr '\n' '\0' | xargs -0 -r sha256sum
	} | sha256sum | cut -c1-16
}

# vm_stage MANIFEST DIR: the files of MANIFEST under DIR.
vm_stage() {
	_rel=
	while read -r _k _d _s; do
		case $_k in
		dir) mkdir -p "$2$_d" ;;
		file | exec)
			mkdir -p "$2${_d%/*}" && cp -L "$_s" "$2$_d" &&
				if [ "$_k" = exec ]; then chmod 755 "$2$_d"; fi
			;;
		link)
			mkdir -p "$2${_d%/*}" && ln -sfn "$_s" "$2$_d"
			;;
		module)
			# The module tree of the release MODDIR names.
			_rel=${_s%/"$_d"}
			_rel=${_rel##*/}
			mkdir -p "$2/lib/modules/$_rel/${_d%/*}" &&
				cp -L "$_s" "$2/lib/modules/$_rel/$_d" &&
				echo "$_d" >>"$2/lib/modules/load.list"
			;;
		esac || return 1
	done <"$1"
	if [ -n "$_rel" ]; then
		depmod -b "$2" "$_rel" || return 1
	fi
}

# vm_ext4 DIR IMAGE LABEL EXTRA_KIB [OPTION...]: an ext4 image of DIR's
# content, its size what DIR holds plus a quarter plus EXTRA_KIB.  (Its
# variables are its own: a caller's _dir survives it.)
vm_ext4() {
	_e4_dir=$1 _e4_img=$2 _e4_label=$3 _e4_extra=$4
	shift 4
	_e4_kib=$(du -sk "$_e4_dir" | cut -f1)
	_e4_kib=$((_e4_kib + _e4_kib / 4 + _e4_extra))
	rm -f "$_e4_img"
	mke2fs -q -F -t ext4 -L "$_e4_label" -d "$_e4_dir" -E root_owner=0:0 "$@" \
		"$_e4_img" "${_e4_kib}k" >/dev/null
}

# vm_build_cached DIR BUILDER ARG...: DIR made by BUILDER TMPDIR ARG...
# into a sibling and renamed into place when complete (another latency-vm
# may build the same image meanwhile: the first one wins).
vm_build_cached() {
	_dest=$1
	shift
	[ -d "$_dest" ] && return 0
	mkdir -p "${_dest%/*}" || return 1
	_tmp=$(mktemp -d "$_dest.tmp.XXXXXX") && chmod 755 "$_tmp" || return 1
	# For the cleanup of a signal: what is half made.
	vm_building=$_tmp
	vm_own "$_tmp" || return 1
	if ! "$@" "$_tmp"; then
		rm -rf "$_tmp"
		vm_building=
		return 1
	fi
	rm -f "$_tmp/.owner"
	if ! mv -T "$_tmp" "$_dest" 2>/dev/null; then
		rm -rf "$_tmp"
		vm_building=
		[ -d "$_dest" ] || return 1
	fi
	vm_building=
}

# vm_own DIR: DIR is this process's while it runs: DIR/.owner holds
# latency-vm's pid and start time (a reused pid is not taken for it);
# vm_sweep removes the directories whose owner is gone.
vm_own() {
	printf '%s %s\n' $$ "$(vm_start_time $$)" >"$1/.owner"
}

# vm_start_time PID: the start time of process PID (/proc/PID/stat's
# 22nd field, after the command name, which may hold blanks), or nothing.
vm_start_time() {
	sed -n 's/^.*) //p' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f20
}

# vm_sweep CACHE: the run directories (run.*) and the half-made images,
# repositories and kernels (*.tmp.*) in CACHE/vm of latency-vm processes
# that are gone (killed, or the machine rebooted), removed and named:
# their .owner names a process that is not there, or without one (made
# before .owner) they are an hour old.
vm_sweep() {
	for _sw in "$1"/vm/run.* "$1"/vm/images/*.tmp.* "$1"/vm/repos/*.tmp.* \
		"$1"/vm/kernels/*.tmp.*; do
		[ -d "$_sw" ] && ! [ -L "$_sw" ] || continue
		if [ -f "$_sw/.owner" ]; then
			read -r _sw_pid _sw_start <"$_sw/.owner" || :
			case $_sw_pid in
			'' | *[!0-9]*) ;;
			*) [ "$(vm_start_time "$_sw_pid")" != "${_sw_start:-}" ] || continue ;;
			esac
		elif [ -z "$(find "$_sw" -maxdepth 0 -mmin +60)" ]; then
			continue
		fi
		rm -rf "$_sw" && echo "$_sw"
	done
}

# Builders (last argument: the directory to fill).
vm_build_rootfs() { # MANIFEST DIR
	cp "$1" "$2/manifest" &&
		vm_stage "$1" "$2/root" &&
		vm_ext4 "$2/root" "$2/rootfs.img" lt-root 16384 -O ^has_journal &&
		rm -rf "$2/root"
}

vm_build_initrd() { # MANIFEST DIR
	cp "$1" "$2/manifest" && vm_stage "$1" "$2/root" || return 1
	(cd "$2/root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
		gzip -1 >"$2/initrd.img" || return 1
	rm -rf "$2/root"
}

vm_build_repo() { # REPO NAME DIR
	mkdir "$3/root" &&
		{ cp -al "$1" "$3/root/repo" 2>/dev/null ||
			cp -a "$1" "$3/root/repo"; } &&
		vm_ext4 "$3/root" "$3/repo.img" lt-repo 16384 -O ^has_journal &&
		echo "$2" >"$3/source" &&
		rm -rf "$3/root"
}
