// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The local player: read files (on NFS, say) at the audio bitrate, with
 * no network of our own, the plain "music player over NFS" of 2009.  Reads
 * are small and paced to absolute deadlines; a line per 0.1 s of audio.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/sig.h"
#include "lib/timing.h"
#include "lib/xalloc.h"

#include "fakemusic/fake-music.h"

static int perr(struct player *p, int r, const char *fmt, ...)
	PRINTF_LIKE(3, 4);

static int perr(struct player *p, int r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vformat_err(p->err, sizeof(p->err), -r, fmt, ap);
	va_end(ap);
	return -1;
}

/* Files and folders (their regular files, sorted) into a list of paths. */
static int expand(struct player *p, char **paths, int n, char ***out,
		  size_t *count)
{
	char **v = NULL;
	size_t k = 0;

	*out = NULL;
	*count = 0;
	for (int i = 0; i < n; i++) {
		struct source src;
		struct entry *e;
		struct stat st;
		size_t m;
		int r;

		*out = v;
		*count = k;
		if (stat(paths[i], &st))
			return perr(p, -errno, "cannot open '%s'", paths[i]);
		if (!S_ISDIR(st.st_mode)) {
			v = xreallocarray(v, k + 1, sizeof(*v));
			v[k++] = xstrdup(paths[i]);
			continue;
		}
		r = source_init_dir(&src, paths[i]);
		if (!r)
			r = source_list(&src, &e, &m);
		source_release(&src);
		if (r)
			return perr(p, r, "cannot list '%s'", paths[i]);
		v = xreallocarray(v, k + m, sizeof(*v));
		for (size_t j = 0; j < m; j++)
			v[k++] = xasprintf("%s/%s", paths[i], e[j].name);
		entries_free(e, m);
	}
	*out = v;
	*count = k;
	return 0;
}

/* Play one file: 0, -EINTR, -ETIME, or -1 with p->err. */
static int play_file(struct player *p, struct pace *pc, const char *path,
		     unsigned char *buf, size_t chunk)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), r = 0;

	if (fd < 0)
		return perr(p, -errno, "cannot open '%s'", path);
	for (;;) {
		uint64_t due = pace_due(pc, p->meter.bytes);
		ssize_t n;

		if (p->deadline_ns && due > p->deadline_ns) {
			r = sleep_until_ns(p->deadline_ns, &sig_stop) ? -EINTR
								      : -ETIME;
			break;
		}
		if (sleep_until_ns(due, &sig_stop)) {
			r = -EINTR;
			break;
		}
		n = read(fd, buf, chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = perr(p, -errno, "cannot read '%s'", path);
			break;
		}
		if (n == 0)
			break;
		pace_step(pc, (uint64_t)n);
		r = meter_add(&p->meter, (uint64_t)n);
		if (r) {
			r = perr(p, r, "cannot write progress lines");
			break;
		}
	}
	(void)close(fd); /* read-only */
	if (!r)
		p->files++;
	return r;
}

int player_run(struct player *p, char **paths, int n)
{
	size_t count, chunk = pace_chunk(p->rate);
	unsigned char *buf = xmalloc(chunk);
	struct pace pc;
	char **files;
	int r = expand(p, paths, n, &files, &count);

	pace_reset(&pc, p->rate, 0);
	p->start_ns = pc.start_ns;
	while (!r) {
		for (size_t i = 0; i < count && !r; i++)
			r = play_file(p, &pc, files[i], buf, chunk);
		if (!p->loop || !count)
			break;
	}
	p->end_ns = mono_ns();
	for (size_t i = 0; i < count; i++)
		free(files[i]);
	free(files);
	free(buf);
	return r == -ETIME ? 0 : r;
}
