// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bisect.json: the bisection's report and its state at once.  It is
 * written atomically (a temporary renamed over it) before every boot and
 * after it, so a bisection killed at any moment is read back whole by
 * --continue: the kernels, the settings it was started with, the series
 * of pairs and every boot (the decisions are made again from the boots).
 * Read back, the file is hostile: every member is checked, a boot's
 * directory must be the one its number and kernel name, and anything
 * wrong is one line and exit 2.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/json-read.h"
#include "lib/output.h"
#include "lib/xalloc.h"
#include "bisect/bisect.h"

/* bisect.json of a long bisection: some hundred boots, a few KiB each. */
#define STATE_MAX_BYTES (16 << 20)

static const char *const purpose_name[] = { "search", "validate" };

static void change_json(struct json *j, const struct change *c,
			double level_pct)
{
	json_double(j, "change_pct", c->delta);
	json_double(j, "ci_low_pct", c->ci_lo);
	json_double(j, "ci_high_pct", c->ci_hi);
	json_double(j, "ci_level_pct", isnan(c->ci_lo) ? NAN : level_pct);
	json_double(j, "p", c->p);
	json_double(j, "mde_pct", c->mde_pct);
}

static void strings_json(struct json *j, const char *key, char **s, size_t n)
{
	size_t i;

	json_array_begin(j, key);
	for (i = 0; i < n; i++)
		json_str(j, NULL, s[i]);
	json_array_end(j);
}

/* The boots of kernel K that a result directory holds. */
static size_t kernel_boots(const struct bisect *b, size_t k)
{
	size_t i, n = 0;

	for (i = 0; i < b->n_boots; i++) {
		const struct boot *bt = &b->boots[i];
		const struct series *s = &b->series[bt->series];

		n += bt->end != BOOT_RUNNING &&
		     (bt->arm == 'a' ? s->ref : s->k) == k;
	}
	return n;
}

static void series_json(struct json *j, const struct bisect *b, double level)
{
	size_t i;

	json_array_begin(j, "series");
	for (i = 0; i < b->n; i++) {
		const struct kernel *k = &b->k[i];

		json_object_begin(j, NULL);
		json_str(j, "label", k->label);
		json_str(j, "kernel", k->kernel);
		json_str(j, "cmdline", k->cmdline);
		json_str(j, "state", kstate_name[k->state]);
		json_str(j, "reason", k->reason);
		json_u64(j, "boots", kernel_boots(b, i));
		json_u64(j, "pairs", k->pairs);
		/* A probed kernel's interval is at the probes' level. */
		change_json(j, &k->ch,
			    b->o.all || i == b->o.bad
				    ? level
				    : 100 - (100 - level) * b->o.probe_alpha /
						      b->o.alpha);
		json_object_end(j);
	}
	json_array_end(j);
}

static void settings_json(struct json *j, const struct bisect *b,
			  const struct bisect_run *run)
{
	json_object_begin(j, "settings");
	json_str(j, "good", b->k[b->o.good].label);
	json_str(j, "bad", b->k[b->o.bad].label);
	json_str(j, "metric", fig_desc[b->o.metric].name);
	json_double(j, "threshold_pct", b->o.threshold_pct);
	json_u64(j, "min_pairs", b->o.min_pairs);
	json_u64(j, "max_pairs", b->o.max_pairs);
	json_double(j, "alpha", b->o.alpha);
	json_double(j, "probe_alpha", b->o.probe_alpha);
	json_u64(j, "seed", b->o.seed);
	json_bool(j, "all", b->o.all);
	json_str(j, "boot_command", run->boot_command);
	json_str(j, "git_tree", run->git_tree);
	json_str(j, "build_command", run->build_command);
	strings_json(j, "vm_options", run->vm_opts, run->n_vm_opts);
	strings_json(j, "run_test_options", run->rt_opts, run->n_rt_opts);
	json_object_end(j);
}

