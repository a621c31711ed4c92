// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Error messages in git's and err(3)'s shape, the exit-status table, and the
 * careful write helpers that make "no silent failures" cheap to follow.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"

static const char *prog_name = "latency-tests";

void set_progname(const char *argv0)
{
	const char *slash;

	if (!argv0 || !*argv0)
		return;
	slash = strrchr(argv0, '/');
	prog_name = slash ? slash + 1 : argv0;
}

const char *progname(void)
{
	return prog_name;
}

char *vformat_err(char *buf, size_t len, int errnum, const char *fmt,
		  va_list ap)
{
	int n;

	if (!len)
		return buf;
	n = vsnprintf(buf, len, fmt, ap);
	if (n < 0) {
		buf[0] = '\0';
		n = 0;
	}
	if (errnum && (size_t)n < len)
		snprintf(buf + n, len - n, ": %s", strerror(errnum));
	return buf;
}

char *format_err(char *buf, size_t len, int errnum, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vformat_err(buf, len, errnum, fmt, ap);
	va_end(ap);
	return buf;
}

/*
 * Format the whole message first so it reaches stderr in one write; room
 * for a whole path (PATH_MAX) and the words around it.
 */
static PRINTF_LIKE(3, 0) void report(const char *prefix, int errnum,
				     const char *fmt, va_list ap)
{
	char buf[4096 + 512];
	int n;

	n = snprintf(buf, sizeof(buf), "%s: %s", prog_name, prefix);
	if (n < 0 || (size_t)n >= sizeof(buf) - 1)
		n = 0;
	/* One byte is kept for the newline. */
	vformat_err(buf + n, sizeof(buf) - 1 - n, errnum, fmt, ap);
	n += strlen(buf + n);
	buf[n++] = '\n';
	/* Nothing useful can be done if stderr itself fails. */
	(void)write_all(STDERR_FILENO, buf, n);
}

/*
 * The body of every helper below: the message reported with PREFIX and
 * ERRNUM (which may name errno: it is read before anything runs), errno
 * left as it was.
 */
#define REPORT(prefix, errnum, fmt)                                            \
	do {                                                                   \
		int saved_ = errno, num_ = (errnum);                           \
		va_list ap_;                                                   \
                                                                               \
		va_start(ap_, fmt);                                            \
		report(prefix, num_, fmt, ap_);                                \
		va_end(ap_);                                                   \
		errno = saved_;                                                \
	} while (0)

void inform(const char *fmt, ...)
{
	REPORT("", 0, fmt);
}

void die(int status, const char *fmt, ...)
{
	REPORT("", 0, fmt);
	exit(status);
}

void die_errno(int status, const char *fmt, ...)
{
	REPORT("", errno, fmt);
	exit(status);
}

void die_err(int status, int errnum, const char *fmt, ...)
{
	REPORT("", errnum, fmt);
	exit(status);
}

void warn(const char *fmt, ...)
{
	REPORT("warning: ", 0, fmt);
}

void warn_errno(const char *fmt, ...)
{
	REPORT("warning: ", errno, fmt);
}

void warn_err(int errnum, const char *fmt, ...)
{
	REPORT("warning: ", errnum, fmt);
}

int error_ret(int status, const char *fmt, ...)
{
	REPORT("", 0, fmt);
	return status;
}

int error_ret_errno(int status, const char *fmt, ...)
{
	REPORT("", errno, fmt);
	return status;
}

int error_ret_err(int status, int errnum, const char *fmt, ...)
{
	REPORT("", errnum, fmt);
	return status;
}

int error_errno(const char *fmt, ...)
{
	REPORT("", errno, fmt);
	return -1;
}

int error_err(int errnum, const char *fmt, ...)
{
	REPORT("", errnum, fmt);
	return -1;
}

int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		p += n;
		len -= n;
	}
	return 0;
}

ssize_t read_full(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, p + got, len - got);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		got += n;
	}
	return got;
}

ssize_t read_small_file(const char *path, char *buf, size_t len)
{
	ssize_t n, more;
	char extra;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read_full(fd, buf, len - 1);
	/* One byte more tells a file that fits from one that does not. */
	more = n == (ssize_t)len - 1 ? read_full(fd, &extra, 1) : 0;
	(void)close(fd); /* read-only: nothing to lose */
	if (n < 0)
		return n;
	if (more)
		return more < 0 ? more : -EFBIG;
	buf[n] = '\0';
	return n;
}

int write_small_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC), r;

	if (fd < 0)
		return -errno;
	r = write_all(fd, s, strlen(s));
	if (close(fd) && !r)
		r = -errno;
	return r;
}

void close_stdout(void)
{
	int failed = 0, errnum = 0;

	if (fflush(stdout) != 0 || ferror(stdout)) {
		failed = 1;
		errnum = errno;
	}
	if (fclose(stdout) != 0 && !failed) {
		failed = 1;
		errnum = errno;
	}
	if (failed) {
		char msg[256];

		snprintf(msg, sizeof(msg), "%s: write error: %s\n", prog_name,
			 strerror(errnum ? errnum : EIO));
		(void)write_all(STDERR_FILENO, msg, strlen(msg));
		_exit(EXIT_RUN_FAILED);
	}
	/* stderr is unbuffered; a failed close cannot be reported anywhere. */
	(void)fclose(stderr);
}
