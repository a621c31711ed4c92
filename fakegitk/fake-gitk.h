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
#include "lib/usersample.h"

/* ---- heldbuf.c: one large anonymous mapping that grows with mremap ---- */

struct heldbuf {
	char *base;
	size_t len; /* bytes appended */
	size_t cap; /* bytes mapped */
};

/* Append LEN bytes of DATA, growing the mapping.  Returns 0 or -ENOMEM. */
int heldbuf_append(struct heldbuf *b, const void *data, size_t len);
/*
 * Read LEN bytes of the held data from OFF back (forces swap-in) and return
 * SUM carried on over them, a checksum so the compiler cannot drop the
 * reads: chunks read in order give the checksum of the whole.
 */
uint64_t heldbuf_reread(const struct heldbuf *b, size_t off, size_t len,
			uint64_t sum);
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
	/*
	 * Progress lines: every N commits of the walk when EVERY is set,
	 * else whenever INTERVAL_NS has passed since the previous line (in
	 * every phase); both 0, none.
	 */
	uint64_t every;
	uint64_t interval_ns;
	struct progress *progress;
	/* User CPU sampled more densely than getrusage's; NULL: none. */
	const struct usersample *sample;
};

struct walk_result {
	uint64_t commits;
	uint64_t edges;
	uint64_t bytes_held;
	uint64_t bytes_read; /* raw commit bytes read, held or not */
	uint64_t start_ns;   /* CLOCK_MONOTONIC when the load began */
	uint64_t end_ns;     /* ... and when it ended (memory released) */
	uint64_t elapsed_ns; /* end_ns - start_ns */
	uint64_t majflt;     /* page faults of this load (getrusage) */
	uint64_t minflt;
	uint64_t user_ns; /* CPU time of this load in user mode ... */
	uint64_t sys_ns;  /* ... and in the kernel (getrusage) */
	uint64_t runq_ns; /* waiting for a CPU (/proc/self/schedstat) */
	bool has_runq;	  /* ... when the kernel keeps it */
	uint64_t lines;	  /* progress lines written in it (set by the caller) */
	/* User CPU time counted by the walk's sampler, when it runs. */
	uint64_t user_sampled_ns;
	bool has_user_sampled;
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
/*
 * The parent lines of raw commit DATA[0..LEN), in order, into IDS (at most
 * MAX stored), and in *HEADER_LEN the length of the header with its blank
 * line.  Returns the number of parents found or -1 when the header is
 * malformed.  (Exported for the fuzz target, tests/fuzz/fuzz-gitk-commit.c.)
 */
int parse_parents(const char *data, size_t len, git_oid *ids, int max,
		  size_t *header_len);
/*
 * Print "<prog>: <what>: <libgit2's last error>" and return -1: how the
 * loader, refs.c and genrepo.c report a failed libgit2 call.
 */
int git_fail(const char *fmt, ...) PRINTF_LIKE(1, 2);

/* ---- refs.c: the refs a load starts from ---- */

struct ref_tip {
	char *name;  /* "HEAD" or "refs/..." */
	git_oid oid; /* what it resolves to (a tag object is not peeled) */
};

/*
 * Every ref of REPO (opened from REPO_PATH, named in messages) and HEAD
 * when it resolves, sorted by name (strcmp), as git show-ref --head lists
 * them: a symbolic ref gives its target's id, a dangling symbolic ref is
 * skipped with a warning (git skips it too), an unborn HEAD is skipped.  A
 * broken ref (a loose ref file that does not parse) is an error, and so,
 * with CHECK_OBJECTS, is a ref naming an object the repository lacks.
 * Stores a malloc'd array in *OUT and its length in *N; returns 0, or -1
 * after one error line.
 */
int refs_collect(git_repository *repo, const char *repo_path,
		 bool check_objects, struct ref_tip **out, size_t *n);
void refs_free(struct ref_tip *tips, size_t n);
/*
 * --list-refs: print "<oid> <name>" for refs_collect()'s list on stdout.
 * Returns the exit status.
 */
int list_refs(const char *repo_path);

/* ---- genrepo.c: the synthetic kernel-shaped repository ---- */

struct genrepo_opts {
	const char *dir;
	uint64_t commits;
	uint64_t seed;
	bool quiet;
};

/*
 * Create a bare repository at O->dir with O->commits commits, written as
 * packs (one per 32768 commits).  Same seed, same object ids.  Stores the
 * id of HEAD in *HEAD.  O->dir must be absent or an empty directory: the
 * repository is built in a temporary sibling and renamed into place when
 * complete, and the temporary is removed on any error or when sig_stop is
 * set (then nothing is printed).  On error prints one line and returns -1.
 */
int genrepo_create(const struct genrepo_opts *o, git_oid *head);

/* ---- fake-gitk.c and report.c ---- */

struct fg_config {
	struct opt_common common;
	enum out_format format;
	unsigned iterations;
	bool by_commits; /* progress by commit count (--every), not time */
	bool list_refs;
	const char *dump_map;
	/* -o and --dump-map temporaries, opened before the load. */
	struct atomic_file out, map_out;
	struct walk_opts walk;
	struct genrepo_opts gen;
	struct progress progress;
	struct run_info run;
	bool commit_graph;
	/* --sample-user: the period (0: off), the sampler, or why not. */
	uint64_t sample_period_ns;
	struct usersample sampler;
	char *sample_why;
	struct walk_result *res; /* one per iteration */
	unsigned done;		 /* iterations that ran (or began) */
};

/*
 * The summary of the iterations run: text on stderr (unless quiet) or JSON
 * on stdout, or either into c->out (opened by the caller when --output is
 * given; committed here).  INTERRUPTED marks it partial.  Returns 0 or -1
 * after a message.
 */
int report_summary(struct fg_config *c, bool interrupted);
/*
 * Write MAP as "parent child..." lines, sorted, into AF (opened by the
 * caller for PATH) and commit it.  0 or -1 after a message.
 */
int report_dump_map(struct atomic_file *af, const char *path,
		    const struct children_map *map);

#endif
