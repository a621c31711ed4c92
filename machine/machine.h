/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * latency-machine's private interfaces: the kernel files it reads and writes
 * (machine-kernel.c), the one machine-state record (doc/design.md, contract 5)
 * (machine-record.c) with its kinds of entry and their undo actions
 * (machine-entry.c), and the global shrink that imitates a mem= boot
 * (machine-shrink.c).  Every kernel path is built from the prefixes in
 * struct machine_env, so the tests run on a fake tree.
 */
#ifndef LATENCY_MACHINE_H
#define LATENCY_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/err.h"

/* Where things are, from the environment (see latency-machine(1)). */
struct machine_env {
	const char *proc;      /* LATENCY_PROC, default /proc */
	const char *sys;       /* LATENCY_SYS, default /sys */
	const char *state_dir; /* LATENCY_STATE_DIR */
	const char *writer; /* LATENCY_MACHINE_WRITER, NULL: write directly */
	int verbose;	    /* -v: say what each step did */
};

extern struct machine_env menv;

/* ---- machine-kernel.c: reading and writing kernel files ---- */

/* ROOT (menv.proc or menv.sys) and the path FMT makes (allocated). */
char *kpath(const char *root, const char *fmt, ...) PRINTF_LIKE(2, 3);

/*
 * Read the small text file PATH into BUF (LEN bytes) without its trailing
 * newline.  Returns the length, -EFBIG when it does not fit, or -errno.
 */
ssize_t kfile_read(const char *path, char *buf, size_t len);
/* A file holding one decimal (or, with HEX, hexadecimal) number. */
int kfile_read_u64(const char *path, bool hex, uint64_t *val);

/*
 * Write VALUE and a newline to the kernel file PATH: directly, or through
 * the LATENCY_MACHINE_WRITER command ("CMD PATH VALUE") when one is set.
 * With TIMEOUT_NS non-zero the write runs in a child process group that is
 * killed when it has not finished in time (a memory block's "offline" can
 * block for minutes).  Returns 0, -ETIMEDOUT, or -errno of the write (a
 * writer command exits with that errno; -EIO when it was killed).
 */
int kfile_write(const char *path, const char *value, uint64_t timeout_ns);

/* /proc/meminfo, in bytes; hugepage_bytes is 0 without hugetlb. */
struct meminfo {
	uint64_t total, free, available;
	uint64_t hugepages_total, hugepage_bytes;
};
int meminfo_read(struct meminfo *mi);
/* MemTotal without the hugetlb pool: what ordinary allocations can use. */
uint64_t meminfo_usable(const struct meminfo *mi);

/* One memoryN directory of $LATENCY_SYS/devices/system/memory. */
struct mem_block {
	unsigned long nr;
	char state[16];	      /* "online", "offline", "" when unreadable */
	int removable;	      /* 1, 0, or -1 when the file is missing */
	char valid_zones[64]; /* "" when the file is missing */
};
/*
 * All memory blocks, by number, and the block size in bytes.  Returns 0
 * (with *N 0 when the kernel has no memory hotplug) or -errno.
 */
int mem_blocks_read(struct mem_block **blocks, size_t *n,
		    uint64_t *block_bytes);
/* $LATENCY_SYS/devices/system/memory/memoryNR/state (allocated). */
char *mem_block_state_path(unsigned long nr);

/* One zone of /proc/zoneinfo (pages). */
struct zone_info {
	unsigned node;
	char name[16];
	uint64_t managed, free, min, low, high;
	/*
	 * The most of its "protection" (lowmem_reserve) list, in pages: what
	 * the zone keeps free, above its watermarks, from allocations that
	 * could have come from a higher zone (the workloads' own).
	 */
	uint64_t protect;
};
int zoneinfo_read(struct zone_info **zones, size_t *n);

/*
 * The start time (field 22 of $LATENCY_PROC/PID/stat, clock ticks after
 * boot) of a live process.  A zombie counts as gone.  Returns 0, -ESRCH
 * when there is no such (live) process, or -errno.
 */
int proc_starttime(pid_t pid, uint64_t *start);

/*
 * Send SIGTERM to PID if it is still the process that started at START,
 * wait up to TERM_WAIT_NS for it to end, then SIGKILL it.  A pidfd pins the
 * process between the check and the signal where the kernel has them.
 * Returns 1 when it was stopped, 0 when it was gone or is another process
 * now (*OTHER set), -errno on failure.
 */
int proc_stop(pid_t pid, uint64_t start, uint64_t term_wait_ns, bool *other);

/* ---- machine-record.c: the state record ---- */

struct record_entry {
	char *line;   /* the entry as stored, without the newline */
	char **field; /* its tab-separated fields; field[0] is the kind */
	size_t nfield;
};

struct record {
	int dirfd;
	pid_t owner;
	uint64_t owner_start;
	struct record_entry *e;
	size_t n;
};

/*
 * Open (creating it 0700 if missing) the state directory; dies when it is
 * a symbolic link, not a directory owned by us, or writable by others.
 * Returns the directory's descriptor.
 */
int state_dir_open(void);
/* Hold or release the record's lock (flock on the directory). */
void state_lock(int dirfd);
void state_unlock(int dirfd);
/* The record's path, for messages (static storage). */
const char *record_path(void);
/*
 * Load the record into R.  Returns 0, -ENOENT when there is none, or dies
 * on a record that cannot be trusted or read.
 */
int record_load(int dirfd, struct record *r);
void record_release(struct record *r);
/* Create a fresh record for OWNER; dies when that fails. */
void record_create(int dirfd, pid_t owner, uint64_t owner_start);
/* True when R's owner is alive and is still the process that began it. */
bool record_owner_alive(const struct record *r);

/*
 * Validate an entry (KIND ARGS...) as `latency-machine record` takes it and
 * complete it (the current value when none was given, a pid's start time),
 * into a tab-separated line (allocated).  Bad input is a usage error;
 * a value that cannot be read dies with status 1.
 */
char *entry_make(int argc, char **argv);
/*
 * Append LINE to the record of OWNER, which must exist; returns the
 * record's size before the append, for record_withdraw().
 */
off_t record_append(int dirfd, pid_t owner, const char *line);
/*
 * Take back LINE, appended at SIZE for an attempt that changed nothing,
 * if it is still the record's last entry.
 */
void record_withdraw(int dirfd, off_t size, const char *line);

/*
 * Undo entry E, telling stderr "<prog>: PREFIX: <what it did>"; returns
 * true when it is done with (undone, or nothing to do), false when it
 * failed and must stay in the record (machine-entry.c).
 */
bool entry_undo(const struct record_entry *e, const char *prefix);

/*
 * Undo R's entries, last first, telling stderr "PREFIX: <what>" for each;
 * keep the entries that could not be undone (rewriting the record) or
 * remove the record when all were.  Returns the number not undone.
 */
size_t record_restore(int dirfd, struct record *r, const char *prefix);

/* ---- machine-set.c ---- */

/*
 * The set subcommand: record the knob NAME's value the first time OWNER's
 * run sets it, then write VALUE.  Returns the exit status; dies on bad
 * input (2), a knob this machine does not have (3) or a refused value (1).
 */
int set_knob(pid_t owner, const char *name, const char *value);

/* ---- machine-shrink.c ---- */

struct shrink_opts {
	pid_t owner;
	uint64_t keep_bytes;
	uint64_t timeout_ns;
	bool dry_run;
};

/* The shrink subcommand; returns the exit status. */
int shrink_run(const struct shrink_opts *o);

#endif