static void boots_json(struct json *j, const struct bisect *b)
{
	size_t i;

	json_array_begin(j, "pair_series");
	for (i = 0; i < b->n_series; i++) {
		const struct series *s = &b->series[i];

		json_object_begin(j, NULL);
		json_str(j, "kernel", b->k[s->k].label);
		json_str(j, "reference", b->k[s->ref].label);
		json_str(j, "purpose", purpose_name[s->purpose]);
		json_str(j, "name", s->name);
		json_str(j, "order", s->order);
		json_object_end(j);
	}
	json_array_end(j);
	json_array_begin(j, "boots");
	for (i = 0; i < b->n_boots; i++) {
		const struct boot *bt = &b->boots[i];
		char arm[2] = { bt->arm, '\0' };

		json_object_begin(j, NULL);
		json_u64(j, "seq", bt->seq);
		json_u64(j, "series", bt->series);
		json_u64(j, "pair", bt->pair);
		json_str(j, "arm", arm);
		json_str(j, "dir", bt->dir);
		json_str(j, "end", boot_end_name[bt->end]);
		json_double(j, "value", bt->value);
		json_double(j, "wall_s", bt->wall_s);
		json_str(j, "reason", bt->reason);
		json_object_end(j);
	}
	json_array_end(j);
}

/* validation.state: the revert's verdict counts in git mode. */
static const char *validation_name(const struct bisect *b)
{
	if (b->validation == VAL_NOT_VALIDATED ||
	    b->revert_state == VAL_NOT_VALIDATED)
		return "not validated";
	if (b->validation == VAL_VALIDATED && b->revert_state == VAL_VALIDATED)
		return "revert validated";
	return b->validation == VAL_VALIDATED ? "validated" : NULL;
}

static void outcome_json(struct json *j, const struct bisect *b, bool stopped,
			 double level)
{
	size_t i;

	json_str(j, "outcome",
		 b->outcome == OUT_RUNNING && stopped
			 ? "stopped"
			 : outcome_name[b->outcome]);
	json_str(j, "culprit", b->culprit >= 0 ? b->k[b->culprit].label : NULL);
	if (b->outcome == OUT_RANGE) {
		json_array_begin(j, "range");
		for (i = b->lo + 1; i <= b->hi; i++)
			json_str(j, NULL, b->k[i].label);
		json_array_end(j);
	} else {
		json_null(j, "range");
	}
	json_str(j, "metric", fig_desc[b->o.metric].name);
	json_str(j, "better", "lower");
	json_double(j, "threshold_pct", b->threshold);
	json_str(j, "threshold_from",
		 isnan(b->o.threshold_pct) ? "ends" : "option");
	json_object_begin(j, "ends");
	change_json(j, &b->ends, level);
	json_u64(j, "pairs", b->k[b->o.bad].pairs);
	json_object_end(j);
	json_object_begin(j, "boundary");
	json_str(j, "lower", b->k[b->lo].label);
	json_str(j, "upper", b->k[b->hi].label);
	change_json(j, &b->boundary, level);
	json_object_end(j);
	json_object_begin(j, "validation");
	json_str(j, "state", validation_name(b));
	json_str(j, "against", b->culprit >= 0 ? b->k[b->lo].label : NULL);
	change_json(j, &b->val, level);
	json_u64(j, "pairs", b->val.pairs);
	json_object_end(j);
	json_object_begin(j, "revert");
	json_str(j, "kernel", b->revert >= 0 ? b->k[b->revert].label : NULL);
	json_str(j, "reason", b->revert_why);
	json_str(j, "state",
		 b->revert_state == VAL_VALIDATED	? "revert validated"
		 : b->revert_state == VAL_NOT_VALIDATED ? "not validated"
							: NULL);
	change_json(j, &b->revert_ch, level);
	json_u64(j, "pairs", b->revert_ch.pairs);
	json_object_end(j);
}

int state_write(const struct bisect *b, const struct bisect_run *run,
		bool stopped, double wall_s, const struct run_info *ri)
{
	/* Catch mode's looks are corrected for the steps as well. */
	double level =
		100 *
		(1 - decide_alpha(&b->o) /
			     (b->o.all ? (double)(b->o.bad - b->o.good) : 1));
	char *path = xasprintf("%s/bisect.json", run->dir);
	struct atomic_file af;
	struct json j;
	size_t i, total = 0;
	int ret = atomic_open(&af, path);

	free(path);
	if (ret < 0)
		return ret;
	for (i = 0; i < b->n_boots; i++)
		total += b->boots[i].end != BOOT_RUNNING;
	json_init(&j, af.f, true);
	json_object_begin(&j, NULL);
	json_run_header(&j, ri);
	outcome_json(&j, b, stopped, level);
	series_json(&j, b, level);
	json_u64(&j, "boots_total", total);
	json_u64(&j, "boots_used", boots_done(b));
	json_double(&j, "wall_s", wall_s);
	settings_json(&j, b, run);
	boots_json(&j, b);
	json_array_begin(&j, "decisions");
	for (i = 0; i < b->n_dec; i++)
		json_str(&j, NULL, b->dec[i].line);
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
	ret = atomic_commit(&af);
	atomic_abort(&af);
	return ret;
}

