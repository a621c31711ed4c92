// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rr-junk: a hostile peer for ringbench's rr server, for the tests.
 * "rr-junk [--drip=MS] PORT TEXT" connects to 127.0.0.1:PORT, sends TEXT
 * (C escapes \n and \\ understood; with --drip one byte every MS
 * milliseconds, as a slow-loris peer does, until the server closes), then
 * prints everything the server sends until it closes the connection, and
 * exits 0 when it did within 10 s (1 when not).
 */
#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/parse.h"

static size_t unescape(const char *s, char *out)
{
	size_t n = 0;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] == 'n') {
			out[n++] = '\n';
			s++;
		} else if (s[0] == '\\' && s[1] == '\\') {
			out[n++] = '\\';
			s++;
		} else {
			out[n++] = *s;
		}
	}
	return n;
}

/* Send LEN bytes of MSG one at a time, MS apart, while the peer takes them. */
static void drip(int fd, const char *msg, size_t len, uint64_t ms)
{
	struct timespec ts = { (time_t)(ms / 1000),
			       (long)(ms % 1000) * 1000000L };
	size_t i;

	for (i = 0; i < len; i++) {
		if (write(fd, msg + i, 1) != 1)
			return; /* closed on us: what it said is read next */
		(void)nanosleep(&ts, NULL);
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct timeval tv = { .tv_sec = 10 };
	char *msg, buf[256];
	uint64_t port, ms = 0;
	size_t len;
	ssize_t n;
	int fd;

	set_progname(argv[0]);
	if (argc == 4 && !strncmp(argv[1], "--drip=", 7) &&
	    !parse_u64(argv[1] + 7, &ms) && ms) {
		argv++;
		argc--;
	}
	if (argc != 3 || parse_u64(argv[1], &port) || port > 65535)
		die(EXIT_USAGE, "usage: rr-junk [--drip=MS] PORT TEXT");
	/* A write to a peer that closed fails with EPIPE, not a signal. */
	signal(SIGPIPE, SIG_IGN);
	msg = malloc(strlen(argv[2]) + 1);
	if (!msg)
		die(EXIT_RUN_FAILED, "out of memory");
	len = unescape(argv[2], msg);
	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sin, sizeof(sin)))
		die_errno(EXIT_RUN_FAILED, "cannot connect to port %s",
			  argv[1]);
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		die_errno(EXIT_RUN_FAILED, "cannot set a timeout");
	if (ms)
		drip(fd, msg, len, ms);
	else if (write_all(fd, msg, len))
		die_errno(EXIT_RUN_FAILED, "cannot send");
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	/* A reset after the server's last words ends it as well. */
	if (n < 0 && errno == ECONNRESET)
		n = 0;
	free(msg);
	if (n < 0)
		die_errno(EXIT_RUN_FAILED, "the server did not close");
	close(fd);
	return fclose(stdout) ? EXIT_RUN_FAILED : 0;
}
