// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run-test.sh's configuration (--run-config).  The driver's command line
 * and its config files (name=value lines, the `config` of a result, which
 * may come from someone else and is treated as hostile) are read here:
 * every name is checked against the known keys and every value against
 * its syntax, before any work, the defaults are filled in, and the result
 * is printed as name=value lines that hold no newline or other control
 * character, so the shell reads them with `read` alone (no eval, no
 * unquoted expansion of anything a file said).  The values the shell
 * splits into words (the extra options of the workloads) are limited to
 * characters that neither the shell nor a glob gives a meaning.
 */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "lib/err.h"
#include "lib/json-read.h"
#include "lib/knob.h"
#include "lib/output.h"
#include "lib/parse.h"
#include "lib/xalloc.h"
#include "compare/plan.h"

enum cfg_kind {
	K_LABEL,    /* letters, digits and . _ + -, not starting with . */
	K_PATH,	    /* a path: any text without control characters */
	K_UINT,	    /* a whole number of at most 9 digits, >= min */
	K_RUNS,	    /* K_UINT or auto */
	K_YESNO,    /* yes or no */
	K_WORDS,    /* options split into words by the shell */
	K_HOSTPORT, /* HOST:PORT */
	K_DURATION, /* 250ms, 10s, 2m; a bare number is seconds */
	K_DECIMAL,  /* a positive decimal such as 3 or 1.5 */
	K_CONFINE,  /* auto, global, memcg or none */
	K_MEMLIMIT, /* ratio, none or a size */
	K_SWAP,	    /* auto, none, zram[:SIZE], /DEVICE or a size */
	K_SYSCTL,   /* NAME=VALUE[,NAME=VALUE]... */
	K_AB,	    /* NAME=A,B: two values of one knob */
};

struct cfg_key {
	const char *name;
	enum cfg_kind kind;
	unsigned min; /* K_UINT, K_RUNS */
	/* The command-line flag that sets FLAG_VALUE, if the key has one. */
	const char *flag, *flag_value;
	/*
	 * The default (NULL: none), and with quick=yes QUICK where it is
	 * not NULL; ENV and QUICK_ENV name environment variables that
	 * override them.
	 */
	const char *def, *quick, *env, *quick_env;
};

/*
 * The options of run-test.sh, in the order of the printed configuration.
 * A new option is a line here (and its use in the driver).  The label's
 * default is the kernel release (uname -r).
 */
/* clang-format off */
static const struct cfg_key keys[] = {
	{ .name = "label", .kind = K_LABEL },
	{ .name = "results", .kind = K_PATH, .def = "./results" },
	{ .name = "scratch", .kind = K_PATH },
	{ .name = "repo", .kind = K_PATH },
	{ .name = "commits", .kind = K_UINT, .min = 1, .def = "180000",
	  .quick = "180000", .env = "LATENCY_DEFAULT_COMMITS",
	  .quick_env = "LATENCY_QUICK_COMMITS" },
	{ .name = "seed", .kind = K_UINT, .def = "137" },
	{ .name = "gitk-runs", .kind = K_RUNS, .min = 1, .def = "auto" },
	{ .name = "warmup", .kind = K_UINT, .def = "1", .quick = "0" },
	{ .name = "drop-caches", .kind = K_YESNO, .flag = "--no-drop-caches",
	  .flag_value = "no", .def = "yes" },
	{ .name = "seqbench", .kind = K_WORDS },
	{ .name = "ringbench", .kind = K_WORDS },
	{ .name = "music-from", .kind = K_HOSTPORT },
	/*
	 * Reading the history again after the map is built, as gitk does
	 * when scrolled, brings what was swapped out back in.
	 */
	{ .name = "gitk-args", .kind = K_WORDS, .def = "--reread" },
	{ .name = "music-args", .kind = K_WORDS },
	{ .name = "stall", .kind = K_DURATION, .def = "1s" },
	{ .name = "pressure", .kind = K_DECIMAL, .def = "6", .quick = "3",
	  .env = "LATENCY_DEFAULT_RATIO", .quick_env = "LATENCY_QUICK_RATIO" },
	{ .name = "confine", .kind = K_CONFINE, .def = "auto" },
	{ .name = "mem-limit", .kind = K_MEMLIMIT, .def = "ratio" },
	{ .name = "swap", .kind = K_SWAP, .def = "auto" },
	{ .name = "allow-unconfined", .kind = K_YESNO,
	  .flag = "--allow-unconfined", .flag_value = "yes", .def = "no" },
	/*
	 * latency-block traces the block layer only when asked: reading
	 * its tracepoints as text cost seqbench's 4k direct writes about
	 * half their throughput here, and fake-gitk's swap IO pays the
	 * same per request.  The devices' counters cost nothing.
	 */
	{ .name = "block-trace", .kind = K_YESNO, .flag = "--block-trace",
	  .flag_value = "yes", .def = "no" },
	/*
	 * Two results whose intervals are +/-1.5% can see a change of about
	 * 3% between them (MDE ~1.9x the half-width); at this VM's 2.5-3%
	 * CoV of a full run that takes 12-18 runs.  A quick run aims at 5%
	 * (+/-2.5%): 5 runs where its spread is under about 2%, up to 10
	 * where the tick-sampled user time spreads it to 3-4.5%.
	 */
	{ .name = "precision", .kind = K_DECIMAL, .def = "1.5", .quick = "2.5" },
	{ .name = "max-runs", .kind = K_UINT, .min = 2, .def = "20",
	  .quick = "10" },
	{ .name = "time-budget", .kind = K_DURATION, .def = "6m" },
	{ .name = "sysctl", .kind = K_SYSCTL },
	/*
	 * An A/B study of one knob in one boot: runs of A and B in
	 * randomized pairs (run-test.sh's interleave_runs).
	 */
	{ .name = "interleave", .kind = K_AB },
	{ .name = "quick", .kind = K_YESNO, .flag = "--quick",
	  .flag_value = "yes", .def = "no" },
};
/* clang-format on */