void bisect_run_release(struct bisect_run *run)
{
	size_t i;

	for (i = 0; i < run->n_vm_opts; i++)
		free(run->vm_opts[i]);
	for (i = 0; i < run->n_rt_opts; i++)
		free(run->rt_opts[i]);
	free(run->vm_opts);
	free(run->rt_opts);
	free(run->boot_command);
	free(run->git_tree);
	free(run->build_command);
	free(run->dir);
	if (run->dirfd > 0)
		close(run->dirfd);
}

/* Reading it back. */

static const char *state_file;

noreturn static void bad(const char *what)
{
	char *e = text_escape(state_file);

	die(EXIT_USAGE, "%s: bad %s: not a bisection this program wrote", e,
	    what);
}

static const struct json_node *member(const struct json_node *n,
				      const char *key, enum json_type type)
{
	const struct json_node *m = json_read_member(n, key);

	if (!m || m->type != type)
		bad(key);
	return m;
}

static const char *str_of(const struct json_node *n, const char *key)
{
	const struct json_node *m = json_read_member(n, key);

	if (m && m->type == JSON_NULL)
		return NULL;
	if (!m || m->type != JSON_STRING || strlen(m->str) != m->len)
		bad(key);
	return m->str;
}

static uint64_t u64_of(const struct json_node *n, const char *key, uint64_t min,
		       uint64_t max)
{
	uint64_t v;

	if (json_read_u64(n, key, &v) || v < min || v > max)
		bad(key);
	return v;
}

static double num_of(const struct json_node *n, const char *key)
{
	const struct json_node *m = json_read_member(n, key);

	if (m && m->type == JSON_NULL)
		return NAN;
	if (!m || m->type != JSON_NUMBER || !isfinite(m->num))
		bad(key);
	return m->num;
}

static size_t label_of(const struct bisect *b, const struct json_node *n,
		       const char *key)
{
	const char *s = str_of(n, key);
	long i = s ? series_find(b, s) : -1;

	if (i < 0)
		bad(key);
	return (size_t)i;
}

static void strings_of(const struct json_node *n, const char *key, char ***out,
		       size_t *count)
{
	const struct json_node *a = member(n, key, JSON_ARRAY);
	size_t i;

	*out = xcalloc(a->count + 1, sizeof(**out));
	for (i = 0; i < a->count; i++) {
		if (a->items[i].type != JSON_STRING ||
		    strlen(a->items[i].str) != a->items[i].len)
			bad(key);
		(*out)[i] = xstrdup(a->items[i].str);
	}
	*count = a->count;
}

static void read_kernels(struct bisect *b, const struct json_node *root)
{
	const struct json_node *a = member(root, "series", JSON_ARRAY);
	size_t i;

	if (a->count < 2 || a->count > 10000)
		bad("series");
	b->k = xcalloc(a->count, sizeof(*b->k));
	for (i = 0; i < a->count; i++) {
		const struct json_node *k = &a->items[i];
		const char *label = str_of(k, "label");
		const char *kernel = str_of(k, "kernel");
		const char *cmdline = str_of(k, "cmdline");

		if (k->type != JSON_OBJECT || !label || !label_ok(label) ||
		    series_find(b, label) >= 0 || !kernel || !*kernel ||
		    !cmdline)
			bad("series");
		b->k[b->n].label = xstrdup(label);
		b->k[b->n].kernel = xstrdup(kernel);
		b->k[b->n++].cmdline = xstrdup(cmdline);
	}
}

