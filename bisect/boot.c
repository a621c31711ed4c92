// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The boot runner: one boot of one kernel, by latency-vm (as a boot of
 * its series, --series-boot, so latency-compare pairs the boots as the
 * bisection did) or by --boot-command.  The boot is recorded as running
 * in bisect.json first, made aside in tmp/NNNN/, and renamed into
 * boots/NNNN-LABEL when it ends, so boots/ holds only boots that ended;
 * a boot is never rewritten or moved after that.  The boot's own output
 * goes to boots/NNNN-LABEL.log.  A stop signal is passed on to the boot
 * (latency-vm itself, or a boot command's process group: it runs in a
 * group of its own), which keeps its partial result; if
 * latency-bisect itself is killed, the boot gets SIGTERM from the kernel
 * (PR_SET_PDEATHSIG) and --continue finds its directory aside.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/json-read.h"
#include "lib/output.h"
#include "lib/sig.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "bisect/bisect.h"

char *bisect_program(const char *name, const char *tree_dir)
{
	const char *dir = getenv("LATENCY_TESTS_BINDIR");
	char self[PATH_MAX], *slash, *p;
	ssize_t n;

	if (dir && *dir)
		return xasprintf("%s/%s", dir, name);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			p = xasprintf("%s/../%s/%s", self, tree_dir, name);
			if (!access(p, X_OK))
				return p;
			free(p);
		}
	}
	return xstrdup(name);
}

/* A growing argv. */
struct args {
	size_t n;
	char **v;
};

