// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/err: message format and exit status of die helpers
 * (run in a child), careful read/write, close_stdout on a full device.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/err.h"
#include "tests/tap.h"

enum action {
	DIE,
	DIE_ERRNO,
	DIE_ERR,
	WARN,
	WARN_ERR,
	INFORM,
	ERROR_RET,
	ERROR_ERRNO,
	ERROR_ERR,
	FULL_STDOUT,
};

/* The child's part: do ACTION, as a program would. */
static void run_action(const void *arg)
{
	enum action a = *(const enum action *)arg;

	set_progname("/usr/bin/seqbench");
	switch (a) {
	case DIE:
		die(EXIT_USAGE, "bad thing '%s'", "x");
	case DIE_ERRNO:
		errno = ENOENT;
		die_errno(EXIT_RUN_FAILED, "cannot open '%s'", "/mnt/x/f0");
	case DIE_ERR:
		die_err(EXIT_UNSUPPORTED, EPERM, "cannot drop caches");
	case WARN:
		errno = ENOSPC;
		warn_errno("short write to '%s'", "f");
		warn("plain %d", 1);
		_exit(0);
	case WARN_ERR:
		errno = 0;
		warn_err(ENOENT, "cannot read '%s'", "g");
		warn_err(0, "no error number");
		_exit(errno == 0 ? 0 : 4);
	case ERROR_RET: {
		int s1, s2, s3;

		errno = ENOENT;
		s1 = error_ret_errno(EXIT_RUN_FAILED, "cannot open '%s'", "x");
		s2 = error_ret(EXIT_UNSUPPORTED, "no %s here", "zram");
		s3 = error_ret_err(EXIT_USAGE, 0, "plain");
		_exit(s1 == 1 && s2 == 3 && s3 == 2 && errno == ENOENT ? 0 : 4);
	}
	case INFORM:
		errno = EIO;
		inform("serving '%s' on %s", "dir", "127.0.0.1:1");
		inform("%s", "");
		_exit(errno == EIO ? 0 : 4);
	case ERROR_ERRNO:
		errno = EIO;
		_exit(error_errno("read") == -1 ? 5 : 6);
	case ERROR_ERR:
		_exit(error_err(EPIPE, "cannot send to '%s'", "h") == -1 ? 5
									 : 6);
	case FULL_STDOUT: {
		int fd = open("/dev/full", O_WRONLY);

		if (fd < 0)
			_exit(77);
		dup2(fd, 1);
		fputs("hello\n", stdout);
		close_stdout();
		_exit(0);
	}
	}
	_exit(99);
}

/* Run ACTION in a child; return its exit status, stderr in OUT. */
static int child(enum action a, char *out, size_t outlen)
{
	return tap_child(run_action, &a, out, outlen);
}

