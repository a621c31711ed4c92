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
	const char *lock_dir;  /* LATENCY_LOCK_DIR, default /run/lock */
	const char
		*cgroup_root; /* LATENCY_CGROUP_ROOT, default /sys/fs/cgroup */
	const char *writer;   /* LATENCY_MACHINE_WRITER, NULL: write directly */
	const char *dev;      /* LATENCY_DEV, default /dev: zram device nodes */
	int verbose;	      /* -v: say what each step did */
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

/* What an undo did: something, nothing (it was not needed), or failed. */
enum undo_result { UNDO_DONE, UNDO_NOOP, UNDO_FAILED };
/* A restore note "<what>: strerror(ERRNUM)", allocated. */
char *note_err(int errnum, const char *fmt, ...) PRINTF_LIKE(2, 3);
/*
 * Write VALUE back to the kernel file PATH (freed): UNDO_DONE, or
 * UNDO_FAILED with *NOTE saying why.
 */
enum undo_result kfile_write_back(char *path, const char *value, char **note);

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
/* The same, and its parent's pid (field 4) when PPID is not NULL. */
int proc_stat_read(pid_t pid, pid_t *ppid, uint64_t *start);
/*
 * The command line of PID ($LATENCY_PROC/PID/cmdline, arguments joined by
 * spaces), escaped for a terminal, into BUF of LEN bytes; "?" when it
 * cannot be read.
 */
void proc_command(pid_t pid, char *buf, size_t len);

/*
 * Send SIGTERM to PID if it is still the process that started at START,
 * wait up to TERM_WAIT_NS for it to end, then SIGKILL it.  A pidfd pins the
 * process between the check and the signal where the kernel has them.
 * Returns 1 when it was stopped, 0 when it was gone or is another process
 * now (*OTHER set), -errno on failure.
 */
int proc_stop(pid_t pid, uint64_t start, uint64_t term_wait_ns, bool *other);

/* ---- machine-record.c: the state record ---- */

/* The most directories a run may declare (begin --root). */
#define RECORD_ROOTS_MAX 8

/* A directory a run declared at begin, as it was then. */
struct record_root {
	char *path;
	uint64_t dev, ino;
};

struct record_entry {
	char *raw;    /* the line as stored, without its newline */
	char *line;   /* its content: without the checksum */
	char **field; /* the content's tab-separated fields; [0] is the kind */
	size_t nfield;
	size_t lineno;
	/* Why the line is not a whole entry (its checksum), or NULL. */
	const char *damaged;
};

struct record {
	int dirfd;
	int format; /* 2; 1 for a record of a version without checks */
	pid_t owner;
	uint64_t owner_start;
	/* nr_hugepages when the run began; unknown without hugetlb. */
	bool pool_known;
	uint64_t pool;
	char *cgroup_root; /* where the run makes its cgroups (format 2) */
	struct record_root root[RECORD_ROOTS_MAX];
	size_t nroots;
	char *head; /* the header lines as stored, newlines included */
	struct record_entry *e;
	size_t n;
	/*
	 * The bytes of whole lines; a last line without its newline (a
	 * write cut short) is not an entry: it is in TORN, for reports.
	 */
	off_t whole;
	char *torn;
};

/*
 * The functions of the record return 0 or, having said why, the exit
 * status (EXIT_RUN_FAILED, or EXIT_UNSUPPORTED where another run holds
 * the machine): main decides to stop.
 *
 * Open (creating it 0700 if missing) the state directory into *DIRFD;
 * refused when it is a symbolic link, not a directory owned by us, or
 * writable by others.
 */
int state_dir_open(int *dirfd);
/* Hold or release the record's lock (flock on the directory). */
int state_lock(int dirfd);
void state_unlock(int dirfd);
/* state_dir_open() and state_lock(); the descriptor closed on failure. */
int state_open_locked(int *dirfd);
/* The record's path, for messages (static storage). */
const char *record_path(void);
/*
 * Load the record into R: opened without following a link or blocking,
 * only a regular file of ours.  Returns 0, -ENOENT when there is none, or
 * the exit status for a record that cannot be trusted or read (said).
 */
int record_load(int dirfd, struct record *r);
/*
 * Load the record of OWNER, which must exist and hold the machine lock
 * (machine-lock.c).  Call under state_lock().
 */
int record_load_owned(int dirfd, pid_t owner, struct record *r);
void record_release(struct record *r);
/*
 * Create a fresh record (format 2) with R's header: owner, pool, cgroup
 * root and roots.  Written whole under another name and renamed into
 * place, so no reader sees half a header.
 */
int record_create(int dirfd, const struct record *r);
/* True when R's owner is alive and is still the process that began it. */
bool record_owner_alive(const struct record *r);

/*
 * Validate an entry (KIND ARGS...) as `latency-machine record` takes it for
 * the run of R, and complete it (the current value when none was given, a
 * file's identity, a pid's start time), into a tab-separated line
 * (allocated).  Bad input is a usage error; a state that cannot be read
 * or that the checks refuse is NULL, said (exit status 1; machine-entry.c).
 */
char *entry_make(const struct record *r, int argc, char **argv);
/*
 * Say why an entry cannot be made, as error_ret_err(EXIT_RUN_FAILED,
 * ERRNUM, ...) does; returns NULL, for a make function to return.
 */
