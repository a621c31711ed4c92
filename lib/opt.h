/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The shared command-line vocabulary (coreutils' GETOPT_HELP_OPTION_DECL
 * idea): -h/--help, -V/--version, -v/--verbose, -q/--quiet, --duration,
 * --seed, -o/--output, --format are declared with these macros and handled
 * by opt_common_handle(), so no program retypes them; and value parsers
 * that turn a bad value into the suite's usage error (exit 2).
 */
#ifndef LATENCY_OPT_H
#define LATENCY_OPT_H

#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdnoreturn.h>

#include "lib/err.h"
#include "lib/output.h"

enum {
	OPT_DURATION = CHAR_MAX + 1,
	OPT_SEED,
	OPT_FORMAT,
	/* A program's own long-only options start here. */
	OPT_PROG_FIRST = CHAR_MAX + 16,
};

/* clang-format off */
#define OPT_LONG_HELP     { "help", no_argument, NULL, 'h' }
#define OPT_LONG_VERSION  { "version", no_argument, NULL, 'V' }
#define OPT_LONG_VERBOSE  { "verbose", no_argument, NULL, 'v' }
#define OPT_LONG_QUIET    { "quiet", no_argument, NULL, 'q' }
#define OPT_LONG_DURATION { "duration", required_argument, NULL, OPT_DURATION }
#define OPT_LONG_SEED     { "seed", required_argument, NULL, OPT_SEED }
#define OPT_LONG_OUTPUT   { "output", required_argument, NULL, 'o' }
#define OPT_LONG_FORMAT   { "format", required_argument, NULL, OPT_FORMAT }
#define OPT_LONG_END      { NULL, 0, NULL, 0 }
/* clang-format on */

/* Short letters of the common options that have them. */
#define OPT_SHORT_HELP "hV"
#define OPT_SHORT_VERBOSE "v"
#define OPT_SHORT_QUIET "q"
#define OPT_SHORT_OUTPUT "o:"

struct opt_common {
	int verbose; /* -v count */
	bool quiet;
	bool has_duration;
	uint64_t duration_ns;
	bool has_seed;
	uint64_t seed;	    /* RAND_DEFAULT_SEED unless --seed */
	const char *output; /* -o FILE, NULL for stdout */
	const char *format; /* --format NAME, NULL for the default */
};

/*
 * Program start-up: set the program name from ARGV[0], make getopt's own
 * messages use it, and register close_stdout() with atexit().
 */
void prog_init(int argc, char **argv);

/* Defaults for C. */
void opt_common_init(struct opt_common *c);

/*
 * Handle OPT (as returned by getopt_long) if it is a common option: -h calls
 * USAGE(0), which must exit; -V prints the version and exits 0; a bad value
 * is a usage error.  Returns true when OPT was handled.
 */
bool opt_common_handle(struct opt_common *c, int opt, const char *arg,
		       void (*usage)(int status));

/* Print "<prog> (latency-tests) VERSION" to stdout. */
void print_version(void);

/*
 * Print "<prog>: <message>" (unless FMT is NULL: getopt has already said
 * what is wrong) and "Try '<prog> --help' for more information." to stderr
 * and exit EXIT_USAGE.
 */
noreturn void usage_error(const char *fmt, ...) PRINTF_LIKE(1, 2);

/*
 * Parse ARG, the value of option NAME (e.g. "--block"), or exit through
 * usage_error() naming option, value and what was expected.
 */
uint64_t opt_u64(const char *name, const char *arg, uint64_t min, uint64_t max);
uint64_t opt_size(const char *name, const char *arg, uint64_t bare_unit);
uint64_t opt_duration(const char *name, const char *arg);
uint64_t opt_rate(const char *name, const char *arg, uint64_t bare_unit);
/* A decimal number from MIN to MAX (strictly between them when OPEN). */
double opt_double(const char *name, const char *arg, double min, double max,
		  bool open);

/*
 * The argmatch idea: return the index of ARG, the value of option NAME, in
 * WORDS (NULL-terminated), or exit through usage_error() with the suite's
 * one wording, "invalid value 'ARG' for NAME: not understood (expected W0,
 * W1 or W2)".
 */
int opt_choice(const char *name, const char *arg, const char *const *words);
/*
 * --format ARG (the common option's value; NULL gives DFLT): "text", "json"
 * and, when WITH_CSV, "csv"; anything else is opt_choice()'s usage error.
 */
enum out_format opt_format(const char *arg, enum out_format dflt,
			   bool with_csv);

#endif
