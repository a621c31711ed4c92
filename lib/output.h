/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Machine-readable output (contract 4): a small streaming JSON writer with
 * correct string escaping, CSV quoting, the common header every JSON result
 * starts with, and atomic result files (write a temporary, fsync, rename) so
 * a crash never leaves half a result where a whole one was expected.
 */
#ifndef LATENCY_OUTPUT_H
#define LATENCY_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Bumped whenever the meaning of a field changes. */
#define OUTPUT_FORMAT_VERSION 1

enum out_format {
	FORMAT_TEXT,
	FORMAT_JSON,
	FORMAT_CSV,
};

/* "text", "json" or "csv" -> *F; returns 0 or -EINVAL. */
int out_format_parse(const char *s, enum out_format *f);

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

/* Write S to F as a JSON string literal, escaped. */
void json_write_string(FILE *f, const char *s);

/*
 * The run description every result records.  Fill it with run_info_init()
 * at start (it captures argv, the seed, uname -r and the start time) and set
 * end_real_ns before writing.
 */
struct run_info {
	const char *program;
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

/* Write S as one CSV field (quoted when needed), followed by SEP. */
void csv_field(FILE *f, const char *s, char sep);

/* A file written under a temporary name and renamed into place on commit. */
struct atomic_file {
	char *path;
	char *tmp;
	FILE *f;
};

/*
 * Create PATH's temporary sibling and open it for writing; "-" means stdout
 * (commit then only flushes).  Returns 0 or -errno.
 */
int atomic_open(struct atomic_file *af, const char *path);
/* Flush, fsync, close and rename into place.  Returns 0 or -errno. */
int atomic_commit(struct atomic_file *af);
/* Close and remove the temporary file (safe to call after commit). */
void atomic_abort(struct atomic_file *af);

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

/*
 * S made inert for a terminal or a text file, in a new string (to free):
 * a backslash becomes \\, newline, carriage return and tab become \n,
 * \r and \t, other control bytes (C0 and DEL) and bytes that start no
 * well-formed UTF-8 character become \xNN, and the C1 controls
 * U+0080..U+009F become \u00NN.  Other characters pass unchanged.
 */
char *text_escape(const char *s);

#endif