static void read_settings(struct bisect *b, struct bisect_run *run,
			  const struct json_node *root)
{
	const struct json_node *s = member(root, "settings", JSON_OBJECT);
	const char *metric = str_of(s, "metric"), *cmd;
	const struct json_node *all;
	int f;

	b->o.good = label_of(b, s, "good");
	b->o.bad = label_of(b, s, "bad");
	if (b->o.good >= b->o.bad)
		bad("settings.bad");
	for (f = 0; f < FIG_COUNT; f++)
		if (metric && !strcmp(fig_desc[f].name, metric))
			break;
	if (f == FIG_COUNT)
		bad("settings.metric");
	b->o.metric = (enum fig)f;
	b->o.threshold_pct = num_of(s, "threshold_pct");
	b->o.min_pairs = (unsigned)u64_of(s, "min_pairs", 2, BISECT_MAX_PAIRS);
	b->o.max_pairs = (unsigned)u64_of(s, "max_pairs", b->o.min_pairs,
					  BISECT_MAX_PAIRS);
	b->o.alpha = num_of(s, "alpha");
	if (!(b->o.alpha > 0 && b->o.alpha < 1))
		bad("settings.alpha");
	b->o.probe_alpha = num_of(s, "probe_alpha");
	if (!(b->o.probe_alpha > 0 && b->o.probe_alpha < 1))
		bad("settings.probe_alpha");
	b->o.seed = u64_of(s, "seed", 0, UINT64_MAX);
	all = json_read_member(s, "all");
	if (!all || (all->type != JSON_TRUE && all->type != JSON_FALSE))
		bad("settings.all");
	b->o.all = all->type == JSON_TRUE;
	cmd = str_of(s, "boot_command");
	run->boot_command = cmd ? xstrdup(cmd) : NULL;
	cmd = str_of(s, "git_tree");
	run->git_tree = cmd ? xstrdup(cmd) : NULL;
	cmd = str_of(s, "build_command");
	run->build_command = cmd ? xstrdup(cmd) : NULL;
	if (!run->git_tree != !run->build_command)
		bad("settings.build_command");
	strings_of(s, "vm_options", &run->vm_opts, &run->n_vm_opts);
	strings_of(s, "run_test_options", &run->rt_opts, &run->n_rt_opts);
}

/* Whether ORDER is one of latency-vm's: AB or BA for each of N pairs. */
static bool order_ok(const char *o, unsigned n)
{
	unsigned i;

	if (strlen(o) != 2 * n)
		return false;
	for (i = 0; i < n; i++)
		if (strncmp(o + 2 * i, "AB", 2) && strncmp(o + 2 * i, "BA", 2))
			return false;
	return true;
}

static void read_series(struct bisect *b, const struct json_node *root)
{
	const struct json_node *a = member(root, "pair_series", JSON_ARRAY);
	const char *purpose, *name, *order;
	size_t i;

	b->series = xcalloc(a->count + 1, sizeof(*b->series));
	for (i = 0; i < a->count; i++) {
		const struct json_node *n = &a->items[i];
		struct series *s = &b->series[i];

		if (n->type != JSON_OBJECT)
			bad("pair_series");
		s->k = label_of(b, n, "kernel");
		s->ref = label_of(b, n, "reference");
		purpose = str_of(n, "purpose");
		name = str_of(n, "name");
		order = str_of(n, "order");
		if (!purpose ||
		    (strcmp(purpose, "search") && strcmp(purpose, "validate")))
			bad("pair_series.purpose");
		s->purpose = strcmp(purpose, "search") ? PURPOSE_VALIDATE
						       : PURPOSE_SEARCH;
		if (!name || !label_ok(name) || strlen(name) >= sizeof(s->name))
			bad("pair_series.name");
		if (!order || !order_ok(order, b->o.max_pairs) ||
		    s->k == s->ref)
			bad("pair_series.order");
		strcpy(s->name, name);
		strcpy(s->order, order);
	}
	b->n_series = a->count;
}

static enum boot_end end_of(const struct json_node *n)
{
	const char *s = str_of(n, "end");
	int i;

	for (i = BOOT_RUNNING; s && i <= BOOT_FAILED; i++)
		if (!strcmp(s, boot_end_name[i]))
			return (enum boot_end)i;
	bad("boots.end");
}

static void read_boot(struct bisect *b, const struct json_node *n,
		      struct boot *bt)
{
	const char *arm = str_of(n, "arm"), *dir = str_of(n, "dir");
	const char *reason = str_of(n, "reason");
	const struct series *s;
	char *want;
	size_t i;

