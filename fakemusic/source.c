// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The served folder: a real directory (walked recursively, regular files
 * only) or the generated album.  Every name a peer asks for is checked
 * twice: syntactically (no "..", not absolute) and, for a directory, by
 * resolving it and making sure it still lies inside the folder, so a
 * symlink cannot lead a client out of it.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/safe-open.h"
#include "lib/xalloc.h"

#include "fakemusic/fake-music.h"

#define WALK_DEPTH_MAX 16

int source_init_dir(struct source *s, const char *root)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	s->root = root;
	s->root_real = realpath(root, NULL);
	if (!s->root_real)
		return -errno;
	if (stat(s->root_real, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	return 0;
}

void source_init_album(struct source *s, const struct album *a)
{
	memset(s, 0, sizeof(*s));
	s->album = *a;
}

void source_release(struct source *s)
{
	free(s->root_real);
	s->root_real = NULL;
}

void entries_free(struct entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(e[i].name);
	free(e);
}

/* Is REAL (a resolved path) ROOT itself or below it? */
static bool inside(const char *root, const char *real)
{
	size_t n = strlen(root);

	if (strncmp(root, real, n))
		return false;
	return real[n] == '/' || (n == 1 && root[0] == '/');
}

/* Our own temporary files are never served. */
static bool is_temp_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] == '.' &&
	       ((n > 8 && !strcmp(name + n - 8, ".fm-part")) ||
		(n > 9 && !strcmp(name + n - 9, ".fm-basis")));
}

struct walk {
	const char *root_real;
	struct entry *e;
	size_t n, cap;
};

static int walk_dir(struct walk *w, const char *rel, int depth)
{
	char *dir = rel ? xasprintf("%s/%s", w->root_real, rel)
			: xstrdup(w->root_real);
	DIR *d = opendir(dir);
	struct dirent *de;
	int r = 0;

	if (!d) {
		r = -errno;
		free(dir);
		return r;
	}
	while (!r && (errno = 0, de = readdir(d))) {
		char *path, *name, *real;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    is_temp_name(de->d_name))
			continue;
		name = rel ? xasprintf("%s/%s", rel, de->d_name)
			   : xstrdup(de->d_name);
		path = xasprintf("%s/%s", dir, de->d_name);
		real = realpath(path, NULL);
		if (real && inside(w->root_real, real) && !stat(real, &st)) {
			if (S_ISREG(st.st_mode)) {
				if (w->n == w->cap) {
					w->cap = w->cap ? 2 * w->cap : 32;
					w->e = xreallocarray(w->e, w->cap,
							     sizeof(*w->e));
				}
				w->e[w->n++] = (struct entry){
					name, (uint64_t)st.st_size,
					(uint64_t)st.st_mtim.tv_sec *
							1000000000ULL +
						(uint64_t)st.st_mtim.tv_nsec
				};
				name = NULL;
			} else if (S_ISDIR(st.st_mode) &&
				   depth < WALK_DEPTH_MAX) {
				r = walk_dir(w, name, depth + 1);
			}
		}
		free(real);
		free(path);
		free(name);
	}
	if (!r && errno)
		r = -errno;
	closedir(d);
	free(dir);
	return r;
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name,
		      ((const struct entry *)b)->name);
}

int source_list(const struct source *s, struct entry **out, size_t *n)
{
	struct walk w = { s->root_real, NULL, 0, 0 };
	int r;

	if (!s->root) {
		unsigned songs = album_songs(&s->album);

		w.e = xcalloc(songs, sizeof(*w.e));
		for (unsigned i = 0; i < songs; i++)
			album_entry(&s->album, i, &w.e[i]);
		*out = w.e;
		*n = songs;
		return 0;
	}
	r = walk_dir(&w, NULL, 0);
	if (r) {
		entries_free(w.e, w.n);
		return r;
	}
	qsort(w.e, w.n, sizeof(*w.e), entry_cmp);
	*out = w.e;
	*n = w.n;
	return 0;
}

static int open_album_song(const struct source *s, const char *name,
			   struct reader *r)
{
	unsigned songs = album_songs(&s->album);

	for (unsigned i = 0; i < songs; i++) {
		struct entry e;
		bool match;

		album_entry(&s->album, i, &e);
		match = !strcmp(e.name, name);
		free(e.name);
		if (match) {
			r->album = &s->album;
			r->song = i;
			r->size = e.size;
			return 0;
		}
	}
	return -ENOENT;
}

int source_open(const struct source *s, const char *name, struct reader *r)
{
	char *path, *real;
	struct stat st;
	int e = 0;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	if (!proto_name_ok(name, strlen(name)))
		return -EACCES;
	if (!s->root)
		return open_album_song(s, name, r);
	path = xasprintf("%s/%s", s->root_real, name);
	real = realpath(path, NULL);
	free(path);
	if (!real)
		return -errno;
	/* A FIFO put there must not block a thread in open(). */
	if (inside(s->root_real, real))
		e = safe_open_regular(AT_FDCWD, real, &st);
	else
		e = -EACCES;
	if (e >= 0) {
		r->fd = e;
		r->size = (uint64_t)st.st_size;
		e = 0;
	} else if (e == -EINVAL) {
		e = -EACCES; /* not a regular file: never listed */
	}
	free(real);
	if (e)
		reader_close(r);
	return e;
}

ssize_t reader_read(struct reader *r, void *buf, size_t len)
{
	ssize_t n;

	if (r->fd < 0) {
		if (len > r->size - r->off)
			len = (size_t)(r->size - r->off);
		album_fill(r->album, r->song, r->off, buf, len);
		r->off += len;
		return (ssize_t)len;
	}
	do
		n = read(r->fd, buf, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	r->off += (uint64_t)n;
	return n;
}

void reader_close(struct reader *r)
{
	if (r->fd >= 0)
		(void)close(r->fd); /* read-only: nothing to lose */
	r->fd = -1;
}
