// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The generated album: a folder of "songs" whose count, sizes and bytes all
 * follow from the seed, so every run pulls the same load.  Content is
 * random (as incompressible as MP3) and computed per 4 KiB block, so any
 * offset can be read without generating what precedes it.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/rand.h"
#include "lib/safe-open.h"
#include "lib/sig.h"
#include "lib/xalloc.h"

#include "fakemusic/fake-music.h"

#define SONG_BLOCK 4096
#define MIB (1024ULL * 1024)
/* 1 September 2009, when the original tests ran; songs 5 minutes apart. */
#define ALBUM_MTIME_S 1251763200ULL

unsigned album_songs(const struct album *a)
{
	struct rand r;

	if (a->songs)
		return a->songs;
	rand_seed_stream(&r, a->seed, 0);
	return 10 + (unsigned)rand_below(&r, 5);
}

void album_entry(const struct album *a, unsigned i, struct entry *e)
{
	struct rand r;

	e->name = xasprintf("track-%02u.mp3", i + 1);
	rand_seed_stream(&r, a->seed, 1 + (uint64_t)i);
	e->size = a->song_size ? a->song_size
			       : 3 * MIB + rand_below(&r, 5 * MIB + 1);
	e->mtime_ns = (ALBUM_MTIME_S + 300ULL * i) * 1000000000ULL;
}

void album_fill(const struct album *a, unsigned i, uint64_t off, void *buf,
		size_t len)
{
	unsigned char *out = buf;

	while (len) {
		uint64_t block = off / SONG_BLOCK, w[SONG_BLOCK / 8];
		size_t in = (size_t)(off % SONG_BLOCK), n = SONG_BLOCK - in;
		struct rand r;

		rand_seed_stream(&r, a->seed,
				 ((uint64_t)(i + 1) << 40) + block);
		for (size_t k = 0; k < SONG_BLOCK / 8; k++)
			w[k] = rand_next(&r);
		if (n > len)
			n = len;
		memcpy(out, (unsigned char *)w + in, n);
		out += n;
		off += n;
		len -= n;
	}
}

/* As the client does: never through a link planted in DFD. */
static int write_song(const struct album *a, unsigned i, int dfd,
		      const char **what)
{
	static unsigned char buf[65536];
	struct entry e;
	char *tmp;
	int fd, r = 0;

	album_entry(a, i, &e);
	tmp = xasprintf(".%s.fm-part", e.name);
	*what = "create";
	fd = safe_create(dfd, tmp, O_WRONLY, 0644);
	if (fd < 0) {
		r = fd;
		goto out;
	}
	*what = "write";
	for (uint64_t off = 0; off < e.size && !r;) {
		if (sig_stop) {
			r = -EINTR;
			break;
		}
		size_t n = e.size - off < sizeof(buf) ? (size_t)(e.size - off)
						      : sizeof(buf);

		album_fill(a, i, off, buf, n);
		r = write_all(fd, buf, n);
		off += n;
	}
	if (!r) {
		struct timespec ts[2] = {
			{ (time_t)(e.mtime_ns / 1000000000ULL), 0 },
			{ (time_t)(e.mtime_ns / 1000000000ULL), 0 },
		};

		if (futimens(fd, ts) || fsync(fd))
			r = -errno;
	}
	if (close(fd) && !r)
		r = -errno;
	*what = "rename";
	if (!r && renameat(dfd, tmp, dfd, e.name))
		r = -errno;
	if (r)
		/* best effort: the error is what matters */
		(void)unlinkat(dfd, tmp, 0);
out:
	free(tmp);
	free(e.name);
	return r;
}

int album_write(const struct album *a, int dfd, const char **what)
{
	unsigned n = album_songs(a);

	for (unsigned i = 0; i < n; i++) {
		int r = write_song(a, i, dfd, what);

		if (r)
			return r;
	}
	return 0;
}
