/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fake-gitk's private interfaces: the history loader (walk.c), the
 * parent -> children map it builds (children.c), the held-data buffer
 * (heldbuf.c) and the synthetic repository generator (genrepo.c).
 */
#ifndef FAKEGITK_FAKE_GITK_H
#define FAKEGITK_FAKE_GITK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <git2.h>

#include "lib/opt.h"
#include "lib/output.h"
#include "lib/progress.h"

/* ---- heldbuf.c: one large anonymous mapping that grows with mremap ---- */

struct heldbuf {
	char *base;
	size_t len; /* bytes appended */
	size_t cap; /* bytes mapped */
};

/* Append LEN bytes of DATA, growing the mapping.  Returns 0 or -ENOMEM. */
int heldbuf_append(struct heldbuf *b, const void *data, size_t len);
/*
 * Read every page of the held data back (forces swap-in) and return a
 * checksum of it, so the compiler cannot drop the reads.
 */
uint64_t heldbuf_reread(const struct heldbuf *b);
/* Unmap everything: the memory goes back to the kernel at once. */
void heldbuf_release(struct heldbuf *b);

/* ---- children.c: parent -> children hash map over commit ids ---- */

struct child_edge {
	uint32_t child; /* node index of the child */
	uint32_t next;	/* next edge of the same parent, UINT32_MAX ends */
};

struct commit_node {
	git_oid id;
	uint32_t first_child; /* edge index, UINT32_MAX when none */
	uint32_t nchildren;
	bool seen;   /* queued for the walk (or hidden) */
	bool hidden; /* reachable from an excluded revision */
};

struct children_map {
	struct commit_node *node;
	uint32_t nnodes, node_cap;
	uint32_t *slot; /* open addressing: node index + 1, 0 empty */
	uint32_t mask;
	struct child_edge *edge;
	uint64_t nedges;
	uint64_t edge_cap;
};

void children_map_init(struct children_map *m);
/*
 * The node index of ID, added when absent (*ADDED tells which).  Returns
 * the index, or UINT32_MAX when out of memory.
 */
uint32_t children_map_intern(struct children_map *m, const git_oid *id,
			     bool *added);
/* The node index of ID, or UINT32_MAX when absent. */
uint32_t children_map_find(const struct children_map *m, const git_oid *id);
/* Record that node CHILD has node PARENT as a parent.  0 or -ENOMEM. */
int children_map_add_edge(struct children_map *m, uint32_t parent,
			  uint32_t child);
void children_map_release(struct children_map *m);

/* ---- walk.c: load the history ---- */

enum hold_mode {
	HOLD_ALL,     /* the whole raw commit, as gitk keeps git log's output */
	HOLD_HEADERS, /* tree, parents, author, committer only */
	HOLD_NONE,    /* read and parse, keep nothing */
};

struct walk_opts {
	const char *repo_path;
	char **revs; /* revisions; all refs and HEAD when none */
	int nrevs;
	enum hold_mode hold;
	bool reread;
	bool verify_hashes;
	uint64_t every; /* progress line every N commits, 0 never */
	struct progress *progress;
};

struct walk_result {
	uint64_t commits;
	uint64_t edges;
	uint64_t bytes_held;
	uint64_t bytes_read; /* raw commit bytes read, held or not */
	uint64_t elapsed_ns;
	uint64_t reread_sum;
	bool shallow;
	bool interrupted;
};

/*
 * One iteration: open the repository, walk, hold, build the map, re-read,
 * and release everything.  When MAP_OUT is non-NULL the map is handed over
 * instead of released (the caller releases it).  On error prints one line
 * naming the repository, object and cause and returns -1.
 */
int walk_history(const struct walk_opts *o, unsigned iter,
		 struct walk_result *res, struct children_map *map_out);
/* Whether REPO has a commit-graph file git would use (libgit2 does not). */
bool repo_has_commit_graph(const char *repo_path);

/* ---- genrepo.c: the synthetic kernel-shaped repository ---- */

struct genrepo_opts {
	const char *dir;
	uint64_t commits;
	uint64_t seed;
	bool quiet;
};

/*
 * Create a bare repository at O->dir with O->commits commits, written as
 * packs (one per 32768 commits).  Same seed, same object ids.  Stores the id of HEAD in *HEAD.
 * On error prints one line and returns -1.
 */
int genrepo_create(const struct genrepo_opts *o, git_oid *head);

/* ---- fake-gitk.c and report.c ---- */

struct fg_config {
	struct opt_common common;
	enum out_format format;
	unsigned iterations;
	const char *dump_map;
	struct walk_opts walk;
	struct genrepo_opts gen;
	struct progress progress;
	struct run_info run;
	bool commit_graph;
	struct walk_result *res; /* one per iteration */
	unsigned done;		 /* iterations that ran (or began) */
};

/*
 * The summary of the iterations run: text on stderr (unless quiet) or JSON
 * on stdout, or either into --output.  INTERRUPTED marks it partial.
 * Returns 0 or -1 after a message.
 */
int report(struct fg_config *c, bool interrupted);
/* Write MAP as "parent child..." lines, sorted.  0 or -1 after a message. */
int dump_map(const char *path, const struct children_map *map);

/* Print "<prog>: <what>: <libgit2's last error>" and return -1. */
int git_fail(const char *fmt, ...) PRINTF_LIKE(1, 2);

#endif
