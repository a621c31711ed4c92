# SPDX-License-Identifier: GPL-2.0-or-later
# lib-machine.sh: helpers for latency-machine's tests (t56NN-machine-*.sh),
# sourced after test-lib.sh.  A fake kernel: a proc and sys tree under
# $FAKE that latency-machine reads through LATENCY_PROC and LATENCY_SYS, and
# a writer (LATENCY_MACHINE_WRITER) that plays the kernel's part when a
# memory block goes offline or online or the hugetlb pool is resized:
# MemTotal, MemFree and HugePages_Total move as they would.
#
#   $FAKE/refuse         block names that refuse to go offline (EBUSY)
#   $FAKE/hang           block names whose offline write never returns
#   $FAKE/hugetlb-limit  the most hugetlb pages the kernel can find
#   $FAKE/drain          MiB that something else allocates per offline block
# Sizes: 128 MiB blocks, 2 MiB huge pages, meminfo in kB as the kernel has it.

FAKE=$TRASH_DIRECTORY/fake
MIB=1048576
# Where the runs of these tests make their cgroups (only names are used).
CGROOT=$TRASH_DIRECTORY/cgroup

# fake_tree TOTAL_MIB FREE_MIB MIN_FREE_KB: a machine with no blocks yet.
fake_tree() {
	rm -rf "$FAKE" &&
	mkdir -p "$FAKE/proc/sys/vm" "$FAKE/sys/devices/system/memory" &&
	cat >"$FAKE/proc/meminfo" <<-EOF &&
	MemTotal:       $(($1 * 1024)) kB
	MemFree:        $(($2 * 1024)) kB
	MemAvailable:   $(($2 * 1024)) kB
	Cached:         0 kB
	HugePages_Total:       0
	HugePages_Free:        0
	Hugepagesize:       2048 kB
	EOF
	echo "$3" >"$FAKE/proc/sys/vm/min_free_kbytes" &&
	echo 0 >"$FAKE/proc/sys/vm/nr_hugepages" &&
	printf 'Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n' \
		>"$FAKE/proc/swaps" &&
	cat >"$FAKE/proc/zoneinfo" <<-EOF &&
	Node 0, zone      DMA
	  per-node stats
	      nr_inactive_anon 10
	      nr_free_pages 100
	  pages free     100
	        boost    0
	        min      5
	        low      6
	        high     7
	        spanned  4095
	        present  3998
	        managed  3840
	        protection: (0, 2000, 2000, 2000)
	Node 0, zone   Normal
	  pages free     393216
	        boost    0
	        min      300
	        low      400
	        high     500
	        promo    1750
	        spanned  524288
	        present  524288
	        managed  520000
	        protection: (0, 0, 0, 0)
	      nr_free_pages 393216
	Node 0, zone  Movable
	  pages free     0
	        min      0
	        low      0
	        high     0
	        spanned  0
	        present  0
	        managed  0
	EOF
	echo 8000000 >"$FAKE/sys/devices/system/memory/block_size_bytes" &&
	: >"$FAKE/refuse" && : >"$FAKE/hang" &&
	fake_writer
}

# fake_block N STATE [REMOVABLE [VALID_ZONES]]: add memoryN; REMOVABLE "-"
# leaves the file out.
fake_block() {
	_d=$FAKE/sys/devices/system/memory/memory$1
	mkdir -p "$_d" &&
	echo "$2" >"$_d/state" &&
	if [ "${3:-1}" != - ]; then echo "${3:-1}" >"$_d/removable"; fi &&
	echo "${4:-Normal}" >"$_d/valid_zones"
}

# fake_blocks FIRST LAST: online removable blocks FIRST..LAST.
fake_blocks() {
	_n=$1
	while [ "$_n" -le "$2" ]; do
		fake_block "$_n" online || return 1
		_n=$((_n + 1))
	done
}

# fake_pid PID START [STATE]: $FAKE/proc/PID/stat, with a command name
# that holds spaces and parentheses as real ones may.
fake_pid() {
	mkdir -p "$FAKE/proc/$1" &&
	echo "$1 (fake (run) x) ${3:-S} 1 $1 $1 0 -1 4194560 1 2 3 4 5 6 7 8 9 10 11 12 $2 0 0" \
		>"$FAKE/proc/$1/stat"
}

# meminfo_kb KEY: a meminfo figure of the fake tree (kB or a count).
meminfo_kb() {
	awk -v k="$1:" '$1 == k { print $2 }' "$FAKE/proc/meminfo"
}