#define N_KEYS (sizeof(keys) / sizeof(keys[0]))
_Static_assert(N_KEYS <= PLAN_CFG_MAX_KEYS, "raise PLAN_CFG_MAX_KEYS");

#define WORD_CHARS                                                             \
	"abcdefghijklmnopqrstuvwxyz"                                           \
	"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=,+@%-"
#define LABEL_CHARS                                                            \
	"abcdefghijklmnopqrstuvwxyz"                                           \
	"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-"

/* A message in a new string, as the error of the functions below. */
static int fail(char **err, const char *fmt, ...) PRINTF_LIKE(2, 3);
static int fail(char **err, const char *fmt, ...)
{
	char buf[512]; /* long enough; a longer message is cut */
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	*err = xstrdup(buf);
	return -EINVAL;
}

static char *dupn(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static bool only(const char *s, const char *chars)
{
	return strspn(s, chars) == strlen(s);
}

/* "invalid value 'V' for WHAT (WHY)", V escaped (it may be anyone's). */
static int bad_value(char **err, const char *where, const char *what,
		     const char *v, const char *why)
{
	char *e = text_escape(v);
	int r = fail(err, "%sinvalid value '%s' for %s (%s)", where, e, what,
		     why);

	free(e);
	return r;
}

static int check_uint(const char *v, unsigned min, char **why)
{
	uint64_t n;

	if (!*v || !only(v, "0123456789"))
		return fail(why, "expected a whole number");
	/* Nine digits: the shell compares counts with test(1). */
	if (strlen(v) > 9)
		return fail(why, "too large");
	if (parse_u64(v, &n) || n < min)
		return fail(why, "expected at least %u", min);
	return 0;
}

static int check_size(const char *v, uint64_t *bytes, char **why)
{
	int r = parse_size(v, bytes);

	if (r == -ERANGE || (!r && *bytes > INT64_MAX))
		return fail(why, "too large");
	if (r)
		return fail(why, "expected a size such as 512M");
	if (!*bytes)
		return fail(why, "expected a size above 0");
	return 0;
}

static int check_duration(const char *v, char **why)
{
	uint64_t ns;
	int r = parse_duration(v, &ns);

	if (r == -ERANGE)
		return fail(why, "too large");
	if (r)
		return fail(why, "expected a duration such as 1s");
	if (ns < 1000000)
		return fail(why, "expected a duration of at least 1ms");
	return 0;
}

static int check_decimal(const char *v, char **why)
{
	uint64_t mant;
	unsigned scale;
	int r = parse_decimal(v, &mant, &scale);

	if (r == -EINVAL)
		return fail(why, "expected a positive number such as 3 or 1.5");
	if (r || strlen(v) > 12)
		return fail(why, "too large");
	if (!mant)
		return fail(why, "expected a number above 0");
	return 0;
}

static int check_hostport(const char *v, char **why)
{
	const char *colon = strrchr(v, ':');
	uint64_t port;

	if (!colon || colon == v || strspn(v, WORD_CHARS "[]") != strlen(v))
		return fail(why, "expected HOST:PORT");
	if (!colon[1] || strlen(colon + 1) > 5 ||
	    !only(colon + 1, "0123456789") || parse_u64(colon + 1, &port) ||
	    port < 1 || port > 65535)
		return fail(why, "expected HOST:PORT, PORT 1-65535");
	return 0;
}

/*
 * One knob NAME (lib/knob's set) with VALUE (NULL: none to check) of the
 * option OPT at WHERE.
 */
static int check_knob(const char *where, const char *opt, const char *name,
		      const char *value, char **err)
{
	const char *why;
	char *e;
	int r = 0;

	if (knob_check(name, NULL, &why)) {
		e = text_escape(name);
		r = fail(err, "%sinvalid knob '%s' in %s: %s", where, e, opt,
			 why);
		free(e);
	} else if (value && !knob_value_ok(value)) {
		e = text_escape(value);
		r = fail(err,
			 "%sinvalid knob value '%s' in %s (letters, digits, "
			 ". _ : - [ ] and single spaces only)",
			 where, e, opt);
		free(e);
	}
	return r;
}

/*
 * --sysctl: NAME=VALUE[,NAME=VALUE]..., each NAME a knob a memory test may
 * change (lib/knob: sysctls under vm., sysfs knobs under /sys/kernel/mm/,
 * /sys/module/zswap/parameters/, a block device's read_ahead_kb).
 */
static int check_sysctl(const char *where, const char *v, char **err)
{
	char *copy = xstrdup(v), *one, *save = NULL, *eq;
	int r = 0;

	if (!*v || v[strlen(v) - 1] == ',' || strstr(v, ",,") || *v == ',')
		r = bad_value(err, where, "--sysctl", v,
			      "expected NAME=VALUE[,NAME=VALUE]...");
	for (one = strtok_r(copy, ",", &save); one && !r;
	     one = strtok_r(NULL, ",", &save)) {
		eq = strchr(one, '=');
		if (!eq || eq == one || !eq[1]) {
			r = bad_value(err, where, "--sysctl", v,
				      "expected NAME=VALUE[,NAME=VALUE]...");
			break;
		}
		*eq = '\0';
		r = check_knob(where, "--sysctl", one, eq + 1, err);
	}
	free(copy);
	return r;
}

/* --interleave: NAME=A,B, one knob and its two values. */
static int check_interleave(const char *where, const char *v, char **err)
{
	char *copy = xstrdup(v), *eq = strchr(copy, '='), *comma;
	int r;

	comma = eq ? strchr(eq + 1, ',') : NULL;
	if (!eq || eq == copy || !comma || strchr(comma + 1, ',')) {
		free(copy);
		return bad_value(err, where, "--interleave", v,
				 "expected NAME=A,B: one knob, two values");
	}
	*eq = *comma = '\0';
	r = check_knob(where, "--interleave", copy, eq + 1, err);
	if (!r)
		r = check_knob(where, "--interleave", copy, comma + 1, err);
	free(copy);
	return r;
}

/*
 * Check V, a value for key K given at WHERE ("" on the command line,
 * "FILE:LINE: " in a config file; the key is then named as the file names
 * it).  Returns 0, or -EINVAL and the message in *ERR.
 */
/* The size of a --swap value: "zram:SIZE" -> "SIZE", else the value. */
static const char *swap_size_part(const char *v)
{
	return strncmp(v, "zram:", 5) ? v : v + 5;
}

static int check_value(const struct cfg_key *k, const char *where,
		       const char *v, char **err)
{
	char *what = *where ? xstrdup(k->name) : xasprintf("--%s", k->name);
	char *why = NULL, *e;
	uint64_t bytes;
	int r = 0;

	if (!*v) /* empty: not set */
		goto out;
	switch (k->kind) {
	case K_LABEL:
		if (*v == '.' || !only(v, LABEL_CHARS)) {
			e = text_escape(v);
			r = fail(err,
				 "%sinvalid label '%s' (letters, digits and "
				 ". _ + - only, not starting with .)",
				 where, e);
			free(e);
		}
		goto out;
	case K_PATH:
		if (has_control(v))
			r = fail(&why, "no control characters");
		break;
	case K_RUNS:
		if (!strcmp(v, "auto"))
			break;
		/* fall through */
	case K_UINT:
		r = check_uint(v, k->min, &why);
		break;
	case K_YESNO:
		if (strcmp(v, "yes") && strcmp(v, "no"))
			r = fail(&why, "expected yes or no");
		break;
	case K_WORDS:
		if (!only(v, WORD_CHARS " "))
			r = fail(&why, "words of letters, digits and "
				       "_ . / : = , + @ %% - only");
		break;
	case K_HOSTPORT:
		r = check_hostport(v, &why);
		break;
	case K_DURATION:
		r = check_duration(v, &why);
		break;
	case K_DECIMAL:
		r = check_decimal(v, &why);
		break;
	case K_CONFINE:
		if (strcmp(v, "auto") && strcmp(v, "global") &&
		    strcmp(v, "memcg") && strcmp(v, "none"))
			r = fail(&why, "expected auto, global, memcg or none");
		break;
	case K_MEMLIMIT:
		if (strcmp(v, "ratio") && strcmp(v, "none"))
			r = check_size(v, &bytes, &why);
		break;
	case K_SWAP:
		if (*v == '/')
			r = has_control(v) ? fail(&why, "no control characters")
					   : 0;
		else if (strcmp(v, "auto") && strcmp(v, "none") &&
			 strcmp(v, "zram") &&
			 !(r = check_size(swap_size_part(v), &bytes, &why)) &&
			 bytes < 1 << 20)
			/* A swap file is made in whole MiB. */
			r = fail(&why, "expected a size of at least 1M");
		break;
	case K_SYSCTL:
		r = check_sysctl(where, v, err);
		goto out;
	case K_AB:
		r = check_interleave(where, v, err);
		goto out;
	}
	if (r)
		r = bad_value(err, where, what, v, why);
out:
	free(why);
	free(what);
	return r;
}

static const struct cfg_key *find_key(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < N_KEYS; i++)
		if (strlen(keys[i].name) == len &&
		    !memcmp(keys[i].name, name, len))
			return &keys[i];
	return NULL;
}

