// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The facts of a run: run.facts, the `key=value` lines in which run-test.sh
 * records what happened (label, runs done, why it stopped, pressure,
 * confinement), and the options it ran with, read from the run's own
 * `config` (latency-plan --run-config printed it) and the pressure from
 * its `plan` (latency-plan --pressure-plan), rather than copied into
 * run.facts.  The values are raw strings; here each known key gets its
 * type, and a value of the wrong type is refused with one line naming the
 * file, the line, the key and what was expected.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/json-read.h"
#include "lib/output.h"
#include "lib/parse.h"
#include "lib/xalloc.h"
#include "compare/summarize.h"

enum fact_type {
	F_STR,	    /* any text */
	F_U64,	    /* a whole number */
	F_RUNS,	    /* a whole number or "auto" */
	F_YESNO,    /* yes or no */
	F_CHOICE,   /* one of CHOICES */
	F_DECIMAL,  /* a positive decimal number */
	F_DURATION, /* seconds, or a duration with a unit */
};

/* clang-format off */
static const char *const stopped_by_choices[] = {
	"runs", "precision", "max-runs", "time-budget", "interrupted",
	"failed", NULL,
};
static const char *const pressure_mode_choices[] = {
	"global", "memcg", "none", NULL,
};
static const char *const calibration_choices[] = {
	"measured", "cached", "none", NULL,
};
static const char *const arm_choices[] = { "a", "b", NULL };
/* clang-format on */

struct fact {
	const char *key;
	enum fact_type type;
	size_t off;
	const char *const *choices;
};

/* clang-format off */
#define FACT(key, type, member) \
	{ key, type, offsetof(struct summ_facts, member), NULL }
#define FACT_CHOICE(key, member, list) \
	{ key, F_CHOICE, offsetof(struct summ_facts, member), list }

static const struct fact facts[] = {
	FACT("label", F_STR, label),
	FACT("run_label", F_STR, run_label),
	FACT("kernel", F_STR, kernel),
	FACT("version", F_STR, version),
	FACT("command_line", F_STR, command_line),
	FACT("partial", F_YESNO, partial),
	FACT("partial_reason", F_STR, partial_reason),
	FACT("runs_done", F_U64, runs_done),
	FACT_CHOICE("stopped_by", stopped_by, stopped_by_choices),
	FACT_CHOICE("pressure_mode", pressure_mode, pressure_mode_choices),
	FACT("pressure_why", F_STR, pressure_why),
	FACT("pressure_ratio", F_DECIMAL, pressure_ratio),
	FACT_CHOICE("calibration", calibration, calibration_choices),
	FACT("swap", F_STR, swap),
	FACT("interleave_name", F_STR, interleave_name),
	FACT("interleave_values", F_STR, interleave_values),
	FACT_CHOICE("interleave_arm", interleave_arm, arm_choices),
	FACT("interleave_value", F_STR, interleave_value),
	FACT("interleave_order", F_STR, interleave_order),
	FACT("interleave_other", F_STR, interleave_other),
};

/* The options of the run, as its config file names them. */
static const struct fact config_facts[] = {
	FACT("seed", F_U64, seed),
	FACT("gitk-runs", F_RUNS, runs_asked),
	FACT("warmup", F_U64, warmup),
	FACT("precision", F_DECIMAL, precision_pct),
	FACT("max-runs", F_U64, max_runs),
	FACT("time-budget", F_DURATION, time_budget_s),
	FACT("mem-limit", F_STR, mem_limit),
	FACT("stall", F_DURATION, stall_s),
};
/* clang-format on */

/* The pressure plan, as --pressure-plan --calibration wrote it. */
static const struct fact plan_facts[] = {
	FACT("footprint_bytes", F_U64, footprint_bytes),
	FACT("memory_bytes", F_U64, memory_bytes),
};

/* A table of facts, and the characters of its keys. */
struct fact_table {
	const struct fact *v;
	size_t n;
	const char *key_chars;
};

static const struct fact_table facts_table = {
	facts, sizeof(facts) / sizeof(facts[0]),
	"abcdefghijklmnopqrstuvwxyz0123456789_"
};
static const struct fact_table plan_table = { plan_facts,
					      sizeof(plan_facts) /
						      sizeof(plan_facts[0]),
					      "abcdefghijklmnopqrstuvwxyz_" };