char *entry_refused(int errnum, const char *fmt, ...) PRINTF_LIKE(2, 3);
/*
 * The checks an entry LINE (tab-separated, as stored) meets for the run of
 * R, when recorded and when replayed: NULL, or why it may not be replayed
 * (a static string).
 */
const char *entry_check(const struct record *r, const char *line);
/*
 * Append LINE, with its checksum, to R, loaded under the lock (a torn last
 * line is cut off first); *AT gets the record's size before the append,
 * for record_withdraw().  Refuses a line entry_check() refuses, and a
 * record of format 1.
 */
int record_append(struct record *r, const char *line, off_t *at);
/*
 * Take back LINE, appended at SIZE for an attempt that changed nothing,
 * if it is still the record's last entry.
 */
int record_withdraw(int dirfd, off_t size, const char *line);

/*
 * Undo entry E of R, telling stderr "<prog>: PREFIX: <what it did>": a
 * damaged line, or an entry that fails its kind's checks, is reported and
 * not applied.  Returns true when it is done with (undone, or nothing to
 * do), false when it must stay in the record (machine-entry.c).
 */
bool entry_undo(const struct record *r, const struct record_entry *e,
		const char *prefix);

/*
 * Undo R's entries, last first, telling stderr "PREFIX: <what>" for each;
 * keep the entries that could not be undone (rewriting the record) or
 * remove the record when all were.  *LEFT gets the number not undone.
 */
int record_restore(int dirfd, struct record *r, const char *prefix,
		   size_t *left);

/* ---- machine-path.c: files, directories and swap a run made ---- */

/*
 * A directory a run declares at begin (--root=DIR): absolute, clean, not
 * "/", not a symbolic link, and only we or root can change what is in it.
 * Fills ROOT (path allocated) and returns 0, or the exit status (said; a
 * usage error exits 2).
 */
int root_declare(struct record_root *root, const char *dir);
/* "A:B" (device and inode, major and minor) into *A, *B; false if not. */
bool ident_parse(const char *s, uint64_t *a, uint64_t *b);
/* The checks and undo of the swapoff, rmfile and rmdir kinds. */
char *path_make(const struct record *r, int argc, char **argv);
const char *path_check(const struct record *r, char **f);
enum undo_result path_undo(const struct record *r, char **f, char **note);
/*
 * Is PATH (as /proc/swaps names a swap area) enabled?  Returns 1, 0, or
 * -errno when /proc/swaps cannot be read.
 */
int swap_enabled(const char *path);

/* ---- machine-zram.c: the zram and zramnew kinds (as machine-entry.c) ---- */

char *make_zram(const struct record *r, int argc, char **argv);
const char *check_zram(const struct record *r, char **f);
enum undo_result undo_zram(const struct record *r, char **f, char **note);
char *make_zramnew(const struct record *r, int argc, char **argv);
const char *check_zramnew(const struct record *r, char **f);
enum undo_result undo_zramnew(const struct record *r, char **f, char **note);

/* ---- machine-trace.c: the trace-instance kind (as machine-entry.c) ---- */

char *make_trace(const struct record *r, int argc, char **argv);
const char *check_trace(const struct record *r, char **f);
enum undo_result undo_trace(const struct record *r, char **f, char **note);

/* ---- machine-lock.c: one run per machine ---- */

/* The run that holds the machine, as its lock file says. */
struct lock_holder {
	pid_t pid; /* 0: none */
	uint64_t start;
	unsigned uid;
	char record[1024]; /* its state record, absolute */
	char command[256]; /* its command line, escaped */
};

/* The lock file: $LATENCY_LOCK_DIR/latency-tests.lock (static storage). */
const char *machine_lock_path(void);
/*
 * Take the machine for run OWNER (started at START), whose record is
 * RECORD: refused with status 3, naming the holder's pid and command, when
 * a live run holds it.  *PREV gets a dead run that held it (pid 0: none),
 * *FRESH whether OWNER did not hold it already.  These return 0 or the
 * exit status (said).
 */
int machine_lock_claim(pid_t owner, uint64_t start, const char *record,
		       struct lock_holder *prev, bool *fresh);
/* Give the machine back when OWNER (started at START) holds it. */
int machine_lock_release(pid_t owner, uint64_t start);
/*
 * The holder now into *H; *ALIVE true when it is a live run (*H pid 0
 * when the lock is free or its file missing).
 */
int machine_lock_holder(struct lock_holder *h, bool *alive);
/* ---- machine-set.c ---- */

/*
 * The set subcommand: record the knob NAME's value the first time OWNER's
 * run sets it, then write VALUE.  Returns the exit status; dies on bad
 * input (2), a knob this machine does not have (3) or a refused value (1).
 */
int set_knob(pid_t owner, const char *name, const char *value);

/* ---- machine-apply.c: changes made after they are recorded ---- */

/*
 * The swapon, swapfile, zram, cgroup, cgroup-exec and drop-caches
 * subcommands for run OWNER (latency-machine(1)).  Each returns the exit
 * status, having said why it failed; an entry whose change was not made
 * is taken back.  apply_cgroup_exec() returns only when it fails.
 */
int apply_swapon(pid_t owner, const char *path);
int apply_swapfile(pid_t owner, const char *path, uint64_t size, bool cache);
int apply_zram(pid_t owner, uint64_t size, const char *alg);
int apply_cgroup(pid_t owner, const char *path, uint64_t limit);
int apply_cgroup_exec(pid_t owner, const char *path, char **argv);
int apply_drop_caches(pid_t owner, const char *swap);

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
