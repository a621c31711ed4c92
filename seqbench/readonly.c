// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --read-only: cold reads of what is there, never a write.  A file or a
 * block device is read from its start by one reader, read(2) after read(2)
 * of -b bytes, as dd does (phase cold_read; a latency is one read).  A
 * directory is read as `tar cf - DIR` reads it (phase tree_read; a latency
 * is one file, open to close): one reader reads a directory's names whole,
 * in readdir order, then takes them in turn, a subdirectory before the
 * names after it, and opens, reads and closes each regular file.
 *
 * Before each run the page cache is dropped (as root, unless
 * --no-drop-caches), what is still cached of the data is measured with
 * mincore(2), and the cache is dropped again, since that measurement read
 * the tree's inodes: the run starts with cold data and cold metadata, and
 * says whether it did.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/hist.h"
#include "lib/parse.h"
#include "lib/progress.h"
#include "lib/sig.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "seqbench/seqbench.h"

/* mincore() looks at this much of a file per mapping. */
#define RESIDENT_CHUNK (1ULL << 30)

struct reader;
/* What a walk does with each regular file NAME in DIRFD (PATH for us). */
typedef void file_fn(struct reader *rd, int dirfd, const char *name,
		     const char *path);

struct reader {
	struct sb_run_state *st;
	const struct sb_opts *o;
	struct sb_phase_result *p;
	uint64_t block;
	char *buf;
	uint64_t left; /* cold_read: bytes still to read */
	struct progress prog;
	uint64_t next_line;
	FILE *list; /* --dump-offsets: the files in the order read */
	bool stop;
	file_fn *fn;
	/* The resident check's findings. */
	uint64_t size, files, cached;
	bool unknown;
};

/* Record a failure (the first one is the run's error); go on. */
static void fail(struct reader *rd, int err, const char *fmt, ...)
	PRINTF_LIKE(3, 4);
static void fail(struct reader *rd, int err, const char *fmt, ...)
{
	struct sb_error *e = &rd->st->error;
	va_list ap;

	rd->p->complete = false;
	rd->p->errors++;
	if (e->err)
		return;
	e->err = err;
	e->thread = -1;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
}

static bool check_stop(struct reader *rd)
{
	if (!sig_stop)
		return rd->stop;
	if (!rd->st->interrupted) {
		rd->st->interrupted = true;
		rd->st->signo = sig_stop;
	}
	rd->p->complete = false;
	return rd->stop = true;
}

/* ---- the resident check ---- */

/* Bytes of the first SIZE of FD that are in the page cache. */
static int resident(int fd, uint64_t size, uint64_t *bytes)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *vec = NULL;
	uint64_t off, i;
	int r = 0;

	*bytes = 0;
	for (off = 0; off < size && !r; off += RESIDENT_CHUNK) {
		uint64_t len = size - off < RESIDENT_CHUNK ? size - off
							   : RESIDENT_CHUNK;
		uint64_t pages = (len + (uint64_t)page - 1) / (uint64_t)page;
		void *m =
			mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)off);

		if (m == MAP_FAILED) {
			r = -errno;
			break;
		}
		if (!vec)
			vec = xmalloc(RESIDENT_CHUNK / (uint64_t)page);
		if (mincore(m, len, vec))
			r = -errno;
		for (i = 0; !r && i < pages; i++)
			if (vec[i] & 1)
				*bytes += (uint64_t)page;
		(void)munmap(m, len); /* a read-only mapping of our own */
	}
	free(vec);
	return r;
}

/* The size a read of FD (a file or a device) covers. */
static int data_size(int fd, uint64_t *size)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (S_ISBLK(st.st_mode))
		return ioctl(fd, BLKGETSIZE64, size) ? -errno : 0;
	*size = (uint64_t)st.st_size;
	return 0;
}

static void check_file(struct reader *rd, int dirfd, const char *name,
		       const char *path)
{
	uint64_t size = 0, bytes = 0;
	int fd = openat(
		dirfd, name,
		O_RDONLY | O_CLOEXEC |
			(rd->o->ro_phase == SB_TREE_READ ? O_NOFOLLOW : 0));

	(void)path;
	if (fd < 0) {
		rd->unknown = true; /* the read will say why */
		return;
	}
	if (data_size(fd, &size))
		rd->unknown = true;
	/* Only what the run reads: the first -s bytes of a device. */
	if (rd->left < size)
		size = rd->left;
	if (size && resident(fd, size, &bytes))
		rd->unknown = true;
	rd->size += size;
	rd->files++;
	rd->cached += bytes;
	(void)close(fd); /* read-only */
}

/* ---- the timed reads ---- */

static void progress_line(struct reader *rd, uint64_t now)
{
	struct sb_phase_result *p = rd->p;
	int e;

	if (!rd->next_line || p->bytes < rd->next_line)
		return;
	e = progress_emit(
		&rd->prog, now,
		"thread=0 phase=%s bytes=%llu ops=%llu files=%llu",
		sb_phase_key(rd->o->ro_phase), (unsigned long long)p->bytes,
		(unsigned long long)p->ops, (unsigned long long)p->files);
	if (e) {
		fail(rd, -e, "writing a progress line");
		rd->stop = true;
	}
	while (rd->next_line <= p->bytes)
		rd->next_line += rd->o->progress_bytes;
}