static const struct fact_table config_table = {
	config_facts, sizeof(config_facts) / sizeof(config_facts[0]),
	"abcdefghijklmnopqrstuvwxyz0123456789-"
};

char *summ_clean_utf8(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	char *out = xmalloc(len * 3 + 1), *o = out;
	size_t n;

	while (len) {
		n = json_read_utf8_len(p, len);
		if (!n || !*p) {
			/* U+FFFD REPLACEMENT CHARACTER for the stray byte. */
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			n = 1;
		} else {
			memcpy(o, p, n);
			o += n;
		}
		p += n;
		len -= n;
	}
	*o = '\0';
	return out;
}

static const struct fact *find_fact(const struct fact_table *t, const char *key)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].key, key))
			return &t->v[i];
	return NULL;
}

static const char *expected(const struct fact *fa)
{
	switch (fa->type) {
	case F_U64:
		return "a whole number";
	case F_RUNS:
		return "a whole number or auto";
	case F_YESNO:
		return "yes or no";
	case F_DECIMAL:
		return "a positive decimal number";
	case F_DURATION:
		return "seconds, e.g. 600 or 10m";
	case F_CHOICE:
		break;
	case F_STR:
		return "text";
	}
	return fa->choices == stopped_by_choices
		       ? "runs, precision, max-runs, time-budget, "
			 "interrupted or failed"
	       : fa->choices == pressure_mode_choices ? "global, memcg or none"
	       : fa->choices == arm_choices	      ? "a or b"
					    : "measured, cached or none";
}

/* Type VALUE for FA into F; false when it is not of that type. */
static bool set_fact(struct summ_facts *f, const struct fact *fa,
		     const char *value)
{
	void *at = (char *)f + fa->off;
	struct summ_u64 *u = at;
	uint64_t ns;
	size_t i;

	switch (fa->type) {
	case F_STR:
		free(*(char **)at);
		*(char **)at = summ_clean_utf8(value, strlen(value));
		return true;
	case F_RUNS:
		f->runs_auto = !strcmp(value, "auto");
		if (f->runs_auto) {
			u->set = false;
			return true;
		}
		/* fall through */
	case F_U64:
		u->set = !parse_u64(value, &u->v);
		return u->set;
	case F_YESNO:
		f->has_partial = !strcmp(value, "yes") || !strcmp(value, "no");
		f->partial = !strcmp(value, "yes");
		return f->has_partial;
	case F_CHOICE:
		for (i = 0; fa->choices[i]; i++)
			if (!strcmp(fa->choices[i], value))
				break;
		*(const char **)at = fa->choices[i];
		return fa->choices[i] != NULL;
	case F_DECIMAL:
		*(double *)at = parse_decimal_positive(value);
		return !isnan(*(double *)at);
	case F_DURATION:
		if (parse_duration(value, &ns))
			return false;
		*(double *)at = (double)ns / 1e9;
		return true;
	}
	return false;
}

/* An empty value is as if the key were absent: back to unknown. */
static void clear_fact(struct summ_facts *f, const struct fact *fa)
{
	void *at = (char *)f + fa->off;

	switch (fa->type) {
	case F_STR:
		free(*(char **)at);
		*(char **)at = NULL;
		break;
	case F_RUNS:
		f->runs_auto = false;
		/* fall through */
	case F_U64:
		((struct summ_u64 *)at)->set = false;
		break;
	case F_YESNO:
		f->has_partial = false;
		break;
	case F_CHOICE:
		*(const char **)at = NULL;
		break;
	case F_DECIMAL:
	case F_DURATION:
		*(double *)at = NAN;
		break;
	}
}

/* A line refused: the message, and the status for the caller to exit with. */
static int bad_line(const char *path, size_t line, const char *what,
		    const char *text)
{
	char *e = text_escape(text);
	int st;

	if (strlen(e) > 80)
		strcpy(e + 77, "...");
	st = error_ret(EXIT_RUN_FAILED, "%s '%s' in '%s' line %zu", what, e,
		       path, line);
	free(e);
	return st;
}

