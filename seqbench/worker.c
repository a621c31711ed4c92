// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The workers: one thread and one file per thread, tiobench's four phases.
 * Each phase opens the files, gathers every thread at a start gate, then
 * releases them together; its clock runs from that release to the moment
 * the last thread has finished, including the fsync of a write phase (what
 * fio measures; tiobench also timed open and ftruncate).  Each op is one
 * pread/pwrite of one block, timed with CLOCK_MONOTONIC into the thread's
 * own histogram.  Workers never print or exit: the first error is recorded
 * and every thread is told to stop.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/hist.h"
#include "lib/progress.h"
#include "lib/rand.h"
#include "lib/sig.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "seqbench/seqbench.h"

/* The main thread looks at signals and the terminal this often. */
#define POLL_NS (50 * NSEC_PER_MSEC)
/* Names tried before giving up on a directory full of our own names. */
#define NAME_TRIES 100

struct sb_job;

/* Per-thread state; aligned so that hot counters never share a line. */
struct sb_thread {
	struct sb_job *job;
	unsigned idx;
	char *path;	 /* for messages: DIR/NAME, or the device */
	int dirfd;	 /* the target directory (borrowed), -1: a device */
	char *name;	 /* the file in it, NULL until created */
	dev_t dev;	 /* the file as created: reopened only if it is */
	ino_t ino;	 /* still the same one */
	uint64_t base;	 /* byte offset of this thread's area */
	uint64_t extent; /* blocks holding data (after the seq write) */
	int fd;
	void *buf;
	struct progress prog;
	pthread_t tid;
	/* Results of the current phase. */
	struct hist hist;
	uint64_t ops, bytes, gt1, gt2, stalls;
	uint64_t go_ns, end_ns;
	bool complete;
	uint64_t done_bytes; /* read by the main thread (atomic) */
} __attribute__((aligned(64)));

struct sb_job {
	struct sb_run_state *st;
	const struct sb_opts *o;
	enum sb_phase phase;
	uint64_t block;
	uint64_t file_blocks;
	uint64_t rand_ops;
	struct sb_thread *t;
	uint64_t n;
	int stop; /* atomic: every worker winds down */
	pthread_mutex_t lock;
	pthread_cond_t cond; /* start gate, nofrag turns, completion */
	uint64_t ready;	     /* threads waiting at the gate */
	bool go;
	uint64_t deadline_ns; /* --time: when every thread stops, else 0 */
	uint64_t turn;	      /* --nofrag: whose turn it is to write */
	uint64_t running;
};

static bool phase_writes(enum sb_phase p)
{
	return p == SB_SEQ_WRITE || p == SB_RAND_WRITE;
}

static bool phase_random(enum sb_phase p)
{
	return p == SB_RAND_WRITE || p == SB_RAND_READ;
}

void sb_offsets_init(struct rand *r, uint64_t seed, enum sb_phase phase,
		     uint64_t thread)
{
	/* Random writes and random reads use different streams. */
	rand_seed_stream(r, seed, thread * 2 + (phase == SB_RAND_READ));
}

static bool stopped(struct sb_job *j)
{
	return __atomic_load_n(&j->stop, __ATOMIC_RELAXED);
}

/* Record the first error and stop every thread. */
static void fail(struct sb_job *j, int thread, int err, const char *fmt, ...)
	PRINTF_LIKE(4, 5);
static void fail(struct sb_job *j, int thread, int err, const char *fmt, ...)
{
	struct sb_error *e = &j->st->error;
	va_list ap;

	pthread_mutex_lock(&j->lock);
	if (!e->err) {
		e->err = err;
		e->thread = thread;
		va_start(ap, fmt);
		vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
		va_end(ap);
	}
	pthread_mutex_unlock(&j->lock);
	__atomic_store_n(&j->stop, 1, __ATOMIC_RELAXED);
}

