// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-block's summary of the run (block.json) in the result: "block"
 * in result.json, the devices' objects as latency-block wrote them, and a
 * short "block:" section in summary.txt in blkparse's terms (Queued,
 * Dispatches, Completed, Merges, IO and timer unplugs, Q2C and D2C).  The
 * file is the driver's, written by a monitor, yet read as any other part:
 * only numbers and strings of the expected types are used, strings are
 * escaped.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json-read.h"
#include "lib/output.h"
#include "compare/summarize.h"

/* The devices list of block.json, or NULL (noted once). */
static const struct json_node *devices(const struct summ_run *r)
{
	const struct json_node *d = json_read_member(r->block.root, "devices");

	return d && d->type == JSON_ARRAY ? d : NULL;
}

void summ_block_read(struct summ_run *r)
{
	if (r->block.root && !devices(r))
		summ_note(r, "block.json: no devices list");
}

void summ_block_json(struct json *j, const struct summ_run *r)
{
	const struct json_node *d = devices(r), *n;

	if (!d) {
		json_null(j, "block");
		return;
	}
	json_object_begin(j, "block");
	n = json_read_member(r->block.root, "source");
	(void)json_copy(j, "source", n && n->type == JSON_STRING ? n : NULL);
	n = json_read_member(r->block.root, "no_tracing");
	if (n && n->type == JSON_STRING)
		(void)json_copy(j, "no_tracing", n);
	/* The window, for rates (latency-compare's unplugs per second). */
	n = json_read_member(r->block.root, "duration_s");
	(void)json_copy(j, "duration_s",
			n && n->type == JSON_NUMBER ? n : NULL);
	(void)json_copy(j, "devices", d);
	json_object_end(j);
}

/* The number at PATH of device D, or NULL. */
static const struct json_node *num(const struct json_node *d, const char *path)
{
	const struct json_node *n = json_read_path(d, path);

	return n && n->type == JSON_NUMBER ? n : NULL;
}

/* A count as a whole number; a hostile file's absurd one in short. */
static void put_count(FILE *f, double v)
{
	if (v > -1e15 && v < 1e15)
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%.3g", v);
}

/* " NAME: COUNT, SIZE" as blkparse writes it (KiB, MiB), or "NAME: n/a". */
static void count_bytes(FILE *f, const char *name, const struct json_node *c,
			const struct json_node *b)
{
	if (!c) {
		fprintf(f, " %s: n/a", name);
		return;
	}
	fprintf(f, " %s: ", name);
	put_count(f, c->num);
	if (!b)
		return;
	fputs(", ", f);
	if (b->num >= 1024.0 * 1024 * 10) {
		put_count(f, b->num / (1024.0 * 1024));
		fputs("MiB", f);
	} else {
		put_count(f, b->num / 1024.0);
		fputs("KiB", f);
	}
}

static void one(FILE *f, const char *name, const struct json_node *c)
{
	fprintf(f, " %s: ", name);
	if (c)
		put_count(f, c->num);
	else
		fputs("n/a", f);
}

static void lat(FILE *f, const char *name, const struct json_node *d,
		const char *key)
{
	char p50[64], p99[64];
	const struct json_node *a, *b;

	snprintf(p50, sizeof(p50), "%s.p50", key);
	snprintf(p99, sizeof(p99), "%s.p99", key);
	a = num(d, p50);
	b = num(d, p99);
	if (a && b && a->num < 1e15 && b->num < 1e15)
		fprintf(f, " %s p50 %.1f us p99 %.1f us", name, a->num, b->num);
	else
		fprintf(f, " %s: n/a", name);
}

void summ_block_text(FILE *f, const struct summ_run *r)
{
	const struct json_node *list = devices(r);
	size_t i;

	for (i = 0; list && i < list->count; i++) {
		const struct json_node *d = &list->items[i];
		const char *name = json_read_string(d, "name");
		const char *src = json_read_string(d, "source");
		char *e;

		if (d->type != JSON_OBJECT)
			continue;
		e = text_escape(name ? name : "?");
		fprintf(f, "block: %s", e);
		free(e);
		e = text_escape(src ? src : "?");
		fprintf(f, " (%s)\n ", e);
		free(e);
		count_bytes(f, "Reads Queued", num(d, "reads.queued"),
			    num(d, "reads.queued_bytes"));
		count_bytes(f, "Writes Queued", num(d, "writes.queued"),
			    num(d, "writes.queued_bytes"));
		fputs("\n ", f);
		count_bytes(f, "Read Dispatches", num(d, "reads.dispatched"),
			    num(d, "reads.dispatched_bytes"));
		count_bytes(f, "Write Dispatches", num(d, "writes.dispatched"),
			    num(d, "writes.dispatched_bytes"));
		fputs("\n ", f);
		count_bytes(f, "Reads Completed", num(d, "reads.completed"),
			    num(d, "reads.completed_bytes"));
		count_bytes(f, "Writes Completed", num(d, "writes.completed"),
			    num(d, "writes.completed_bytes"));
		fputs("\n ", f);
		one(f, "Read Merges", num(d, "reads.merges"));
		one(f, "Write Merges", num(d, "writes.merges"));
		one(f, "IO unplugs", num(d, "unplugs_io"));
		one(f, "Timer unplugs", num(d, "unplugs_timer"));
		fputs("\n ", f);
		lat(f, "Q2C", d, "q2c_us");
		lat(f, "D2C", d, "d2c_us");
		fputc('\n', f);
	}
}
