/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Strict parsers for what the kernel writes and the suite reads:
 * "key value" files (/proc/vmstat, memory.stat, per-CPU trace stats),
 * one-number files (memory.current), pressure stall information,
 * /proc/PID/stat and status, /dev/kmsg records, syslog(2) lines and
 * trace_pipe lines.  It is the suite's one place for numbers from the
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

/* /proc/PID/status: the line "KEY:<blanks>N kB" -> N (KiB). */
int kparse_status_kb(const char *buf, size_t len, const char *key,
		     uint64_t *kb);

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
