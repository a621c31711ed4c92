# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# vm-results.sh: sourced by latency-vm.  What comes back from the guest's
# results disk, an ext4 image the kernel under test wrote: hostile input.
# The image is read with debugfs (never mounted: the host's kernel does
# not parse it), entry by entry, and only regular files and directories
# with plain names come back, into a directory of the host's that the
# guest never touched, made by the host with its own owner and modes
# (0644, 0755): no link, device, FIFO or socket, no owner or mode of the
# guest's, holes kept, within caps of bytes and files.  Whatever is
# refused is named in a list for the result's notes.

# The caps (bytes: the sum of the files' sizes, holes counted; files:
# regular files and directories).  A real run's result is megabytes and a
# few hundred files.
: "${LATENCY_VM_RESULT_BYTES:=268435456}" "${LATENCY_VM_RESULT_FILES:=10000}"
# Directories deeper than this are refused (a crafted image can make a
# directory its own descendant).
vm_results_depth=16

# vm_results_ls IMAGE INODE: the entries of directory INODE, a line each:
# "TYPE INODE SIZE BYTES NAME", TYPE f (regular file), d (directory), l
# (symbolic link) or s (device, FIFO or socket), SIZE the size in bytes
# as a shell can compare it, BYTES as the disk says; "? 0 0 0 -" for an entry
# whose name has other characters than letters, digits and ._+,=@:-
# (debugfs prints names raw: a newline in one would split it).
vm_results_ls() {
	debugfs -R "ls -p <$2>" "$1" 2>/dev/null </dev/null | awk '
	# Inode 0: an empty slot, what ext4 leaves of a removed entry that
	# began a directory block (a run removing its empty report.log).
	/^\/0\// { next }
	/^\/[0-9]+\/[0-7]+\/[0-9]+\/[0-9]+\/[A-Za-z0-9._+,=@:-]+\/[0-9]*\/$/ {
		split($0, f, "/")
		if (f[6] == "." || f[6] == "..")
			next
		t = substr(f[3], 1, length(f[3]) - 4)
		t = t == "10" ? "f" : t == "4" || t == "04" ? "d" : t == "12" ? "l" : "s"
		# A size the shell cannot compare is over every cap anyway.
		sz = f[7] == "" ? 0 : length(f[7]) > 15 ? "999999999999999" : f[7]
		printf "%s %s %s %s %s\n", t, f[2], sz, f[7] == "" ? 0 : f[7], f[6]
		next
	}
	/^\/[0-9]+\/[0-7]+\// { print "? 0 0 0 -" }'
}