/* One whole block at OFF; short transfers are continued. */
static int do_io(struct sb_thread *t, uint64_t off)
{
	struct sb_job *j = t->job;
	bool wr = phase_writes(j->phase);
	size_t done = 0;

	if (j->o->null_io)
		return 0;
	while (done < j->block) {
		ssize_t r;

		if (wr)
			r = pwrite(t->fd, (char *)t->buf + done,
				   j->block - done, (off_t)(off + done));
		else
			r = pread(t->fd, (char *)t->buf + done, j->block - done,
				  (off_t)(off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			int err = r < 0 ? errno : EIO;

			fail(j, (int)t->idx, err,
			     "%s of %llu bytes at offset %llu of '%s'%s",
			     wr ? "pwrite" : "pread",
			     (unsigned long long)j->block,
			     (unsigned long long)(off + done), t->path,
			     r == 0 ? " hit the end of the file" : "");
			return -1;
		}
		done += (size_t)r;
	}
	return 0;
}

static void account(struct sb_thread *t, uint64_t lat)
{
	struct sb_job *j = t->job;

	hist_add(&t->hist, lat);
	t->ops++;
	t->bytes += j->block;
	if (lat > SB_LAT1_NS)
		t->gt1++;
	if (lat > SB_LAT2_NS)
		t->gt2++;
	if (lat > j->o->stall_ns)
		t->stalls++;
	__atomic_store_n(&t->done_bytes, t->bytes, __ATOMIC_RELAXED);
}

/*
 * The timed loop of one thread.  One clock read per op: an op's latency runs
 * from the previous op's completion (or the start) to its own, so the few
 * nanoseconds of bookkeeping between two ops count in the next one, and the
 * overhead per op is one clock read instead of two.  Writing a progress
 * line restarts the clock so that it is not counted.
 */
static void run_ops(struct sb_thread *t)
{
	struct sb_job *j = t->job;
	const struct sb_opts *o = j->o;
	bool rnd = phase_random(j->phase);
	uint64_t want = rnd ? j->rand_ops : t->extent;
	uint64_t deadline = j->deadline_ns;
	uint64_t next_line = o->progress_bytes;
	uint64_t blk = 0, t0;
	struct rand r;

	sb_offsets_init(&r, o->seed, j->phase, t->idx);
	if (!t->extent)
		return;
	t0 = mono_ns();
	while (deadline || t->ops < want) {
		uint64_t off, t1;

		if (stopped(j))
			return;
		if (rnd) {
			off = t->base + sb_offset_next(&r, t->extent, j->block);
		} else {
			off = t->base + blk * j->block;
			if (++blk == t->extent)
				blk = 0; /* --time wraps around */
		}
		if (do_io(t, off))
			return;
		t1 = mono_ns();
		account(t, t1 - t0);
		t0 = t1;
		if (next_line && t->bytes >= next_line) {
			int e = progress_emit(
				&t->prog, t1,
				"thread=%u phase=%s bytes=%llu ops=%llu",
				t->idx, sb_phase_key(j->phase),
				(unsigned long long)t->bytes,
				(unsigned long long)t->ops);

			if (e) {
				fail(j, (int)t->idx, -e,
				     "writing a progress line");
				return;
			}
			next_line += o->progress_bytes;
			t0 = mono_ns();
		}
		if (deadline && t1 >= deadline)
			break;
	}
	if (!o->null_io && (phase_writes(j->phase) || o->fsync_reads) &&
	    fsync(t->fd)) {
		fail(j, (int)t->idx, errno, "fsync of '%s'", t->path);
		return;
	}
	t->complete = true;
}

static int open_flags(const struct sb_job *j)
{
	const struct sb_opts *o = j->o;
	int fl = O_CLOEXEC;

	/* The files exist already (create_file): never created here. */
	if (phase_writes(j->phase)) {
		fl |= O_WRONLY;
		if (o->osync)
			fl |= O_SYNC;
	} else {
		fl |= O_RDONLY;
	}
	if (o->direct)
		fl |= O_DIRECT;
	if (!o->raw)
		fl |= O_NOFOLLOW;
	return fl;
}

/*
 * Open this thread's file for the phase: a device by its name, a file
 * relative to its directory, without following a link, and only if it is
 * still the file create_file() made (a shared directory without the sticky
 * bit lets anyone swap it for a link to something else).
 */
static int open_file(struct sb_thread *t)
{
	struct sb_job *j = t->job;
	struct stat st;
	int fd;

	if (j->o->raw)
		fd = open(t->path, open_flags(j));
	else
		fd = openat(t->dirfd, t->name, open_flags(j));
	if (fd < 0) {
		fail(j, (int)t->idx, errno, "open of '%s'", t->path);
		return -1;
	}
	if (!j->o->raw && (fstat(fd, &st) || st.st_dev != t->dev ||
			   st.st_ino != t->ino || !S_ISREG(st.st_mode))) {
		fail(j, (int)t->idx, ESTALE,
		     "open of '%s' (not the file seqbench created)", t->path);
		(void)close(fd); /* opened for nothing: no data to lose */
		return -1;
	}
	return fd;
}

/* Wait for this thread's turn in a --nofrag write phase. */
static bool nofrag_turn(struct sb_thread *t)
{
	struct sb_job *j = t->job;

	if (!(j->o->nofrag && j->phase == SB_SEQ_WRITE))
		return false;
	pthread_mutex_lock(&j->lock);
	while (j->turn != t->idx && !stopped(j))
		pthread_cond_wait(&j->cond, &j->lock);
	pthread_mutex_unlock(&j->lock);
	return true;
}

static void *worker(void *arg)
{
	struct sb_thread *t = arg;
	struct sb_job *j = t->job;
	bool opened, turns;

	t->fd = open_file(t);
	opened = t->fd >= 0;

	pthread_mutex_lock(&j->lock);
	j->ready++;
	pthread_cond_broadcast(&j->cond);
	while (!j->go)
		pthread_cond_wait(&j->cond, &j->lock);
	pthread_mutex_unlock(&j->lock);
	t->go_ns = mono_ns();

	turns = nofrag_turn(t);
	if (turns)
		t->go_ns = mono_ns();
	if (opened)
		run_ops(t);
	t->end_ns = mono_ns();

	pthread_mutex_lock(&j->lock);
	if (turns)
		j->turn++;
	j->running--;
	pthread_cond_broadcast(&j->cond);
	pthread_mutex_unlock(&j->lock);
	return NULL;
}

/* Writes "3" to drop_caches after a sync; outside any clock. */
int sb_drop_caches(void)
{
	int fd, r = 0;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write_all(fd, "3\n", 2))
		r = -errno;
	if (close(fd) && !r)
		r = -errno;
	return r;
}

