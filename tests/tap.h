/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A tiny TAP producer for the C unit tests (in the spirit of git's
 * t/unit-tests/test-lib.h): ok(), is_int(), is_u64(), is_str(), is_double(),
 * skip_all(), done_testing().  Header-only so each test is one .c file.
 */
#ifndef LATENCY_TESTS_TAP_H
#define LATENCY_TESTS_TAP_H

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int tap_run, tap_failed;

static inline __attribute__((format(printf, 2, 0))) bool
tap_result(bool pass, const char *fmt, va_list ap)
{
	tap_run++;
	if (!pass)
		tap_failed++;
	printf("%sok %d - ", pass ? "" : "not ", tap_run);
	vprintf(fmt, ap);
	putchar('\n');
	return pass;
}

static inline __attribute__((format(printf, 2, 3))) bool
ok(bool pass, const char *fmt, ...)
{
	va_list ap;
	bool r;

	va_start(ap, fmt);
	r = tap_result(pass, fmt, ap);
	va_end(ap);
	return r;
}

#define TAP_CHECK(pass, fmt_got_want, ...)                                     \
	do {                                                                   \
		if (!(pass))                                                   \
			printf("# " fmt_got_want "\n", __VA_ARGS__);           \
	} while (0)

#define is_int(got, want, ...)                                                 \
	do {                                                                   \
		long long g_ = (long long)(got), w_ = (long long)(want);       \
		if (!ok(g_ == w_, __VA_ARGS__))                                \
			printf("#   got %lld, want %lld (%s:%d)\n", g_, w_,    \
			       __FILE__, __LINE__);                            \
	} while (0)

#define is_u64(got, want, ...)                                                 \
	do {                                                                   \
		uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want);          \
		if (!ok(g_ == w_, __VA_ARGS__))                                \
			printf("#   got %" PRIu64 ", want %" PRIu64            \
			       " (%s:%d)\n",                                   \
			       g_, w_, __FILE__, __LINE__);                    \
	} while (0)

#define is_str(got, want, ...)                                                 \
	do {                                                                   \
		const char *g_ = (got), *w_ = (want);                          \
		if (!ok(g_ && w_ && !strcmp(g_, w_), __VA_ARGS__))             \
			printf("#   got '%s', want '%s' (%s:%d)\n",            \
			       g_ ? g_ : "(null)", w_ ? w_ : "(null)",         \
			       __FILE__, __LINE__);                            \
	} while (0)

/* |got - want| <= tol */
#define is_double(got, want, tol, ...)                                         \
	do {                                                                   \
		double g_ = (got), w_ = (want);                                \
		if (!ok(fabs(g_ - w_) <= (tol), __VA_ARGS__))                  \
			printf("#   got %.12g, want %.12g (%s:%d)\n", g_, w_,  \
			       __FILE__, __LINE__);                            \
	} while (0)

/*
 * Run FN(ARG) in a child process with its stderr captured in ERR (LEN
 * bytes, NUL-terminated): for code that exits or writes diagnostics.
 * Returns the child's exit status, or -1 when it was killed by a signal
 * or could not be started.
 */
static inline int tap_child(void (*fn)(const void *), const void *arg,
			    char *err, size_t len)
{
	int fds[2], status;
	size_t got = 0;
	pid_t pid;

	if (pipe(fds))
		return -1;
	fflush(stdout); /* or the child's exit flushes our output twice */
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		fn(arg);
		_exit(0);
	}
	close(fds[1]);
	while (got < len - 1) {
		ssize_t n = read(fds[0], err + got, len - 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	err[got] = '\0';
	close(fds[0]);
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static inline void skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
	exit(0);
}

static inline int done_testing(void)
{
	printf("1..%d\n", tap_run);
	return tap_failed ? 1 : 0;
}

#endif
