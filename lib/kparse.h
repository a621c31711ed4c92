/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Strict parsers for what the kernel writes and the suite reads:
 * "key value" files (/proc/vmstat, memory.stat, per-CPU trace stats),
 * one-number files (memory.current), pressure stall information,
 * /proc/PID/stat and status, /proc/meminfo, /proc/zoneinfo, mountinfo,
 * sysfs device numbers, /dev/kmsg records, syslog(2) lines and trace_pipe
 * lines.  It is the suite's one place for numbers from the
 * kernel: digits only, no sign (except where the kernel prints signed
 * values), no white space inside, no overflow, no trailing junk, where
 * strtoull() would take "-5" as 2^64 - 5 and a too-long number as its
 * maximum.
 *
 * Every function takes a buffer and its length, needs no NUL terminator and
 * never reads past LEN, so a fuzzer can hand it raw bytes.  Results are
 * stored only on success.  Returns are 0, -EINVAL (malformed), -ERANGE (a
 * number past its type) or, for the look-ups, -ENOENT (absent).  Pointers
 * stored in a result point into the caller's buffer.
 */
#ifndef LATENCY_KPARSE_H
#define LATENCY_KPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* S[0..LEN) is one or more decimal digits and nothing else. */
int kparse_u64(const char *s, size_t len, uint64_t *out);

/* The same with an optional leading '-' (never '+'), INT64_MIN..MAX. */
int kparse_i64(const char *s, size_t len, int64_t *out);

/*
 * "DIGITS" or "DIGITS.DIGITS" in units of 10^-SCALE (SCALE <= 9): "1.50"
 * with SCALE 2 is 150, "12.000345" with SCALE 9 is 12000345000.  More
 * fraction digits than SCALE is -EINVAL (nothing is rounded away).
 */
int kparse_fixed(const char *s, size_t len, unsigned scale, uint64_t *out);

/*
 * The next line of BUF[0..LEN) from *POS on, without its '\n'; advances
 * *POS.  Returns false at the end of BUF (a last line without '\n' is
 * still a line).
 */
bool kparse_line(const char *buf, size_t len, size_t *pos, const char **line,
		 size_t *line_len);

/* A file holding one number and at most one final '\n' (memory.current). */
int kparse_u64_file(const char *buf, size_t len, uint64_t *out);

/*
 * One "KEY VALUE" line: KEY non-empty without spaces, one space, VALUE as
 * kparse_u64().
 */
int kparse_kv_line(const char *line, size_t len, const char **key,
		   size_t *key_len, uint64_t *val);

/*
 * The value of the first line of BUF whose first word is KEY (a
 * NUL-terminated string).  -ENOENT when there is none, -EINVAL or -ERANGE
 * when that line is not a well-formed "KEY VALUE"; other lines are not
 * looked at.
 */
int kparse_kv_find(const char *buf, size_t len, const char *key, uint64_t *val);

/*
 * One pass over the "KEY VALUE" lines of BUF for KEYS[0..N): VALS[i] and
 * HAVE[i] (false when absent; the first line of a key counts).  A key
 * ending in '*' sums the line of the key without it and every
 * "KEY_suffix" line ("allocstall*": allocstall, allocstall_normal, ...).
 * Returns 0, or -EINVAL / -ERANGE when a line of one of the keys does not
 * parse or a sum overflows, with *BAD its index.
 */
int kparse_kv_pick(const char *buf, size_t len, const char *const *keys,
		   size_t n, uint64_t *vals, bool *have, size_t *bad);

/* One line of a pressure stall information file. */
struct kparse_psi_line {
	bool have;
	uint64_t avg10, avg60, avg300; /* hundredths of a percent */
	uint64_t total_us;
};

struct kparse_psi {
	struct kparse_psi_line some, full;
};

/*
 * A /proc/pressure/RESOURCE or cgroup RESOURCE.pressure file: lines
 * "some|full avg10=A avg60=A avg300=A total=N", each kind at most once,
 * A with two decimals.  OUT's lines not in the file have HAVE false.
 */
int kparse_psi(const char *buf, size_t len, struct kparse_psi *out);

/*
 * /proc/PID/stat: the fields after the command name's last ')' up to
 * majflt and cmajflt (fields 12 and 13) must be well formed.
 */
int kparse_pid_stat(const char *buf, size_t len, uint64_t *majflt,
		    uint64_t *cmajflt);

/* The CPU figures of a /proc/PID/stat line (times in clock ticks). */
struct kparse_pid_cpu {
	int64_t ppid;
	uint64_t flags; /* PF_KTHREAD (0x00200000): a kernel thread */
	uint64_t utime, stime;
	uint64_t cutime, cstime; /* of its children it has waited for */
};

/* /proc/PID/stat: fields 4 (ppid) to 17 (cstime) well formed. */
int kparse_pid_cpu(const char *buf, size_t len, struct kparse_pid_cpu *out);

/*
 * /proc/stat: the busy time of all CPUs, in clock ticks, from its first
 * line "cpu  USER NICE SYSTEM IDLE ...": USER + NICE + SYSTEM, the time
 * tasks spent on the CPUs (guests are inside USER); interrupts, idle,
 * iowait and steal apart.
 */
