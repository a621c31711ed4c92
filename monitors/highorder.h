/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * latency-highorder's private interface: the transparent huge page sizes
 * the kernel offers and their settings (highorder-thp.c), and the changes
 * --orders makes to them, recorded in the machine-state record of
 * doc/design.md, contract 5, through latency-machine before they are made and
 * undone at the end.
 */
#ifndef MONITORS_HIGHORDER_H
#define MONITORS_HIGHORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/hist.h"

/* Orders 1..HO_MAX_ORDER: an order above 20 (4 GiB pages) is not THP. */
#define HO_MAX_ORDER 20
#define HO_SETTING_MAX 16

/* One page size the kernel can map with a transparent huge page. */
struct ho_order {
	unsigned order;
	uint64_t bytes;
	char *enabled_path; /* the file that governs it */
	char *record_name;  /* latency-machine's name for it: 64kB, global */
	char setting[HO_SETTING_MAX]; /* its value at the start */
	bool effective; /* madvise(MADV_HUGEPAGE) regions may get it now */
	bool probe;	/* probed in this run */
	bool changed;	/* --orders set it to madvise for the run */
	bool restored;	/* and it was set back */
	uint64_t attempts, successes;
	uint64_t got[HO_MAX_ORDER + 1]; /* what a failed fault got instead */
	struct hist *fault;		/* fault times, ns */
};

struct ho_thp {
	char *dir;		     /* .../kernel/mm/transparent_hugepage */
	char global[HO_SETTING_MAX]; /* the top-level enabled */
	char defrag[HO_SETTING_MAX + 16]; /* the top-level defrag */
	unsigned pmd_order;
	size_t n;
	struct ho_order o[HO_MAX_ORDER]; /* ascending */
};

/* How --orders changes are recorded (latency-machine). */
struct ho_machine {
	const char *prog; /* LATENCY_MACHINE, else latency-machine (PATH) */
	pid_t owner;	  /* --owner, else our own pid */
	bool own_record;  /* we began it: restore it at the end */
	bool begun;
};

/*
 * Find the THP sizes under $LATENCY_SYS (default /sys) for PAGE_SIZE-byte
 * pages, with their settings.  Returns 0, or after saying why 3 when the
 * kernel has no transparent huge pages, 1 when a file cannot be read or
 * parsed.
 */
int ho_thp_discover(struct ho_thp *t, size_t page_size);
void ho_thp_release(struct ho_thp *t);
/* The size of T with order ORDER, or NULL. */
struct ho_order *ho_thp_find(struct ho_thp *t, unsigned order);

/*
 * The selected word of a THP setting file's content BUF ("always [madvise]
 * never" -> "madvise"; a lone word, as a fake tree holds, is itself) into
 * OUT.  Returns 0 or -EINVAL.
 */
int ho_setting_parse(const char *buf, char out[HO_SETTING_MAX]);

/*
 * Make every probed order of T that is not effective effective for the
 * run: record it with latency-machine (in a record of our own, begun
 * first, when no --owner was given), then write "madvise" and check it
 * took.  Called only with --orders.  Returns 0, or the exit status after
 * saying what failed (what was changed so far is undone by
 * ho_thp_restore(), which the caller registers).
 */
int ho_thp_enable(struct ho_thp *t, struct ho_machine *mc);
/*
 * Set back what ho_thp_enable() changed: through `latency-machine
 * restore` for our own record, by writing the old values for the driver's.
 * Safe to call more than once.  Returns 0, or -1 when something was left
 * changed (said on stderr).
 */
int ho_thp_restore(struct ho_thp *t, struct ho_machine *mc);

#endif
