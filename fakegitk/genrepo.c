// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The synthetic repository: a history shaped like the 2009 linux-2.6 tree,
 * made from nothing but a seed.  A mainline and long-lived subsystem
 * branches, each owning a few directories; subsystem work is merged into
 * mainline (about 7% of commits are merges, a few of them octopus merges),
 * and a merged branch is sometimes fast-forwarded to mainline, as
 * subsystem trees were.  Commit messages have a kernel-like length
 * distribution (raw commits average about 750 bytes, with a long tail), and
 * each commit changes a few files of a two-level tree.  Dates advance from
 * the first kernel commit by seeded steps, never from the clock, so the
 * same seed gives the same commit ids on every machine.
 *
 * Speed comes from building every object in memory (raw tree and commit
 * data, written through a mempack odb backend with no loose-object store
 * behind it) and writing a pack and its index every GEN_PACK_EVERY commits.
 *
 * The repository is built in a temporary sibling of its directory and
 * renamed into place only when complete: a full disk or a Ctrl-C never
 * leaves half a repository that a later load would take for a whole one.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <git2.h>
#include <git2/sys/mempack.h>
#include <git2/sys/repository.h>

#include "lib/err.h"
#include "lib/rand.h"
#include "lib/sig.h"
#include "lib/xalloc.h"

#include "fakegitk/fake-gitk.h"

#define GEN_DIRS 8
#define GEN_FILES 8
#define GEN_BRANCHES 16
#define GEN_PEOPLE 256
#define GEN_MSG_MAX 65536
/* 2005-04-16 15:20:36 UTC, the first commit of linux-2.6.git. */
#define GEN_EPOCH 1113664836ULL
/* Mainline is tagged about every this many commits (a kernel release). */
#define GEN_RELEASE_EVERY 9000
/*
 * Objects are packed and dropped from memory every this many commits, so
 * the generator needs about 330 MiB however long the history (it may run
 * on the small test machine itself); 180,000 commits make 6 packs.
 */
#define GEN_PACK_EVERY 32768

/* Sorted, as git wants tree entries (no name is a prefix of another). */
static const char *const dir_name[GEN_DIRS] = {
	"arch", "block", "crypto", "drivers", "fs", "kernel", "mm", "net",
};
static const char *const file_name[GEN_FILES] = {
	"Kconfig", "Makefile", "core.c", "main.c",
	"ops.c",   "sysfs.c",  "util.c", "xfer.c",
};
static const char *const branch_name[GEN_BRANCHES] = {
	"master", "x86", "block", "crypto", "drivers", "fs",  "sched", "mm",
	"net",	  "arm", "scsi",  "usb",    "ext4",    "tip", "sound", "akpm",
};
static const char *const first_names[] = {
	"Linus",    "Andrew",	 "Ingo",   "Greg", "David",    "Thomas",
	"Jens",	    "Al",	 "Peter",  "Alan", "Takashi",  "James",
	"Russell",  "Jeff",	 "Hugh",   "Mel",  "Rik",      "Wu",
	"Theodore", "Christoph", "Nick",   "Jan",  "Arjan",    "Stephen",
	"Frederic", "Steven",	 "Rafael", "Paul", "Johannes", "KOSAKI",
	"Andi",	    "Tejun",
};
static const char *const last_names[] = {
	"Torvalds", "Morton",	 "Molnar",     "Kroah-Hartman", "Miller",
	"Gleixner", "Axboe",	 "Viro",       "Zijlstra",	"Cox",
	"Iwai",	    "Bottomley", "King",       "Garzik",	"Dickins",
	"Gorman",   "van Riel",	 "Fengguang",  "Ts'o",		"Hellwig",
	"Piggin",   "Kara",	 "van de Ven", "Rothwell",	"Weisbecker",
	"Rostedt",  "Wysocki",	 "Mackerras",  "Weiner",	"Motohiro",
	"Kleen",    "Heo",
};
static const char *const domains[] = {
	"linux-foundation.org",
	"kernel.org",
	"redhat.com",
	"suse.de",
	"intel.com",
	"davemloft.net",
	"oracle.com",
	"ibm.com",
	"novell.com",
	"jp.fujitsu.com",
	"google.com",
	"arm.linux.org.uk",
};
static const char *const zones[] = {
	"-0700", "-0800", "+0100", "+0200", "+0000", "-0400",
	"-0500", "+0530", "+0900", "+0800", "+1000", "+0300",
};
static const char *const words[] = {
	"the",	      "a",	   "to",	 "of",		"in",
	"and",	      "is",	   "for",	 "this",	"that",
	"when",	      "with",	   "patch",	 "fix",		"driver",
	"memory",     "page",	   "lock",	 "race",	"between",
	"reclaim",    "writeback", "buffer",	 "inode",	"cache",
	"flush",      "queue",	   "request",	 "device",	"interrupt",
	"handler",    "callback",  "pointer",	 "dereference", "NULL",
	"kernel",     "oops",	   "warning",	 "spinlock",	"mutex",
	"sysfs",      "module",	   "allocation", "failure",	"order",
	"zone",	      "swap",	   "dirty",	 "pages",	"should",
	"not",	      "be",	   "called",	 "under",	"because",
	"otherwise",  "we",	   "can",	 "deadlock",	"it",
	"regression", "since",	   "commit",	 "introduced",	"caused",
	"stall",
};
static const char *const verbs[] = {
	"fix",	  "add",       "remove",   "clean up", "convert",
	"use",	  "introduce", "simplify", "avoid",    "make",
	"rework", "update",    "export",   "drop",
};

