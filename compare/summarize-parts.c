// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The optional parts of a run directory: the programs' JSON outputs (the
 * latency reports, the monitors' summaries, seqbench, ringbench, the
 * machine before and after, the calibration run), shrink.txt and the
 * driver's notes.
 * Each is loaded with a size bound, as a regular file only, and checked
 * to be what it should be; one that is missing or unreadable is left out
 * (null in result.json) with a note saying why.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/json-read.h"
#include "lib/parse.h"
#include "lib/xalloc.h"
#include "compare/summarize.h"

const char *const summ_shrink_keys[SUMM_SHRINK_KEYS] = {
	"floor_bytes",	       "goal_bytes",	  "offline_blocks",
	"offline_bytes",       "hugetlb_pages",	  "hugetlb_bytes",
	"mem_total_before",    "mem_total_after", "reserve_bytes",
	"workload_free_bytes",
};

static void strv_push(struct summ_strv *sv, char *s)
{
	sv->v = xreallocarray(sv->v, sv->n + 1, sizeof(*sv->v));
	sv->v[sv->n++] = s;
}

static void strv_free(struct summ_strv *sv)
{
	size_t i;

	for (i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
}

void summ_note(struct summ_run *r, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		xalloc_die();
	va_end(ap);
	/* File names come from the directory: any bytes at all. */
	strv_push(&r->own_notes, summ_clean_utf8(s, strlen(s)));
	free(s);
}

const char *summ_why(int r)
{
	switch (r) {
	case -ENOENT:
		return "missing";
	case -EFBIG:
		return "too large";
	case -EINVAL:
		return "not a regular file";
	case -ELOOP:
		return "a symbolic link";
	default:
		return strerror(-r);
	}
}

struct json_node *summ_load_object(struct summ_run *r, const char *file,
				   bool note_missing)
{
	char *path = xasprintf("%s/%s", r->dir, file), *buf;
	struct json_read_error err;
	struct json_node *root = NULL;
	size_t len;
	int ret;

	ret = json_read_load(path, SUMM_MAX_JSON_BYTES, &buf, &len);
	free(path);
	if (ret) {
		if (ret != -ENOENT || note_missing)
			summ_note(r, "%s: %s", file, summ_why(ret));
		return NULL;
	}
	ret = json_read_parse(buf, len, &root, &err);
	free(buf);
	if (ret == -EINVAL)
		summ_note(r, "%s: invalid JSON at line %zu, column %zu: %s",
			  file, err.line, err.column, err.msg);
	else if (ret)
		summ_note(r, "%s: %s", file, summ_why(ret)); /* -ENOMEM */
	else if (root->type != JSON_OBJECT)
		summ_note(r, "%s: %s, expected a JSON object", file,
			  json_type_name(root->type));
	else if (json_read_depth(root) > SUMM_MAX_PART_DEPTH)
		summ_note(r, "%s: nested deeper than %d levels", file,
			  SUMM_MAX_PART_DEPTH);
	else
		return root;
	json_read_free(root);
	return NULL;
}

static void load_part(struct summ_run *r, struct summ_part *p, const char *name,
		      const char *file, bool note_missing)
{
	p->name = xstrdup(name);
	p->root = summ_load_object(r, file, note_missing);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_report(const struct dirent *d)
{
	size_t len = strlen(d->d_name), sl = strlen(".report.json");

	return len > sl && !strcmp(d->d_name + len - sl, ".report.json");
}

/* Every NAME.report.json, in name order, under latency.NAME. */
static void load_reports(struct summ_run *r)
{
	struct dirent **list;
	int n, i;

	n = scandir(r->dir, &list, is_report, by_name);
	if (n < 0) {
		summ_note(r, "cannot list the result directory: %s",
			  strerror(errno));
		return;
	}
	if (n > SUMM_MAX_REPORTS)
		summ_note(r, "%d latency reports: only the first %d are kept",
			  n, SUMM_MAX_REPORTS);
	r->reports = xcalloc((size_t)n + 1, sizeof(*r->reports));
	for (i = 0; i < n; i++) {
		const char *file = list[i]->d_name;
		size_t len = strlen(file) - strlen(".report.json");

		if (i < SUMM_MAX_REPORTS) {
			r->reports[i].name = summ_clean_utf8(file, len);
			r->reports[i].root = summ_load_object(r, file, true);
			r->n_reports++;
		}
		free(list[i]);
	}
	free(list);
}

/* Split BUF into lines (cleaned of invalid UTF-8), skipping empty ones. */
static void split_lines(char *buf, size_t len, struct summ_strv *out)
{
	char *s = buf, *end = buf + len, *nl;

	for (; s < end; s = nl + 1) {
		nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			nl = end;
		if (nl > s)
			strv_push(out, summ_clean_utf8(s, (size_t)(nl - s)));
	}
}

/* A text part as lines; false (with a note unless missing) when absent. */
static bool load_lines(struct summ_run *r, const char *file,
		       struct summ_strv *out)
{
	char *path = xasprintf("%s/%s", r->dir, file), *buf;
	size_t len;
	int ret = json_read_load(path, SUMM_MAX_TEXT_BYTES, &buf, &len);

	free(path);
	if (ret) {
		if (ret != -ENOENT)
			summ_note(r, "%s: %s", file, summ_why(ret));
		return false;
	}
	split_lines(buf, len, out);
	free(buf);
	return true;
}

static void shrink_line(struct summ_run *r, char *line)
{
	char *eq = strchr(line, '=');
	size_t i;

	if (!eq) {
		summ_note(r, "shrink.txt: a line without '=' ignored");
		return;
	}
	*eq++ = '\0';
	if (!strcmp(line, "reached")) {
		r->shrink_reached = !strcmp(eq, "yes")	? 1
				    : !strcmp(eq, "no") ? 0
							: -1;
		if (r->shrink_reached < 0)
			summ_note(r, "shrink.txt: reached is neither yes nor "
				     "no");
		return;
	}
	for (i = 0; i < SUMM_SHRINK_KEYS; i++) {
		if (strcmp(line, summ_shrink_keys[i]))
			continue;
		r->shrink[i].set = !parse_u64(eq, &r->shrink[i].v);
		if (!r->shrink[i].set)
			summ_note(r, "shrink.txt: %s is not a whole number",
				  summ_shrink_keys[i]);
	}
}

static void load_shrink(struct summ_run *r)
{
	struct summ_strv lines = { 0 };
	size_t i;

	r->shrink_reached = -1;
	r->has_shrink = load_lines(r, "shrink.txt", &lines);
	for (i = 0; i < lines.n; i++)
		shrink_line(r, lines.v[i]);
	strv_free(&lines);
}

void summ_parts_read(struct summ_run *r)
{
	load_reports(r);
	load_part(r, &r->vmstat, "vmstat", "vmstat.json", true);
	load_part(r, &r->kmsg, "kmsg", "kmsg.json", true);
	load_part(r, &r->trace, "trace", "trace.json", true);
	load_part(r, &r->seqbench, "seqbench", "seqbench.json", false);
	load_part(r, &r->ringbench, "ringbench", "ringbench.json", false);
	load_part(r, &r->machine_before, "machine_before",
		  "machine-before.json", false);
	load_part(r, &r->machine_confined, "machine_confined",
		  "machine-confined.json", false);
	load_part(r, &r->machine_after, "machine_after", "machine-after.json",
		  false);
	load_part(r, &r->fake_music, "fake_music", "fake-music.json", false);
	load_part(r, &r->calibration, "calibration", "calibration.json", false);
	/* Absent where the kernel has no THP: the driver notes why. */
	load_part(r, &r->highorder, "highorder", "highorder.json", false);
	/* Absent where the run did no block IO monitoring (older runs). */
	load_part(r, &r->block, "block", "block.json", false);
	load_shrink(r);
	summ_highorder_read(r);
	summ_block_read(r);
	summ_vm_read(r);
	load_lines(r, "notes", &r->notes);
}

const char *summ_part_num(const struct summ_part *p, const char *key)
{
	const struct json_node *n = json_read_member(p->root, key);

	return n && n->type == JSON_NUMBER ? n->str : NULL;
}

static void part_free(struct summ_part *p)
{
	free(p->name);
	json_read_free(p->root);
}

void summ_run_release(struct summ_run *r)
{
	size_t i;

	summ_facts_release(&r->facts);
	for (i = 0; i < r->n_runs; i++) {
		free(r->runs[i].elapsed_s.str);
		free(r->runs[i].start_mono_s.str);
		free(r->runs[i].end_mono_s.str);
		free(r->runs[i].user_s.str);
		free(r->runs[i].sys_s.str);
		free(r->runs[i].runq_s.str);
		free(r->runs[i].user_sampled_s.str);
	}
	free(r->runs);
	free(r->elapsed);
	free(r->epu);
	part_free(&r->vmstat);
	part_free(&r->kmsg);
	part_free(&r->trace);
	part_free(&r->seqbench);
	part_free(&r->ringbench);
	part_free(&r->machine_before);
	part_free(&r->machine_confined);
	part_free(&r->machine_after);
	part_free(&r->fake_music);
	part_free(&r->calibration);
	part_free(&r->highorder);
	part_free(&r->block);
	part_free(&r->vm);
	part_free(&r->device);
	summ_highorder_release(r);
	for (i = 0; i < r->n_reports; i++)
		part_free(&r->reports[i]);
	free(r->reports);
	strv_free(&r->notes);
	strv_free(&r->own_notes);
}