	if (n->type != JSON_OBJECT)
		bad("boots");
	bt->seq = (unsigned)u64_of(n, "seq", 1, 999999);
	for (i = 0; i < b->n_boots; i++)
		if (b->boots[i].seq == bt->seq)
			bad("boots.seq");
	bt->series = u64_of(n, "series", 0, b->n_series ? b->n_series - 1 : 0);
	if (!b->n_series)
		bad("boots.series");
	bt->pair = (unsigned)u64_of(n, "pair", 1, b->o.max_pairs);
	if (!arm || (strcmp(arm, "a") && strcmp(arm, "b")))
		bad("boots.arm");
	bt->arm = arm[0];
	s = &b->series[bt->series];
	want = xasprintf("boots/%04u-%s", bt->seq,
			 b->k[bt->arm == 'a' ? s->ref : s->k].label);
	if (!dir || strcmp(dir, want))
		bad("boots.dir");
	bt->dir = want;
	bt->end = end_of(n);
	bt->value = num_of(n, "value");
	bt->wall_s = num_of(n, "wall_s");
	bt->reason = reason ? xstrdup(reason) : NULL;
}

/* Git mode's revert: a kernel after the bad end, or why there is none. */
static void read_revert(struct bisect *b, const struct bisect_run *run,
			const struct json_node *root)
{
	const struct json_node *r = member(root, "revert", JSON_OBJECT);
	const struct json_node *k = json_read_member(r, "kernel");
	const char *why = str_of(r, "reason");

	b->revert = -1;
	b->o.git = run->git_tree != NULL;
	if (!k)
		bad("revert.kernel");
	if (k->type != JSON_NULL) {
		b->revert = (long)label_of(b, r, "kernel");
		if ((size_t)b->revert != b->n - 1 ||
		    (size_t)b->revert <= b->o.bad || !b->o.git)
			bad("revert.kernel");
	}
	if (why)
		b->revert_why = xstrdup(why);
}

/* Whether ST is ours, and others may not write it (as git's safe.directory
 * trusts its owner; a group of ones own, with umask 002, may write). */
static bool mine(const struct stat *st)
{
	return st->st_uid == geteuid() && !(st->st_mode & S_IWOTH);
}

void state_check_mine(int dirfd, const char *dir)
{
	struct stat d, f;
	char *e = text_escape(dir);

	if (fstat(dirfd, &d) ||
	    fstatat(dirfd, "bisect.json", &f, AT_SYMLINK_NOFOLLOW))
		die_errno(EXIT_USAGE, "cannot read '%s/bisect.json'", e);
	if (!S_ISREG(f.st_mode))
		die(EXIT_USAGE, "'%s/bisect.json' is not a regular file", e);
	if (!mine(&d) || !mine(&f))
		die(EXIT_USAGE,
		    "'%s' or its bisect.json is not yours alone (another "
		    "user owns it or may write it): --continue would run the "
		    "boot and build commands it holds",
		    e);
	free(e);
}

void state_read(struct bisect *b, struct bisect_run *run, const char *dir)
{
	struct json_read_error err;
	const struct json_node *a;
	struct json_node *root;
	char *path = xasprintf("%s/bisect.json", dir), *e;
	size_t i;
	int ret;

	state_file = path;
	ret = json_read_file(path, STATE_MAX_BYTES, &root, &err);
	if (ret < 0) {
		e = text_escape(path);
		if (ret == -EINVAL && err.line)
			die(EXIT_USAGE, "%s:%zu:%zu: %s", e, err.line,
			    err.column, err.msg);
		die_err(EXIT_USAGE, -ret, "cannot read '%s'", e);
	}
	if (root->type != JSON_OBJECT)
		bad("document");
	if (u64_of(root, "format_version", 1, UINT64_MAX) !=
	    BISECT_FORMAT_VERSION)
		bad("format_version");
	if (!str_of(root, "program") ||
	    strcmp(str_of(root, "program"), "latency-bisect"))
		bad("program");
	read_kernels(b, root);
	read_settings(b, run, root);
	read_series(b, root);
	a = member(root, "boots", JSON_ARRAY);
	b->boots = xcalloc(a->count + 1, sizeof(*b->boots));
	for (i = 0; i < a->count; i++) {
		read_boot(b, &a->items[i], &b->boots[i]);
		b->n_boots++;
	}
	read_revert(b, run, root);
	run->wall_before_s = num_of(root, "wall_s");
	if (isnan(run->wall_before_s) || run->wall_before_s < 0)
		bad("wall_s");
	json_read_free(root);
	free(path);
	state_file = NULL;
}
