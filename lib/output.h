/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Machine-readable output (doc/design.md, contract 4): a small streaming JSON
 * writer with correct string escaping, CSV quoting, the common header every
 * JSON result starts with, and atomic result files (write a temporary, fsync,
 * rename) so a crash never leaves half a result where a whole one was
 * expected.
 */
#ifndef LATENCY_OUTPUT_H
#define LATENCY_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * The format_version of a program's JSON until the meaning of one of its
 * fields changes; then that program sets run_info.format_version higher.
 */
#define OUTPUT_FORMAT_VERSION 1

enum out_format {
	FORMAT_TEXT,
	FORMAT_JSON,
	FORMAT_CSV,
};

#define JSON_MAX_DEPTH 32

struct json {
	FILE *f;
	int depth;
	bool need_comma[JSON_MAX_DEPTH];
	bool pretty;
};

/* Start writing JSON to F (indented when PRETTY). */
void json_init(struct json *j, FILE *f, bool pretty);
/*
 * Open or close an object or array.  KEY is the member name inside an
 * object and must be NULL inside an array or at the top.
 */
void json_object_begin(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array_begin(struct json *j, const char *key);
void json_array_end(struct json *j);
/* Members (KEY NULL inside arrays).  Non-finite doubles become null. */
void json_str(struct json *j, const char *key, const char *val);
void json_u64(struct json *j, const char *key, uint64_t val);
void json_i64(struct json *j, const char *key, int64_t val);
void json_double(struct json *j, const char *key, double val);
void json_bool(struct json *j, const char *key, bool val);
void json_null(struct json *j, const char *key);
/* Seconds with nanosecond precision from integer ns, as a JSON number. */
void json_ns_as_s(struct json *j, const char *key, uint64_t ns);
/* End the document with a newline. */
void json_finish(struct json *j);

/*
 * Write S to F as a JSON string literal: quote, backslash and control
 * characters escaped, and so are the characters text_escape() spells out
 * (as \uNNNN), so a document printed on a terminal stays inert; a byte
 * that is not well-formed UTF-8 becomes \ufffd, so the document is valid.
 */
void json_write_string(FILE *f, const char *s);

/*
 * The run description every result records.  Fill it with run_info_init()
 * at start (it captures argv, the seed, uname -r and the start time) and set
 * end_real_ns before writing.
 */
struct run_info {
	const char *program;
	unsigned format_version; /* OUTPUT_FORMAT_VERSION unless set */
	int argc;
	char **argv;
	bool has_seed;
	uint64_t seed;
	uint64_t start_real_ns;
	uint64_t end_real_ns;
	char kernel[128];
	char hostname[128];
};

void run_info_init(struct run_info *ri, const char *program, int argc,
		   char **argv);
/*
 * Write the common header members into the open top-level object:
 * format_version, program, version, command_line (shell-quoted), argv,
 * seed (when set), kernel, hostname, start_time, end_time (ISO 8601 UTC).
 */
void json_run_header(struct json *j, const struct run_info *ri);
/* The command line as one shell-quoted string, into BUF of LEN bytes. */
void format_command_line(char *buf, size_t len, int argc, char **argv);
/* ISO 8601 UTC with milliseconds, e.g. 2026-12-02T12:20:24.123Z. */
void format_iso8601(char *buf, size_t len, uint64_t real_ns);

/*
 * Strings from input files reach terminals, Markdown, CSV and gnuplot
 * inert.  text_escape() returns a new string (never NULL) where everything
 * a terminal could act on is spelled out C-style: a backslash is doubled;
 * \n, \r and \t stand for themselves; other control bytes (C0, DEL) and
 * bytes that are not well-formed UTF-8 become \xNN; C1 controls, the line
 * and paragraph separators and the bidirectional embedding, override and
 * isolate controls (which reorder what follows them) become \uNNNN.
 * Well-formed printable UTF-8 passes unchanged, so the result is valid
 * UTF-8 and maps back to S one to one.
 */
char *text_escape(const char *s);
/* Write S to F escaped as by text_escape(). */
void text_write(FILE *f, const char *s);
/*
 * Write S as the content of a Markdown table cell: escaped as by
 * text_escape() (so no newline can end the row), then with a backslash
 * before each character Markdown or its inline HTML gives a meaning:
 * \ ` * _ | < > [ ] ~ &.
 */
void md_cell_write(FILE *f, const char *s);
/*
 * Write S as one CSV field followed by SEP: escaped as by text_escape()
 * (one record stays one line), a leading = + - or @ (a formula to a
 * spreadsheet) prefixed with ', and double-quoted when it then holds a
 * comma or a quote or was prefixed.
 */
void csv_field(FILE *f, const char *s, char sep);

/*
 * The second line of a run's summary.txt (doc/design.md, contract 3), which
 * latency-compare --format=2009 repeats: one probed order and its success
 * in percent (NaN without attempts: printed n/a).
 */
struct highorder_pct {
	unsigned order;
	double pct;
};

/* Room for fmt_fault_ms()'s text. */
#define FMT_FAULT_MS 32

/*
 * A fault time of US microseconds in milliseconds as that line prints it:
 * one decimal from 1 ms up, three below, so that a fast fault does not
 * read 0.0 ("3.1", "0.281"); "n/a" when US is not finite or below 0.
 * Returns BUF (FMT_FAULT_MS bytes).
 */
char *fmt_fault_ms(char *buf, double us);

/*
 * Write the line after its label: " HighOrder: order-2 100.0% order-9
 * 41.2% (p99 fault 3.1 ms)\n" for the N orders O (in the order given) and
 * P99_US, the 99th percentile fault time of every probe; "(p99 fault
 * n/a)" when that is unknown or no order has a success rate; " HighOrder:
 * none (not probed)\n" when N is 0.
 */
void highorder_line_write(FILE *f, const struct highorder_pct *o, size_t n,
			  double p99_us);

/*
 * A result file: a regular file is written under a temporary name and
 * renamed into place on commit; anything else is written straight.
 */
struct atomic_file {
	char *path; /* NULL for stdout */
	char *tmp;  /* NULL when written straight */
	FILE *f;
};

/*
 * Open PATH for writing, by one rule: a regular file, or a path that does
 * not exist yet, gets a temporary sibling (renamed over it on commit); "-"
 * is stdout (commit then only flushes); anything else (a FIFO, a character
 * device such as /dev/null, a descriptor's name such as /dev/stdout or
 * /proc/self/fd/N) is written straight, in place, as a shell redirection
 * would.  Returns 0 or -errno.
 */
int atomic_open(struct atomic_file *af, const char *path);
/*
 * Flush, fsync, close and rename into place (straight: flush and close).
 * Returns 0 or -errno.
 */
int atomic_commit(struct atomic_file *af);
/*
 * Close and remove the temporary file (safe to call after commit); what
 * was written straight stays written.
 */
void atomic_abort(struct atomic_file *af);

/*
 * Open PATH for output written as it comes (a log, a stream of progress
 * lines, read while it grows), by atomic_open()'s rule without the
 * temporary: a descriptor's name (/dev/stdout, /dev/fd/N) or an existing
 * file that is not a regular one (a FIFO, /dev/null) is written straight;
 * a regular or new file is created or truncated with MODE.  A symbolic
 * link where the output goes is refused (-ELOOP), never written through.
 * Returns a close-on-exec descriptor or -errno.
 */
int stream_open(const char *path, mode_t mode);

/*
 * Copying parsed JSON and escaping text for people (latency-summarize).
 */
struct json_node;

/* Write the LEN bytes at S as a JSON string literal (a NUL as \u0000). */
void json_write_string_len(FILE *f, const char *s, size_t len);

/*
 * Write V, a tree from lib/json-read, as member KEY (NULL inside arrays):
 * numbers as their literal text, so nothing is rounded; strings escaped
 * again; objects and arrays member by member.  A NULL V writes null.
 * Returns 0, or -E2BIG when V nests deeper than the writer allows here
 * (JSON_MAX_DEPTH): then null is written in its place.
 */
int json_copy(struct json *j, const char *key, const struct json_node *v);

#endif
