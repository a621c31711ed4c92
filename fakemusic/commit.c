// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The committer: a thread that fsyncs each finished (and verified) file and
 * renames it into place, while the stream goes on with the next file.
 * A player does not stop the music to wait for the disk to flush the last
 * song, and neither does rsync; doing the fsync inline made every file end
 * a gap of our own making.  A stall of write() itself still shows.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/xalloc.h"

#include "fakemusic/fake-music.h"

struct commit_item {
	struct commit_item *next;
	int fd;
	struct dest_names p;
};

void dest_names_release(struct dest_names *p)
{
	if (p->dirfd >= 0)
		(void)close(p->dirfd); /* a directory: nothing to flush */
	free(p->dir);
	free(p->dest);
	free(p->part);
	free(p->basis);
	*p = (struct dest_names){ .dirfd = -1 };
}

/* Relative to the directory opened once: a link swapped in is renamed. */
static int commit_one(struct commit_item *it, char *msg, size_t len)
{
	const struct dest_names *p = &it->p;
	int fd = it->fd;

	if (fsync(fd)) {
		int e = errno;

		(void)close(fd); /* the fsync error is what counts */
		/* Never renamed: not known on disk. */
		(void)unlinkat(p->dirfd, p->part, 0);
		format_err(msg, len, e, "cannot write '%s/%s'", p->dir,
			   p->part);
		return -e;
	}
	if (close(fd) || renameat(p->dirfd, p->part, p->dirfd, p->dest)) {
		int e = errno;

		(void)unlinkat(p->dirfd, p->part, 0);
		format_err(msg, len, e, "cannot rename '%s/%s'", p->dir,
			   p->part);
		return -e;
	}
	(void)unlinkat(p->dirfd, p->basis, 0); /* usually absent */
	return 0;
}

static void *committer_main(void *arg)
{
	struct committer *cm = arg;

	pthread_mutex_lock(&cm->lock);
	for (;;) {
		struct commit_item *it;
		char msg[sizeof(cm->errmsg)];
		int r;

		while (!cm->head && !cm->quit)
			pthread_cond_wait(&cm->cond, &cm->lock);
		it = cm->head;
		if (!it)
			break;
		cm->head = it->next;
		if (!cm->head)
			cm->tailp = &cm->head;
		pthread_mutex_unlock(&cm->lock);
		r = commit_one(it, msg, sizeof(msg));
		dest_names_release(&it->p);
		free(it);
		pthread_mutex_lock(&cm->lock);
		if (r && !cm->err) {
			cm->err = r;
			memcpy(cm->errmsg, msg, sizeof(msg));
		}
		cm->pending--;
		pthread_cond_broadcast(&cm->cond);
	}
	pthread_mutex_unlock(&cm->lock);
	return NULL;
}

int committer_start(struct committer *cm)
{
	sigset_t all, old;
	int r;

	memset(cm, 0, sizeof(*cm));
	pthread_mutex_init(&cm->lock, NULL);
	pthread_cond_init(&cm->cond, NULL);
	cm->tailp = &cm->head;
	/* Stop signals belong to the main thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	r = pthread_create(&cm->tid, NULL, committer_main, cm);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return -r;
}

void committer_add(struct committer *cm, int fd, struct dest_names *p)
{
	struct commit_item *it = xmalloc(sizeof(*it));

	*it = (struct commit_item){ NULL, fd, *p };
	*p = (struct dest_names){ .dirfd = -1 };
	pthread_mutex_lock(&cm->lock);
	*cm->tailp = it;
	cm->tailp = &it->next;
	cm->pending++;
	pthread_cond_broadcast(&cm->cond);
	pthread_mutex_unlock(&cm->lock);
}

/* The first error so far, once nothing is pending when WAIT. */
static int first_error(struct committer *cm, bool wait, char *msg, size_t len)
{
	int r;

	pthread_mutex_lock(&cm->lock);
	while (wait && cm->pending)
		pthread_cond_wait(&cm->cond, &cm->lock);
	r = cm->err;
	if (r)
		snprintf(msg, len, "%s", cm->errmsg);
	pthread_mutex_unlock(&cm->lock);
	return r;
}

int committer_drain(struct committer *cm, char *msg, size_t len)
{
	return first_error(cm, true, msg, len);
}

int committer_error(struct committer *cm, char *msg, size_t len)
{
	return first_error(cm, false, msg, len);
}

int committer_stop(struct committer *cm, char *msg, size_t len)
{
	int r = committer_drain(cm, msg, len);

	pthread_mutex_lock(&cm->lock);
	cm->quit = true;
	pthread_cond_broadcast(&cm->cond);
	pthread_mutex_unlock(&cm->lock);
	pthread_join(cm->tid, NULL);
	pthread_cond_destroy(&cm->cond);
	pthread_mutex_destroy(&cm->lock);
	return r;
}