static int bad_value(const char *path, size_t line, const struct fact *fa,
		     const char *value)
{
	char *e = text_escape(value);
	int st;

	if (strlen(e) > 80)
		strcpy(e + 77, "...");
	st = error_ret(
		EXIT_RUN_FAILED,
		"invalid value '%s' for %s in '%s' line %zu (expected %s)", e,
		fa->key, path, line, expected(fa));
	free(e);
	return st;
}

static int parse_line(struct summ_facts *f, const struct fact_table *t,
		      const char *path, size_t line, char *s)
{
	const struct fact *fa;
	char *eq = strchr(s, '=');

	if (!eq)
		return bad_line(path, line, "no '=' in", s);
	*eq = '\0';
	if (!*s || strspn(s, t->key_chars) != strlen(s))
		return bad_line(path, line, "invalid key", s);
	fa = find_fact(t, s);
	if (!fa)
		return 0;
	if (!eq[1]) {
		clear_fact(f, fa);
		return 0;
	}
	if (!set_fact(f, fa, eq + 1))
		return bad_value(path, line, fa, eq + 1);
	if (f->runs_done.set && f->runs_done.v > SUMM_MAX_RUNS)
		return error_ret(EXIT_RUN_FAILED,
				 "invalid value '%s' for runs_done in '%s' "
				 "line %zu (at most %d runs)",
				 eq + 1, path, line, SUMM_MAX_RUNS);
	return 0;
}

/* Read DIR/NAME with table T into F; a missing file is fine when OPTIONAL. */
static int read_facts(struct summ_facts *f, const struct fact_table *t,
		      const char *dir, const char *name, bool optional)
{
	char *path = xasprintf("%s/%s", dir, name), *buf = NULL, *s, *nl;
	size_t len, line = 0;
	int r, st = 0;

	r = json_read_load(path, SUMM_MAX_TEXT_BYTES, &buf, &len);
	if (r == -ENOENT && optional)
		r = 0, buf = xstrdup(""), len = 0;
	if (r == -EFBIG)
		st = error_ret(EXIT_RUN_FAILED,
			       "cannot read '%s': larger than %u KiB", path,
			       SUMM_MAX_TEXT_BYTES >> 10);
	else if (r == -EINVAL)
		st = error_ret(EXIT_RUN_FAILED,
			       "cannot read '%s': not a regular file", path);
	else if (r)
		st = error_ret_err(EXIT_RUN_FAILED, -r, "cannot read '%s'",
				   path);
	else if (memchr(buf, '\0', len))
		st = error_ret(EXIT_RUN_FAILED,
			       "cannot read '%s': binary data (a NUL byte)",
			       path);
	for (s = st ? "" : buf; *s && !st; s = nl) {
		nl = strchr(s, '\n');
		if (nl)
			*nl++ = '\0';
		else
			nl = s + strlen(s);
		line++;
		if (*s && *s != '#')
			st = parse_line(f, t, path, line, s);
	}
	free(buf);
	free(path);
	return st;
}

int summ_facts_read(struct summ_facts *f, const char *dir)
{
	int st;

	memset(f, 0, sizeof(*f));
	f->precision_pct = f->pressure_ratio = NAN;
	f->time_budget_s = f->stall_s = NAN;
	st = read_facts(f, &facts_table, dir, "run.facts", false);
	if (!st)
		st = read_facts(f, &config_table, dir, "config", true);
	if (!st)
		st = read_facts(f, &plan_table, dir, "plan", true);
	if (st)
		return st;
	/* Both arms of an interleaved run draw their order from the seed. */
	if (f->interleave_arm)
		f->interleave_seed = f->seed;
	/* Without a plan, a memory cgroup is as large as --mem-limit said. */
	if (!f->memory_bytes.set && f->pressure_mode &&
	    !strcmp(f->pressure_mode, "memcg") && f->mem_limit &&
	    !parse_size(f->mem_limit, &f->memory_bytes.v))
		f->memory_bytes.set = f->memory_bytes.v > 0;
	return 0;
}

void summ_facts_release(struct summ_facts *f)
{
	size_t i;

	for (i = 0; i < facts_table.n; i++)
		if (facts[i].type == F_STR)
			free(*(char **)((char *)f + facts[i].off));
	for (i = 0; i < config_table.n; i++)
		if (config_facts[i].type == F_STR)
			free(*(char **)((char *)f + config_facts[i].off));
}