static void set_value(struct plan_config *c, const struct cfg_key *k,
		      const char *v, size_t len)
{
	size_t i = (size_t)(k - keys);

	free(c->value[i]);
	c->value[i] = len ? dupn(v, len) : NULL;
}

int plan_config_read(struct plan_config *c, const char *path, const char *buf,
		     size_t len, char **err)
{
	const char *s = buf, *end = buf + len, *nl, *eq;
	const struct cfg_key *k;
	char *where, *line, *e;
	size_t n = 0, llen;
	int r = 0;

	for (; s < end && !r; s = nl + 1) {
		nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			nl = end;
		llen = (size_t)(nl - s);
		n++;
		if (!llen || *s == '#')
			continue;
		line = dupn(s, llen);
		e = text_escape(line);
		where = xasprintf("%s:%zu: ", path, n);
		eq = memchr(s, '=', llen);
		if (strlen(line) != llen)
			r = fail(err, "%sa NUL byte", where);
		else if (!eq)
			r = fail(err, "%sexpected name=value: '%s'", where, e);
		else if (!(k = find_key(s, (size_t)(eq - s)))) {
			free(e);
			line[eq - s] = '\0';
			e = text_escape(line);
			r = fail(err, "%sunknown setting '%s'", where, e);
		} else if (!(r = check_value(k, where, line + (eq + 1 - s),
					     err)))
			set_value(c, k, eq + 1, (size_t)(nl - eq - 1));
		free(where);
		free(e);
		free(line);
	}
	return r;
}