uint64_t sb_user_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (uint64_t)ru.ru_utime.tv_sec * NSEC_PER_SEC +
	       (uint64_t)ru.ru_utime.tv_usec * NSEC_PER_USEC;
}

/* The terminal indicator: "seqbench: Sequential Reads  45%". */
static void tty_progress(struct sb_job *j, bool last)
{
	uint64_t want, done = 0, i;

	if (!j->o->tty_progress)
		return;
	if (last) {
		fprintf(stderr, "\r%60s\r", "");
		return;
	}
	for (i = 0; i < j->n; i++)
		done += __atomic_load_n(&j->t[i].done_bytes, __ATOMIC_RELAXED);
	want = j->n * j->block *
	       (phase_random(j->phase) ? j->rand_ops : j->file_blocks);
	if (j->o->time_ns || !want)
		fprintf(stderr, "\r%s: %s %llu MiB ", progname(),
			sb_phase_title(j->phase),
			(unsigned long long)(done >> 20));
	else
		fprintf(stderr, "\r%s: %s %3llu%% ", progname(),
			sb_phase_title(j->phase),
			(unsigned long long)(done * 100 / want));
}

/* Release the threads and wait for them, watching for stop signals. */
static void wait_phase(struct sb_job *j, uint64_t *cpu0, uint64_t *user0)
{
	pthread_mutex_lock(&j->lock);
	while (j->ready < j->n)
		pthread_cond_wait(&j->cond, &j->lock);
	*cpu0 = cpu_ns();
	*user0 = sb_user_ns();
	/* One deadline for all, so that a late starter does not run late. */
	j->deadline_ns = j->o->time_ns ? mono_ns() + j->o->time_ns : 0;
	j->go = true;
	pthread_cond_broadcast(&j->cond);
	while (j->running) {
		struct timespec ts;
		uint64_t until = mono_ns() + POLL_NS;

		ts.tv_sec = (time_t)(until / NSEC_PER_SEC);
		ts.tv_nsec = (long)(until % NSEC_PER_SEC);
		pthread_cond_timedwait(&j->cond, &j->lock, &ts);
		if (sig_stop && !j->st->interrupted) {
			j->st->interrupted = true;
			j->st->signo = sig_stop;
			__atomic_store_n(&j->stop, 1, __ATOMIC_RELAXED);
			pthread_cond_broadcast(&j->cond);
		}
		if (j->running) {
			pthread_mutex_unlock(&j->lock);
			tty_progress(j, false);
			pthread_mutex_lock(&j->lock);
		}
	}
	pthread_mutex_unlock(&j->lock);
	tty_progress(j, true);
}