static void account(struct reader *rd, uint64_t lat)
{
	struct sb_phase_result *p = rd->p;

	hist_add(p->hist, lat);
	if (lat > SB_LAT1_NS)
		p->gt1++;
	if (lat > SB_LAT2_NS)
		p->gt2++;
	if (lat > rd->o->stall_ns)
		p->stalls++;
}

/*
 * Read FD to its end (or RD->left), a read at a time.  With PER_READ each
 * read is an op of its own (one clock read per op, as in worker.c);
 * returns -1 on a failed read.
 */
static int read_all(struct reader *rd, int fd, const char *path, bool per_read)
{
	struct sb_phase_result *p = rd->p;
	uint64_t t0 = per_read ? mono_ns() : 0, off = 0;

	while (rd->left && !check_stop(rd)) {
		size_t want = rd->block < rd->left ? rd->block : rd->left;
		ssize_t n = read(fd, rd->buf, want);
		uint64_t t1;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fail(rd, errno,
			     "read of %zu bytes at offset %llu of "
			     "'%s'",
			     want, (unsigned long long)off, path);
			return -1;
		}
		if (!n)
			break;
		p->reads++;
		p->ops += per_read;
		p->bytes += (uint64_t)n;
		off += (uint64_t)n;
		rd->left -= (uint64_t)n;
		if (!per_read && !rd->next_line)
			continue;
		t1 = mono_ns();
		if (per_read)
			account(rd, t1 - t0);
		progress_line(rd, t1);
		t0 = rd->next_line ? mono_ns() : t1;
	}
	return 0;
}

/* One file of the tree: open, read, close, as tar does; one latency. */
static void read_file(struct reader *rd, int dirfd, const char *name,
		      const char *path)
{
	uint64_t t0 = mono_ns();
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), r;

	if (fd < 0) {
		fail(rd, errno, "cannot open '%s'", path);
		return;
	}
	if (rd->list)
		fprintf(rd->list, "%s\n", path);
	rd->left = UINT64_MAX;
	r = read_all(rd, fd, path, false);
	if (close(fd))
		fail(rd, errno, "close of '%s'", path);
	if (rd->stop)
		return;
	/* A file is an op, read or not: its latency stands. */
	account(rd, mono_ns() - t0);
	rd->p->ops++;
	rd->p->files += !r;
}

/* ---- the walk ---- */

struct entry {
	char *name;
	unsigned char type;
};

/* The names in directory FD (closed here), in readdir order. */
static int read_names(int fd, struct entry **list, size_t *n)
{
	struct dirent *de;
	size_t alloc = 0;
	int r = 0;
	DIR *d;

	*list = NULL;
	*n = 0;
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		r = -errno;
		(void)close(fd); /* a directory opened for reading */
		return r;
	}
	for (errno = 0; (de = readdir(d)); errno = 0) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (*n == alloc) {
			alloc = alloc ? 2 * alloc : 64;
			*list = xreallocarray(*list, alloc, sizeof(**list));
		}
		(*list)[*n].name = xstrdup(de->d_name);
		(*list)[(*n)++].type = de->d_type;
	}
	if (errno)
		r = -errno;
	(void)closedir(d); /* read-only */
	return r;
}

static unsigned char type_of(int dirfd, const char *name)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return DT_UNKNOWN;
	return S_ISDIR(st.st_mode)   ? DT_DIR
	       : S_ISREG(st.st_mode) ? DT_REG
				     : DT_LNK;
}

/* Walk the directory FD (closed here), named PATH. */
static void walk(struct reader *rd, int fd, const char *path)
{
	struct entry *e;
	size_t n, i;
	int r = read_names(fcntl(fd, F_DUPFD_CLOEXEC, 0), &e, &n);

	if (r)
		fail(rd, -r, "cannot read directory '%s'", path);
	for (i = 0; i < n && !check_stop(rd); i++) {
		char *sub = xasprintf("%s/%s", path, e[i].name);
		unsigned char t = e[i].type;

		if (t == DT_UNKNOWN)
			t = type_of(fd, e[i].name);
		if (t == DT_DIR) {
			int sfd = openat(fd, e[i].name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
						 O_CLOEXEC);

			if (sfd < 0)
				fail(rd, errno, "cannot open directory '%s'",
				     sub);
			else
				walk(rd, sfd, sub);
		} else if (t == DT_REG) {
			rd->fn(rd, fd, e[i].name, sub);
		}
		free(sub);
	}
	(void)close(fd); /* read-only */
	for (i = 0; i < n; i++)
		free(e[i].name);
	free(e);
}