/* Read the config file PATH into C. */
static int read_file(struct plan_config *c, const char *path, char **err)
{
	char *buf, *e;
	size_t len;
	int r = json_read_load(path, PLAN_CFG_MAX_BYTES, &buf, &len);

	if (r) {
		e = text_escape(path);
		r = fail(err, "cannot read config file '%s'%s", e,
			 r == -EFBIG ? " (larger than 64 KiB)" : "");
		free(e);
		return r;
	}
	r = plan_config_read(c, path, buf, len, err);
	free(buf);
	return r;
}

/* The config files first (--config FILE, --config=FILE), in order. */
static int read_files(struct plan_config *c, int argc, char **argv, char **err)
{
	int i, r = 0;

	for (i = 0; i < argc && !r; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--config") && i + 1 < argc)
			r = read_file(c, argv[++i], err);
		else if (!strncmp(argv[i], "--config=", 9))
			r = read_file(c, argv[i] + 9, err);
	}
	return r;
}

/* A command-line option without value: a flag of a key, or the driver's. */
static int set_flag(struct plan_config *c, const char *name, bool *found)
{
	size_t i;

	*found = true;
	if (!strcmp(name, "--print-config"))
		c->print_config = true;
	else if (!strcmp(name, "--restore"))
		c->restore = true;
	else {
		for (i = 0; i < N_KEYS; i++)
			if (keys[i].flag && !strcmp(keys[i].flag, name))
				break;
		if (i == N_KEYS) {
			*found = false;
			return 0;
		}
		set_value(c, &keys[i], keys[i].flag_value,
			  strlen(keys[i].flag_value));
	}
	return 0;
}