int main(void)
{
	char out[1024], big[100000];
	int fds[2], st;

	is_int(child(DIE, out, sizeof(out)), 2, "die exits with its status");
	is_str(out, "seqbench: bad thing 'x'\n", "die message, basename");
	is_int(child(DIE_ERRNO, out, sizeof(out)), 1, "die_errno status");
	is_str(out,
	       "seqbench: cannot open '/mnt/x/f0': No such file or directory\n",
	       "die_errno appends strerror");
	is_int(child(DIE_ERR, out, sizeof(out)), 3, "die_err status");
	is_str(out, "seqbench: cannot drop caches: Operation not permitted\n",
	       "die_err uses the given errno");
	is_int(child(WARN, out, sizeof(out)), 0, "warn does not exit");
	is_str(out,
	       "seqbench: warning: short write to 'f': No space left on "
	       "device\n"
	       "seqbench: warning: plain 1\n",
	       "warning format");
	is_int(child(WARN_ERR, out, sizeof(out)), 0,
	       "warn_err does not exit nor set errno");
	is_str(out,
	       "seqbench: warning: cannot read 'g': No such file or "
	       "directory\n"
	       "seqbench: warning: no error number\n",
	       "warn_err uses the given errno, none for 0");
	is_int(child(ERROR_RET, out, sizeof(out)), 0,
	       "error_ret* return their status, errno kept, no exit");
	is_str(out,
	       "seqbench: cannot open 'x': No such file or directory\n"
	       "seqbench: no zram here\nseqbench: plain\n",
	       "error_ret* messages as die*'s");
	is_int(child(INFORM, out, sizeof(out)), 0,
	       "inform does not exit nor touch errno");
	is_str(out, "seqbench: serving 'dir' on 127.0.0.1:1\nseqbench: \n",
	       "inform: the name, the message and nothing else");
	is_int(child(ERROR_ERR, out, sizeof(out)), 5, "error_err returns -1");
	is_str(out, "seqbench: cannot send to 'h': Broken pipe\n",
	       "error_err message");
	is_int(child(ERROR_ERRNO, out, sizeof(out)), 5,
	       "error_errno returns -1");
	is_str(out, "seqbench: read: Input/output error\n",
	       "error_errno message");
	st = child(FULL_STDOUT, out, sizeof(out));
	if (st == 77) {
		ok(1, "# SKIP no /dev/full");
		ok(1, "# SKIP no /dev/full");
	} else {
		is_int(st, 1, "close_stdout on /dev/full exits 1");
		is_str(out, "seqbench: write error: No space left on device\n",
		       "close_stdout message");
	}

	/* format_err: the same text, kept; cut to fit and terminated. */
	{
		char msg[64], tiny[8];

		is_str(format_err(msg, sizeof(msg), EACCES, "cannot open '%s'",
				  "d"),
		       "cannot open 'd': Permission denied", "format_err");
		is_str(format_err(msg, sizeof(msg), 0, "plain %d", 2),
		       "plain 2", "format_err without an error number");
		is_str(format_err(tiny, sizeof(tiny), EACCES, "cannot %s",
				  "open"),
		       "cannot ", "format_err cuts to fit");
		is_str(format_err(tiny, sizeof(tiny), EACCES, "abc"), "abc: Pe",
		       "format_err cuts strerror to fit");
	}

	/* write_all/read_full move everything through a pipe. */
	if (pipe(fds))
		skip_all("pipe() failed");
	fflush(stdout);
	if (fork() == 0) {
		close(fds[0]);
		memset(big, 'z', sizeof(big));
		_exit(write_all(fds[1], big, sizeof(big)) ? 1 : 0);
	}
	close(fds[1]);
	memset(big, 0, sizeof(big));
	is_int(read_full(fds[0], big, sizeof(big)), (int)sizeof(big),
	       "read_full gets all 100000 bytes across pipe chunks");
	ok(big[0] == 'z' && big[sizeof(big) - 1] == 'z', "bytes intact");
	is_int(read_full(fds[0], big, 10), 0, "read_full at EOF returns 0");
	close(fds[0]);
	wait(&st);
	is_int(write_all(-1, "x", 1), -EBADF, "write_all returns -errno");

	/* read_small_file: whole, too big by one byte, missing. */
	{
		char path[] = "/tmp/test-err.XXXXXX", small[11];
		int fd = mkstemp(path);

		if (fd < 0 || write_all(fd, "0123456789", 10) || close(fd))
			skip_all("cannot make a temporary file");
		is_int(read_small_file(path, small, sizeof(small)), 10,
		       "read_small_file reads a file that fits");
		ok(!strcmp(small, "0123456789"), "NUL-terminated, intact");
		is_int(read_small_file(path, small, 10), -EFBIG,
		       "one byte too many is -EFBIG, not a cut file");
		is_int(write_small_file(path, "abc"), 0,
		       "write_small_file writes an existing file");
		is_int(read_small_file(path, small, sizeof(small)), 3,
		       "and truncates it first");
		ok(!strcmp(small, "abc"), "to exactly the string");
		unlink(path);
		is_int(read_small_file(path, small, sizeof(small)), -ENOENT,
		       "a missing file is -ENOENT");
		is_int(write_small_file(path, "abc"), -ENOENT,
		       "write_small_file never creates a file");
		is_int(write_small_file("/dev/full", "x"), -ENOSPC,
		       "a refused write is -errno");
	}
	return done_testing();
}
