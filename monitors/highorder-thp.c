// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The transparent huge page sizes a kernel offers, as latency-highorder
 * finds them under /sys/kernel/mm/transparent_hugepage (or $LATENCY_SYS):
 * the PMD size from hpage_pmd_size, multi-size THP from hugepages-NkB/ with
 * an enabled file, each with the setting that governs it; and the changes
 * --orders makes, which go through latency-machine's record (doc/design.md,
 * contract 5) before they are made, so a killed run is undone by the next.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/kparse.h"
#include "lib/spawn.h"
#include "lib/xalloc.h"
#include "monitors/highorder.h"

int ho_setting_parse(const char *buf, char out[HO_SETTING_MAX])
{
	const char *p = strchr(buf, '['), *q;
	size_t n;

	if (p) {
		q = strchr(++p, ']');
		if (!q)
			return -EINVAL;
	} else {
		/* A fake tree holds the word written to it. */
		p = buf + strspn(buf, " \n");
		q = p + strcspn(p, " \n");
		if (p[strspn(q, " \n") + (size_t)(q - p)])
			return -EINVAL;
	}
	n = (size_t)(q - p);
	if (!n || n >= HO_SETTING_MAX)
		return -EINVAL;
	memcpy(out, p, n);
	out[n] = '\0';
	return 0;
}

/* The setting in PATH into OUT: 0, or 1 when it cannot be read or parsed. */
static int read_setting(const char *path, char out[HO_SETTING_MAX])
{
	char buf[256];
	ssize_t n = read_small_file(path, buf, sizeof(buf));

	if (n < 0)
		return error_ret_err(EXIT_RUN_FAILED, (int)-n,
				     "cannot read '%s'", path);
	if (ho_setting_parse(buf, out))
		return error_ret(EXIT_RUN_FAILED,
				 "cannot parse '%s': no selected value", path);
	return EXIT_OK;
}

static bool is_enabling(const char *s)
{
	return !strcmp(s, "always") || !strcmp(s, "madvise");
}

static void set_effective(const struct ho_thp *t, struct ho_order *o)
{
	const char *s = strcmp(o->setting, "inherit") ? o->setting : t->global;

	o->effective = is_enabling(s);
}

/* The order of BYTES in PAGE-byte pages, or 0 when it is none. */
static unsigned order_of(uint64_t bytes, size_t page)
{
	uint64_t pages;
	unsigned k = 0;

	if (!bytes || bytes % page)
		return 0;
	pages = bytes / page;
	if (pages & (pages - 1))
		return 0;
	while (pages >>= 1)
		k++;
	return k <= HO_MAX_ORDER ? k : 0;
}

static struct ho_order *add_order(struct ho_thp *t, unsigned order, size_t page)
{
	struct ho_order *o;

	if (ho_thp_find(t, order) || t->n == HO_MAX_ORDER)
		return NULL;
	o = &t->o[t->n++];
	memset(o, 0, sizeof(*o));
	o->order = order;
	o->bytes = (uint64_t)page << order;
	return o;
}

/* The multi-size THP directories hugepages-NkB/ that have an enabled. */
static int find_mthp(struct ho_thp *t, size_t page)
{
	DIR *d = opendir(t->dir);
	struct dirent *de;
	int status = EXIT_OK;

	if (!d)
		return error_ret_errno(EXIT_RUN_FAILED, "cannot read '%s'",
				       t->dir);
	while (!status && (de = readdir(d))) {
		unsigned long kb;
		char tail[4], *path;
		struct ho_order *o;
		unsigned order;

		if (sscanf(de->d_name, "hugepages-%lukB%3s", &kb, tail) != 1 ||
		    kb > (1UL << 30))
			continue;
		order = order_of((uint64_t)kb * 1024, page);
		path = xasprintf("%s/%s/enabled", t->dir, de->d_name);
		/* Order 1 (and shmem-only sizes) have no anon setting. */
		if (!order || access(path, F_OK) ||
		    !(o = add_order(t, order, page))) {
			free(path);
			continue;
		}
		o->enabled_path = path;
		o->record_name = xasprintf("%lukB", kb);
		status = read_setting(path, o->setting);
	}
	closedir(d);
	return status;
}

static int cmp_order(const void *a, const void *b)
{
	const struct ho_order *x = a, *y = b;

	return (x->order > y->order) - (x->order < y->order);
}

/* The PMD size's order from hpage_pmd_size: 0 or the exit status. */
static int pmd_order(struct ho_thp *t, size_t page)
{
	char buf[256], *path = xasprintf("%s/hpage_pmd_size", t->dir);
	ssize_t n = read_small_file(path, buf, sizeof(buf));
	int status = EXIT_OK;
	uint64_t pmd;

	if (n < 0)
		status = error_ret_err(EXIT_UNSUPPORTED, (int)-n,
				       "cannot read '%s'", path);
	else if (kparse_u64_file(buf, (size_t)n, &pmd) ||
		 !(t->pmd_order = order_of(pmd, page)))
		status = error_ret(EXIT_RUN_FAILED,
				   "cannot parse '%s': not a huge page size",
				   path);
	free(path);
	return status;
}