int plan_config_args(struct plan_config *c, int argc, char **argv, char **err)
{
	const struct cfg_key *k;
	const char *opt, *eq, *val;
	char *name, *e;
	bool flag;
	int i, r = read_files(c, argc, argv, err);

	for (i = 0; i < argc && !r; i++) {
		opt = argv[i];
		eq = !strncmp(opt, "--", 2) ? strchr(opt, '=') : NULL;
		name = eq ? dupn(opt, (size_t)(eq - opt)) : xstrdup(opt);
		e = text_escape(name);
		k = !strncmp(name, "--", 2)
			    ? find_key(name + 2, strlen(name + 2))
			    : NULL;
		if (!strcmp(name, "-h") || !strcmp(name, "--help") ||
		    !strcmp(name, "-V") || !strcmp(name, "--version")) {
			c->action = name[1] == 'h' || name[2] == 'h'
					    ? "help"
					    : "version";
			free(e);
			free(name);
			return 0;
		}
		if (!strcmp(name, "--")) {
			if (i + 1 < argc) {
				free(e);
				e = text_escape(argv[i + 1]);
				r = fail(err, "unexpected argument '%s'", e);
			}
			i = argc;
		} else if ((set_flag(c, name, &flag), flag)) {
			if (eq)
				r = fail(err, "option '%s' takes no value", e);
		} else if (k || !strcmp(name, "--config")) {
			val = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
			if (!val)
				r = fail(err,
					 "option '%s' requires an argument", e);
			else if (k && !(r = check_value(k, "", val, err)))
				set_value(c, k, val, strlen(val));
		} else if (*name == '-')
			r = fail(err, "unrecognized option '%s'", e);
		else
			r = fail(err, "unexpected argument '%s'", e);
		free(e);
		free(name);
	}
	return r;
}

/* The value of the key NAME (which exists), NULL when not set. */
static const char *value_of(const struct plan_config *c, const char *name)
{
	return c->value[find_key(name, strlen(name)) - keys];
}

/*
 * The default of K: from its environment variable if set there (and
 * checked as K's values are), else the built-in one.
 */
static int set_default(struct plan_config *c, const struct cfg_key *k,
		       bool quick, char **err)
{
	const char *var = quick && k->quick ? k->quick_env : k->env;
	const char *v = var ? getenv(var) : NULL;
	int r;

	if (!v || !*v)
		v = quick && k->quick ? k->quick : k->def;
	else if ((r = check_value(k, "", v, err))) {
		/* Name the variable, not the option. */
		free(*err);
		return bad_value(err, "", var, v,
				 k->kind == K_UINT
					 ? "expected a whole number"
					 : "expected a positive number such "
					   "as 3 or 1.5");
	}
	if (v)
		set_value(c, k, v, strlen(v));
	return 0;
}

static int check_dir(const char *opt, const char *path, bool may_be_missing,
		     char **err)
{
	struct stat st;
	char *e;
	int r;

	if (!path || (stat(path, &st) ? may_be_missing && errno == ENOENT
				      : S_ISDIR(st.st_mode)))
		return 0;
	e = text_escape(path);
	r = fail(err, "%s '%s' is not a directory", opt, e);
	free(e);
	return r;
}

/* A sysctl's name as one spelling: vm/page-cluster -> vm.page-cluster. */
static char *knob_key(const char *name, size_t len)
{
	char *k = dupn(name, len), *p;

	if (*k != '/')
		for (p = k; *p; p++)
			if (*p == '/')
				*p = '.';
	return k;
}

/*
 * The knob of --interleave is not also set by --sysctl, and an interleaved
 * run has no seqbench or ringbench pass (whose arm would it be?).
 */
