/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Error reporting and the suite's one exit-status table.  Messages look like
 * "<prog>: cannot open '/mnt/x': No such file or directory".  Only main() and
 * option parsing may call the die helpers; library code returns -errno.
 */
#ifndef LATENCY_ERR_H
#define LATENCY_ERR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdnoreturn.h>
#include <sys/types.h>

/* Exit statuses shared by every program (documented in each man page). */
enum {
	EXIT_OK = 0,	     /* success */
	EXIT_RUN_FAILED = 1, /* IO/syscall error, mismatch, output error */
	EXIT_USAGE = 2,	     /* bad command line */
	EXIT_UNSUPPORTED =
		3, /* kernel feature, privilege or resource missing */
};
/* A run stopped by signal SIGNO exits with this status. */
#define EXIT_SIGNAL(signo) (128 + (signo))

#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))

/* Set the name used in messages to the basename of ARGV0. */
void set_progname(const char *argv0);
/* The name set by set_progname(), or "latency-tests" before it. */
const char *progname(void);

/*
 * Print "<prog>: <message>" to stderr, in one write: a plain message (a
 * status line, what -v tells), neither a warning nor an error.
 */
void inform(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* Print "<prog>: <message>" to stderr and exit with STATUS. */
noreturn void die(int status, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* As die(), appending ": strerror(errno)"; errno is saved first. */
noreturn void die_errno(int status, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* As die_errno() for an explicit error number (e.g. -ret of a lib call). */
noreturn void die_err(int status, int errnum, const char *fmt, ...)
	PRINTF_LIKE(3, 4);
/* Print "<prog>: warning: <message>" (and strerror for the _errno forms). */
void warn(const char *fmt, ...) PRINTF_LIKE(1, 2);
void warn_errno(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* As warn_errno() for an explicit error number (none when ERRNUM is 0). */
void warn_err(int errnum, const char *fmt, ...) PRINTF_LIKE(2, 3);
/*
 * Print as die() and die_errno() do, and return STATUS instead of exiting:
 * for a module whose caller (main) decides to stop, as in
 * "return error_ret_errno(EXIT_RUN_FAILED, "cannot open '%s'", path);".
 * error_ret_err() takes the error number (0: none).  errno is left alone.
 */
int error_ret(int status, const char *fmt, ...) PRINTF_LIKE(2, 3);
int error_ret_errno(int status, const char *fmt, ...) PRINTF_LIKE(2, 3);
int error_ret_err(int status, int errnum, const char *fmt, ...)
	PRINTF_LIKE(3, 4);
/* Print "<prog>: <message>: strerror(errno)" and return -1. */
int error_errno(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* As error_errno() for an explicit error number; returns -1. */
int error_err(int errnum, const char *fmt, ...) PRINTF_LIKE(2, 3);

/*
 * Format "<message>: strerror(ERRNUM)", or only the message when ERRNUM is 0,
 * into BUF of LEN bytes (cut to fit, always terminated): the text the helpers
 * above print after "<prog>: ", for a message kept to be reported later (a
 * worker's error, a note in a result).  Returns BUF.
 */
char *format_err(char *buf, size_t len, int errnum, const char *fmt, ...)
	PRINTF_LIKE(4, 5);
char *vformat_err(char *buf, size_t len, int errnum, const char *fmt,
		  va_list ap) PRINTF_LIKE(4, 0);

/*
 * Write all LEN bytes of BUF to FD, retrying short writes and EINTR.
 * Returns 0 or -errno.
 */
int write_all(int fd, const void *buf, size_t len);
/*
 * Read up to LEN bytes, retrying EINTR and short reads until LEN bytes or end
 * of file.  Returns the number of bytes read (less than LEN only at EOF) or
 * -errno.
 */
ssize_t read_full(int fd, void *buf, size_t len);
/*
 * Read the whole small file PATH (a /proc or /sys file, say) into BUF of LEN
 * bytes, NUL-terminated.  Returns its length, -EFBIG when it does not fit
 * (LEN - 1 bytes at most: a cut file would end in a cut number) or -errno.
 */
ssize_t read_small_file(const char *path, char *buf, size_t len);
/*
 * Write the string S to the existing file PATH (a /proc, /sys or tracefs
 * knob, say), truncating it, in one write where the kernel takes it so;
 * never creates the file.  Returns 0 or -errno (of the open, the write or
 * the close: a knob may refuse a value only when closed).
 */
int write_small_file(const char *path, const char *s);

/*
 * Flush and close stdout and stderr, exiting with EXIT_RUN_FAILED and a
 * message if anything could not be written (coreutils' close_stdout).  Meant
 * for atexit(); main() registers it first thing.
 */
void close_stdout(void);

#endif
