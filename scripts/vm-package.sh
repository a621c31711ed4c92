# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# vm-package.sh: sourced by latency-vm.  The image a LAVA job boots: a
# Debian root file system made by mmdebstrap from the host's apt sources,
# with Debian's kernel and initramfs (linux-image-amd64, initramfs-tools,
# installed in the image, never on the host), systemd with root logged in
# automatically on ttyS0, and the suite's own .deb installed; written as
# an ext4 image (label latency-root) beside the kernel and initrd taken
# from its /boot.  Cached under the key of the .deb, the packages' versions
# the apt lists offer, the sources and the recipe.

# The packages besides the suite's (whose dependencies come with it).
vm_package_include='systemd-sysv udev kmod linux-image-amd64 initramfs-tools
cryptsetup-bin lvm2 dmsetup e2fsprogs procps util-linux iproute2 git
gnuplot-nox'

vm_package_recipe_version=1

# vm_package_sources: the apt sources file of the host's Debian archive.
vm_package_sources() {
	for _s in "${LATENCY_VM_APT_SOURCES:-}" \
		/etc/apt/sources.list.d/debian.sources /etc/apt/sources.list; do
		[ -n "$_s" ] && [ -s "$_s" ] && {
			echo "$_s"
			return 0
		}
	done
	return 1
}

# vm_package_key DEB SOURCES SUITE: the image's cache key.
vm_package_key() {
	{
		# shellcheck disable=SC2154 # vm-image.sh is sourced first
		echo "recipe $vm_package_recipe_version $vm_recipe_version"
		echo "suite $3"
		vm_sha256 "$1"
		cat "$2"
		for _p in $vm_package_include; do
			printf '%s %s\n' "$_p" "$(apt-cache show --no-all-versions "$_p" 2>/dev/null |
				sed -n 's/^Version: //p' | sed -n 1p)"
		done
	} | sha256sum | cut -c1-16
}

# vm_package_deb TOP DIR LOG: the suite's .deb built with dpkg-buildpackage
# from a clone of the checkout TOP (its HEAD, as CI builds it) into DIR;
# prints its path.
vm_package_deb() {
	_commit=$(git -C "$1" rev-parse HEAD 2>/dev/null) || return 1
	_out=$2/deb-$_commit
	mkdir -p "$2" || return 1
	if ! [ -d "$_out" ]; then
		_b=$(mktemp -d "$2/build.XXXXXX") || return 1
		if ! {
			git clone -q "$1" "$_b/src" &&
				(cd "$_b/src" &&
					DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b)
		} >"$3" 2>&1; then
			rm -rf "$_b"
			return 1
		fi
		if ! mkdir "$_b/out" || ! mv "$_b"/latency-tests_*.deb "$_b/out/" ||
			! mv -T "$_b/out" "$_out"; then
			rm -rf "$_b"
			return 1
		fi
		rm -rf "$_b"
	fi
	for _d in "$_out"/latency-tests_*.deb; do
		echo "$_d"
	done
}

# vm_build_package DEB SOURCES SUITE LOG DIR: the image in DIR (rootfs.img,
# vmlinuz, initrd.img, manifest: the image's packages and versions).
vm_build_package() {
	_deb=$1 _src=$2 _suite=$3 _log=$4 _dir=$5
	# shellcheck disable=SC2016 # the hooks are run by mmdebstrap's shell
	mmdebstrap --variant=minbase \
		--include="$(printf '%s\n' "$vm_package_include" | tr -s ' \n' ',,' | sed 's/,$//')" \
		--customize-hook="copy-in $_deb /tmp" \
		--customize-hook='chroot "$1" sh -c "apt-get install -y -q /tmp/latency-tests_*.deb && rm /tmp/latency-tests_*.deb"' \
		--customize-hook='mkdir -p "$1/etc/systemd/system/serial-getty@ttyS0.service.d"' \
		--customize-hook='printf "%s\n" "[Service]" "ExecStart=" "ExecStart=-/sbin/agetty --autologin root --keep-baud 115200,57600,38400,9600 %I \$TERM" >"$1/etc/systemd/system/serial-getty@ttyS0.service.d/autologin.conf"' \
		--customize-hook='chroot "$1" systemctl enable serial-getty@ttyS0.service' \
		--customize-hook='chroot "$1" passwd -d root' \
		--customize-hook='echo latency-tests >"$1/etc/hostname"' \
		--customize-hook='echo "LABEL=latency-root / ext4 defaults 0 1" >"$1/etc/fstab"' \
		--customize-hook='chroot "$1" dpkg-query -W >"$1/../manifest"' \
		"$_suite" "$_dir/root" "$_src" >"$_log" 2>&1 || return 1
	for _k in "$_dir"/root/boot/vmlinuz-*; do
		cp "$_k" "$_dir/vmlinuz" || return 1
	done
	for _i in "$_dir"/root/boot/initrd.img-*; do
		cp "$_i" "$_dir/initrd.img" || return 1
	done
	[ -f "$_dir/vmlinuz" ] && [ -f "$_dir/initrd.img" ] || return 1
	# A gigabyte free for the test runs and their results.
	vm_ext4 "$_dir/root" "$_dir/rootfs.img" latency-root 1048576 >>"$_log" 2>&1 &&
		rm -rf "$_dir/root"
}