struct person {
	char ident[96]; /* "Name <email>" */
	const char *tz;
};

struct branch {
	git_oid tip;
	git_oid file[GEN_DIRS][GEN_FILES];
	git_oid dir[GEN_DIRS];
	git_oid root;
	bool dirty; /* has commits mainline has not merged */
	unsigned maintainer;
};

struct gen {
	struct rand r;
	const char *dir; /* as the user named it, for messages */
	git_repository *repo;
	git_odb *odb;
	git_odb_backend *mempack;
	uint64_t time; /* committer time of the last commit */
	uint64_t rev;  /* blob revision counter, keeps blobs unique */
	uint64_t release;
	struct person people[GEN_PEOPLE];
	struct branch br[GEN_BRANCHES];
	git_oid *tags;
	size_t ntags;
	char *msg;
	size_t msglen;
	char *obj;
	git_oid *objs; /* every object written, for the packbuilder */
	size_t nobjs, objs_cap;
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))
#define PICK(g, a) ((a)[rand_below(&(g)->r, N_OF(a))])

static int gen_write(struct gen *g, git_oid *id, const void *data, size_t len,
		     git_object_t type)
{
	if (git_odb_write(id, g->odb, data, len, type))
		return git_fail("cannot write object");
	if (g->nobjs == g->objs_cap) {
		g->objs_cap = g->objs_cap ? g->objs_cap * 2 : 65536;
		g->objs = xreallocarray(g->objs, g->objs_cap, sizeof(*g->objs));
	}
	git_oid_cpy(&g->objs[g->nobjs++], id);
	return 0;
}