int ho_thp_discover(struct ho_thp *t, size_t page)
{
	const char *sys = getenv("LATENCY_SYS");
	char buf[256], *path;
	struct ho_order *o;
	size_t i;
	int status;

	memset(t, 0, sizeof(*t));
	t->dir = xasprintf("%s/kernel/mm/transparent_hugepage",
			   sys && *sys ? sys : "/sys");
	if (access(t->dir, F_OK))
		return error_ret_errno(EXIT_UNSUPPORTED,
				       "no transparent huge pages in this "
				       "kernel: cannot find '%s'",
				       t->dir);
	path = xasprintf("%s/enabled", t->dir);
	status = read_setting(path, t->global);
	free(path);
	if (status)
		return status;
	path = xasprintf("%s/defrag", t->dir);
	if (read_small_file(path, buf, sizeof(buf)) < 0 ||
	    ho_setting_parse(buf, t->defrag))
		strcpy(t->defrag, "unknown");
	free(path);
	status = pmd_order(t, page);
	if (!status)
		status = find_mthp(t, page);
	if (status)
		return status;
	/* Without a hugepages-NkB/ of its own (kernels before 6.8) the PMD
	 * size follows the top-level setting. */
	o = add_order(t, t->pmd_order, page);
	if (o) {
		o->enabled_path = xasprintf("%s/enabled", t->dir);
		o->record_name = xstrdup("global");
		strcpy(o->setting, t->global);
	}
	qsort(t->o, t->n, sizeof(t->o[0]), cmp_order);
	for (i = 0; i < t->n; i++)
		set_effective(t, &t->o[i]);
	return EXIT_OK;
}

struct ho_order *ho_thp_find(struct ho_thp *t, unsigned order)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->o[i].order == order)
			return &t->o[i];
	return NULL;
}

void ho_thp_release(struct ho_thp *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		free(t->o[i].enabled_path);
		free(t->o[i].record_name);
		free(t->o[i].fault);
	}
	free(t->dir);
	memset(t, 0, sizeof(*t));
}

/* Run latency-machine with ARGS; returns its exit status or -errno. */
static int machine_run(const struct ho_machine *mc, const char *const *args)
{
	char *argv[8], owner[32];
	int i;

	snprintf(owner, sizeof(owner), "--owner=%ld", (long)mc->owner);
	/* The owner right after the command: "+" option parsing stops at
	 * record's KIND. */
	argv[0] = (char *)mc->prog;
	argv[1] = (char *)args[0];
	argv[2] = owner;
	for (i = 1; args[i] && i < 5; i++)
		argv[i + 2] = (char *)args[i];
	argv[i + 2] = NULL;
	return spawn_wait(argv, 0);
}

/* latency-machine with ARGS, which must succeed: 0 or the exit status. */
static int machine_must(const struct ho_machine *mc, const char *const *args)
{
	int r = machine_run(mc, args);

	if (r < 0)
		return error_ret_err(EXIT_RUN_FAILED, -r, "cannot run '%s'",
				     mc->prog);
	if (r == EXIT_UNSUPPORTED)
		return error_ret(EXIT_UNSUPPORTED,
				 "%s %s failed with status 3 (see above)",
				 mc->prog, args[0]);
	if (r)
		return error_ret(EXIT_RUN_FAILED,
				 "%s %s failed with status %d (see above)",
				 mc->prog, args[0], r);
	return EXIT_OK;
}

/* Order O, recorded already, made effective: "madvise" written, read back. */
static int enable_one(struct ho_order *o)
{
	char now[HO_SETTING_MAX];
	int r = write_small_file(o->enabled_path, "madvise");

	if (r)
		return error_ret_err(EXIT_RUN_FAILED, -r, "cannot write '%s'",
				     o->enabled_path);
	r = read_setting(o->enabled_path, now);
	if (r)
		return r;
	if (strcmp(now, "madvise"))
		return error_ret(EXIT_RUN_FAILED,
				 "'%s' reads '%s' after madvise was written",
				 o->enabled_path, now);
	o->effective = true;
	return EXIT_OK;
}

int ho_thp_enable(struct ho_thp *t, struct ho_machine *mc)
{
	const char *rec[] = { "record", "thp", NULL, NULL, NULL };
	size_t i;
	int status = EXIT_OK;

	if (mc->own_record) {
		const char *begin[] = { "begin", NULL };

		/* Also undoes the record of a run that was killed. */
		status = machine_must(mc, begin);
		if (status)
			return status;
	}
	mc->begun = true;
	for (i = 0; !status && i < t->n; i++) {
		struct ho_order *o = &t->o[i];

		if (!o->probe || o->effective)
			continue;
		rec[2] = o->record_name;
		rec[3] = o->setting;
		status = machine_must(mc, rec);
		if (status)
			break;
		o->changed = true;
		status = enable_one(o);
	}
	return status;
}

int ho_thp_restore(struct ho_thp *t, struct ho_machine *mc)
{
	int status = 0, r;
	size_t i;

	if (mc->own_record && mc->begun) {
		const char *restore[] = { "restore", NULL };

		mc->begun = false;
		r = machine_run(mc, restore);
		if (r) {
			inform("%s restore failed (%s); the THP settings may "
			       "still be changed: run '%s restore'",
			       mc->prog, r < 0 ? strerror(-r) : "see above",
			       mc->prog);
			return -1;
		}
		for (i = 0; i < t->n; i++)
			t->o[i].restored = t->o[i].changed;
		return 0;
	}
	/* The driver's record: set our changes back now; the record's undo
	 * repeats it harmlessly at the driver's end. */
	for (i = t->n; i-- > 0;) {
		struct ho_order *o = &t->o[i];

		if (!o->changed || o->restored)
			continue;
		r = write_small_file(o->enabled_path, o->setting);
		if (r) {
			errno = -r;
			error_errno("cannot set '%s' back to %s",
				    o->enabled_path, o->setting);
			status = -1;
			continue;
		}
		o->restored = true;
	}
	return status;
}
