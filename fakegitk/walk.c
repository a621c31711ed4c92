// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading a history the way gitk does: every commit reachable from the
 * starting revisions (all refs and HEAD, as gitk --all), its raw data kept
 * in one large buffer, and a parent -> children map over all of them.
 *
 * The walk is our own depth-first traversal over libgit2's object database
 * rather than git_revwalk: each commit is then read exactly once (the
 * revwalk parses every commit itself, so reading the raw data as well needs
 * a second lookup, served only while libgit2's object cache still holds it,
 * and that cache is hidden memory the user did not ask for), the order is
 * fixed by the refs alone, commits stream from the first one (no sorting
 * pass), and shallow clones work (libgit2 1.5's revwalk fails at the
 * shallow boundary).  Excluded revisions (^A, A..B, A...B) are walked first
 * and marked hidden, so the result equals git rev-list's.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <git2.h>
#include <git2/sys/odb_backend.h>
#include <zlib.h>

#include "lib/err.h"
#include "lib/parse.h"
#include "lib/sig.h"
#include "lib/timing.h"
#include "lib/xalloc.h"

#include "fakegitk/fake-gitk.h"

#define NONE UINT32_MAX

struct walker {
	const struct walk_opts *o;
	git_repository *repo;
	git_odb *odb;	/* everything, alternates included */
	git_odb *packs; /* this repository's packs only */
	char *objdir;	/* "<gitdir>/objects/" */
	struct children_map map;
	struct heldbuf held;
	uint32_t *stack;
	size_t nstack, stack_cap;
	git_oid *shallow; /* sorted shallow boundary commits */
	size_t nshallow;
	struct walk_result *res;
	unsigned iter;
	uint64_t hidden;       /* excluded commits walked */
	uint64_t reread;       /* bytes read again so far */
	uint64_t interval_ns;  /* time between progress lines, 0 none */
	uint64_t last_line_ns; /* when the previous line was written */
};

