/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * latency-output's private interface.  The stream engine (stream.c) splits
 * input into lines, times them, keeps every gap per group and writes the
 * stream layout; line.c classifies single lines and parses saved series (no
 * I/O, so the fuzz target calls it directly); report.c and plot.c turn the
 * gap series into the report and gnuplot files.  Times are CLOCK_MONOTONIC
 * nanoseconds held in 64-bit integers throughout; nothing is rounded before
 * it is printed.
 */
#ifndef LATOUT_LATOUT_H
#define LATOUT_LATOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/hist.h"
#include "lib/output.h"

/* Why a line is malformed; LO_OK for a good one. */
enum lo_bad {
	LO_OK = 0,
	LO_EMPTY,     /* nothing between two line ends */
	LO_BAD_TS,    /* first field looks like a timestamp but is not one */
	LO_BACKWARDS, /* earlier than the previous line of its group */
	LO_BINARY,    /* NUL or other control bytes (not tab, not ESC) */
	LO_TOO_LONG,  /* longer than the line buffer */
	LO_NO_TIME,   /* --from: a line that carries no time at all */
	LO_BAD_NR,
};

/* What lo_line_parse() found in one line. */
struct lo_line {
	bool timed;	 /* starts with a progress line's timestamp */
	uint64_t ts;	 /* that timestamp, ns */
	const char *key; /* value of the --by field, or NULL */
	size_t key_len;
	enum lo_bad bad;
};

/*
 * Classify LINE[0..LEN) (without its terminator): empty, binary junk, a
 * broken timestamp (also one of 2^63 ns or more, which no CLOCK_MONOTONIC
 * reading is and no signed column can show), or a good line with or
 * without its own timestamp.  BY
 * (NUL-terminated, may be NULL) names the KEY=value field whose value is
 * returned in OUT->key.  Never reads outside LINE.
 */
void lo_line_parse(const char *line, size_t len, const char *by,
		   struct lo_line *out);

/* True when LINE[0..LEN) holds a byte no text line should: see LO_BINARY. */
bool lo_has_junk(const char *line, size_t len);

/*
 * Parse a line of the stream layout "EPOCH INTO GAP -- ORIGINAL" (as this
 * program writes it): store EPOCH in *EPOCH_NS and the offset of ORIGINAL in
 * *ORIG.  Returns false when LINE is not in that layout.
 */
bool lo_series_parse(const char *line, size_t len, int64_t *epoch_ns,
		     size_t *orig);

/*
 * Parse "[-]DIGITS[.DIGITS]" (at most 9 decimals) at LINE[*POS..LEN) into
 * nanoseconds, advancing *POS.  Returns false on anything else.
 */
bool lo_parse_seconds(const char *line, size_t len, size_t *pos, int64_t *ns);

/*
 * Write V ns as seconds with DECIMALS (0..9) digits, rounded half away from
 * zero, right-aligned in WIDTH (at most 24; never cut), to BUF, which needs
 * 48 bytes (all may be written).  Returns the number of characters; no NUL
 * is written.
 */
size_t lo_fmt_col(char *buf, int64_t v, unsigned decimals, unsigned width);

/* The integer digits of a column's last value, reused while they repeat. */
struct lo_col {
	bool valid;
	bool neg;
	unsigned char len; /* sign and digits at the start of s */
	uint64_t whole;
	char s[24];
};

/* lo_fmt_col() reusing the integer digits in C (zero it to start). */
size_t lo_fmt_col_cached(char *buf, int64_t v, unsigned decimals,
			 unsigned width, struct lo_col *c);

/* One group's gap series (the only group, unless --by is given). */
struct lo_series {
	char *name; /* the --by value; NULL for lines without it */
	size_t name_len;
	uint64_t *gaps; /* every gap, ns, in arrival order */
	int64_t *at;	/* end of each gap, ns into the test (plots) */
	size_t n, cap;
	uint64_t lines; /* lines attributed to this group */
	uint64_t malformed;
	bool has_prev;
	uint64_t prev; /* time of the group's last good line */
};

/* Output buffer in front of a file descriptor (-1 discards). */
struct lo_sink {
	int fd;
	char *buf;
	size_t len, cap;
	int err; /* first -errno from write(), sticky */
};

struct lo_config {
	const char *by;	   /* --by KEY or NULL */
	unsigned decimals; /* --decimals, default 4 */
	bool strict;	   /* --strict */
	bool from;	   /* input is a saved series (--from) */
	bool keep_at;	   /* remember when each gap ended (--plot) */
	bool has_start;	   /* --start given */
	uint64_t start;	   /* --start, ns CLOCK_MONOTONIC */
	int64_t epoch_off; /* CLOCK_REALTIME - CLOCK_MONOTONIC at start */
	size_t line_max;   /* longest line kept whole */
	bool emit;	   /* write stream lines (not for --from) */
	int out_fd;	   /* where they go; -1 discards them */
};

