/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel tunables a memory test may change, defined once: what
 * `run-test.sh --sysctl` and `--interleave` accept and what latency-machine
 * records and replays.  A run may change sysctls under vm. (the memory
 * manager's own knobs) and sysfs knobs under /sys/kernel/mm/, under
 * /sys/module/zswap/parameters/ and a block device's queue/read_ahead_kb,
 * scheduler (read back as its bracketed choice), max_sectors_kb and
 * nr_requests: each is a plain setting that reads back as it was written, so the value
 * before the run can be put back.  Nothing else: a sysctl such as
 * kernel.core_pattern or a sysfs file such as /sys/power/state would let a
 * damaged or planted state record do harm as root, and a write-only
 * trigger (vm.drop_caches, vm.compact_memory) has no value to restore.
 */
#ifndef LATENCY_KNOB_H
#define LATENCY_KNOB_H

#include <stdbool.h>

enum knob_kind {
	KNOB_SYSCTL, /* vm.page-cluster, or vm/page-cluster */
	KNOB_SYSFS,  /* /sys/kernel/mm/transparent_hugepage/enabled */
};

/*
 * Is PATH absolute, without empty, "." or ".." components, a trailing
 * slash or a control character, and at most 2048 bytes long?
 */
bool path_is_clean(const char *path);

/*
 * May a run change the knob NAME: a sysctl as sysctl(8) names it
 * (vm.page-cluster or vm/page-cluster) or an absolute sysfs path?  Returns
 * 0 and its kind in *KIND (when not NULL), or -EINVAL with the reason, a
 * static string ("only sysctls under vm. may be changed"), in *WHY (when
 * not NULL).
 */
int knob_check(const char *name, enum knob_kind *kind, const char **why);

/*
 * The file of the allowed knob NAME below the proc and sysfs roots PROC
 * and SYS ("/proc" and "/sys" on a real machine; tests give fake ones):
 * vm.page-cluster -> PROC/sys/vm/page-cluster, /sys/kernel/mm/x ->
 * SYS/kernel/mm/x.  Returns an allocated path, or NULL (errno EINVAL) when
 * knob_check() refuses NAME.
 */
char *knob_file(const char *name, const char *proc, const char *sys);

/*
 * Is the value V one a knob may be given: 1 to 256 bytes of letters,
 * digits, and . _ : - [ ] and single spaces (a THP choice, "1 2")?
 */
bool knob_value_ok(const char *v);

#endif