fake_writer() {
	cat >"$FAKE/writer" <<'EOF'
#!/bin/sh
# The fake kernel's side of a write: FILE VALUE.
set -eu
F=$(cd "$(dirname "$0")" && pwd)
file=$1
value=$2
add() {
	awk -v k="$1:" -v d="$2" '$1 == k { $2 = $2 + d } { print }' \
		"$F/proc/meminfo" >"$F/proc/meminfo.new"
	mv "$F/proc/meminfo.new" "$F/proc/meminfo"
}
case $file in
*/memory*/state)
	block=$(basename "$(dirname "$file")")
	old=$(cat "$file")
	case $value in
	offline)
		if grep -qx "$block" "$F/hang"; then
			echo $$ >"$F/hang.pid"
			exec sleep 600
		fi
		grep -qx "$block" "$F/refuse" && exit 16
		[ "$old" = online ] || exit 22
		echo offline >"$file"
		add MemTotal -131072
		add MemFree -131072
		if [ -s "$F/drain" ]; then add MemFree $((-1024 * $(cat "$F/drain"))); fi
		;;
	online)
		[ "$old" = offline ] || exit 22
		echo online >"$file"
		add MemTotal 131072
		add MemFree 131072
		;;
	esac
	;;
*/nr_hugepages)
	old=$(cat "$file")
	new=$value
	if [ -s "$F/hugetlb-limit" ] && [ "$new" -gt "$(cat "$F/hugetlb-limit")" ]; then
		new=$(cat "$F/hugetlb-limit")
	fi
	echo "$new" >"$file"
	add HugePages_Total $((new - old))
	add HugePages_Free $((new - old))
	add MemFree $((-2048 * (new - old)))
	;;
*/latency-tests.*/memory.max | */latency-tests.*/memory.limit_in_bytes | \
	*/latency-tests.*/cgroup.procs)
	# A cgroup's files, which the kernel makes with the directory.
	echo "$value" >"$file"
	;;
*)
	[ -e "$file" ] || exit 2 # ENOENT: the kernel makes no new files
	echo "$value" >"$file"
	;;
esac
# The Normal zone's free pages follow MemFree (the DMA zone keeps its own).
case $file in
*/memory*/state | */nr_hugepages)
	free_kb=$(awk '$1 == "MemFree:" { print $2 }' "$F/proc/meminfo")
	awk -v kb="$free_kb" '
		/^Node/ { z = $4 }
		z == "DMA" && $1 == "pages" && $2 == "free" { dma = $3 }
		{ line[NR] = $0; zone[NR] = z }
		END {
			n = int(kb / 4) - dma
			if (n < 0) n = 0
			for (i = 1; i <= NR; i++) {
				if (zone[i] == "Normal" && line[i] ~ /^ *pages free /)
					line[i] = "  pages free     " n
				print line[i]
			}
		}' "$F/proc/zoneinfo" >"$F/proc/zoneinfo.new"
	mv "$F/proc/zoneinfo.new" "$F/proc/zoneinfo"
	;;
esac
EOF
	chmod +x "$FAKE/writer"
}

# machine [ARG]...: latency-machine on the fake tree.
machine() {
	LATENCY_PROC=$FAKE/proc LATENCY_SYS=$FAKE/sys \
		LATENCY_STATE_DIR=$TRASH_DIRECTORY/state \
		LATENCY_CGROUP_ROOT=$CGROOT \
		LATENCY_MACHINE_WRITER=$FAKE/writer latency-machine "$@"
}

# crc_line CONTENT: CONTENT as a line of a record of format 2, its CRC-32
# (the one gzip keeps in its trailer) after a tab.
crc_line() {
	_crc=$(printf '%s' "$1" | gzip -c | tail -c 8 | od -An -tx4 -N4 | tr -d ' ')
	printf '%s\t%s\n' "$1" "$_crc"
}

# record_body [FILE]: the record (state/state) without its checksums.
record_body() {
	sed 's/\t[0-9a-f]\{8\}$//' "${1:-$TRASH_DIRECTORY/state/state}"
}

# record_head OWNER START [POOL [DIR...]]: the header of a record of run
# OWNER begun with --root=DIR..., as record_body shows it.
record_head() {
	printf 'format\t2\nowner\t%s\t%s\npool\t%s\ncgroup\t%s\n' \
		"$1" "$2" "${3:-0}" "$CGROOT"
	shift 2
	[ $# -eq 0 ] || shift
	for _d in "$@"; do
		printf 'root\t%s\t%s\n' "$_d" "$(stat -c %d:%i "$_d")"
	done
}

# value KEY FILE: the value of KEY=value in a key=value output.
value() {
	sed -n "s/^$1=//p" "$2"
}

# The 2 GiB machine of the shrink tests: blocks memory0..memory16 of which
# memory9 is offline (so 16 online: 2048 MiB), memory0 spans zones (valid
# zones "none"), memory13 is not removable and memory14 has no removable
# file; 1536 MiB free (512 MiB in use), min_free_kbytes 16384.
fake_2g() {
	fake_tree 2048 1536 16384 &&
	fake_block 0 online 1 none &&
	fake_blocks 1 16 &&
	echo offline >"$FAKE/sys/devices/system/memory/memory9/state" &&
	echo 0 >"$FAKE/sys/devices/system/memory/memory13/removable" &&
	rm "$FAKE/sys/devices/system/memory/memory14/removable"
}