struct lo_state {
	struct lo_config cfg;
	unsigned w_epoch, w_into, w_gap; /* column widths */
	struct lo_col cols[3];		 /* their last integer digits */
	/* input: bytes of an unfinished line wait at the front of buf */
	char *buf;
	size_t used, cap;
	size_t scanned;	 /* leading bytes known to hold no line end */
	bool skip_lf;	 /* last line ended in CR: a LF now is part */
	bool long_line;	 /* inside an over-long line, copying through */
	uint64_t lineno; /* lines seen so far */
	/* timeline */
	bool has_start;
	uint64_t start;
	bool from_has_base;
	int64_t from_base; /* --from: epoch column - own timestamp */
	/* groups */
	struct lo_series **groups;
	size_t ngroups, groups_cap;
	size_t *hash; /* open addressing: index + 1, 0 = free */
	size_t hash_cap;
	struct lo_series *last; /* one-entry lookup cache */
	struct lo_series *none; /* lines without the --by field */
	/* counters */
	uint64_t lines;
	uint64_t malformed[LO_BAD_NR];
	/* --strict: the first bad line */
	uint64_t bad_lineno;
	enum lo_bad bad_kind;
	struct lo_sink out;
};

/* Set up S (allocates the line buffer of CFG->line_max bytes). */
void lo_init(struct lo_state *s, const struct lo_config *cfg);
void lo_release(struct lo_state *s);

/* Room at the end of the input buffer for the next read(). */
static inline char *lo_space(struct lo_state *s, size_t *room)
{
	*room = s->cap - s->used;
	return s->buf + s->used;
}

/*
 * Account N new bytes put at lo_space(), which arrived at NOW (monotonic
 * ns), and process every complete line.  Returns 0, -EIO after a strict
 * error (see bad_lineno) or -errno from writing the stream.
 */
int lo_commit(struct lo_state *s, size_t n, uint64_t now);
/* Copy DATA[0..LEN) in through lo_space()/lo_commit(). */
int lo_feed(struct lo_state *s, const char *data, size_t len, uint64_t now);
/* End of input: an unfinished last line counts as a line.  As lo_commit. */
int lo_finish(struct lo_state *s, uint64_t now);
/* Write out buffered stream lines.  Returns 0 or -errno. */
int lo_flush(struct lo_state *s);
/* Read FD until EOF or sig_stop.  As lo_commit, or -errno of read(). */
int lo_read_fd(struct lo_state *s, int fd);

/* Human name of a malformed kind ("empty line", ...). */
const char *lo_bad_name(enum lo_bad b);
/* Short identifier for JSON/CSV ("empty", "bad_timestamp", ...). */
const char *lo_bad_id(enum lo_bad b);

/*
 * format_version of the JSON report: 2 since the histogram's buckets are
 * the R10 series (lib/hist.h), 1 had 1-2-5 buckets.
 */
#define LO_FORMAT_VERSION 2

/* Summary of one gap series. */
struct lo_summary {
	const char *name; /* group label */
	uint64_t lines, gaps, malformed;
	double mean_s, stddev_s;
	uint64_t p50, p90, p99, p999, max;
	uint64_t stall_count, stall_time_ns; /* gaps over the threshold */
	uint64_t hist_count[HIST_R10_N];
	uint64_t hist_ns[HIST_R10_N];
};

struct lo_report {
	const struct lo_state *st;
	struct run_info *ri;
	enum out_format format;
	uint64_t stall_threshold_ns; /* --stall */
	int interrupted;	     /* signal number, 0 if none */
	const char *source;	     /* "stdin" or the --from file */
	/* The gaps may be sorted in place (not needed after). */
	bool consume;
};

/*
 * Summarise gap series GAPS[0..N) (sorted in place) into OUT.  Returns 0 or
 * -ENOMEM.
 */
int lo_summarise(uint64_t *gaps, size_t n, uint64_t stall_threshold_ns,
		 struct lo_summary *out);
/*
 * Summaries of every group (when --by) and, last, of all gaps together
 * (named "all").  Returns a malloc'ed array of *N entries, NULL on -ENOMEM.
 */
struct lo_summary *lo_summarise_all(const struct lo_report *r, size_t *n);
/* Write the report of SUM[0..N) (from lo_summarise_all) to F. */
void lo_report_write(const struct lo_report *r, const struct lo_summary *sum,
		     size_t n, FILE *f);
/*
 * Write PREFIX.dat, PREFIX-hist.dat and the gnuplot scripts, and run gnuplot
 * (looked up in PATH) to make PNG and SVG images when it is installed.  ALL
 * is the summary of all gaps.  Returns 0, -ECHILD when gnuplot failed, or
 * -errno; *RAN tells whether gnuplot made the images.
 */
int lo_plot(const struct lo_report *r, const struct lo_summary *all,
	    const char *prefix, bool *ran);

#endif