static int check_one_knob(const struct plan_config *c, char **err)
{
	const char *il = value_of(c, "interleave"), *sc = value_of(c, "sysctl");
	char *name, *one, *copy, *save = NULL, *e;
	int r = 0;

	if (il && (value_of(c, "seqbench") || value_of(c, "ringbench")))
		return fail(err, "--interleave runs fake-gitk only: not with "
				 "--seqbench or --ringbench");
	if (!il || !sc)
		return 0;
	name = knob_key(il, strcspn(il, "="));
	copy = xstrdup(sc);
	for (one = strtok_r(copy, ",", &save); one && !r;
	     one = strtok_r(NULL, ",", &save)) {
		char *k = knob_key(one, strcspn(one, "="));

		if (!strcmp(k, name)) {
			e = text_escape(name);
			r = fail(err, "--interleave and --sysctl both set '%s'",
				 e);
			free(e);
		}
		free(k);
	}
	free(copy);
	free(name);
	return r;
}

int plan_config_resolve(struct plan_config *c, char **err)
{
	const char *quick = value_of(c, "quick");
	const char *mem_limit, *swap;
	struct utsname u;
	uint64_t bytes;
	char *why = NULL;
	size_t i;
	int r;

	for (i = 0; i < N_KEYS; i++)
		if (!c->value[i] &&
		    (r = set_default(c, &keys[i],
				     quick && !strcmp(quick, "yes"), err)))
			return r;
	if ((r = check_one_knob(c, err)))
		return r;
	if (!value_of(c, "label")) {
		if (uname(&u))
			return fail(err, "cannot read the kernel release");
		if ((r = check_value(find_key("label", 5), "", u.release, err)))
			return r;
		set_value(c, find_key("label", 5), u.release,
			  strlen(u.release));
	}
	if ((r = check_dir("--repo", value_of(c, "repo"), false, err)) ||
	    (r = check_dir("--results", value_of(c, "results"), true, err)) ||
	    (r = check_dir("--scratch", value_of(c, "scratch"), false, err)))
		return r;
	/* The sizes in bytes, for the shell (checked above). */
	mem_limit = value_of(c, "mem-limit");
	if (!check_size(mem_limit, &bytes, &why))
		c->mem_limit_bytes = bytes;
	free(why);
	why = NULL;
	swap = value_of(c, "swap");
	if (*swap != '/' && !check_size(swap_size_part(swap), &bytes, &why))
		c->swap_bytes = bytes >> 20 << 20;
	free(why);
	return 0;
}

/* The config file form, each line after PREFIX. */
static void print_file(FILE *f, const struct plan_config *c, const char *prefix)
{
	size_t i;

	fprintf(f,
		"%s# latency-tests run configuration (latency-run-test "
		"--config FILE)\n",
		prefix);
	for (i = 0; i < N_KEYS; i++)
		fprintf(f, "%s%s=%s\n", prefix, keys[i].name,
			c->value[i] ? c->value[i] : "");
}

void plan_config_print(FILE *f, const struct plan_config *c, bool shell)
{
	size_t i;
	const char *n;

	if (!shell) {
		if (!c->action)
			print_file(f, c, "");
		return;
	}
	fprintf(f, "action=%s\n", c->action ? c->action : "run");
	if (c->action)
		return;
	fprintf(f, "print_config=%s\nrestore=%s\n",
		c->print_config ? "yes" : "no", c->restore ? "yes" : "no");
	for (i = 0; i < N_KEYS; i++) {
		for (n = keys[i].name; *n; n++)
			fputc(*n == '-' ? '_' : *n, f);
		fprintf(f, "=%s\n", c->value[i] ? c->value[i] : "");
	}
	fputs("mem_limit_bytes=", f);
	if (c->mem_limit_bytes)
		fprintf(f, "%llu", (unsigned long long)c->mem_limit_bytes);
	fputs("\nswap_bytes=", f);
	if (c->swap_bytes)
		fprintf(f, "%llu", (unsigned long long)c->swap_bytes);
	fputc('\n', f);
	/*
	 * The run's config file too, so that one call gives the driver both
	 * what it acts on and what it keeps (it writes these lines, each
	 * without its prefix, to the run's config).
	 */
	print_file(f, c, "config_line=");
}

void plan_config_release(struct plan_config *c)
{
	size_t i;

	for (i = 0; i < N_KEYS; i++)
		free(c->value[i]);
}