static void arg_add(struct args *a, char *s)
{
	a->v = xreallocarray(a->v, a->n + 2, sizeof(*a->v));
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

static void args_free(struct args *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
}

/* latency-vm's --series-boot of boot BT. */
static char *series_boot(const struct bisect *b, const struct boot *bt)
{
	const struct series *s = &b->series[bt->series];

	return xasprintf("%s,%u,%s,%llu,%u,%c,%s,%s", s->name, b->o.max_pairs,
			 s->order, (unsigned long long)b->o.seed, bt->pair,
			 bt->arm, b->k[s->ref].label, b->k[s->k].label);
}

/* The command line of boot BT of kernel K, into A. */
static void boot_argv(const struct bisect *b, const struct bisect_run *run,
		      const struct boot *bt, const struct kernel *k,
		      const char *image, const char *aside, struct args *a)
{
	size_t i;

	if (run->boot_command) {
		arg_add(a, xstrdup("/bin/sh"));
		arg_add(a, xstrdup("-c"));
		arg_add(a, xasprintf("%s \"$@\"", run->boot_command));
		arg_add(a, xstrdup("latency-bisect-boot"));
		arg_add(a, xstrdup(image));
		arg_add(a, xstrdup(k->cmdline));
		arg_add(a, xasprintf("%s/%s", aside, k->label));
	} else {
		arg_add(a, bisect_program("latency-vm", "vm"));
		arg_add(a, xasprintf("--kernel=%s", image));
		if (*k->cmdline)
			arg_add(a, xasprintf("--cmdline=%s", k->cmdline));
		arg_add(a, xasprintf("--results=%s", aside));
		arg_add(a, xasprintf("--label=%s", k->label));
		char *sb = series_boot(b, bt);

		arg_add(a, xasprintf("--series-boot=%s", sb));
		free(sb);
		for (i = 0; i < run->n_vm_opts; i++)
			arg_add(a, xstrdup(run->vm_opts[i]));
		if (run->n_rt_opts)
			arg_add(a, xstrdup("--"));
	}
	for (i = 0; i < run->n_rt_opts; i++)
		arg_add(a, xstrdup(run->rt_opts[i]));
}

/* In the child: the boot's environment, its output, then exec. */
noreturn static void child(const struct bisect *b, const struct boot *bt,
			   const struct kernel *k, const char *image,
			   const char *aside, int logfd, char **argv)
{
	char *sb = series_boot(b, bt),
	     *res = xasprintf("%s/%s", aside, k->label);

	setpgid(0, 0);
	/* Killed with latency-bisect, the boot stops and keeps its part. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	if (setenv("LATENCY_BISECT_KERNEL", image, 1) ||
	    setenv("LATENCY_BISECT_CMDLINE", k->cmdline, 1) ||
	    setenv("LATENCY_BISECT_LABEL", k->label, 1) ||
	    setenv("LATENCY_BISECT_RESULT", res, 1) ||
	    setenv("LATENCY_BISECT_SERIES_BOOT", sb, 1) ||
	    dup2(logfd, STDOUT_FILENO) < 0 || dup2(logfd, STDERR_FILENO) < 0)
		_exit(127);
	execvp(argv[0], argv);
	fprintf(stderr, "latency-bisect: cannot run '%s': %s\n", argv[0],
		strerror(errno));
	_exit(127);
}

/*
 * Run ARGV, passing a stop signal on (to its process group when GROUP);
 * its status as spawn_wait() says.
 */
static int run_boot(const struct bisect *b, const struct boot *bt,
		    const struct kernel *k, const char *image,
		    const char *aside, int logfd, char **argv, bool group,
		    int *stopped)
{
	int status;
	pid_t pid = fork(), w;

	if (pid < 0)
		return -errno;
	if (!pid)
		child(b, bt, k, image, aside, logfd, argv);
	*stopped = 0;
	for (;;) {
		w = waitpid(pid, &status, 0);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return -errno;
		if (sig_stop && !*stopped) {
			*stopped = sig_stop;
			/*
			 * latency-vm alone: it asks its guest to stop and
			 * keeps the partial result, which QEMU killed by the
			 * same signal would lose.  A boot command, whose
			 * shell would hold the signal until its child ends:
			 * its whole process group.  Gone: nothing to do.
			 */
			(void)kill(group ? -pid : pid, (int)sig_stop);
		}
	}
	if (sig_stop && !*stopped)
		*stopped = sig_stop;
	if (WIFSIGNALED(status))
		return EXIT_SIGNAL(WTERMSIG(status));
	return WEXITSTATUS(status);
}

/* Results are small; a partial one is not loaded further. */
#define RESULT_MAX_BYTES (64 << 20)

/*
 * Why the result directory PATH cannot be used, before it is loaded: no
 * result.json, or a partial one (its partial_reason), as a new string;
 * NULL when it is whole.  A partial result of a guest that did not boot
 * lacks figures the loader requires.
 */
static char *result_unusable(const char *path)
{
	char *p = xasprintf("%s/result.json", path), *why = NULL;
	const struct json_node *partial;
	struct json_node *root;
	const char *reason;
	struct stat st;

	if (lstat(p, &st)) {
		why = xstrdup("no result.json");
	} else if (!json_read_file(p, RESULT_MAX_BYTES, &root, NULL)) {
		partial = json_read_member(root, "partial");
		reason = json_read_string(root, "partial_reason");
		if (partial && partial->type == JSON_TRUE)
			why = xstrdup(reason ? reason
					     : "the result is partial");
		json_read_free(root);
	}
	free(p);
	return why;
}

void boot_load(struct bisect *b, const struct bisect_run *run, struct boot *bt)
{
	struct cmp_options o = { .workload = "fake-gitk", .alpha = 0.05 };
	char *path = xasprintf("%s/%s", run->dir, bt->dir);
	struct cmp_result r;
	char *unusable;
	const char *why;
	struct stat st;

	bt->value = NAN;
	if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
		free(path);
		free(bt->reason);
		bt->reason = xstrdup("no result directory");
		return;
	}
	if ((unusable = result_unusable(path))) {
		free(path);
		free(bt->reason);
		bt->reason = unusable;
		return;
	}
	if (cmp_load(&r, path, NULL, &o)) {
		why = "the result cannot be read";
	} else if (r.partial) {
		why = r.json ? json_read_string(r.json, "partial_reason")
			     : NULL;
		if (!why)
			why = "the result is partial";
	} else if (isnan(r.fig[b->o.metric].value)) {
		why = "the result has no such figure";
	} else {
		bt->value = r.fig[b->o.metric].value;
		why = NULL;
	}
	if (why) {
		free(bt->reason);
		bt->reason = xstrdup(why);
	}
	cmp_result_release(&r);
	free(path);
}

/* Move tmp/NNNN/LABEL and tmp/NNNN.log of boot BT into boots/. */
static void bring_in(struct bisect_run *run, const struct boot *bt,
		     const char *label)
{
	char *from = xasprintf("tmp/%04u/%s", bt->seq, label);
	char *log = xasprintf("tmp/%04u.log", bt->seq);
	char *to_log = xasprintf("%s.log", bt->dir);
	char *aside = xasprintf("tmp/%04u", bt->seq);

	if (renameat(run->dirfd, from, run->dirfd, bt->dir) && errno != ENOENT)
		warn_errno("cannot move '%s/%s' into boots/", run->dir, from);
	if (mkdirat(run->dirfd, bt->dir, 0755) && errno != EEXIST)
		warn_errno("cannot make '%s/%s'", run->dir, bt->dir);
	if (renameat(run->dirfd, log, run->dirfd, to_log) && errno != ENOENT)
		warn_errno("cannot move '%s/%s'", run->dir, log);
	/* Left non-empty only by a boot command's own leftovers. */
	if (unlinkat(run->dirfd, aside, AT_REMOVEDIR) && errno != ENOENT)
		warn_errno("cannot remove '%s/%s'", run->dir, aside);
	free(from);
	free(log);
	free(to_log);
	free(aside);
}

static struct boot *boot_new(struct bisect *b, size_t s, unsigned pair,
			     char arm)
{
	const struct series *se = &b->series[s];
	unsigned seq = 0;
	struct boot *bt;
	size_t i;

	for (i = 0; i < b->n_boots; i++)
		if (b->boots[i].seq > seq)
			seq = b->boots[i].seq;
	b->boots = xreallocarray(b->boots, b->n_boots + 1, sizeof(*b->boots));
	bt = &b->boots[b->n_boots++];
	memset(bt, 0, sizeof(*bt));
	bt->seq = seq + 1;
	bt->series = s;
	bt->pair = pair;
	bt->arm = arm;
	bt->dir = xasprintf("boots/%04u-%s", bt->seq,
			    b->k[arm == 'a' ? se->ref : se->k].label);
	bt->end = BOOT_RUNNING;
	bt->value = bt->wall_s = NAN;
	return bt;
}

/* How boot BT ended, from the command's STATUS and its result. */
static int boot_end(struct bisect *b, struct bisect_run *run, struct boot *bt,
		    int status, int stopped)
{
	if (stopped) {
		bt->end = BOOT_PARTIAL;
		free(bt->reason);
		bt->reason = xasprintf("stopped by signal %d", stopped);
		return stopped;
	}
	boot_load(b, run, bt);
	if (status == 0 && !isnan(bt->value)) {
		bt->end = BOOT_DONE;
		return 0;
	}
	bt->value = NAN;
	if (status == EXIT_USAGE || status == EXIT_UNSUPPORTED) {
		/* Not the kernel's fault: the bisection stops, resumable. */
		bt->end = BOOT_PARTIAL;
		free(bt->reason);
		bt->reason = xasprintf("the boot command exited %d", status);
		return -status;
	}
	bt->end = BOOT_FAILED;
	if (status) {
		char *r = xasprintf("exit %d: %s", status,
				    bt->reason ? bt->reason : "no result");

		free(bt->reason);
		bt->reason = r;
	}
	return 0;
}

int boot_make(struct bisect *b, struct bisect_run *run, size_t s, unsigned pair,
	      char arm, const struct run_info *ri)
{
	struct boot *bt = boot_new(b, s, pair, arm);
	const struct series *se = &b->series[s];
	const struct kernel *k = &b->k[arm == 'a' ? se->ref : se->k];
	char *aside = xasprintf("%s/tmp/%04u", run->dir, bt->seq);
	char *log = xasprintf("tmp/%04u.log", bt->seq);
	struct args a = { 0, NULL };
	char *image, *why;
	uint64_t t0;
	int fd, status, stopped = 0, ret;

	ret = state_write(b, run, false,
			  run->wall_before_s +
				  (double)(mono_ns() - run->start_ns) / 1e9,
			  ri);
	if (ret < 0)
		die_err(EXIT_RUN_FAILED, -ret, "cannot write '%s/bisect.json'",
			run->dir);
	if ((mkdirat(run->dirfd, "tmp", 0755) && errno != EEXIST) ||
	    (mkdirat(run->dirfd, "boots", 0755) && errno != EEXIST) ||
	    mkdir(aside, 0755))
		die_errno(EXIT_RUN_FAILED, "cannot make '%s'", aside);
	fd = openat(run->dirfd, log,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		die_errno(EXIT_RUN_FAILED, "cannot create '%s/%s'", run->dir,
			  log);
	image = run->git_tree ? git_image(run, k) : xstrdup(k->kernel);
	why = run->git_tree ? git_build(run, k) : NULL;
	if (why) {
		/* A commit that does not build: a failed boot, no result. */
		bt->end = BOOT_FAILED;
		bt->reason = why;
		bring_in(run, bt, k->label);
		free(image);
		free(aside);
		free(log);
		close(fd);
		return 0;
	}
	boot_argv(b, run, bt, k, image, aside, &a);
	t0 = mono_ns();
	status = run_boot(b, bt, k, image, aside, fd, a.v,
			  run->boot_command != NULL, &stopped);
	free(image);
	bt = &b->boots[b->n_boots - 1];
	bt->wall_s = (double)(mono_ns() - t0) / 1e9;
	if (close(fd))
		warn_errno("cannot write '%s/%s'", run->dir, log);
	if (status < 0)
		die_err(EXIT_RUN_FAILED, -status, "cannot run the boot");
	bring_in(run, bt, k->label);
	ret = boot_end(b, run, bt, status, stopped);
	args_free(&a);
	free(aside);
	free(log);
	return ret;
}

void boot_recover(struct bisect *b, struct bisect_run *run)
{
	struct stat st;
	size_t i, j;

	for (i = j = 0; i < b->n_boots; i++) {
		struct boot *bt = &b->boots[i];
		const struct series *s = &b->series[bt->series];
		const char *label = b->k[bt->arm == 'a' ? s->ref : s->k].label;
		char *aside = xasprintf("tmp/%04u", bt->seq);
		bool in =
			!fstatat(run->dirfd, bt->dir, &st, AT_SYMLINK_NOFOLLOW);
		/* Made just before the boot command started. */
		bool away =
			!fstatat(run->dirfd, aside, &st, AT_SYMLINK_NOFOLLOW);

		free(aside);
		if (bt->end == BOOT_RUNNING && !in && !away) {
			/* Killed before the boot started: forgotten. */
			free(bt->dir);
			free(bt->reason);
			continue;
		}
		if (bt->end == BOOT_RUNNING && in) {
			/* Killed after the rename: done if it is whole. */
			boot_load(b, run, bt);
			bt->end = isnan(bt->value) ? BOOT_PARTIAL : BOOT_DONE;
		} else if (bt->end == BOOT_RUNNING) {
			bring_in(run, bt, label);
			bt->end = BOOT_PARTIAL;
			free(bt->reason);
			bt->reason = xstrdup("latency-bisect was killed during "
					     "this boot");
		} else if (bt->end == BOOT_DONE) {
			boot_load(b, run, bt);
			if (isnan(bt->value)) {
				char *e = text_escape(bt->dir);

				die(EXIT_USAGE,
				    "%s/bisect.json: boot '%s' is done but its "
				    "result cannot be read",
				    run->dir, e);
			}
		}
		b->boots[j++] = *bt;
	}
	b->n_boots = j;
}
