// SPDX-License-Identifier: GPL-2.0-or-later
/* Common options and usage errors; see opt.h. */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/opt.h"
#include "lib/parse.h"
#include "lib/rand.h"

void prog_init(int argc, char **argv)
{
	if (argc > 0 && argv[0]) {
		set_progname(argv[0]);
		/* getopt prints argv[0]; give it the short name. */
		argv[0] = (char *)progname();
	}
	atexit(close_stdout);
}

void opt_common_init(struct opt_common *c)
{
	c->verbose = 0;
	c->quiet = false;
	c->has_duration = false;
	c->duration_ns = 0;
	c->has_seed = false;
	c->seed = RAND_DEFAULT_SEED;
	c->output = NULL;
	c->format = NULL;
}

void print_version(void)
{
	printf("%s (%s) %s\n", progname(), PACKAGE_NAME, PACKAGE_VERSION);
}

void usage_error(const char *fmt, ...)
{
	if (fmt) {
		char buf[1024];
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(buf, sizeof(buf), fmt, ap);
		va_end(ap);
		inform("%s", buf);
	}
	fprintf(stderr, "Try '%s --help' for more information.\n", progname());
	exit(EXIT_USAGE);
}

static noreturn void bad_value(const char *name, const char *arg, int r,
			       const char *expect)
{
	usage_error("invalid value '%s' for %s: %s (expected %s)", arg, name,
		    r == -ERANGE ? "out of range" : "not understood", expect);
}

uint64_t opt_u64(const char *name, const char *arg, uint64_t min, uint64_t max)
{
	uint64_t v;
	int r = parse_u64(arg, &v);

	if (!r && (v < min || v > max))
		r = -ERANGE;
	if (r) {
		char expect[96];

		snprintf(expect, sizeof(expect),
			 "a whole number from %llu to %llu",
			 (unsigned long long)min, (unsigned long long)max);
		bad_value(name, arg, r, expect);
	}
	return v;
}

uint64_t opt_size(const char *name, const char *arg, uint64_t bare_unit)
{
	uint64_t v;
	int r = parse_size_unit(arg, bare_unit, &v);

	if (r)
		bad_value(name, arg, r, "a size such as 4096, 64k, 512M, 4G");
	return v;
}

uint64_t opt_duration(const char *name, const char *arg)
{
	uint64_t v;
	int r = parse_duration(arg, &v);

	if (r)
		bad_value(name, arg, r, "a duration such as 250ms, 10s, 2m");
	return v;
}

uint64_t opt_rate(const char *name, const char *arg, uint64_t bare_unit)
{
	uint64_t v;
	int r = parse_rate(arg, bare_unit, &v);

	if (r)
		bad_value(name, arg, r,
			  "a rate such as 320kbit, 2Mbit, 40KB/s, 1MB/s");
	return v;
}

double opt_double(const char *name, const char *arg, double min, double max,
		  bool open)
{
	char expect[96];
	char *end;
	double v;
	int r = 0;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end)
		r = -EINVAL;
	else if (errno || !isfinite(v) ||
		 (open ? v <= min || v >= max : v < min || v > max))
		r = -ERANGE;
	if (r) {
		snprintf(expect, sizeof(expect), "a number %s %g and %g",
			 open ? "strictly between" : "from", min, max);
		bad_value(name, arg, r, expect);
	}
	return v;
}

int opt_choice(const char *name, const char *arg, const char *const *words)
{
	char expect[512];
	size_t len = 0;
	int i;

	for (i = 0; words[i]; i++)
		if (!strcmp(arg, words[i]))
			return i;
	/* "a, b or c", cut (never overflowed) if a table were that long. */
	expect[0] = '\0';
	for (i = 0; words[i] && len < sizeof(expect); i++) {
		const char *sep = !i ? "" : words[i + 1] ? ", " : " or ";

		len += snprintf(expect + len, sizeof(expect) - len, "%s%s", sep,
				words[i]);
	}
	bad_value(name, arg, -EINVAL, expect);
}

enum out_format opt_format(const char *arg, enum out_format dflt, bool with_csv)
{
	/* In the order of enum out_format; csv last, so it can be left out. */
	static const char *const all[] = {
		[FORMAT_TEXT] = "text",
		[FORMAT_JSON] = "json",
		[FORMAT_CSV] = "csv",
		NULL,
	};
	static const char *const no_csv[] = { "text", "json", NULL };

	if (!arg)
		return dflt;
	return (enum out_format)opt_choice("--format", arg,
					   with_csv ? all : no_csv);
}

bool opt_common_handle(struct opt_common *c, int opt, const char *arg,
		       void (*usage)(int status))
{
	switch (opt) {
	case 'h':
		usage(EXIT_OK);
		exit(EXIT_OK);
	case 'V':
		print_version();
		exit(EXIT_OK);
	case 'v':
		c->verbose++;
		return true;
	case 'q':
		c->quiet = true;
		return true;
	case 'o':
		c->output = arg;
		return true;
	case OPT_DURATION:
		c->duration_ns = opt_duration("--duration", arg);
		if (!c->duration_ns)
			usage_error("--duration must be greater than zero");
		c->has_duration = true;
		return true;
	case OPT_SEED:
		c->seed = opt_u64("--seed", arg, 0, UINT64_MAX);
		c->has_seed = true;
		return true;
	case OPT_FORMAT:
		c->format = arg;
		return true;
	case '?':
		usage_error(NULL);
	default:
		return false;
	}
}