static void msg_add(struct gen *g, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void msg_add(struct gen *g, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (g->msglen >= GEN_MSG_MAX - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(g->msg + g->msglen, GEN_MSG_MAX - g->msglen, fmt, ap);
	va_end(ap);
	if (n > 0)
		g->msglen += (size_t)n < GEN_MSG_MAX - g->msglen
				     ? (size_t)n
				     : GEN_MSG_MAX - 1 - g->msglen;
}

/* Wrapped prose of about LEN bytes, as a commit message body. */
static void msg_prose(struct gen *g, size_t len)
{
	size_t end = g->msglen + len, col = 0;

	while (g->msglen < end && g->msglen < GEN_MSG_MAX - 128) {
		const char *w = PICK(g, words);
		size_t wl = strlen(w);

		if (col + wl + 1 > 72) {
			msg_add(g, rand_below(&g->r, 6) ? "\n" : ".\n\n");
			col = 0;
		} else if (col) {
			msg_add(g, " ");
			col++;
		}
		msg_add(g, "%s", w);
		col += wl;
	}
	msg_add(g, ".\n");
}

/*
 * Body length: exponential around a short typical body, plus a rare very
 * long one (kernel changelogs with oops traces), for the long tail.
 */
static size_t body_len(struct gen *g)
{
	double u = rand_double(&g->r);
	size_t len = 40 + (size_t)(-log(1.0 - u) * 250.0);

	if (rand_below(&g->r, 1000) < 12)
		len += 1500 + rand_below(&g->r, 9000);
	return len;
}

static unsigned pick_author(struct gen *g)
{
	/* Skewed: a few people write much of the history. */
	return (unsigned)rand_below(&g->r, rand_below(&g->r, GEN_PEOPLE) + 1);
}

static void signoffs(struct gen *g, unsigned author, unsigned committer)
{
	if (rand_below(&g->r, 4) == 0)
		msg_add(g, "\nCc: %s\n", g->people[pick_author(g)].ident);
	else
		msg_add(g, "\n");
	if (rand_below(&g->r, 3) == 0)
		msg_add(g, "Acked-by: %s\n", g->people[pick_author(g)].ident);
	msg_add(g, "Signed-off-by: %s\n", g->people[author].ident);
	if (committer != author)
		msg_add(g, "Signed-off-by: %s\n", g->people[committer].ident);
}

/* Assemble and write a commit with the message in g->msg. */
static int write_commit(struct gen *g, git_oid *id, const git_oid *tree,
			const git_oid *parents, unsigned nparents,
			unsigned author, unsigned committer, uint64_t atime)
{
	char hex[GIT_OID_HEXSZ + 1];
	size_t n = 0;
	unsigned i;

	git_oid_tostr(hex, sizeof(hex), tree);
	n += (size_t)sprintf(g->obj + n, "tree %s\n", hex);
	for (i = 0; i < nparents; i++) {
		git_oid_tostr(hex, sizeof(hex), &parents[i]);
		n += (size_t)sprintf(g->obj + n, "parent %s\n", hex);
	}
	n += (size_t)sprintf(g->obj + n, "author %s %llu %s\n",
			     g->people[author].ident, (unsigned long long)atime,
			     g->people[author].tz);
	n += (size_t)sprintf(g->obj + n, "committer %s %llu %s\n\n",
			     g->people[committer].ident,
			     (unsigned long long)g->time,
			     g->people[committer].tz);
	memcpy(g->obj + n, g->msg, g->msglen);
	n += g->msglen;
	return gen_write(g, id, g->obj, n, GIT_OBJECT_COMMIT);
}

static int write_tree(struct gen *g, git_oid *id, const char *const *names,
		      const git_oid *ids, unsigned n, const char *mode)
{
	size_t len = 0;
	unsigned i;

	for (i = 0; i < n; i++) {
		len += (size_t)sprintf(g->obj + len, "%s %s", mode, names[i]);
		g->obj[len++] = '\0';
		memcpy(g->obj + len, ids[i].id, GIT_OID_RAWSZ);
		len += GIT_OID_RAWSZ;
	}
	return gen_write(g, id, g->obj, len, GIT_OBJECT_TREE);
}

static int write_root(struct gen *g, struct branch *b)
{
	return write_tree(g, &b->root, dir_name, b->dir, GEN_DIRS, "40000");
}

/* A directory branch B works in: its own pair, or anything for mainline. */
static unsigned pick_dir(struct gen *g, unsigned b)
{
	if (b == 0)
		return (unsigned)rand_below(&g->r, GEN_DIRS);
	return ((b - 1) + 4 * (unsigned)rand_below(&g->r, 2)) % GEN_DIRS;
}

static void advance_time(struct gen *g)
{
	g->time += 1 + rand_below(&g->r, 1300);
}

/* An ordinary commit on branch B changing a few files. */
static int commit_change(struct gen *g, unsigned b)
{
	struct branch *br = &g->br[b];
	bool changed[GEN_DIRS] = { false };
	uint8_t touched[GEN_DIRS] = { 0 };
	unsigned nchanges = 1 + (unsigned)rand_below(&g->r, 3), i, d;
	unsigned author, committer;
	char blob[512];

	if (rand_below(&g->r, 20) == 0)
		nchanges += 3;
	for (i = 0; i < nchanges; i++) {
		unsigned f = (unsigned)rand_below(&g->r, GEN_FILES);
		int n;

		d = pick_dir(g, b);
		/* A file changed twice would leave a dangling blob. */
		if (touched[d] & (1U << f))
			continue;
		touched[d] |= (uint8_t)(1U << f);
		n = snprintf(blob, sizeof(blob), "/* %s/%s revision %llu */\n",
			     dir_name[d], file_name[f],
			     (unsigned long long)++g->rev);
		while (n < 40 + (int)rand_below(&g->r, 200))
			n += snprintf(blob + n, sizeof(blob) - (size_t)n, "%s ",
				      PICK(g, words));
		blob[n++] = '\n';
		if (gen_write(g, &br->file[d][f], blob, (size_t)n,
			      GIT_OBJECT_BLOB))
			return -1;
		changed[d] = true;
	}
	for (d = 0; d < GEN_DIRS; d++)
		if (changed[d] && write_tree(g, &br->dir[d], file_name,
					     br->file[d], GEN_FILES, "100644"))
			return -1;
	if (write_root(g, br))
		return -1;

	author = pick_author(g);
	committer = b == 0 && rand_below(&g->r, 2) ? author : br->maintainer;
	d = pick_dir(g, b);
	g->msglen = 0;
	msg_add(g, "%s: %s %s %s %s\n\n", dir_name[d], PICK(g, verbs),
		PICK(g, words), PICK(g, words), PICK(g, words));
	msg_prose(g, body_len(g));
	signoffs(g, author, committer);
	advance_time(g);
	if (write_commit(g, &br->tip, &br->root, &br->tip, 1, author, committer,
			 g->time - rand_below(&g->r, 14 * 86400)))
		return -1;
	br->dirty = b != 0;
	return 0;
}

/* Mainline merges 1 (or, for an octopus, 2-4) subsystem branches. */
static int commit_merge(struct gen *g, const unsigned *from, unsigned n)
{
	struct branch *m = &g->br[0];
	git_oid parents[5];
	unsigned i, k;

	git_oid_cpy(&parents[0], &m->tip);
	g->msglen = 0;
	if (n == 1) {
		msg_add(g,
			"Merge branch 'for-linus' of "
			"git://git.kernel.org/pub/scm/linux/kernel/git/%s/"
			"%s-2.6\n\n",
			last_names[g->br[from[0]].maintainer %
				   N_OF(last_names)],
			branch_name[from[0]]);
	} else {
		msg_add(g, "Merge branches");
		for (i = 0; i < n; i++)
			msg_add(g, "%s'%s'",
				i ? (i + 1 == n ? " and " : ", ") : " ",
				branch_name[from[i]]);
		msg_add(g, " into next\n\n");
	}
	for (i = 0; i < n; i++) {
		struct branch *b = &g->br[from[i]];
		unsigned d = from[i] - 1;

		git_oid_cpy(&parents[i + 1], &b->tip);
		/* Take the branch's version of the directories it owns. */
		for (k = 0; k < 2; k++, d = (d + 4) % GEN_DIRS) {
			memcpy(m->file[d % GEN_DIRS], b->file[d % GEN_DIRS],
			       sizeof(m->file[0]));
			git_oid_cpy(&m->dir[d % GEN_DIRS],
				    &b->dir[d % GEN_DIRS]);
		}
		msg_add(g, "* '%s':\n", branch_name[from[i]]);
		k = 1 + (unsigned)rand_below(&g->r, 8);
		while (k--)
			msg_add(g, "  %s: %s %s %s\n",
				dir_name[(from[i] - 1) % GEN_DIRS],
				PICK(g, verbs), PICK(g, words), PICK(g, words));
	}
	if (write_root(g, m))
		return -1;
	advance_time(g);
	if (write_commit(g, &m->tip, &m->root, parents, n + 1, 0, 0, g->time))
		return -1;
	for (i = 0; i < n; i++) {
		struct branch *b = &g->br[from[i]];

		b->dirty = false;
		/* Subsystem trees often restart from the new mainline. */
		if (rand_below(&g->r, 3) == 0) {
			unsigned maint = b->maintainer;

			*b = *m;
			b->maintainer = maint;
			b->dirty = false;
		}
	}
	return 0;
}

static int try_merge(struct gen *g)
{
	unsigned cand[GEN_BRANCHES], from[4], n = 0, want, i;

	for (i = 1; i < GEN_BRANCHES; i++)
		if (g->br[i].dirty)
			cand[n++] = i;
	if (!n)
		return 1;
	want = 1;
	if (rand_below(&g->r, 100) < 4)
		want = 2 + (unsigned)rand_below(&g->r, 3);
	if (want > n)
		want = n;
	for (i = 0; i < want; i++) {
		unsigned j = i + (unsigned)rand_below(&g->r, n - i), t;

		t = cand[i];
		cand[i] = cand[j];
		cand[j] = t;
		from[i] = cand[i];
	}
	return commit_merge(g, from, want);
}

static int tag_release(struct gen *g)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_oid id;
	int n;

	g->release++;
	git_oid_tostr(hex, sizeof(hex), &g->br[0].tip);
	n = sprintf(g->obj,
		    "object %s\ntype commit\ntag v2.6.%llu\n"
		    "tagger %s %llu %s\n\nLinux 2.6.%llu\n",
		    hex, (unsigned long long)g->release, g->people[0].ident,
		    (unsigned long long)g->time, g->people[0].tz,
		    (unsigned long long)g->release);
	if (gen_write(g, &id, g->obj, (size_t)n, GIT_OBJECT_TAG))
		return -1;
	g->tags = xreallocarray(g->tags, g->release, sizeof(*g->tags));
	git_oid_cpy(&g->tags[g->release - 1], &id);
	return 0;
}

static void make_people(struct gen *g)
{
	unsigned i;

	snprintf(g->people[0].ident, sizeof(g->people[0].ident),
		 "Linus Torvalds <torvalds@linux-foundation.org>");
	g->people[0].tz = "-0700";
	for (i = 1; i < GEN_PEOPLE; i++) {
		const char *f = PICK(g, first_names), *l = PICK(g, last_names);

		snprintf(g->people[i].ident, sizeof(g->people[i].ident),
			 "%s %s <%c%s%u@%s>", f, l, f[0] | 0x20, l, i,
			 PICK(g, domains));
		g->people[i].tz = PICK(g, zones);
	}
	/* Apostrophes and spaces are fine in names, not in addresses. */
	for (i = 1; i < GEN_PEOPLE; i++) {
		char *p = strchr(g->people[i].ident, '<');

		for (; p && *p && *p != '@'; p++)
			if (*p == '\'' || *p == ' ')
				*p = '_';
	}
}

/* The root commit every branch starts from: one blob per file. */
static int commit_root(struct gen *g)
{
	struct branch *m = &g->br[0];
	unsigned d, f, i;
	char blob[128];

	for (d = 0; d < GEN_DIRS; d++) {
		for (f = 0; f < GEN_FILES; f++) {
			int n = snprintf(blob, sizeof(blob), "/* %s/%s */\n",
					 dir_name[d], file_name[f]);

			if (gen_write(g, &m->file[d][f], blob, (size_t)n,
				      GIT_OBJECT_BLOB))
				return -1;
		}
		if (write_tree(g, &m->dir[d], file_name, m->file[d], GEN_FILES,
			       "100644"))
			return -1;
	}
	if (write_root(g, m))
		return -1;
	g->msglen = 0;
	msg_add(g, "Linux-2.6.12-rc2\n\nInitial git repository build.\n");
	g->time = GEN_EPOCH;
	if (write_commit(g, &m->tip, &m->root, NULL, 0, 0, 0, g->time))
		return -1;
	for (i = 1; i < GEN_BRANCHES; i++) {
		g->br[i] = *m;
		g->br[i].maintainer = 1 + (unsigned)rand_below(&g->r, 40);
	}
	return 0;
}

/* Non-zero stops libgit2's pack building and indexing: a stop signal. */
static int pack_progress(int stage, uint32_t current, uint32_t total,
			 void *payload)
{
	(void)stage, (void)current, (void)total, (void)payload;
	return sig_stop ? -1 : 0;
}

static int index_progress(const git_indexer_progress *stats, void *payload)
{
	(void)stats, (void)payload;
	return sig_stop ? -1 : 0;
}

/* A pack that failed, said unless a stop signal made it fail. */
static int pack_fail(const struct gen *g, const char *what)
{
	return sig_stop ? -1 : git_fail("%s '%s'", what, g->dir);
}

/* Write the objects made since the last pack as one pack, and drop them. */
static int write_pack(struct gen *g)
{
	git_packbuilder *pb;
	char *path;
	size_t i;
	int r = -1;

	if (git_packbuilder_new(&pb, g->repo))
		return git_fail("cannot start a pack for '%s'", g->dir);
	git_packbuilder_set_threads(pb, 0);
	git_packbuilder_set_callbacks(pb, pack_progress, NULL);
	for (i = 0; i < g->nobjs; i++)
		if (git_packbuilder_insert(pb, &g->objs[i], NULL)) {
			pack_fail(g, "cannot add to the pack of");
			goto out;
		}
	path = xasprintf("%s/objects/pack", git_repository_path(g->repo));
	if (git_packbuilder_write(pb, path, 0, index_progress, NULL))
		pack_fail(g, "cannot write the pack of");
	else if (git_mempack_reset(g->mempack))
		git_fail("cannot reset the object store of '%s'", g->dir);
	else
		r = 0;
	free(path);
	g->nobjs = 0;
out:
	git_packbuilder_free(pb);
	return r;
}

static int make_history(struct gen *g, uint64_t ncommits)
{
	uint64_t c = 1, next_release = GEN_RELEASE_EVERY;

	if (commit_root(g))
		return -1;
	while (c < ncommits) {
		int r = 1;

		if (sig_stop)
			return -1;
		if (rand_below(&g->r, 1000) < 75)
			r = try_merge(g);
		if (r > 0) {
			unsigned b = 0;

			if (rand_below(&g->r, 10))
				b = 1 + (unsigned)rand_below(&g->r,
							     GEN_BRANCHES - 1);
			r = commit_change(g, b);
		}
		if (r < 0)
			return -1;
		c++;
		if (c >= next_release) {
			if (tag_release(g))
				return -1;
			next_release += GEN_RELEASE_EVERY;
		}
		if (c % GEN_PACK_EVERY == 0 && write_pack(g))
			return -1;
	}
	return g->nobjs ? write_pack(g) : 0;
}

static int write_refs(struct gen *g, git_repository *repo, const char *dir)
{
	git_reference *ref;
	char name[64];
	unsigned i;

	for (i = 0; i < GEN_BRANCHES; i++) {
		snprintf(name, sizeof(name), "refs/heads/%s", branch_name[i]);
		if (git_reference_create(&ref, repo, name, &g->br[i].tip, 1,
					 NULL))
			return git_fail("cannot create '%s' in '%s'", name,
					dir);
		git_reference_free(ref);
	}
	for (i = 0; i < g->ntags; i++) {
		snprintf(name, sizeof(name), "refs/tags/v2.6.%u", i + 1);
		if (git_reference_create(&ref, repo, name, &g->tags[i], 1,
					 NULL))
			return git_fail("cannot create '%s' in '%s'", name,
					dir);
		git_reference_free(ref);
	}
	if (git_repository_set_head(repo, "refs/heads/master"))
		return git_fail("cannot set HEAD of '%s'", dir);
	return 0;
}

/* Set libgit2's message to WHY and fail for DIR. */
static int refuse(const char *dir, const char *why)
{
	git_error_set_str(GIT_ERROR_INVALID, why);
	return git_fail("cannot create repository '%s'", dir);
}

/*
 * DIR must be absent or an empty directory: a repository is never mixed
 * into other files, nor built over another repository.
 */
static int dir_is_usable(const char *dir)
{
	git_repository *repo;
	struct dirent *de;
	struct stat st;
	bool empty = true;
	DIR *d;

	if (stat(dir, &st))
		return errno == ENOENT ? 0
				       : error_errno("cannot create repository "
						     "'%s'",
						     dir);
	if (!S_ISDIR(st.st_mode))
		return refuse(dir, "not a directory");
	if (git_repository_open_ext(&repo, dir, GIT_REPOSITORY_OPEN_NO_SEARCH,
				    NULL) == 0) {
		git_repository_free(repo);
		return refuse(dir, "a repository exists there");
	}
	d = opendir(dir);
	if (!d)
		return error_errno("cannot create repository '%s'", dir);
	while (empty && (de = readdir(d)))
		empty = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");
	closedir(d);
	return empty ? 0 : refuse(dir, "the directory is not empty");
}

static int remove_one(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	(void)st, (void)ftw;
	if ((type == FTW_DP ? rmdir(path) : unlink(path)) && errno != ENOENT)
		warn_errno("cannot remove '%s'", path);
	return 0;
}

/* Remove the temporary tree at PATH, all of it, as well as it can. */
static void remove_tree(const char *path)
{
	if (nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS) && errno != ENOENT)
		warn_errno("cannot remove '%s'", path);
}

