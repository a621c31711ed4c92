/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * latency-block's account of the block layer: what blktrace's summary
 * counts (blkparse's Q, G, I, D, C, M, F, R, X, A, P and U actions), taken
 * from the text of the kernel's block tracepoints, per device; the
 * device's own counters (/sys/block/NAME/stat) beside it; and the JSON and
 * text summaries of both.  The parser takes hostile input: a recording
 * from elsewhere is only counted, malformed lines included.
 */
#ifndef MONITORS_BLOCK_H
#define MONITORS_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "lib/hist.h"
#include "lib/output.h"

enum { BLK_READ, BLK_WRITE, BLK_DIRS };

/* /sys/block/NAME/stat has 11, 15 or 17 fields by kernel version. */
#define BLK_STAT_FIELDS 17

struct blk_dir {
	uint64_t queued, queued_bytes;		     /* Q: bios */
	uint64_t dispatched, dispatched_bytes;	     /* D: requests */
	uint64_t completed, completed_bytes;	     /* C: requests */
	uint64_t bio_completed, bio_completed_bytes; /* C of a bio */
	uint64_t merges;			     /* M + F */
	uint64_t requeued;			     /* R */
};

struct blk_dev {
	char *name; /* as in /sys/block, or "MAJ:MIN" */
	uint32_t major, minor;
	bool named;	   /* asked for (--device), or seen in the trace */
	int request_based; /* 1 has requests, 0 bio-based, -1 unknown */
	bool seen_rq;	   /* request events were seen for it */
	struct blk_dir d[BLK_DIRS];
	uint64_t backmerges, frontmerges, getrq, inserted;
	uint64_t splits, remaps, unplugs_io, unplugs_timer;
	struct hist q2c, d2c, rq_bytes; /* ns, ns, bytes */
	uint64_t size_pow2[65];		/* requests by ceil(log2 bytes) */
	/* The counters: at the start, now; nstat 0 when unreadable. */
	uint64_t stat0[BLK_STAT_FIELDS], stat1[BLK_STAT_FIELDS];
	size_t nstat;
	uint64_t iv_done[BLK_DIRS], iv_bytes[BLK_DIRS]; /* interval lines */
};

/* A request or bio in flight, by device and first sector. */
struct blk_flight {
	uint64_t sector;
	uint32_t dev; /* index in blk.dev, +1; 0: a free slot */
	uint64_t q_ns, d_ns;
};

#define BLK_FLIGHT_SLOTS (1U << 16)
#define BLK_CPUS 1024

struct blk {
	struct blk_dev *dev;
	size_t n, alloc;
	/* Partitions: their device numbers and the disk they belong to. */
	struct blk_part {
		uint32_t major, minor;
		size_t disk;
	} * part;
	size_t nparts;
	bool any_device; /* count every device the trace names */
	bool tracing;	 /* the figures come from tracepoints */
	bool no_detail;	 /* getrq and plugs were not traced */
	/* The kernel tells timer unplugs apart (block_unplug_timer). */
	bool timer_unplugs;
	struct blk_flight *flight;
	size_t flight_n;       /* slots in use */
	uint64_t flight_full;  /* events not timed: the table was full */
	uint64_t flight_stale; /* dropped: nothing completed them in time */
	uint64_t swept_ns;     /* the trace's time of the last sweep */
	/* An unplug waiting for the request events that follow it. */
	struct blk_unplug {
		int32_t pid;
		bool timer;
		uint64_t ts_ns;
	} pending[BLK_CPUS];
	uint64_t plugs, unplugs_unattributed;
	uint64_t lines, bad_lines, other_lines;
};

void blk_init(struct blk *b);
void blk_release(struct blk *b);

/* The device MAJOR:MINOR, added as NAME (NULL: "MAJ:MIN"). */
struct blk_dev *blk_add(struct blk *b, const char *name, uint32_t major,
			uint32_t minor);
/* A partition MAJOR:MINOR of device DISK (an index of B->dev). */
void blk_add_part(struct blk *b, size_t disk, uint32_t major, uint32_t minor);

/* One trace_pipe line of LEN bytes (no newline), counted. */
void blk_trace_line(struct blk *b, const char *line, size_t len);

/*
 * /sys/block/NAME/stat: its numbers into VALS (up to BLK_STAT_FIELDS);
 * returns how many, or -errno / -EINVAL.
 */
int blk_stat_read(const char *sysblock, const char *name, uint64_t *vals);

/* The summary's devices: a JSON array, and key=value text lines. */
void blk_write_json(struct json *j, const struct blk *b);
void blk_write_text(FILE *f, const struct blk *b);

#endif
