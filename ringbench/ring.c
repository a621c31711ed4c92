// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ring of ring-test: NR tasks (threads, or processes with --processes)
 * pass one token round a ring over pipes, futexes or eventfds.  On each hop
 * the receiver stamps the wakeup latency (sender's clock read before it
 * handed the token over, to the receiver's right after it got it), does
 * WORK of calibrated busy loop and sleeps SLEEP, then hands the token on.
 * Member 0 leads: it decides when warmup ends and when the run stops, and a
 * token carries that decision round, so every member counts the same cycles.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/sig.h"
#include "lib/stats.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "ringbench/ringbench.h"

#define TOK_MEASURE 1U
#define TOK_STOP 2U

/* What goes round: one pipe write of 24 bytes (atomic, < PIPE_BUF). */
struct token {
	uint64_t ts_ns; /* when the sender handed it over */
	uint64_t seq;
	uint32_t flags;
	uint32_t pad;
};

/* One member, in memory every member shares (MAP_SHARED for processes). */
struct member {
	int rfd;		/* pipe: own read end; eventfd: own counter */
	int wfd;		/* pipe: write end of the next member's pipe */
	_Atomic uint32_t fword; /* futex: bumped for each token handed over */
	struct token slot;	/* futex, eventfd: the token handed over */
	uint64_t tokens;	/* received while measuring */
	uint64_t warm_tokens;
	int cpu;
	int err;
	char what[96];
	struct progress progress; /* its own: the line counter is not shared */
	struct hist hist;
} __attribute__((aligned(64)));

struct ring {
	const struct rb_opts *o;
	struct rb_state *st;
	uint64_t work_loops;
	_Atomic bool failed; /* a member met an error */
	uint64_t cycles, warm_cycles, start_ns, end_ns;
	pid_t *pid; /* processes: of members 1..NR-1, 0 once reaped */
	unsigned n;
	struct member m[];
};

/* A child process died (processes mode); set by the SIGCHLD handler. */
static volatile sig_atomic_t child_died;

void rb_spin(uint64_t loops)
{
	/* The asm keeps the compiler from folding the loop away. */
	while (loops) {
		loops--;
		__asm__ volatile("" : "+r"(loops));
	}
}

void rb_calibrate(struct rb_calib *c, uint64_t work_ns)
{
	uint64_t loops = 256, start = mono_ns(), t, dt;
	uint64_t trial[RB_CALIB_TRIALS];
	unsigned i;

	/*
	 * Grow a trial until it lasts 5 ms, then take the median of nine,
	 * each timed on the thread's CPU clock: time the thread spent
	 * preempted is not in it (on a loaded machine wall-clock trials were
	 * cut so often that the work came out 34% short).  Trials of 200 us
	 * ran up to 2.3 times slower per loop than a 20 ms spin on this
	 * kind of VM (the work then came out half as long): a trial as long
	 * as the work it stands for runs at the work's speed.  The fastest
	 * trial is recorded too.
	 */
	for (;;) {
		t = thread_cpu_ns();
		rb_spin(loops);
		dt = thread_cpu_ns() - t;
		if (dt >= 5 * NSEC_PER_MSEC || loops >= (1ULL << 40))
			break;
		loops *= 2;
	}
	for (i = 0; i < RB_CALIB_TRIALS; i++) {
		t = thread_cpu_ns();
		rb_spin(loops);
		trial[i] = thread_cpu_ns() - t;
	}
	c->trial_loops = loops;
	c->trials = RB_CALIB_TRIALS;
	c->ns_per_loop = c->ns_per_loop_min = 1e-3;
	if (!stats_sort_u64(trial, RB_CALIB_TRIALS) && trial[0]) {
		c->ns_per_loop = (double)stats_percentile_u64(
					 trial, RB_CALIB_TRIALS, 50.0) /
				 (double)loops;
		c->ns_per_loop_min = (double)trial[0] / (double)loops;
	}
	c->spent_ns = mono_ns() - start;
	c->cpu = sched_getcpu();
	c->work_loops = (uint64_t)((double)work_ns / c->ns_per_loop + 0.5);
}

static long futex(_Atomic uint32_t *w, int op, uint32_t val)
{
	return syscall(SYS_futex, w, op, val, NULL, NULL, 0);
}

static int send_token(struct ring *r, unsigned i, const struct token *t)
{
	struct member *next = &r->m[(i + 1) % r->n];
	uint64_t one = 1;
	ssize_t n;

	switch (r->o->via) {
	case VIA_PIPE:
		do
			n = write(r->m[i].wfd, t, sizeof(*t));
		while (n < 0 && errno == EINTR);
		return n == (ssize_t)sizeof(*t) ? 0 : n < 0 ? -errno : -EIO;
	case VIA_EVENTFD:
		next->slot = *t;
		/* The kernel orders the slot before the wakeup; this tells
		 * the compiler and the thread sanitizer so too. */
		atomic_fetch_add_explicit(&next->fword, 1,
					  memory_order_release);
		do
			n = write(next->rfd, &one, sizeof(one));
		while (n < 0 && errno == EINTR);
		return n == (ssize_t)sizeof(one) ? 0 : n < 0 ? -errno : -EIO;
	case VIA_FUTEX:
		next->slot = *t;
		atomic_fetch_add_explicit(&next->fword, 1,
					  memory_order_release);
		if (futex(&next->fword,
			  r->o->processes ? FUTEX_WAKE : FUTEX_WAKE_PRIVATE,
			  1) < 0)
			return -errno;
		return 0;
	}
	return -EINVAL;
}

/*
 * Processes: reap the members that ended.  One that passed the stop token
 * on exits 0; any other end is the run's error: returns true then.
 */
static bool note_dead(struct ring *r)
{
	bool bad = false;
	int status;
	pid_t p;
	unsigned i;

	while ((p = waitpid(-1, &status, WNOHANG)) > 0)
		for (i = 1; i < r->n; i++) {
			if (r->pid[i] != p)
				continue;
			r->pid[i] = 0;
			if (WIFEXITED(status) && !WEXITSTATUS(status))
				continue;
			bad = true;
			if (r->m[i].err)
				continue;
			r->m[i].err = EINTR;
			if (WIFSIGNALED(status))
				snprintf(r->m[i].what, sizeof(r->m[i].what),
					 "ring member %u (pid %d) was killed "
					 "by signal %d",
					 i, (int)p, WTERMSIG(status));
			else
				snprintf(r->m[i].what, sizeof(r->m[i].what),
					 "ring member %u (pid %d) exited with "
					 "status %d",
					 i, (int)p, WEXITSTATUS(status));
		}
	if (bad)
		atomic_store(&r->failed, true);
	return bad;
}

/* A blocked wait was interrupted: give up only if a member process died. */
static bool interrupted(struct ring *r)
{
	if (!r->o->processes || !child_died)
		return false;
	child_died = 0;
	return note_dead(r);
}

static int recv_token(struct ring *r, unsigned i, struct token *t,
		      uint32_t *seen)
{
	struct member *me = &r->m[i];
	uint64_t v;
	ssize_t n;

	/* A member that died while we ran; one dying between this check
	 * and the wait below interrupts the wait (SIGCHLD). */
	if (interrupted(r))
		return -ECHILD;
	switch (r->o->via) {
	case VIA_PIPE:
		while ((n = read(me->rfd, t, sizeof(*t))) < 0 && errno == EINTR)
			if (interrupted(r))
				return -ECHILD;
		return n == (ssize_t)sizeof(*t) ? 0 : n < 0 ? -errno : -EPIPE;
	case VIA_EVENTFD:
		while ((n = read(me->rfd, &v, sizeof(v))) < 0 && errno == EINTR)
			if (interrupted(r))
				return -ECHILD;
		if (n != (ssize_t)sizeof(v))
			return n < 0 ? -errno : -EPIPE;
		(void)atomic_load_explicit(&me->fword, memory_order_acquire);
		*t = me->slot;
		return 0;
	case VIA_FUTEX:
		while (atomic_load_explicit(&me->fword, memory_order_acquire) ==
		       *seen) {
			if (futex(&me->fword,
				  r->o->processes ? FUTEX_WAIT
						  : FUTEX_WAIT_PRIVATE,
				  *seen) < 0 &&
			    errno != EAGAIN && errno != EINTR)
				return -errno;
			if (interrupted(r))
				return -ECHILD;
		}
		(*seen)++;
		*t = me->slot;
		return 0;
	}
	return -EINVAL;
}

static void member_fail(struct ring *r, unsigned i, int err, const char *what)
{
	struct member *me = &r->m[i];

	if (!me->err) {
		me->err = -err;
		snprintf(me->what, sizeof(me->what), "ring member %u: %s", i,
			 what);
	}
	atomic_store(&r->failed, true);
}

/* The receiver's side of a hop: stamp, count, maybe a progress line. */
static void hop(struct ring *r, unsigned i, const struct token *t, uint64_t now)
{
	struct member *me = &r->m[i];

	if (!(t->flags & TOK_MEASURE)) {
		me->warm_tokens++;
		return;
	}
	hist_add(&me->hist, now > t->ts_ns ? now - t->ts_ns : 0);
	me->tokens++;
	if (r->o->progress_every && me->tokens % r->o->progress_every == 0)
		/* A lost progress line does not stop the ring. */
		(void)progress_emit(&me->progress, now,
				    "mode=ring member=%u tokens=%llu", i,
				    (unsigned long long)me->tokens);
}

static void work_and_sleep(const struct ring *r)
{
	if (r->work_loops)
		rb_spin(r->work_loops);
	if (r->o->sleep_ns)
		(void)sleep_until_ns(mono_ns() + r->o->sleep_ns, NULL);
}

/* Members 1..NR-1: receive, work, sleep, pass on, until a stop token. */
static void follower(struct ring *r, unsigned i)
{
	uint32_t seen = 0;
	struct token t;
	int e;

	for (;;) {
		e = recv_token(r, i, &t, &seen);
		if (e) {
			member_fail(r, i, e, "cannot receive the token");
			return;
		}
		if (t.flags & TOK_STOP)
			break;
		hop(r, i, &t, mono_ns());
		work_and_sleep(r);
		t.ts_ns = mono_ns();
		e = send_token(r, i, &t);
		if (e) {
			member_fail(r, i, e, "cannot pass the token on");
			return;
		}
	}
	e = send_token(r, i, &t);
	if (e)
		member_fail(r, i, e, "cannot pass the stop token on");
}

/* Should the leader stop after a token came back at NOW? */
static bool leader_done(struct ring *r, bool measuring, uint64_t now)
{
	const struct rb_opts *o = r->o;

	if (sig_stop || atomic_load(&r->failed) || rb_stopping(r->st))
		return true;
	if (!measuring)
		return false;
	if (o->count)
		return r->cycles >= o->count;
	return now - r->start_ns >= o->duration_ns;
}

/* Member 0: starts the token, ends warmup, ends the run. */
static void leader(struct ring *r)
{
	struct token t = { 0 };
	uint64_t now = mono_ns(), warm_end = now + r->o->warmup_ns;
	bool measuring = !r->o->warmup_ns;
	uint32_t seen = 0;
	int e;

	r->start_ns = now;
	t.flags = measuring ? TOK_MEASURE : 0;
	for (;;) {
		t.ts_ns = mono_ns();
		e = send_token(r, 0, &t);
		if (e) {
			member_fail(r, 0, e, "cannot pass the token on");
			return;
		}
		e = recv_token(r, 0, &t, &seen);
		if (e == -ECHILD)
			return;
		if (e) {
			member_fail(r, 0, e, "cannot receive the token");
			return;
		}
		now = mono_ns();
		if (t.flags & TOK_STOP) /* a member failed and unwound */
			return;
		hop(r, 0, &t, now);
		if (t.flags & TOK_MEASURE) {
			r->cycles++;
			r->end_ns = now;
		} else {
			r->warm_cycles++;
		}
		if (leader_done(r, measuring, now))
			break;
		work_and_sleep(r);
		if (!measuring && mono_ns() >= warm_end) {
			measuring = true;
			r->start_ns = mono_ns();
		}
		t.seq++;
		t.flags = measuring ? TOK_MEASURE : 0;
	}
	t.flags = TOK_STOP;
	e = send_token(r, 0, &t);
	if (!e)
		e = recv_token(r, 0, &t, &seen);
	if (e)
		member_fail(r, 0, e, "cannot pass the stop token round");
}

struct member_arg {
	struct ring *r;
	unsigned i;
};

static void *member_thread(void *p)
{
	struct member_arg *a = p;
	int e = rb_pin(a->r->m[a->i].cpu);

	if (e)
		member_fail(a->r, a->i, e, "cannot pin to its CPU");
	follower(a->r, a->i);
	return NULL;
}

static void on_sigchld(int sig)
{
	(void)sig;
	child_died = 1;
}

static int setup_fds(struct ring *r)
{
	unsigned i;
	int p[2];

	for (i = 0; i < r->n; i++)
		r->m[i].rfd = r->m[i].wfd = -1;
	for (i = 0; i < r->n; i++) {
		if (r->o->via == VIA_PIPE) {
			if (pipe2(p, O_CLOEXEC))
				return -errno;
			r->m[i].rfd = p[0];
			/* Member i-1 writes into member i's pipe. */
			r->m[(i + r->n - 1) % r->n].wfd = p[1];
		} else if (r->o->via == VIA_EVENTFD) {
			r->m[i].rfd = eventfd(0, EFD_CLOEXEC);
			if (r->m[i].rfd < 0)
				return -errno;
		}
	}
	return 0;
}

static void close_fds(struct ring *r)
{
	unsigned i;

	/* Read or never written since the ring stopped: nothing to lose. */
	for (i = 0; i < r->n; i++) {
		if (r->m[i].rfd >= 0)
			(void)close(r->m[i].rfd);
		if (r->m[i].wfd >= 0)
			(void)close(r->m[i].wfd);
	}
}

/* Start members 1..NR-1 as threads or processes; returns how many ran. */
static unsigned start_members(struct ring *r, pthread_t *tid,
			      struct member_arg *args)
{
	sigset_t block, old;
	unsigned i;
	int e;

	/* Signals go to member 0, which stops the ring in order. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (i = 1; i < r->n; i++) {
		args[i] = (struct member_arg){ r, i };
		if (!r->o->processes) {
			e = pthread_create(&tid[i], NULL, member_thread,
					   &args[i]);
			if (e) {
				rb_fail(r->st, e, "cannot start ring member %u",
					i);
				break;
			}
			continue;
		}
		r->pid[i] = fork();
		if (r->pid[i] < 0) {
			r->pid[i] = 0;
			rb_fail(r->st, errno, "cannot start ring member %u", i);
			break;
		}
		if (!r->pid[i]) {
			(void)prctl(PR_SET_PDEATHSIG, SIGKILL);
			member_thread(&args[i]);
			_exit(r->m[i].err ? 1 : 0);
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return i;
}

/* Wait for members 1..STARTED-1 (a death was noted by note_dead()). */
static void join_members(struct ring *r, unsigned started, pthread_t *tid)
{
	unsigned i;

	for (i = 1; i < started; i++) {
		if (!r->o->processes)
			pthread_join(tid[i], NULL);
		else if (r->pid[i] > 0)
			while (waitpid(r->pid[i], NULL, 0) < 0 &&
			       errno == EINTR)
				;
	}
}

/* A process member that is stuck or gone: kill them all. */
static void kill_members(struct ring *r, unsigned started)
{
	unsigned i;

	for (i = 1; r->o->processes && i < started; i++)
		if (r->pid[i] > 0)
			(void)kill(r->pid[i], SIGKILL); /* may be exiting */
}

static void collect(struct ring *r, struct rb_run *run)
{
	unsigned i;

	run->cycles = r->cycles;
	run->warmup_cycles = r->warm_cycles;
	run->elapsed_ns = r->end_ns > r->start_ns ? r->end_ns - r->start_ns : 0;
	/* A member that died explains member 0's failure: it goes first. */
	for (i = r->n; i-- > 0;) {
		run->tokens += r->m[i].tokens;
		hist_merge(run->hist, &r->m[i].hist);
		if (r->m[i].err && !atomic_load(&r->st->err))
			rb_fail(r->st, r->m[i].err == EINTR ? -1 : r->m[i].err,
				"%s", r->m[i].what);
	}
	run->complete = !atomic_load(&r->st->err) && !sig_stop;
}

int rb_ring_run(struct rb_state *st, const struct rb_calib *c,
		struct rb_run *run)
{
	const struct rb_opts *o = st->o;
	size_t size = sizeof(struct ring) + o->members * sizeof(struct member);
	struct sigaction sa = { .sa_handler = on_sigchld }, old_sa;
	struct member_arg *args = xcalloc(o->members, sizeof(*args));
	pthread_t *tid = xcalloc(o->members, sizeof(*tid));
	pid_t *pid = xcalloc(o->members, sizeof(*pid));
	struct ring *r;
	unsigned i, started;
	int e;

	r = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		 -1, 0);
	if (r == MAP_FAILED) {
		rb_fail(st, errno, "cannot map the ring");
		free(args);
		free(tid);
		free(pid);
		return -1;
	}
	r->o = o;
	r->st = st;
	r->n = o->members;
	r->work_loops = c->work_loops;
	r->pid = pid;
	for (i = 0; i < r->n; i++) {
		hist_init(&r->m[i].hist);
		r->m[i].progress = st->progress;
		r->m[i].cpu = rb_cpu_of(o, i);
		rb_place_add(st, "member", i, r->m[i].cpu);
	}
	e = setup_fds(r);
	if (e)
		rb_fail(st, -e, "cannot make the ring's %s",
			o->via == VIA_PIPE ? "pipes" : "eventfds");
	child_died = 0;
	if (o->processes)
		sigaction(SIGCHLD, &sa, &old_sa);
	started = e ? 1 : start_members(r, tid, args);
	if (started == r->n) {
		e = rb_pin(r->m[0].cpu);
		if (e)
			member_fail(r, 0, e, "cannot pin to its CPU");
		else
			leader(r);
	}
	/* A ring that did not unwind by its stop token has members stuck:
	 * processes are killed; threads started get a stop token. */
	if (started < r->n || atomic_load(&r->failed) || r->m[0].err)
		kill_members(r, started);
	if (started < r->n && !o->processes) {
		struct token t = { .flags = TOK_STOP };

		(void)send_token(r, 0, &t); /* a failed start was reported */
	}
	join_members(r, started, tid);
	if (o->processes)
		sigaction(SIGCHLD, &old_sa, NULL);
	collect(r, run);
	close_fds(r);
	munmap(r, size);
	free(args);
	free(tid);
	free(pid);
	return atomic_load(&st->err) ? -1 : 0;
}
