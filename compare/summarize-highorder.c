// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The second half of the headline: high-order allocation.  From
 * latency-highorder's summary (highorder.json) the per-order success rates
 * and fault latency, for summary.txt's second line
 *
 *	LABEL HighOrder: order-2 100.0% order-4 97.3% order-9 41.2% (p99 fault 3.1 ms)
 *
 * and result.json's high_order list; from latency-kmsg's summary
 * (kmsg.json) the page allocation failures per order (failures_by_order).
 * Both files are treated as hostile: a figure that is missing or not a
 * count becomes null, with a note.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json-read.h"
#include "lib/output.h"
#include "lib/parse.h"
#include "lib/xalloc.h"
#include "compare/summarize.h"

/* The highest order either file may name (kmsg counts up to 63). */
#define SUMM_MAX_ORDER 63

/* A count at KEY of OBJ: a non-negative integer below 2^53, else unset. */
static struct summ_u64 count_of(const struct json_node *obj, const char *key)
{
	struct summ_u64 u = { false, 0 };
	double v;

	if (json_read_number(obj, key, &v) || !(v >= 0) ||
	    v > 9007199254740992.0 || v != floor(v))
		return u;
	u.set = true;
	u.v = (uint64_t)v;
	return u;
}

/* One order of highorder.json's "orders" list into R->ho. */
static void read_order(struct summ_run *r, unsigned order)
{
	const struct json_node *root = r->highorder.root;
	struct summ_ho *h;
	char key[64];
	double v;

	r->ho = xreallocarray(r->ho, r->n_ho + 1, sizeof(*r->ho));
	h = &r->ho[r->n_ho++];
	memset(h, 0, sizeof(*h));
	h->order = order;
	snprintf(key, sizeof(key), "order_%u_attempts", order);
	h->attempts = count_of(root, key);
	snprintf(key, sizeof(key), "order_%u_successes", order);
	h->successes = count_of(root, key);
	snprintf(key, sizeof(key), "order_%u_fault_p99_us", order);
	h->fault_p99_us =
		json_read_number(root, key, &v) || !(v >= 0) ? NAN : v;
	if (!h->attempts.set || !h->successes.set ||
	    h->successes.v > h->attempts.v) {
		summ_note(r,
			  "highorder.json: no valid attempts and successes "
			  "for order %u",
			  order);
		h->attempts.set = h->successes.set = false;
	}
}

static void read_highorder(struct summ_run *r)
{
	const char *list = json_read_string(r->highorder.root, "orders");
	char *copy, *tok, *save = NULL;
	bool seen[SUMM_MAX_ORDER + 1] = { false };
	unsigned prev = 0;
	uint64_t o;
	double v;

	r->ho_p99_us = NAN;
	if (!r->highorder.root)
		return;
	if (!list) {
		summ_note(r, "highorder.json: no orders list");
		return;
	}
	copy = xstrdup(list);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		/* Ascending and each once, as the probe writes them. */
		if (parse_u64(tok, &o) || o > SUMM_MAX_ORDER || seen[o] ||
		    o <= prev) {
			summ_note(r, "highorder.json: a bad orders list");
			break;
		}
		seen[o] = true;
		prev = (unsigned)o;
		read_order(r, (unsigned)o);
	}
	free(copy);
	if (!json_read_number(r->highorder.root, "fault_p99_us", &v) && v >= 0)
		r->ho_p99_us = v;
}

/* kmsg.json's failures_order_N members. */
static void read_failures(struct summ_run *r)
{
	const struct json_node *root = r->kmsg.root;
	size_t i;

	if (!root || root->type != JSON_OBJECT)
		return;
	for (i = 0; i < root->count; i++) {
		const struct json_node *m = &root->items[i];
		const char *k = m->key;
		struct summ_u64 c;
		uint64_t o;

		if (strncmp(k, "failures_order_", 15) ||
		    parse_u64(k + 15, &o) || o > SUMM_MAX_ORDER || k[15] == '+')
			continue;
		c = count_of(root, k);
		if (!c.set) {
			summ_note(r, "kmsg.json: %s is not a count", k);
			continue;
		}
		r->fail_by_order[o] = c;
		r->has_fail_by_order = true;
	}
}

void summ_highorder_read(struct summ_run *r)
{
	read_highorder(r);
	read_failures(r);
}

void summ_highorder_release(struct summ_run *r)
{
	free(r->ho);
	r->ho = NULL;
	r->n_ho = 0;
}

static double success_pct(const struct summ_ho *h)
{
	if (!h->attempts.set || !h->attempts.v)
		return NAN;
	return 100.0 * (double)h->successes.v / (double)h->attempts.v;
}

void summ_highorder_json(struct json *j, const struct summ_run *r)
{
	char key[24];
	size_t i;

	if (!r->highorder.root) {
		json_null(j, "high_order");
	} else {
		json_array_begin(j, "high_order");
		for (i = 0; i < r->n_ho; i++) {
			const struct summ_ho *h = &r->ho[i];

			json_object_begin(j, NULL);
			json_u64(j, "order", h->order);
			if (h->attempts.set) {
				json_u64(j, "attempts", h->attempts.v);
				json_u64(j, "successes", h->successes.v);
			} else {
				json_null(j, "attempts");
				json_null(j, "successes");
			}
			json_double(j, "success_pct", success_pct(h));
			json_double(j, "fault_p99_us", h->fault_p99_us);
			json_object_end(j);
		}
		json_array_end(j);
	}
	/* Unknown without a kernel log; {} when it showed no failure. */
	if (!r->kmsg.root) {
		json_null(j, "failures_by_order");
		return;
	}
	json_object_begin(j, "failures_by_order");
	for (i = 0; i <= SUMM_MAX_ORDER; i++) {
		if (!r->fail_by_order[i].set)
			continue;
		snprintf(key, sizeof(key), "%zu", i);
		json_u64(j, key, r->fail_by_order[i].v);
	}
	json_object_end(j);
}

void summ_highorder_line(FILE *f, const struct summ_run *r)
{
	struct highorder_pct *o;
	size_t i, n = r->highorder.root ? r->n_ho : 0;

	o = xcalloc(n + 1, sizeof(*o));
	for (i = 0; i < n; i++) {
		o[i].order = r->ho[i].order;
		o[i].pct = success_pct(&r->ho[i]);
	}
	highorder_line_write(f, o, n, r->ho_p99_us);
	free(o);
}

void summ_highorder_text(FILE *f, const struct summ_run *r)
{
	size_t i;

	for (i = 0; i < r->n_ho; i++) {
		const struct summ_ho *h = &r->ho[i];

		fprintf(f, "high-order: order-%u", h->order);
		if (h->attempts.set)
			fprintf(f, " attempts=%llu successes=%llu",
				(unsigned long long)h->attempts.v,
				(unsigned long long)h->successes.v);
		else
			fputs(" attempts=n/a successes=n/a", f);
		if (isfinite(h->fault_p99_us))
			fprintf(f, " fault_p99_us=%.2f\n", h->fault_p99_us);
		else
			fputs(" fault_p99_us=n/a\n", f);
	}
	if (!r->has_fail_by_order)
		return;
	fputs("failures by order:", f);
	for (i = 0; i < 64; i++)
		if (r->fail_by_order[i].set)
			fprintf(f, " order-%zu=%llu", i,
				(unsigned long long)r->fail_by_order[i].v);
	fputc('\n', f);
}