int kparse_proc_stat_busy(const char *buf, size_t len, uint64_t *ticks);

/* /proc/PID/status: the line "KEY:<blanks>N kB" -> N (KiB). */
int kparse_status_kb(const char *buf, size_t len, const char *key,
		     uint64_t *kb);

/*
 * The line "KEY:<blanks>N" or "KEY:<blanks>N kB" of BUF (/proc/meminfo,
 * /proc/PID/status): N into *VAL, and into *KB whether it is in KiB.
 */
int kparse_colon_find(const char *buf, size_t len, const char *key,
		      uint64_t *val, bool *kb);

/*
 * /proc/PID/stat: the state letter (field 3), the parent's pid (field 4;
 * PPID may be NULL) and the start time in clock ticks since boot (field
 * 22); the fields between must be numbers.
 */
int kparse_pid_start(const char *buf, size_t len, char *state, int64_t *ppid,
		     uint64_t *start);

/*
 * Word IDX (from 0) of LINE, words being separated by runs of blanks
 * (space, tab), leading blanks skipped (/proc/mounts, /proc/swaps).
 * -ENOENT when LINE has fewer words.
 */
int kparse_word(const char *line, size_t len, size_t idx, const char **w,
		size_t *wlen);

/* A sysfs dev file: "MAJOR:MINOR" and at most one final '\n'. */
int kparse_dev(const char *buf, size_t len, uint32_t *major, uint32_t *minor);

/* Hex digits without "0x" and at most one final '\n' (block_size_bytes). */
int kparse_hex_file(const char *buf, size_t len, uint64_t *out);

/* One line of /proc/zoneinfo, as far as the zone's limits go. */
enum kparse_zone_kind {
	KPARSE_ZONE_OTHER,	/* none of those below */
	KPARSE_ZONE_HEAD,	/* "Node N, zone NAME" */
	KPARSE_ZONE_FIELD,	/* "<blanks>KEY<blanks>N": "pages free 3840" */
	KPARSE_ZONE_PROTECTION, /* "<blanks>protection: (0, 2688, 23826)" */
};

struct kparse_zone {
	enum kparse_zone_kind kind;
	uint32_t node;	  /* HEAD */
	const char *name; /* HEAD: the zone; FIELD: the key ("pages free") */
	size_t name_len;
	uint64_t val; /* FIELD: the number; PROTECTION: the largest */
};

/*
 * Sort one zoneinfo line.  A FIELD's key is every word before its last,
 * which is all digits; a line whose last word is not is OTHER.  Returns 0,
 * or -EINVAL / -ERANGE for a HEAD or PROTECTION line that does not parse
 * or a FIELD's number past 64 bits.
 */
int kparse_zone_line(const char *line, size_t len, struct kparse_zone *out);

/* One line of /proc/PID/mountinfo; paths as the kernel escapes them. */
struct kparse_mountinfo {
	uint32_t major, minor;
	const char *root, *point, *fstype, *source, *super;
	size_t root_len, point_len, fstype_len, source_len, super_len;
};

/*
 * "ID PARENT MAJ:MIN ROOT POINT OPTIONS [TAG...] - FSTYPE SOURCE SUPER",
 * fields separated by single spaces.
 */
int kparse_mountinfo(const char *line, size_t len,
		     struct kparse_mountinfo *out);

/* One /dev/kmsg record: "PRI,SEQ,TS_US,FLAGS[,...];TEXT\n[ KEY=VAL\n]...". */
struct kparse_kmsg {
	uint32_t pri; /* facility << 3 | level */
	uint64_t seq;
	uint64_t ts_us;
	const char *text; /* up to the first '\n' */
	size_t text_len;
};

int kparse_kmsg(const char *rec, size_t len, struct kparse_kmsg *out);

/* One line of the syslog(2) buffer: "<PRI>[ SSSSS.UUUUUU] TEXT". */
struct kparse_syslog {
	uint32_t pri;
	uint64_t ts_us;
	const char *text;
	size_t text_len;
};

int kparse_syslog_line(const char *line, size_t len, struct kparse_syslog *out);

/*
 * One trace_pipe line: "COMM-PID [CPU] FLAGS SEC.USEC: EVENT: FIELDS", the
 * FLAGS column optional (the irq-info option), COMM left-padded and free to
 * hold anything, so the line is taken apart at the first " [" that the
 * rest of the format follows.
 */
struct kparse_trace {
	const char *comm;
	size_t comm_len;
	int32_t pid;
	uint32_t cpu;
	uint64_t ts_ns;
	const char *event;
	size_t event_len;
	const char *fields;
	size_t fields_len;
};

int kparse_trace_line(const char *line, size_t len, struct kparse_trace *out);

/*
 * The signed value of the space-separated token "KEY=VALUE" in a
 * tracepoint's FIELDS.  -ENOENT when no token has that KEY.
 */
int kparse_trace_field(const char *fields, size_t len, const char *key,
		       int64_t *val);

/* "malformed number", "number out of range", ... for a kparse return. */
const char *kparse_strerror(int r);

#endif