/*
 * A fresh temporary directory beside DIR, "DIR.tmp.XXXXXX" (mkdtemp), with
 * the mode a new directory would get.  Returns it (malloc'd) or NULL after
 * a message.
 */
static char *make_temp_sibling(const char *dir)
{
	size_t len = strlen(dir);
	mode_t mask;
	char *tmp;

	while (len > 1 && dir[len - 1] == '/')
		len--;
	tmp = xasprintf("%.*s.tmp.XXXXXX", (int)len, dir);
	if (!mkdtemp(tmp)) {
		error_errno("cannot create repository '%s': cannot make '%s'",
			    dir, tmp);
		free(tmp);
		return NULL;
	}
	mask = umask(0);
	umask(mask);
	if (chmod(tmp, 0777 & ~mask))
		warn_errno("cannot set the mode of '%s'", tmp);
	return tmp;
}

/* Build the whole repository in PATH; 0, or -1 after a message. */
static int build(struct gen *g, const char *path, uint64_t commits)
{
	git_repository *repo = NULL;
	int r = -1;

	if (git_repository_init(&g->repo, path, 1)) {
		git_fail("cannot create repository '%s'", g->dir);
		return -1;
	}
	/* Objects live only in memory until their pack is written. */
	if (git_odb_new(&g->odb) || git_mempack_new(&g->mempack) ||
	    git_odb_add_backend(g->odb, g->mempack, 1) ||
	    git_repository_set_odb(g->repo, g->odb)) {
		git_fail("cannot set up an object store for '%s'", g->dir);
		return -1;
	}
	if (make_history(g, commits ? commits : 1))
		return -1;
	g->ntags = g->release;
	/* Refs are checked against the packs: open the result afresh. */
	if (git_repository_open(&repo, path)) {
		git_fail("cannot open repository '%s'", g->dir);
		return -1;
	}
	if (!sig_stop && !write_refs(g, repo, g->dir))
		r = 0;
	git_repository_free(repo);
	return r;
}

int genrepo_create(const struct genrepo_opts *o, git_oid *head)
{
	struct gen *g;
	char *tmp;
	int r;

	if (dir_is_usable(o->dir))
		return -1;
	tmp = make_temp_sibling(o->dir);
	if (!tmp)
		return -1;
	g = xcalloc(1, sizeof(*g));
	rand_seed(&g->r, o->seed);
	g->dir = o->dir;
	g->msg = xmalloc(GEN_MSG_MAX);
	g->obj = xmalloc(GEN_MSG_MAX + 4096);
	make_people(g);
	r = build(g, tmp, o->commits);
	git_oid_cpy(head, &g->br[0].tip);
	git_odb_free(g->odb);
	git_repository_free(g->repo);
	free(g->objs);
	free(g->tags);
	free(g->msg);
	free(g->obj);
	free(g);
	if (sig_stop)
		r = -1;
	/* Replaces DIR only if it is (still) an empty directory. */
	if (!r && rename(tmp, o->dir))
		r = error_errno("cannot create repository '%s': cannot rename "
				"'%s' to it",
				o->dir, tmp);
	if (r)
		remove_tree(tmp);
	free(tmp);
	return r;
}
