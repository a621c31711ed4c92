// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Git mode: the series is the first-parent history of a kernel tree from
 * the good revision to the bad one, each commit built on demand in a
 * worktree of the bisection's own (never the user's checkout) by --build,
 * its image kept in builds/; and git's own bisect state, in that
 * worktree, is written from the decisions (git bisect start --no-checkout
 * BAD GOOD, then good, bad or skip for each tested commit; an unknown or
 * skipped commit is a skip, git's word for "cannot be judged"), so that
 * git bisect log and git bisect replay work on what was decided.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/output.h"
#include "lib/xalloc.h"
#include "bisect/bisect.h"

/* git's output read at most (a rev-list of a long history). */
#define GIT_MAX_OUTPUT (64 << 20)

/*
 * Run ARGV in directory DIR (NULL: ours) with its standard output into
 * *OUT (a new string, when OUT is not NULL) and its standard error into
 * the file descriptor ERRFD (-1: ours); returns its exit status, or -1.
 */
static int run_capture(const char *dir, char *const argv[], char **out,
		       int errfd)
{
	size_t len = 0, cap = 4096;
	char *buf = xmalloc(cap);
	int fds[2], status;
	ssize_t r;
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if ((dir && chdir(dir)) || dup2(fds[1], STDOUT_FILENO) < 0 ||
		    (errfd >= 0 && dup2(errfd, STDERR_FILENO) < 0))
			_exit(127);
		close(fds[0]);
		close(fds[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	while ((r = read(fds[0], buf + len, cap - len - 1)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		len += (size_t)r;
		if (len + 1 == cap && cap < GIT_MAX_OUTPUT)
			buf = xrealloc(buf, cap *= 2);
		else if (len + 1 == cap)
			break;
	}
	close(fds[0]);
	buf[len] = '\0';
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (out)
		*out = buf;
	else
		free(buf);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The full hash of REV in TREE, or die naming it (exit 2). */
static char *rev_parse(const char *tree, const char *rev)
{
	char *spec = xasprintf("%s^{commit}", rev), *out;
	char *argv[] = { "git",	     "-C",	(char *)tree, "rev-parse",
			 "--verify", "--quiet", spec,	      NULL };
	int ret = run_capture(NULL, argv, &out, -1);

	free(spec);
	out[strcspn(out, "\n")] = '\0';
	if (ret || strlen(out) != 40 || strspn(out, "0123456789abcdef") != 40) {
		char *t = text_escape(tree), *r = text_escape(rev);

		die(EXIT_USAGE, "'%s' is not a commit of the git tree '%s'", r,
		    t);
	}
	return out;
}

static void add_commit(struct bisect *b, const char *hash)
{
	struct kernel *k;

	b->k = xreallocarray(b->k, b->n + 1, sizeof(*b->k));
	k = &b->k[b->n++];
	memset(k, 0, sizeof(*k));
	k->label = xasprintf("%.12s", hash);
	k->kernel = xstrdup(hash);
	k->cmdline = xstrdup("");
}

void git_series(struct bisect *b, const char *tree, const char *good,
		const char *bad)
{
	char *g = rev_parse(tree, good), *x = rev_parse(tree, bad), *out, *s;
	char *range = xasprintf("%s..%s", g, x);
	char *argv[] = {
		"git",	     "-C",  (char *)tree, "rev-list", "--first-parent",
		"--reverse", range, NULL
	};

	if (run_capture(NULL, argv, &out, -1))
		die(EXIT_USAGE, "cannot list the commits %s", range);
	add_commit(b, g);
	for (s = strtok(out, "\n"); s; s = strtok(NULL, "\n"))
		add_commit(b, s);
	if (b->n < 2)
		die(EXIT_USAGE,
		    "no commit from '%s' to '%s' on the first-parent history: "
		    "the bad revision must descend from the good one",
		    good, bad);
	b->o.good = 0;
	b->o.bad = b->n - 1;
	free(out);
	free(range);
	free(g);
	free(x);
}

void git_worktree(const struct bisect_run *run)
{
	/* git -C TREE takes a relative path from TREE: ours is absolute. */
	char *abs = realpath(run->dir, NULL);
	char *wt = abs ? xasprintf("%s/worktree", abs) : NULL;
	char *argv[] = { "git",	 "-C",	     run->git_tree, "worktree",
			 "add",	 "--detach", "--quiet",	    wt,
			 "HEAD", NULL };
	struct stat st;

	if (!wt)
		die_errno(EXIT_RUN_FAILED, "cannot resolve '%s'", run->dir);
	argv[7] = wt;
	if (stat(wt, &st) && run_capture(NULL, argv, NULL, -1))
		die(EXIT_RUN_FAILED, "cannot add the worktree '%s'", wt);
	free(wt);
	free(abs);
}

/* builds/LABEL.bzImage of kernel K, relative to the bisection. */
char *git_image(const struct bisect_run *run, const struct kernel *k)
{
	return xasprintf("%s/builds/%s.bzImage", run->dir, k->label);
}

/* Copy FROM to TO through a temporary: TO appears whole or not at all. */
static int copy_file(const char *from, const char *to)
{
	char *tmp = xasprintf("%s.tmp", to), buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), o, ret = 0;
	ssize_t r;

	if (in < 0) {
		free(tmp);
		return -errno;
	}
	o = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (o < 0)
		ret = -errno;
	while (!ret && (r = read(in, buf, sizeof(buf))) != 0)
		ret = r < 0 ? -errno : write_all(o, buf, (size_t)r);
	if (o >= 0 && close(o) && !ret)
		ret = -errno;
	close(in);
	if (!ret && rename(tmp, to))
		ret = -errno;
	if (ret)
		unlink(tmp);
	free(tmp);
	return ret;
}

char *git_build(const struct bisect_run *run, const struct kernel *k)
{
	char *wt = xasprintf("%s/worktree", run->dir);
	char *img = git_image(run, k), *log, *out = NULL, *built, *why = NULL;
	char *co[] = {
		"git", "checkout", "--quiet", "--detach", k->kernel, NULL
	};
	char *sh[] = { "/bin/sh", "-c", run->build_command, NULL };
	struct stat st;
	int fd, ret;

	if (!stat(img, &st)) {
		free(wt);
		free(img);
		return NULL;
	}
	if (mkdirat(run->dirfd, "builds", 0755) && errno != EEXIST)
		die_errno(EXIT_RUN_FAILED, "cannot make '%s/builds'", run->dir);
	log = xasprintf("%s/builds/%s.log", run->dir, k->label);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		die_errno(EXIT_RUN_FAILED, "cannot create '%s'", log);
	if (setenv("LATENCY_BISECT_COMMIT", k->kernel, 1))
		die_errno(EXIT_RUN_FAILED, "cannot set the environment");
	if (run_capture(wt, co, NULL, fd)) {
		why = xasprintf("cannot check %s out", k->label);
	} else if ((ret = run_capture(wt, sh, &out, fd))) {
		why = xasprintf("the build failed (exit %d, %s)", ret, log);
	} else {
		/* The image: the last line of its output, else Kbuild's. */
		char *nl = out + strlen(out), *last;

		while (nl > out && nl[-1] == '\n')
			*--nl = '\0';
		last = strrchr(out, '\n');
		last = last ? last + 1 : out;
		built = *last ? (*last == '/' ? xstrdup(last)
					      : xasprintf("%s/%s", wt, last))
			      : xasprintf("%s/arch/x86/boot/bzImage", wt);
		if ((ret = copy_file(built, img)))
			why = xasprintf("the build made no image '%s' (%s)",
					built, strerror(-ret));
		free(built);
	}
	if (close(fd))
		warn_errno("cannot write '%s'", log);
	free(out);
	free(log);
	free(wt);
	free(img);
	return why;
}

/* Run git ARGS... in the worktree, quietly; its status. */
static int wt_git(const struct bisect_run *run, char **argv)
{
	char *wt = xasprintf("%s/worktree", run->dir);
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	int ret = run_capture(wt, argv, NULL, null);

	if (null >= 0)
		close(null);
	free(wt);
	return ret;
}

void git_revert(struct bisect *b, const struct bisect_run *run)
{
	const struct kernel *c = &b->k[b->culprit], *x = &b->k[b->o.bad];
	char *co[] = {
		"git", "checkout", "--quiet", "--detach", x->kernel, NULL
	};
	char *rv[] = { "git",
		       "-c",
		       "user.name=latency-bisect",
		       "-c",
		       "user.email=latency-bisect@localhost",
		       "revert",
		       "--no-edit",
		       c->kernel,
		       NULL };
	char *ab[] = { "git", "revert", "--abort", NULL };
	char *rp[] = { "git", "rev-parse", "HEAD", NULL };
	char *wt = xasprintf("%s/worktree", run->dir), *out = NULL;
	char *label = xasprintf("revert-%s", c->label);

	if (wt_git(run, co) || wt_git(run, rv)) {
		(void)wt_git(run, ab); /* nothing to abort when none began */
		b->revert_why = xasprintf("the revert of %s does not apply "
					  "cleanly on %s: not tried",
					  c->label, x->label);
	} else if (run_capture(wt, rp, &out, -1) || strlen(out) < 40) {
		b->revert_why = xstrdup("the revert made no commit");
	} else {
		out[40] = '\0';
		add_commit(b, out);
		free(b->k[b->n - 1].label);
		b->k[b->n - 1].label = label;
		b->revert = (long)(b->n - 1);
		label = NULL;
	}
	free(out);
	free(label);
	free(wt);
}

int git_state(const struct bisect *b, const struct bisect_run *run)
{
	char *reset[] = { "git", "bisect", "reset", "HEAD", NULL };
	char *start[] = { "git",
			  "bisect",
			  "start",
			  "--no-checkout",
			  b->k[b->o.bad].kernel,
			  b->k[b->o.good].kernel,
			  NULL };
	char *mark[] = { "git", "bisect", NULL, NULL, NULL };
	size_t i;

	(void)wt_git(run, reset); /* none yet: nothing to reset */
	if (wt_git(run, start))
		return -1;
	for (i = b->o.good + 1; i < b->o.bad; i++) {
		enum kstate s = b->k[i].state;

		if (s == KS_UNTESTED)
			continue;
		mark[2] = s == KS_GOOD ? "good" : s == KS_BAD ? "bad" : "skip";
		mark[3] = b->k[i].kernel;
		if (wt_git(run, mark))
			return -1;
	}
	return 0;
}
