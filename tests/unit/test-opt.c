// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for lib/opt: common options and usage errors (in a child). */
#include <config.h>

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/opt.h"
#include "lib/rand.h"
#include "tests/tap.h"

static void usage_exit(int status)
{
	printf("Usage: x\n");
	exit(status);
}

struct call {
	void (*fn)(const char *);
	const char *arg;
};

static void run_call(const void *p)
{
	const struct call *c = p;

	set_progname("fake-music");
	c->fn(c->arg);
}

/* Run FN(ARG) as program "fake-music" in a child; stderr in OUT. */
static int child(void (*fn)(const char *), const char *arg, char *out,
		 size_t outlen)
{
	struct call c = { fn, arg };

	return tap_child(run_call, &c, out, outlen);
}

static void bad_size(const char *a)
{
	opt_size("--block", a, 1);
}

static void bad_u64(const char *a)
{
	opt_u64("--threads", a, 1, 1024);
}

static void bad_rate(const char *a)
{
	opt_rate("--bwlimit", a, 1024);
}

static void bad_duration(const char *a)
{
	struct opt_common c;

	opt_common_init(&c);
	opt_common_handle(&c, OPT_DURATION, a, usage_exit);
}

static void bad_double(const char *a)
{
	opt_double("--alpha", a, 0, 1, true);
}

static void bad_choice(const char *a)
{
	static const char *const words[] = { "all", "headers", "none", NULL };

	opt_choice("--hold", a, words);
}

static void bad_format(const char *a)
{
	opt_format(a, FORMAT_TEXT, false);
}

#define TRY "Try 'fake-music --help' for more information.\n"

/* Values opt_double(), opt_choice() and opt_format() turn away. */
static const struct {
	void (*fn)(const char *);
	const char *arg, *want;
} bad[] = {
	{ bad_double, "1",
	  "fake-music: invalid value '1' for --alpha: out of range (expected "
	  "a number strictly between 0 and 1)\n" TRY },
	{ bad_double, "0.5x",
	  "fake-music: invalid value '0.5x' for --alpha: not understood "
	  "(expected a number strictly between 0 and 1)\n" TRY },
	{ bad_choice, "most",
	  "fake-music: invalid value 'most' for --hold: not understood "
	  "(expected all, headers or none)\n" TRY },
	{ bad_format, "csv",
	  "fake-music: invalid value 'csv' for --format: not understood "
	  "(expected text or json)\n" TRY },
};

static void plain_usage(const char *a)
{
	(void)a;
	usage_error(NULL);
}

int main(void)
{
	struct opt_common c;
	char out[1024];
	size_t i;

	opt_common_init(&c);
	is_u64(c.seed, RAND_DEFAULT_SEED, "default seed");
	ok(opt_common_handle(&c, 'v', NULL, usage_exit) &&
		   opt_common_handle(&c, 'v', NULL, usage_exit),
	   "-v handled");
	is_int(c.verbose, 2, "-v counts");
	ok(opt_common_handle(&c, OPT_SEED, "1234", usage_exit), "--seed");
	ok(c.has_seed && c.seed == 1234, "--seed value");
	ok(opt_common_handle(&c, OPT_DURATION, "250ms", usage_exit) &&
		   c.has_duration && c.duration_ns == 250000000ULL,
	   "--duration 250ms");
	ok(opt_common_handle(&c, 'o', "f.json", usage_exit) &&
		   !strcmp(c.output, "f.json"),
	   "-o");
	ok(opt_common_handle(&c, OPT_FORMAT, "json", usage_exit) &&
		   !strcmp(c.format, "json"),
	   "--format");
	ok(!opt_common_handle(&c, 't', "8", usage_exit),
	   "a program's own option is not handled");
	is_u64(opt_size("--block", "64k", 1), 65536, "opt_size");
	is_u64(opt_u64("--threads", "16", 1, 1024), 16, "opt_u64");
	is_u64(opt_rate("--bwlimit", "320kbit", 1024), 40000, "opt_rate");
	is_double(opt_double("--alpha", "0.05", 0, 1, true), 0.05, 1e-12,
		  "opt_double");
	is_double(opt_double("--pct", "0", 0, 100, false), 0, 0,
		  "opt_double: a closed bound is allowed");
	{
		static const char *const words[] = { "a", "bb", "c", NULL };
		static const char *const one[] = { "only", NULL };

		is_int(opt_choice("--x", "a", words), 0, "opt_choice first");
		is_int(opt_choice("--x", "c", words), 2, "opt_choice last");
		is_int(opt_choice("--x", "only", one), 0, "a list of one");
	}
	is_int(opt_format(NULL, FORMAT_JSON, false), FORMAT_JSON,
	       "opt_format: no --format gives the default");
	is_int(opt_format("text", FORMAT_JSON, false), FORMAT_TEXT,
	       "opt_format text");
	is_int(opt_format("json", FORMAT_TEXT, false), FORMAT_JSON,
	       "opt_format json");
	is_int(opt_format("csv", FORMAT_TEXT, true), FORMAT_CSV,
	       "opt_format csv when offered");

	is_int(child(bad_size, "64q", out, sizeof(out)), 2, "bad size exits 2");
	is_str(out,
	       "fake-music: invalid value '64q' for --block: not understood "
	       "(expected a size such as 4096, 64k, 512M, 4G)\n"
	       "Try 'fake-music --help' for more information.\n",
	       "bad size message names option, value, expectation");
	is_int(child(bad_u64, "0", out, sizeof(out)), 2, "0 threads exits 2");
	ok(strstr(out,
		  "out of range (expected a whole number from 1 to 1024)") !=
		   NULL,
	   "range message");
	is_int(child(bad_rate, "fast", out, sizeof(out)), 2,
	       "bad rate exits 2");
	is_int(child(bad_duration, "0s", out, sizeof(out)), 2,
	       "zero duration exits 2");
	ok(strstr(out, "--duration must be greater than zero") != NULL,
	   "zero duration message");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		is_int(child(bad[i].fn, bad[i].arg, out, sizeof(out)), 2,
		       "'%s' exits 2", bad[i].arg);
		is_str(out, bad[i].want, "'%s': the one wording", bad[i].arg);
	}
	is_int(child(plain_usage, NULL, out, sizeof(out)), 2,
	       "usage_error(NULL) exits 2");
	is_str(out, "Try 'fake-music --help' for more information.\n",
	       "only the Try line");
	return done_testing();
}