/* Start every thread with stop signals blocked: main handles them. */
static uint64_t start_threads(struct sb_job *j)
{
	sigset_t all, old;
	uint64_t i;

	sigemptyset(&all);
	sigaddset(&all, SIGINT);
	sigaddset(&all, SIGTERM);
	sigaddset(&all, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	j->running = j->n; /* before any thread exists */
	for (i = 0; i < j->n; i++) {
		int e = pthread_create(&j->t[i].tid, NULL, worker, &j->t[i]);

		if (e) {
			pthread_mutex_lock(&j->lock);
			j->running -= j->n - i;
			pthread_mutex_unlock(&j->lock);
			fail(j, -1, e, "cannot start thread %llu",
			     (unsigned long long)i);
			break;
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return i;
}

static void collect(struct sb_job *j, struct sb_phase_result *p)
{
	uint64_t i, go = UINT64_MAX, end = 0;

	p->ran = true;
	p->complete = true;
	p->hist = xmalloc(sizeof(*p->hist));
	hist_init(p->hist);
	for (i = 0; i < j->n; i++) {
		struct sb_thread *t = &j->t[i];

		if (t->go_ns < go)
			go = t->go_ns;
		if (t->end_ns > end)
			end = t->end_ns;
	}
	p->wall_ns = end > go ? end - go : 0;
	p->thread_rate_min = -1;
	for (i = 0; i < j->n; i++) {
		struct sb_thread *t = &j->t[i];
		uint64_t span = t->end_ns > t->go_ns ? t->end_ns - t->go_ns : 0;
		double rate = span ? (double)t->bytes / 1048576.0 /
					      ((double)span / 1e9)
				   : 0;

		p->complete &= t->complete;
		p->ops += t->ops;
		p->bytes += t->bytes;
		p->gt1 += t->gt1;
		p->gt2 += t->gt2;
		p->stalls += t->stalls;
		hist_merge(p->hist, &t->hist);
		if (p->thread_rate_min < 0 || rate < p->thread_rate_min)
			p->thread_rate_min = rate;
		if (rate > p->thread_rate_max)
			p->thread_rate_max = rate;
	}
}

/* Open, release, time and collect one phase. */
static void run_phase(struct sb_job *j, struct sb_phase_result *p)
{
	uint64_t i, n, cpu0 = 0, user0 = 0, cpu1, user1;

	j->ready = 0;
	j->go = false;
	j->turn = 0;
	for (i = 0; i < j->n; i++) {
		struct sb_thread *t = &j->t[i];

		hist_init(&t->hist);
		t->ops = t->bytes = t->gt1 = t->gt2 = t->stalls = 0;
		t->go_ns = t->end_ns = 0;
		t->complete = false;
		t->fd = -1;
		__atomic_store_n(&t->done_bytes, 0, __ATOMIC_RELAXED);
	}
	n = start_threads(j);
	if (n < j->n) {
		/* The gate waits for the threads that exist. */
		pthread_mutex_lock(&j->lock);
		j->n = n;
		pthread_mutex_unlock(&j->lock);
	}
	wait_phase(j, &cpu0, &user0);
	for (i = 0; i < j->n; i++)
		pthread_join(j->t[i].tid, NULL);
	cpu1 = cpu_ns();
	user1 = sb_user_ns();
	p->cpu_ns = cpu1 - cpu0;
	p->user_ns = user1 > user0 ? user1 - user0 : 0;
	for (i = 0; i < j->n; i++) {
		struct sb_thread *t = &j->t[i];

		if (t->fd >= 0 && close(t->fd))
			fail(j, (int)i, errno, "close of '%s'", t->path);
		t->fd = -1;
	}
	collect(j, p);
}

/* Write the offsets a run's random phases will use (--dump-offsets). */
static void dump_offsets(FILE *f, const struct sb_opts *o,
			 const struct sb_result *res)
{
	enum sb_phase ph;
	uint64_t i, k, blocks = res->file_bytes / res->block;

	for (ph = SB_RAND_WRITE; ph < SB_BENCH_PHASES; ph += 2) {
		for (i = 0; i < res->threads; i++) {
			struct rand r;

			sb_offsets_init(&r, o->seed, ph, i);
			for (k = 0; k < res->rand_ops; k++)
				fprintf(f, "%llu %llu %llu %s %llu %llu\n",
					(unsigned long long)res->size,
					(unsigned long long)res->block,
					(unsigned long long)res->threads,
					sb_phase_key(ph), (unsigned long long)i,
					(unsigned long long)sb_offset_next(
						&r, blocks, res->block));
		}
	}
}

/*
 * Create the file of thread T in its directory under a name no one can
 * guess (from ST->names, not --seed: the workload stays reproducible, the
 * names do not), exclusively and without following links, so that nothing
 * planted in a shared directory is ever written through; another name is
 * tried when one exists.  Returns 0, or -1 after recording the error.
 */
static int create_file(struct sb_job *j, struct sb_thread *t)
{
	const struct sb_opts *o = j->o;
	const char *dir = o->targets[t->idx % o->n_targets];
	struct stat st;
	int i, fd = -1;

	for (i = 0; i < NAME_TRIES && fd < 0; i++) {
		free(t->name);
		free(t->path);
		t->name =
			xasprintf("seqbench.%016llx",
				  (unsigned long long)rand_next(&j->st->names));
		t->path = xasprintf("%s/%s", dir, t->name);
		fd = openat(t->dirfd, t->name,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				    O_CLOEXEC,
			    0600);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		fail(j, (int)t->idx, errno, "create of '%s'", t->path);
		free(t->name);
		t->name = NULL; /* nothing of ours to remove */
		return -1;
	}
	if (fstat(fd, &st)) {
		fail(j, (int)t->idx, errno, "fstat of '%s'", t->path);
		/* Empty and just made: remove it while the name is sure. */
		(void)close(fd);
		(void)unlinkat(t->dirfd, t->name, 0);
		free(t->name);
		t->name = NULL;
		return -1;
	}
	t->dev = st.st_dev;
	t->ino = st.st_ino;
	if (close(fd)) {
		fail(j, (int)t->idx, errno, "close of '%s'", t->path);
		return -1;
	}
	if (o->verbose)
		inform("thread %u: file '%s'", t->idx, t->path);
	return 0;
}

static void setup_threads(struct sb_job *j, const struct sb_result *res)
{
	const struct sb_opts *o = j->o;
	uint64_t i, *per_target = xcalloc(o->n_targets, sizeof(uint64_t));
	struct rand r;

	rand_seed(&r, o->seed);
	for (i = 0; i < j->n; i++) {
		struct sb_thread *t = &j->t[i];
		size_t tg = i % o->n_targets;
		uint64_t k;

		t->job = j;
		t->idx = (unsigned)i;
		t->extent = j->file_blocks;
		t->fd = -1;
		t->dirfd = o->raw ? -1 : o->target_fds[tg];
		if (o->raw) {
			t->path = xstrdup(o->targets[tg]);
			t->base = per_target[tg]++ * res->file_bytes;
		}
		t->buf = xaligned_alloc(4096, j->block);
		/* Incompressible data, the same in every run. */
		for (k = 0; k + 8 <= j->block; k += 8) {
			uint64_t v = rand_next(&r);

			memcpy((char *)t->buf + k, &v, 8);
		}
		progress_init(&t->prog, o->progress_bytes ? 1 : -1, progname());
	}
	free(per_target);
	for (i = 0; !o->raw && i < j->n; i++)
		if (create_file(j, &j->t[i]))
			break;
}

/* Remove the file of T if it is still the one we created. */
static void remove_file(struct sb_job *j, struct sb_thread *t)
{
	struct stat st;

	if (!t->name)
		return;
	if (fstatat(t->dirfd, t->name, &st, AT_SYMLINK_NOFOLLOW)) {
		if (errno != ENOENT)
			fail(j, (int)t->idx, errno, "stat of '%s'", t->path);
		return;
	}
	if (st.st_dev != t->dev || st.st_ino != t->ino)
		return; /* someone else's now: not ours to remove */
	if (unlinkat(t->dirfd, t->name, 0) && errno != ENOENT)
		fail(j, (int)t->idx, errno, "unlink of '%s'", t->path);
}

static void teardown_threads(struct sb_job *j, uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++) {
		struct sb_thread *t = &j->t[i];

		remove_file(j, t);
		free(t->name);
		free(t->path);
		free(t->buf);
	}
}

int sb_run(struct sb_run_state *st, struct sb_result *res)
{
	const struct sb_opts *o = st->o;
	struct sb_job j;
	enum sb_phase ph;
	uint64_t n = res->threads;

	memset(&j, 0, sizeof(j));
	j.st = st;
	j.o = o;
	j.block = res->block;
	j.file_blocks = res->file_bytes / res->block;
	j.rand_ops = res->rand_ops;
	j.n = n;
	pthread_mutex_init(&j.lock, NULL);
	{
		pthread_condattr_t ca;

		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&j.cond, &ca);
		pthread_condattr_destroy(&ca);
	}
	j.t = xaligned_alloc(64, n * sizeof(*j.t));
	memset(j.t, 0, n * sizeof(*j.t));
	setup_threads(&j, res);
	if (st->dump)
		dump_offsets(st->dump, o, res);

	for (ph = 0; ph < SB_BENCH_PHASES && !stopped(&j); ph++) {
		uint64_t i;

		if (ph > 0 && o->drop_caches) {
			int e = sb_drop_caches();

			if (e) {
				fail(&j, -1, -e, "cannot drop caches");
				break;
			}
		}
		if (sig_stop) {
			st->interrupted = true;
			st->signo = sig_stop;
			break;
		}
		j.phase = ph;
		j.n = n;
		run_phase(&j, &res->phase[ph]);
		/* Later phases use only what the first one wrote. */
		if (ph == SB_SEQ_WRITE && o->time_ns)
			for (i = 0; i < n; i++)
				if (j.t[i].ops < j.t[i].extent)
					j.t[i].extent = j.t[i].ops;
	}
	teardown_threads(&j, n);
	free(j.t);
	pthread_cond_destroy(&j.cond);
	pthread_mutex_destroy(&j.lock);
	return stopped(&j) || st->interrupted ? -1 : 0;
}