int git_fail(const char *fmt, ...)
{
	const git_error *e = git_error_last();
	char buf[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	inform("%s: %s", buf,
	       e && e->message ? e->message : "unknown libgit2 error");
	return -1;
}

/* One error line naming the repository, the object and the cause. */
static int obj_fail(struct walker *w, const git_oid *id, const char *what)
{
	char hex[GIT_OID_HEXSZ + 1];

	git_oid_tostr(hex, sizeof(hex), id);
	return git_fail("repository '%s': %s %s", w->o->repo_path, what, hex);
}

static int push(struct walker *w, uint32_t idx)
{
	if (w->nstack == w->stack_cap) {
		w->stack_cap = w->stack_cap ? w->stack_cap * 2 : 4096;
		w->stack = xreallocarray(w->stack, w->stack_cap,
					 sizeof(*w->stack));
	}
	w->stack[w->nstack++] = idx;
	return 0;
}

static int oid_cmp_void(const void *a, const void *b)
{
	return git_oid_cmp(a, b);
}

/* A shallow clone lists its boundary commits; git treats them as roots. */
static int load_shallow(struct walker *w)
{
	char *path, line[128];
	size_t cap = 0;
	FILE *f;

	if (!git_repository_is_shallow(w->repo))
		return 0;
	w->res->shallow = true;
	path = xasprintf("%sshallow", git_repository_path(w->repo));
	f = fopen(path, "r");
	if (!f) {
		error_errno("repository '%s': cannot open '%s'",
			    w->o->repo_path, path);
		free(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (w->nshallow == cap) {
			cap = cap ? cap * 2 : 64;
			w->shallow = xreallocarray(w->shallow, cap,
						   sizeof(*w->shallow));
		}
		if (git_oid_fromstrn(&w->shallow[w->nshallow], line,
				     GIT_OID_HEXSZ) == 0)
			w->nshallow++;
	}
	fclose(f);
	free(path);
	qsort(w->shallow, w->nshallow, sizeof(*w->shallow), oid_cmp_void);
	return 0;
}

static bool is_shallow(const struct walker *w, const git_oid *id)
{
	return w->nshallow && bsearch(id, w->shallow, w->nshallow,
				      sizeof(*w->shallow), oid_cmp_void);
}

/*
 * Why an object is missing: a pack libgit2 silently skipped because it is
 * unreadable, truncated or damaged.  Sets libgit2's error message to say
 * so and returns true when one is found.
 */
static bool damaged_pack(const struct walker *w)
{
	char *dir = xasprintf("%spack", w->objdir), *p = NULL;
	unsigned char head[4], tail[20], want[20];
	struct dirent *de;
	bool bad = false;
	DIR *d = opendir(dir);

	while (d && !bad && (de = readdir(d))) {
		size_t n = strlen(de->d_name);
		FILE *pf, *xf;
		char *msg = NULL;

		if (n < 6 || strcmp(de->d_name + n - 5, ".pack"))
			continue;
		free(p);
		p = xasprintf("%s/%s", dir, de->d_name);
		pf = fopen(p, "rb");
		if (!pf) {
			msg = xasprintf("cannot read pack '%s': %s", p,
					strerror(errno));
		} else if (fread(head, 1, 4, pf) != 4 ||
			   memcmp(head, "PACK", 4)) {
			msg = xasprintf("'%s' is not a pack file", p);
		} else if (fseek(pf, -20, SEEK_END) ||
			   fread(tail, 1, 20, pf) != 20) {
			msg = xasprintf("pack '%s' is truncated", p);
		} else {
			/* The index records the pack's trailing checksum. */
			memcpy(p + strlen(p) - 5, ".idx", 5);
			xf = fopen(p, "rb");
			if (xf && !fseek(xf, -40, SEEK_END) &&
			    fread(want, 1, 20, xf) == 20 &&
			    memcmp(want, tail, 20))
				msg = xasprintf("pack '%.*s.pack' is truncated "
						"or damaged (does not match "
						"its index)",
						(int)(strlen(p) - 4), p);
			if (xf)
				fclose(xf);
		}
		if (pf)
			fclose(pf);
		if (msg) {
			git_error_set_str(GIT_ERROR_ODB, msg);
			free(msg);
			bad = true;
		}
	}
	if (d)
		closedir(d);
	free(p);
	free(dir);
	return bad;
}

/* Read commit ID: from the packs, else a checked loose object. */
/* Queue commit ID as a start (or, with HIDE, as excluded). */
static int add_tip(struct walker *w, const git_oid *id, bool hide)
{
	bool added;
	uint32_t i = children_map_intern(&w->map, id, &added);

	if (i == NONE)
		return obj_fail(w, id, "out of memory at commit");
	if (hide) {
		if (!w->map.node[i].hidden) {
			w->map.node[i].hidden = true;
			push(w, i);
		}
	} else if (!w->map.node[i].seen) {
		w->map.node[i].seen = true;
		push(w, i);
	}
	return 0;
}

/* Peel OBJ to a commit; non-commits (a tag of a tree) are skipped. */
static int add_object(struct walker *w, git_object *obj, bool hide,
		      bool must_be_commit, const char *name)
{
	git_object *c;
	int r;

	if (git_object_peel(&c, obj, GIT_OBJECT_COMMIT)) {
		if (!must_be_commit)
			return 0;
		return obj_fail(w, git_object_id(obj), name);
	}
	r = add_tip(w, git_object_id(c), hide);
	git_object_free(c);
	return r;
}

static int read_object(struct walker *w, git_odb_object **obj,
		       const git_oid *id);

/*
 * Peel ID (a commit, or a chain of tags ending at one) to the commit id in
 * *OUT, reading through read_object() so damaged objects are caught.
 * Returns 1 when found, 0 when it ends at a tree or blob, or -1 after an
 * error line that names WHAT and the object.
 */
static int peel_commit(struct walker *w, const git_oid *id, git_oid *out,
		       const char *what)
{
	git_oid cur = *id;
	int depth, r;

	for (depth = 0; depth < 64; depth++) {
		git_odb_object *obj;
		const char *data;
		git_object_t type;

		r = read_object(w, &obj, &cur);
		if (r) {
			if (r == GIT_ENOTFOUND)
				damaged_pack(w);
			return obj_fail(w, &cur, what);
		}
		type = git_odb_object_type(obj);
		data = git_odb_object_data(obj);
		r = type == GIT_OBJECT_TAG && git_odb_object_size(obj) > 48 &&
		    !memcmp(data, "object ", 7) &&
		    !git_oid_fromstrn(&cur, data + 7, GIT_OID_HEXSZ);
		git_odb_object_free(obj);
		if (type == GIT_OBJECT_COMMIT) {
			*out = cur;
			return 1;
		}
		if (type != GIT_OBJECT_TAG)
			return 0;
		if (!r) {
			git_error_set_str(GIT_ERROR_OBJECT, "malformed tag");
			return obj_fail(w, &cur, what);
		}
	}
	git_error_set_str(GIT_ERROR_OBJECT, "chain of tags too long");
	return obj_fail(w, &cur, what);
}

/* All refs and HEAD, as gitk --all (git log --all) starts from. */
static int add_all_refs(struct walker *w)
{
	struct ref_tip *tips;
	size_t n, i;
	int r = 0;

	if (refs_collect(w->repo, w->o->repo_path, false, &tips, &n))
		return -1;
	for (i = 0; !r && i < n; i++) {
		char what[1024];
		git_oid commit;

		snprintf(what, sizeof(what), "ref '%s' leads to object",
			 tips[i].name);
		r = peel_commit(w, &tips[i].oid, &commit, what);
		if (r > 0)
			r = add_tip(w, &commit, false);
	}
	refs_free(tips, n);
	return r;
}

static int add_revspec_side(struct walker *w, git_object *obj, bool hide,
			    const char *rev)
{
	char what[1024];

	snprintf(what, sizeof(what), "revision '%s' is not a commit but", rev);
	return add_object(w, obj, hide, true, what);
}

/* Merge bases of A...B are excluded: the symmetric difference. */
static int hide_merge_bases(struct walker *w, const git_revspec *spec,
			    const char *rev)
{
	git_object *a, *b;
	git_oidarray bases;
	size_t i;
	int r = 0;

	if (git_object_peel(&a, spec->from, GIT_OBJECT_COMMIT))
		return git_fail("repository '%s': bad revision '%s'",
				w->o->repo_path, rev);
	if (git_object_peel(&b, spec->to, GIT_OBJECT_COMMIT)) {
		git_object_free(a);
		return git_fail("repository '%s': bad revision '%s'",
				w->o->repo_path, rev);
	}
	if (git_merge_bases(&bases, w->repo, git_object_id(a),
			    git_object_id(b)) == 0) {
		for (i = 0; !r && i < bases.count; i++)
			r = add_tip(w, &bases.ids[i], true);
		git_oidarray_dispose(&bases);
	}
	git_object_free(a);
	git_object_free(b);
	return r;
}

static int add_revision(struct walker *w, const char *rev)
{
	bool neg = rev[0] == '^';
	git_revspec spec;
	int r = 0;

	if (git_revparse(&spec, w->repo, rev + neg))
		return git_fail("repository '%s': bad revision '%s'",
				w->o->repo_path, rev);
	if (spec.flags & GIT_REVSPEC_SINGLE) {
		r = add_revspec_side(w, spec.from, neg, rev);
	} else {
		r = add_revspec_side(w, spec.from,
				     !(spec.flags & GIT_REVSPEC_MERGE_BASE),
				     rev);
		if (!r)
			r = add_revspec_side(w, spec.to, false, rev);
		if (!r && (spec.flags & GIT_REVSPEC_MERGE_BASE))
			r = hide_merge_bases(w, &spec, rev);
	}
	git_object_free(spec.from);
	git_object_free(spec.to);
	return r;
}

/*
 * The parent lines of raw commit DATA, in order.  Returns the number found
 * (up to MAX stored) or -1 when the header is malformed.
 */
int parse_parents(const char *data, size_t len, git_oid *ids, int max,
		  size_t *header_len)
{
	const char *p = data, *end = data + len, *hdr_end;
	git_oid tree;
	int n = 0;

	/* The tree id is hex as git reads it (either case), like a parent's. */
	if (len < 46 || memcmp(p, "tree ", 5) || p[45] != '\n' ||
	    git_oid_fromstrn(&tree, p + 5, GIT_OID_HEXSZ))
		return -1;
	p += 46;
	while (end - p >= 48 && !memcmp(p, "parent ", 7)) {
		if (p[47] != '\n')
			return -1;
		if (n < max && git_oid_fromstrn(&ids[n], p + 7, GIT_OID_HEXSZ))
			return -1;
		n++;
		p += 48;
	}
	hdr_end = memmem(p, (size_t)(end - p), "\n\n", 2);
	*header_len = hdr_end ? (size_t)(hdr_end - data) + 2 : len;
	return n;
}

/* One progress line stamped NOW; PHASE says what the load is doing. */
static void progress_line(struct walker *w, const char *phase, uint64_t now)
{
	char extra[48] = "";
	int r;

	if (!strcmp(phase, "exclude"))
		snprintf(extra, sizeof(extra), " hidden=%llu",
			 (unsigned long long)w->hidden);
	else if (!strcmp(phase, "reread"))
		snprintf(extra, sizeof(extra), " reread=%llu",
			 (unsigned long long)w->reread);
	r = progress_emit(w->o->progress, now,
			  "iter=%u phase=%s commits=%llu bytes=%llu%s", w->iter,
			  phase, (unsigned long long)w->res->commits,
			  (unsigned long long)w->held.len, extra);
	/* A closed stdout must not stop the load (it is not the result). */
	(void)r;
	w->last_line_ns = now;
}

/*
 * The time-based line: one clock read per unit of work (a commit, a page),
 * about 20 ns through the vDSO against microseconds of work.
 */
static inline void tick(struct walker *w, const char *phase)
{
	uint64_t now;

	if (!w->interval_ns)
		return;
	now = mono_ns();
	if (now - w->last_line_ns >= w->interval_ns)
		progress_line(w, phase, now);
}

#define MAX_PARENTS 4096

/*
 * Link node CHILD to its parents and queue the unseen ones.  Parents of a
 * shallow boundary commit are not there: git shows it as a root.
 */
static int visit_parents(struct walker *w, uint32_t child, const git_oid *ids,
			 int n, bool hidden)
{
	int k;

	if (is_shallow(w, &w->map.node[child].id))
		return 0;
	for (k = 0; k < n; k++) {
		bool added;
		uint32_t p = children_map_intern(&w->map, &ids[k], &added);
		struct commit_node *pn;

		if (p == NONE)
			return obj_fail(w, &ids[k], "out of memory at commit");
		pn = &w->map.node[p];
		if (hidden) {
			if (!pn->hidden) {
				pn->hidden = true;
				push(w, p);
			}
			continue;
		}
		if (children_map_add_edge(&w->map, p, child))
			return obj_fail(w, &ids[k], "out of memory at commit");
		w->res->edges++;
		if (!pn->seen && !pn->hidden) {
			pn->seen = true;
			push(w, p);
		}
	}
	return 0;
}

/*
 * Whether the zlib stream in loose object file PATH is whole.  libgit2 1.5
 * loops forever inflating a truncated loose object (a libgit2 bug, fixed
 * after 1.9), so loose objects are checked before it reads them.
 */
static bool loose_intact(const char *path)
{
	unsigned char in[4096], out[16384];
	z_stream z;
	bool ok = false;
	FILE *f = fopen(path, "rb");
	int zr = Z_OK;

	if (!f)
		return true; /* gone or unreadable: libgit2 reports it */
	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK) {
		fclose(f);
		return false;
	}
	while (zr == Z_OK) {
		z.avail_in = (uInt)fread(in, 1, sizeof(in), f);
		z.next_in = in;
		if (!z.avail_in)
			break;
		do {
			z.next_out = out;
			z.avail_out = sizeof(out);
			zr = inflate(&z, Z_NO_FLUSH);
		} while (zr == Z_OK && (z.avail_in || !z.avail_out));
		if (zr == Z_BUF_ERROR)
			zr = Z_OK;
	}
	ok = zr == Z_STREAM_END;
	inflateEnd(&z);
	fclose(f);
	return ok;
}

static int read_object(struct walker *w, git_odb_object **obj,
		       const git_oid *id)
{
	char hex[GIT_OID_HEXSZ + 1];
	char *path;
	bool ok;
	int r = git_odb_read(obj, w->packs, id);

	if (r != GIT_ENOTFOUND)
		return r;
	git_oid_tostr(hex, sizeof(hex), id);
	path = xasprintf("%s%.2s/%s", w->objdir, hex, hex + 2);
	ok = loose_intact(path);
	free(path);
	if (!ok) {
		git_error_set_str(GIT_ERROR_ZLIB,
				  "truncated or corrupt loose object");
		return -1;
	}
	return git_odb_read(obj, w->odb, id);
}

/* Read one commit, hold it, and link it to its parents. */
static int visit(struct walker *w, uint32_t idx, bool hidden, git_oid *ids)
{
	git_odb_object *obj;
	git_oid id = w->map.node[idx].id;
	const char *data;
	size_t len, hdr;
	int n, r;

	r = read_object(w, &obj, &id);
	if (r == GIT_ENOTFOUND && damaged_pack(w))
		return obj_fail(w, &id, "cannot read commit");
	if (r == GIT_ENOTFOUND)
		return obj_fail(w, &id, "missing commit");
	if (r)
		return obj_fail(w, &id, "cannot read commit");
	if (git_odb_object_type(obj) != GIT_OBJECT_COMMIT) {
		git_odb_object_free(obj);
		git_error_set_str(GIT_ERROR_INVALID, "not a commit");
		return obj_fail(w, &id, "bad parent");
	}
	data = git_odb_object_data(obj);
	len = git_odb_object_size(obj);
	n = parse_parents(data, len, ids, MAX_PARENTS, &hdr);
	if (n < 0 || n > MAX_PARENTS) {
		git_odb_object_free(obj);
		git_error_set_str(GIT_ERROR_OBJECT, "malformed commit header");
		return obj_fail(w, &id, "corrupt commit");
	}
	if (!hidden) {
		size_t keep = w->o->hold == HOLD_ALL	   ? len
			      : w->o->hold == HOLD_HEADERS ? hdr
							   : 0;

		if (keep && heldbuf_append(&w->held, data, keep)) {
			git_odb_object_free(obj);
			git_error_set_oom();
			return obj_fail(w, &id, "cannot hold commit");
		}
		w->res->commits++;
		w->res->bytes_read += len;
	} else {
		w->hidden++;
	}
	git_odb_object_free(obj);
	return visit_parents(w, idx, ids, n, hidden);
}

/* Drain the stack: hidden commits first, then the ones to load. */
static int drain(struct walker *w, bool hidden)
{
	git_oid *ids = xmalloc(MAX_PARENTS * sizeof(*ids));
	uint64_t every = w->o->every;
	int r = 0;

	while (!r && w->nstack) {
		if (sig_stop) {
			w->res->interrupted = true;
			break;
		}
		r = visit(w, w->stack[--w->nstack], hidden, ids);
		if (r)
			break;
		if (every) {
			if (!hidden && w->res->commits % every == 0)
				progress_line(w, "walk", mono_ns());
		} else {
			tick(w, hidden ? "exclude" : "walk");
		}
	}
	free(ids);
	return r;
}

static int open_repo(struct walker *w)
{
	git_odb_backend *pack;
	git_buf dir = { 0 };

	if (git_repository_open_ext(&w->repo, w->o->repo_path,
				    GIT_REPOSITORY_OPEN_NO_SEARCH, NULL))
		return git_fail("cannot open repository '%s'", w->o->repo_path);
	if (git_repository_odb(&w->odb, w->repo) ||
	    git_repository_item_path(&dir, w->repo,
				     GIT_REPOSITORY_ITEM_OBJECTS))
		return git_fail("repository '%s': cannot open its objects",
				w->o->repo_path);
	w->objdir = xstrdup(dir.ptr);
	git_buf_dispose(&dir);
	if (git_odb_new(&w->packs) || git_odb_backend_pack(&pack, w->objdir))
		return git_fail("repository '%s': cannot open its packs",
				w->o->repo_path);
	if (git_odb_add_backend(w->packs, pack, 1)) {
		pack->free(pack);
		return git_fail("repository '%s': cannot open its packs",
				w->o->repo_path);
	}
	return load_shallow(w);
}

/* Collect the starts; hidden ones are pushed and drained first. */
static int collect_tips(struct walker *w)
{
	uint32_t *tips;
	size_t nhidden = 0, ntips = 0, i;
	int r = 0, k;

	for (k = 0; !r && k < w->o->nrevs; k++)
		r = add_revision(w, w->o->revs[k]);
	if (!r && !w->o->nrevs)
		r = add_all_refs(w);
	if (r)
		return r;
	/* Set the visible starts aside while the hidden side is walked. */
	tips = xmalloc((w->nstack + 1) * sizeof(*tips));
	for (i = 0; i < w->nstack; i++)
		if (w->map.node[w->stack[i]].hidden)
			w->stack[nhidden++] = w->stack[i];
		else
			tips[ntips++] = w->stack[i];
	w->nstack = nhidden;
	r = drain(w, true);
	for (i = 0; !r && i < ntips; i++)
		if (!w->map.node[tips[ntips - 1 - i]].hidden)
			push(w, tips[ntips - 1 - i]);
	free(tips);
	if (!r && !w->nstack && !w->res->interrupted) {
		git_error_set_str(GIT_ERROR_REFERENCE,
				  w->o->nrevs
					  ? "no commits in the range given"
					  : "no commits (empty repository)");
		return git_fail("repository '%s'", w->o->repo_path);
	}
	return r;
}

/*
 * --reread: the held data read again a page at a time, so a time-based
 * line can fall between pages and a signal stops it.
 */
static void reread(struct walker *w)
{
	const size_t step = 4096;
	uint64_t sum = 0;
	size_t off = 0;

	while (off < w->held.len) {
		size_t n = w->held.len - off < step ? w->held.len - off : step;

		if (sig_stop) {
			w->res->interrupted = true;
			break;
		}
		sum = heldbuf_reread(&w->held, off, n, sum);
		off += n;
		w->reread = off;
		tick(w, "reread");
	}
	w->res->reread_sum = sum;
}

static void release(struct walker *w, struct children_map *map_out)
{
	if (map_out)
		*map_out = w->map;
	else
		children_map_release(&w->map);
	heldbuf_release(&w->held);
	free(w->stack);
	free(w->shallow);
	free(w->objdir);
	git_odb_free(w->packs);
	git_odb_free(w->odb);
	git_repository_free(w->repo);
	/* Give freed heap back too, so every iteration starts level. */
	malloc_trim(0);
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000u +
	       (uint64_t)tv->tv_usec * 1000u;
}

/*
 * The time this (single-threaded) process has spent runnable but waiting
 * for a CPU, the second field of /proc/self/schedstat (ns); false where
 * the kernel keeps no scheduler statistics.
 */
static bool runq_wait(uint64_t *ns)
{
	char buf[128], *sp, *end;
	ssize_t n = read_small_file("/proc/self/schedstat", buf, sizeof(buf));

	if (n <= 0)
		return false;
	sp = strchr(buf, ' ');
	if (!sp)
		return false;
	end = strchr(sp + 1, ' ');
	if (end)
		*end = '\0';
	return !parse_u64(sp + 1, ns);
}

int walk_history(const struct walk_opts *o, unsigned iter,
		 struct walk_result *res, struct children_map *map_out)
{
	struct rusage ru0, ru1;
	struct walker w;
	uint64_t rq0 = 0, rq1 = 0, us0 = 0;
	bool rq;
	int r;

	memset(&w, 0, sizeof(w));
	memset(res, 0, sizeof(*res));
	w.o = o;
	w.res = res;
	w.iter = iter;
	/* Nothing to time when the lines go nowhere (--quiet). */
	if (o->progress->fd >= 0 && !o->every)
		w.interval_ns = o->interval_ns;
	children_map_init(&w.map);
	/* The faults are counted over a span that holds the timed one. */
	if (getrusage(RUSAGE_SELF, &ru0))
		memset(&ru0, 0, sizeof(ru0));
	rq = runq_wait(&rq0);
	if (o->sample)
		us0 = usersample_count(o->sample);
	res->start_ns = w.last_line_ns = mono_ns();
	r = open_repo(&w);
	if (!r)
		r = collect_tips(&w);
	if (!r && !res->interrupted)
		r = drain(&w, false);
	res->bytes_held = w.held.len;
	if (!r && o->reread && !res->interrupted)
		reread(&w);
	/* The timed span ends before the release, as it always has. */
	res->end_ns = mono_ns();
	res->elapsed_ns = res->end_ns - res->start_ns;
	if (o->sample) {
		res->user_sampled_ns = (usersample_count(o->sample) - us0) *
				       o->sample->period_ns;
		res->has_user_sampled = true;
	}
	if (getrusage(RUSAGE_SELF, &ru1) == 0) {
		res->majflt = (uint64_t)(ru1.ru_majflt - ru0.ru_majflt);
		res->minflt = (uint64_t)(ru1.ru_minflt - ru0.ru_minflt);
		res->user_ns = tv_ns(&ru1.ru_utime) - tv_ns(&ru0.ru_utime);
		res->sys_ns = tv_ns(&ru1.ru_stime) - tv_ns(&ru0.ru_stime);
	}
	res->has_runq = rq && runq_wait(&rq1) && rq1 >= rq0;
	res->runq_ns = res->has_runq ? rq1 - rq0 : 0;
	release(&w, r ? NULL : map_out);
	return r;
}

bool repo_has_commit_graph(const char *repo_path)
{
	git_repository *repo;
	git_buf objects = { 0 };
	bool found = false;

	if (git_repository_open_ext(&repo, repo_path,
				    GIT_REPOSITORY_OPEN_NO_SEARCH, NULL))
		return false;
	if (git_repository_item_path(&objects, repo,
				     GIT_REPOSITORY_ITEM_OBJECTS) == 0) {
		static const char *const names[] = {
			"info/commit-graph",
			"info/commit-graphs/commit-graph-chain",
		};
		size_t i;

		for (i = 0; i < 2; i++) {
			char *p = xasprintf("%s%s", objects.ptr, names[i]);

			found = found || access(p, F_OK) == 0;
			free(p);
		}
	}
	git_buf_dispose(&objects);
	git_repository_free(repo);
	return found;
}