/* Run FN over the target: each file of a tree, or the file or device. */
static void visit(struct reader *rd, file_fn *fn)
{
	const char *t = rd->o->targets[0];
	int fd;

	rd->fn = fn;
	if (rd->o->ro_phase == SB_COLD_READ) {
		fn(rd, AT_FDCWD, t, t);
		return;
	}
	fd = open(t, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		fail(rd, errno, "cannot open directory '%s'", t);
	else
		walk(rd, fd, t);
}

/* ---- a run ---- */

static void read_cold(struct reader *rd, int dirfd, const char *name,
		      const char *path)
{
	int fl = O_RDONLY | O_CLOEXEC | (rd->o->direct ? O_DIRECT : 0);
	int fd = openat(dirfd, name, fl);

	if (fd < 0) {
		fail(rd, errno, "cannot open '%s'", path);
		return;
	}
	rd->left = rd->o->ro_limit ? rd->o->ro_limit : UINT64_MAX;
	if (!read_all(rd, fd, path, true))
		rd->p->files = 1;
	if (close(fd))
		fail(rd, errno, "close of '%s'", path);
}

/* Drop the caches, look at what stayed, drop them again. */
static int make_cold(struct reader *rd)
{
	struct sb_phase_result *p = rd->p;
	int e = 0;

	if (rd->o->drop_caches)
		e = sb_drop_caches();
	rd->left = rd->o->ro_limit ? rd->o->ro_limit : UINT64_MAX;
	if (!e)
		visit(rd, check_file);
	p->cached_bytes = rd->cached;
	p->cold = rd->unknown ? -1 : !rd->cached;
	if (!e && rd->o->drop_caches)
		e = sb_drop_caches();
	if (e)
		fail(rd, -e, "cannot drop the page cache");
	return e;
}

static int64_t current_readahead(const struct sb_opts *o)
{
	char buf[32];
	uint64_t kb;

	if (!o->ra || read_small_file(o->ra->dev[0].knob, buf, sizeof(buf)) < 0)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return parse_u64(buf, &kb) ? -1 : (int64_t)kb;
}

/*
 * One run of row X (FIRST: the first of all).  Returns -1 when the whole
 * run must stop.
 */
static int run_one(struct sb_run_state *st, struct sb_result *x, bool first)
{
	const struct sb_opts *o = st->o;
	struct sb_phase_result *p = &x->phase[o->ro_phase];
	struct reader rd;
	uint64_t t0, t1, cpu0, user0;

	memset(&rd, 0, sizeof(rd));
	rd.st = st;
	rd.o = o;
	rd.p = p;
	rd.block = x->block;
	/* The first run's order stands for all: they read the same tree. */
	rd.list = first ? st->dump : NULL;
	p->ran = true;
	p->complete = true;
	p->hist = xmalloc(sizeof(*p->hist));
	hist_init(p->hist);
	p->readahead_kb = current_readahead(o);
	if (make_cold(&rd))
		return -1;
	x->size = x->file_bytes = rd.size;
	rd.buf = xaligned_alloc(4096, x->block);
	progress_init(&rd.prog, o->progress_bytes ? 1 : -1, progname());
	rd.next_line = o->progress_bytes;

	cpu0 = cpu_ns();
	user0 = sb_user_ns();
	t0 = mono_ns();
	visit(&rd, o->ro_phase == SB_COLD_READ ? read_cold : read_file);
	t1 = mono_ns();
	p->cpu_ns = cpu_ns() - cpu0;
	p->user_ns = sb_user_ns() - user0;
	p->wall_ns = t1 - t0;
	p->thread_rate_min = p->thread_rate_max =
		p->wall_ns ? (double)p->bytes / 1048576.0 /
				     ((double)p->wall_ns / 1e9)
			   : 0;
	free(rd.buf);
	return st->interrupted ? -1 : 0;
}

size_t sb_read_only_rows(const struct sb_opts *o)
{
	return (o->n_readaheads ? o->n_readaheads : 1) * o->n_blocks *
	       o->numruns;
}

size_t sb_read_only(struct sb_run_state *st, struct sb_result *res)
{
	const struct sb_opts *o = st->o;
	size_t k, b, n = 0, n_ra = o->n_readaheads ? o->n_readaheads : 1;
	uint64_t run;
	bool stop = false;

	for (k = 0; k < n_ra && !stop; k++) {
		if (o->n_readaheads &&
		    sb_ra_set(o->ra, o->readaheads[k], &st->error))
			break;
		for (b = 0; b < o->n_blocks && !stop; b++)
			for (run = 1; run <= o->numruns && !stop; run++) {
				struct sb_result *x = &res[n++];

				x->block = o->blocks[b];
				x->threads = 1;
				x->run = run;
				x->readahead =
					o->n_readaheads
						? (int64_t)o->readaheads[k]
						: -1;
				if (o->verbose)
					inform("%s of '%s', block %llu, run "
					       "%llu",
					       sb_phase_key(o->ro_phase),
					       o->targets[0],
					       (unsigned long long)x->block,
					       (unsigned long long)run);
				stop = run_one(st, x, n == 1) != 0;
			}
	}
	if (o->n_readaheads)
		(void)sb_ra_restore(o->ra, o->verbose, &st->error);
	return n;
}