# vm_results_lookup IMAGE PATH: "TYPE INODE SIZE" of PATH (from /, a
# plain name a level) in IMAGE, nothing when absent.
vm_results_lookup() {
	_rl_ino=2 _rl_line=
	_rl_ifs=$IFS
	IFS=/
	set -f
	# shellcheck disable=SC2086 # split on /
	set -- "$1" ${2#/}
	set +f
	IFS=$_rl_ifs
	_rl_img=$1
	shift
	for _rl_n; do
		_rl_line=$(vm_results_ls "$_rl_img" "$_rl_ino" |
			awk -v n="$_rl_n" '$5 == n { print $1, $2, $3; exit }')
		[ -n "$_rl_line" ] || return 0
		_rl_ino=${_rl_line#* }
		_rl_ino=${_rl_ino%% *}
	done
	printf '%s\n' "$_rl_line"
}

# vm_results_cat IMAGE INODE SIZE FILE: at most SIZE bytes of INODE into
# FILE, a new name in a directory of the host's, holes kept (no full-size
# copy anywhere).
vm_results_cat() {
	debugfs -R "cat <$2>" "$1" 2>/dev/null </dev/null |
		dd of="$4" bs=64k iflag=fullblock,count_bytes count="$3" \
			conv=sparse status=none
}

# vm_results_copy IMAGE DIR DEST REFUSED: the tree of DIR (a path in
# IMAGE) into DEST, a new directory of the host's; the refused entries
# are listed in REFUSED, a line each ("PATH (why)"), the lines of lost
# data (a regular file or directory refused) starting with "lost ".  Set
# vm_results_files and vm_results_bytes to what came back.  Returns 1 when
# DIR is not a directory in IMAGE.
vm_results_copy() {
	_rc_img=$1 _rc_dest=$3 _rc_refused=$4
	: >"$_rc_refused"
	_rc_root=$(vm_results_lookup "$_rc_img" "$2")
	case $_rc_root in
	d\ *) ;;
	*) return 1 ;;
	esac
	_rc_queue=$_rc_refused.queue
	_rc_um=$(umask)
	umask 022
	_rc_ino=${_rc_root#d }
	printf '%s 1 .\n' "${_rc_ino%% *}" >"$_rc_queue"
	vm_results_files=0 vm_results_bytes=0
	# A queue of directories: INODE DEPTH PATH (PATH of plain names),
	# appended to while it is read.
	# shellcheck disable=SC2094 # on purpose: read and appended to
	while read -r _rc_dino _rc_depth _rc_dpath; do
		# Not a pipe: the counts are this shell's.
		# shellcheck disable=SC2094 # on purpose: read and appended to
		vm_results_ls "$_rc_img" "$_rc_dino" >"$_rc_queue.ls"
		vm_results_entries <"$_rc_queue.ls" >>"$_rc_queue"
	done <"$_rc_queue"
	umask "$_rc_um"
	rm -f "$_rc_queue" "$_rc_queue.ls"
}

# vm_results_entries: the entries of one directory on stdin (from
# vm_results_ls) copied or refused; the directories to walk on stdout.
vm_results_entries() {
	while read -r _re_t _re_ino _re_size _re_bytes _re_name; do
		[ -n "$_re_t" ] || continue
		_re_path=${_rc_dpath#.}${_rc_dpath:+/}$_re_name
		_re_path=${_re_path#/}
		_re_to=$_rc_dest/$_re_path
		_re_why=
		case $_re_t in
		l) _re_why='a symbolic link' ;;
		s) _re_why='not a regular file or directory' ;;
		'?') _re_why='a name of other characters than letters, digits and ._+,=@:-'
			_re_path=${_rc_dpath#.}${_rc_dpath:+/}'?' _re_path=${_re_path#/} ;;
		esac
		if [ -z "$_re_why" ] && [ -e "$_re_to" ]; then
			_re_why='a second entry of that name'
		elif [ -z "$_re_why" ] && [ "$_rc_dpath" = . ]; then
			# The host writes these itself.
			case $_re_t.$_re_name in
			?.console.log | ?.qemu.err | ?.qemu.cmdline | ?.vm.json | ?.*.tmp | \
				d.notes | d.run.facts | d.result.json | d.summary.txt | \
				d.report.html | d.report.log)
				# Nothing lost: the host's own file is there.
				_re_why='a name the host writes' _re_t=h ;;
			esac
		fi
		if [ -z "$_re_why" ] &&
			[ "$vm_results_files" -ge "$LATENCY_VM_RESULT_FILES" ]; then
			_re_why="over the $LATENCY_VM_RESULT_FILES files the host takes back"
		fi
		if [ -z "$_re_why" ] && [ "$_re_t" = d ] &&
			[ "$_rc_depth" -ge $vm_results_depth ]; then
			_re_why="deeper than $vm_results_depth directories"
		fi
		if [ -z "$_re_why" ] && [ "$_re_t" = f ] &&
			[ "$_re_size" -gt $((LATENCY_VM_RESULT_BYTES - vm_results_bytes)) ]; then
			_re_why="$_re_bytes bytes, over the $LATENCY_VM_RESULT_BYTES bytes the host takes back"
		fi
		if [ -z "$_re_why" ] && [ "$_re_t" = d ]; then
			mkdir "$_re_to" || _re_why='cannot be made here'
		elif [ -z "$_re_why" ]; then
			vm_results_cat "$_rc_img" "$_re_ino" "$_re_size" "$_re_to" ||
				_re_why='cannot be read'
		fi
		if [ -n "$_re_why" ]; then
			case $_re_t in
			f | d | '?') printf 'lost %s (%s)\n' "$_re_path" "$_re_why" ;;
			*) printf '%s (%s)\n' "$_re_path" "$_re_why" ;;
			esac >>"$_rc_refused"
			continue
		fi
		vm_results_files=$((vm_results_files + 1))
		if [ "$_re_t" = d ]; then
			printf '%s %s %s\n' "$_re_ino" $((_rc_depth + 1)) "$_re_path"
		else
			vm_results_bytes=$((vm_results_bytes + _re_size))
		fi
	done
}
